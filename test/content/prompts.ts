/**
 * Prompts and schemas written the way other developers write them, for the content report. None of
 * them appears in the engine's tests: the report measures the writer on requests it was not tuned to.
 */

type Schema = Record<string, unknown>;

const str = { type: 'string' };
const int = (minimum?: number, maximum?: number) => ({
  type: 'integer',
  ...(minimum !== undefined ? { minimum } : {}),
  ...(maximum !== undefined ? { maximum } : {}),
});

export const SCHEMAS: Array<{ name: string; schema: Schema }> = [
  {
    name: 'weapon card',
    schema: {
      type: 'object',
      properties: {
        weapon_name: str,
        rarity: { type: 'string', enum: ['Common', 'Uncommon', 'Rare', 'Epic', 'Legendary'] },
        damage: { type: 'object', properties: { min: int(1), max: int(1) }, required: ['min', 'max'] },
        required_level: int(1, 100),
        lore: str,
      },
      required: ['weapon_name', 'rarity', 'damage', 'required_level', 'lore'],
      additionalProperties: false,
    },
  },
  {
    name: 'armour piece',
    schema: {
      type: 'object',
      properties: {
        name: str,
        slot: { type: 'string', enum: ['helm', 'chest', 'legs', 'feet', 'hands'] },
        armor_rating: int(0, 1000),
        stats: {
          type: 'object',
          properties: { strength: int(0), dexterity: int(0), intelligence: int(0) },
          required: ['strength', 'dexterity', 'intelligence'],
        },
        description: str,
      },
      required: ['name', 'slot', 'armor_rating', 'stats', 'description'],
    },
  },
  {
    name: 'loot table',
    schema: {
      type: 'object',
      properties: {
        drops: {
          type: 'array',
          minItems: 3,
          maxItems: 3,
          items: {
            type: 'object',
            properties: {
              id: { type: 'string', pattern: '^[a-z_]+$' },
              displayName: str,
              tier: int(1, 5),
              power: { type: 'number', minimum: 1, maximum: 100 },
              flavor: str,
            },
            required: ['id', 'displayName', 'tier', 'power', 'flavor'],
          },
        },
      },
      required: ['drops'],
    },
  },
  {
    name: 'nested rpg item',
    schema: {
      type: 'object',
      properties: {
        item: {
          type: 'object',
          properties: {
            name: str,
            category: { type: 'string', enum: ['Weapon', 'Armor', 'Accessory', 'Consumable'] },
            stats: {
              type: 'array',
              items: {
                type: 'object',
                properties: { stat: str, amount: int() },
                required: ['stat', 'amount'],
              },
            },
            effects: { type: 'array', items: str, maxItems: 3 },
            story: str,
          },
          required: ['name', 'category', 'stats', 'effects', 'story'],
        },
      },
      required: ['item'],
    },
  },
  {
    name: 'card game',
    schema: {
      type: 'object',
      properties: {
        title: str,
        cost: int(0, 10),
        attack: int(0, 20),
        health: int(1, 30),
        text: { type: 'string', maxLength: 160 },
      },
      required: ['title', 'cost', 'attack', 'health', 'text'],
    },
  },
  {
    name: 'minimal',
    schema: {
      type: 'object',
      properties: { name: str, description: str, power: { type: 'number' } },
      required: ['name', 'description', 'power'],
    },
  },
  {
    name: 'stat map',
    schema: {
      type: 'object',
      properties: {
        name: str,
        rarity: str,
        stats: { type: 'object', additionalProperties: { type: 'integer' } },
        description: str,
      },
      required: ['name', 'rarity', 'stats', 'description'],
    },
  },
  {
    name: 'shop item',
    schema: {
      type: 'object',
      properties: {
        name: str,
        quality: { type: 'string', enum: ['poor', 'common', 'fine', 'superior', 'masterwork'] },
        price: int(0),
        hp_bonus: int(0),
        mp_bonus: int(0),
        desc: str,
      },
      required: ['name', 'quality', 'price', 'hp_bonus', 'mp_bonus', 'desc'],
    },
  },
];

export interface Situation {
  location: string;
  enemy: string;
  theme?: string;
}

export const SITUATIONS: Situation[] = [
  { location: 'Ashfall Caldera', enemy: 'Magma Hound', theme: 'volcanic' },
  { location: 'Mirewood Hollow', enemy: 'Bog Hag', theme: 'swamp horror' },
  { location: 'Skyreach Spire', enemy: 'Storm Harpy' },
  { location: 'Old Mill', enemy: 'Bandit Captain', theme: 'low fantasy' },
  { location: 'Catacombs of Saint Ivo', enemy: 'Bone Priest' },
  { location: 'Glimmerdeep Mine', enemy: 'Crystal Golem', theme: 'underground' },
];

export const RARITIES = ['common', 'uncommon', 'rare', 'epic', 'legendary'] as const;
export const LEVELS = [1, 10, 25, 50] as const;

export type Form = 'json' | 'lines' | 'prose';

/** The user message of one request, in one of three forms, each phrased a few ways. */
export function userMessage(
  form: Form,
  s: Situation,
  rarity: string,
  level: number,
  variant: number,
): string {
  if (form === 'json') {
    const keys = [
      { location: s.location, enemy: s.enemy, theme: s.theme, rarity, player_level: level },
      { zone: s.location, boss: s.enemy, setting: s.theme, quality: rarity, characterLevel: level },
      { context: { area: s.location, killed: s.enemy, mood: s.theme }, request: { rarity, level } },
    ][variant % 3];
    return `Here is the drop context:\n${JSON.stringify(keys, null, variant % 2 ? 2 : 0)}`;
  }
  if (form === 'lines') {
    const lines = [
      [
        `Location: ${s.location}`,
        `Enemy: ${s.enemy}`,
        s.theme ? `Theme: ${s.theme}` : '',
        `Rarity: ${rarity}`,
        `Player level: ${level}`,
      ],
      [`zone = ${s.location}`, `monster = ${s.enemy}`, `rarity = ${rarity}`, `level = ${level}`],
      [`- area: ${s.location}`, `- defeated: ${s.enemy}`, `- quality: ${rarity}`, `- hero level: ${level}`],
    ][variant % 3] as string[];
    return lines.filter(Boolean).join('\n');
  }
  return [
    `The party (level ${level}) has just slain a ${s.enemy} in the ${s.location}. Roll one ${rarity} reward${s.theme ? ` that suits our ${s.theme} setting` : ''}.`,
    `Give me a ${rarity} item dropped by the ${s.enemy} somewhere in ${s.location}; my character is level ${level}.`,
    `I need loot: ${rarity} quality, for a level ${level} player who defeated a ${s.enemy} at ${s.location}.`,
  ][variant % 3] as string;
}

export const SYSTEM_PROMPTS = [
  'You are a loot generator for a fantasy RPG. Respond only with JSON.',
  'Generate game items. Follow the schema exactly.',
  'You design rewards for players. Be creative but balanced.',
];
