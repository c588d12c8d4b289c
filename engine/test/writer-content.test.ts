import {
  CombineVerdict,
  effectParamCeiling,
  FANTASY_EFFECTS,
  type GeneratedItem,
  GeneratedItemBatch,
  jsonSchemaOf,
} from '@lootsmith/protocol';
import { describe, expect, it } from 'vitest';
import { writeCompletion } from '../src/writer/index.ts';

const batchSchema = jsonSchemaOf(GeneratedItemBatch);
const verdictSchema = jsonSchemaOf(CombineVerdict);

function write(user: string, schema: Record<string, unknown>, seed: number, system = 'You write loot.') {
  const { content } = writeCompletion({
    messages: [
      { role: 'system', content: system },
      { role: 'user', content: user },
    ],
    response_format: { type: 'json_schema', json_schema: { schema } },
    seed,
  });
  return JSON.parse(content) as Record<string, unknown>;
}

function drop(context: string, item: string, seed: number): GeneratedItem {
  const batch = write(`Generate 1 item.\nContext: ${context}\nItem 1: ${item}`, batchSchema, seed);
  return GeneratedItemBatch.parse(batch).items[0] as GeneratedItem;
}

/** A create-item as the server asks it: materials, station, the player's words, one item line. */
function forge(request: string, type: string, seed: number, look?: Record<string, string>): GeneratedItem {
  const lines = [
    'Generate 1 item.',
    'Materials: 2 × "Iron Ore" (MATERIAL, "ore", "iron", none)',
    'Station: "Forge"',
    `Player request: ${JSON.stringify(request)}`,
    `Item 1: type: ${type}; rarity: COMMON; level: 3; stat budget: 12`,
    ...(look ? [`Look: ${JSON.stringify(look)}`] : []),
  ];
  return GeneratedItemBatch.parse(write(lines.join('\n'), batchSchema, seed)).items[0] as GeneratedItem;
}

function verdict(lines: string[]) {
  return CombineVerdict.parse(write(lines.join('\n'), verdictSchema, 1));
}

const textOf = (value: unknown) => JSON.stringify(value).toLowerCase();
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** A developer's own schema, with stats as plain fields. */
const gearSchema = {
  type: 'object',
  properties: {
    title: { type: 'string' },
    quality: { type: 'string', enum: ['common', 'uncommon', 'rare', 'epic', 'legendary'] },
    blurb: { type: 'string' },
    attack_power: { type: 'integer', minimum: 1, maximum: 500 },
    armor: { type: 'integer', minimum: 0 },
  },
  required: ['title', 'quality', 'blurb', 'attack_power', 'armor'],
};

describe('writer: context in, context out', () => {
  it.each([
    ['JSON', '{"zone": "Drowned Abbey", "monster": "Bog Witch", "playerLevel": 12}'],
    ['key: value lines', 'Zone: Drowned Abbey\nMonster = Bog Witch\nplayer level: 12'],
    ['prose', 'My hero (level 12) just killed a Bog Witch in the Drowned Abbey. What does she drop?'],
  ])('reads the context from %s and names it in the item', (_, user) => {
    for (let seed = 0; seed < 10; seed++) {
      const item = write(user, gearSchema, seed);
      expect(textOf(item), user).toMatch(/bog witch|drowned abbey/);
    }
    // The bog is poison country: the element follows the enemy.
    expect(textOf(write(user, gearSchema, 3))).toMatch(
      /venom|poison|blight|bitter|green|acid|mire|toxic|plague|viper|rot|bog/,
    );
  });

  it('lets the enemy lead and the theme colour: a fire imp drops fire in a dark dungeon', () => {
    const imp = Array.from({ length: 20 }, (_, seed) =>
      drop(
        'location: Bone Hall; enemy: Fire Imp (tier 3); theme: dark fantasy dungeon',
        'type WEAPON; rarity RARE; level 5',
        seed,
      ),
    );
    expect(imp.every((i) => i.element === 'fire')).toBe(true);
    const rat = Array.from({ length: 40 }, (_, seed) =>
      drop(
        'location: Cellar; enemy: Cellar Rat (tier 1); theme: dark fantasy dungeon',
        'type WEAPON; rarity COMMON; level 2',
        seed,
      ),
    );
    const shadow = rat.filter((i) => i.element === 'shadow').length;
    expect(shadow).toBeGreaterThan(10);
    expect(shadow).toBeLessThan(40);
  });

  it('raises stats with the rarity and the level asked for, in a schema of its own', () => {
    const power = (rarity: string, level: number) =>
      mean(
        Array.from({ length: 30 }, (_, seed) => {
          const item = write(`Context: {"rarity": "${rarity}", "level": ${level}}`, gearSchema, seed);
          return (item.attack_power as number) + (item.armor as number);
        }),
      );
    const rarities = ['common', 'uncommon', 'rare', 'epic', 'legendary'].map((r) => power(r, 10));
    for (let i = 1; i < rarities.length; i++) expect(rarities[i]).toBeGreaterThan(rarities[i - 1] as number);
    const levels = [1, 10, 30, 60].map((l) => power('rare', l));
    for (let i = 1; i < levels.length; i++) expect(levels[i]).toBeGreaterThan(levels[i - 1] as number);
    expect(write('{"rarity": "epic"}', gearSchema, 1).quality).toBe('epic');
  });
});

describe('writer: writing worth reading', () => {
  const bag = Array.from({ length: 30 }, (_, i) => {
    const enemies = [
      'Green Slime (tier 1)',
      'Skeleton Warrior (tier 2)',
      'Fire Imp (tier 3)',
      'Frost Giant (tier 5)',
    ];
    const types = [
      'GLOVES',
      'BOOTS',
      'LEGS',
      'WEAPON',
      'CHEST',
      'CONSUMABLE',
      'HELMET',
      'SHIELD',
      'ACCESSORY',
    ];
    const rarities = ['COMMON', 'UNCOMMON', 'RARE', 'EPIC', 'LEGENDARY'];
    return drop(
      `location: Sunken Vault; enemy: ${enemies[i % 4]}; theme: dark fantasy dungeon; player level: 6`,
      `type ${types[i % 9]}; rarity ${rarities[i % 5]}; level 6; stat budget ${30 + i}`,
      1000 + i,
    );
  });

  it('repeats no sentence across a bag of 30 items', () => {
    const sentences = bag.flatMap((i) => `${i.description} ${i.lore}`.split(/(?<=[.!?])\s+/));
    const seen = new Map<string, number>();
    for (const s of sentences) seen.set(s, (seen.get(s) ?? 0) + 1);
    expect([...seen].filter(([, n]) => n > 1)).toEqual([]);
    expect(new Set(bag.map((i) => i.name)).size).toBe(bag.length);
  });

  it('lets no two items of one answer share a phrase: three frost drops read three different clauses', () => {
    // Four words in a row that two items of one drop both use, leaving out the enemy and the place
    // (named on purpose) and stat lists ("+12 attack and +4 crit chance" is a fact, not a phrase).
    let named = 0;
    const phrases = (item: GeneratedItem) => {
      const words = `${item.description} ${item.lore}`
        .toLowerCase()
        .replace(/\+\d+ [a-z]+(?: [a-z]+)?(?:,| and)?/g, ' ')
        .replace(/frost giant|sunken vault/g, () => ` context${++named} `)
        .match(/[a-z0-9’']+/g) as string[];
      return new Set(words.slice(3).map((_, i) => words.slice(i, i + 4).join(' ')));
    };
    let shared = 0;
    for (let seed = 0; seed < 40; seed++) {
      const batch = write(
        'Generate 3 items.\nContext: location: Sunken Vault; enemy: Frost Giant (tier 5); player level: 20\nItem 1: type WEAPON\nItem 2: type CHEST\nItem 3: type BOOTS',
        batchSchema,
        seed,
      );
      const sets = GeneratedItemBatch.parse(batch).items.map(phrases);
      for (const [a, b] of [
        [0, 1],
        [0, 2],
        [1, 2],
      ] as const)
        shared += [...(sets[a] as Set<string>)].filter((p) => (sets[b] as Set<string>).has(p)).length;
    }
    expect(shared).toBe(0);
  });

  it('agrees in number: no "This gloves", "A frost-rimed gauntlets" or "they" after a pair', () => {
    const plural =
      /\b(?:this|a|an)\s+(?:[\w,-]+\s+){0,3}(?:gloves|boots|greaves|gauntlets|leggings|sabatons|tassets|legguards|treads|handguards|grips)\b/i;
    for (let seed = 0; seed < 60; seed++) {
      for (const type of ['GLOVES', 'BOOTS', 'LEGS']) {
        const item = drop('enemy: Frost Giant (tier 5)', `type ${type}; rarity RARE; level 9`, seed);
        const text = `${item.description} ${item.lore}`.replace(/\ba pair of\b/gi, '');
        expect(text, item.name).not.toMatch(plural);
        expect(text).not.toMatch(/\b(carries|around|near|on|touch) they\b/);
      }
    }
  });

  it('makes the thing the player names, in the colour they ask, whatever else their words name', () => {
    const asked: Array<[string, string, string, string | undefined]> = [
      ['A jagged iron cleaver for chopping slimes', 'WEAPON', 'cleaver', undefined],
      ['a simple club', 'WEAPON', 'club', undefined],
      ['a round oak shield', 'SHIELD', 'round shield', undefined],
      ['a thin bracelet of braided wire', 'ACCESSORY', 'bracelet', undefined],
      ['a rapier I can hide under my cloak, with a scarlet guard', 'WEAPON', 'rapier', 'scarlet'],
      ['navy blue trousers with patched knees', 'LEGS', 'trousers', 'blue'],
    ];
    for (const [request, type, subtype, colour] of asked)
      for (let seed = 0; seed < 5; seed++) {
        const item = forge(request, type, seed);
        expect(item.type).toBe(type);
        expect(item.subtype, request).toBe(subtype);
        expect(item.color).toBe(colour);
        expect(item.lore).not.toContain(request);
      }
    expect(forge('a sword', 'WEAPON', 1, { color: 'Crimson' }).color).toBe('crimson');
  });

  it("gives only the catalogue's effects, on the types each lists, numbers within their ranges", () => {
    const types = ['WEAPON', 'CHEST', 'ACCESSORY', 'CONSUMABLE', 'BOOTS', 'SHIELD', 'GLOVES', 'HELMET'];
    const rarities = ['COMMON', 'UNCOMMON', 'RARE', 'EPIC', 'LEGENDARY', 'MYTHIC'];
    let carried = 0;
    for (let seed = 0; seed < 120; seed++) {
      const type = types[seed % types.length] as string;
      const step = seed % 6;
      const level = 1 + (seed % 40);
      const item = drop(
        'enemy: Frost Giant (tier 5)',
        `type ${type}; rarity ${rarities[step]}; level ${level}`,
        seed,
      );
      for (const e of item.effects) {
        const known = FANTASY_EFFECTS.find((f) => f.id === e.id);
        expect(known?.types, e.id).toContain(type);
        for (const [name, range] of Object.entries(known?.params ?? {})) {
          expect(e.params[name]).toBeGreaterThanOrEqual(range.min);
          expect(e.params[name]).toBeLessThanOrEqual(effectParamCeiling(range, step, level));
        }
        carried++;
      }
    }
    expect(carried).toBeGreaterThan(60);
  });

  it('writes no number in a description above the stat budget (the server refuses such items)', () => {
    const multipliers = [1, 1.3, 1.7, 2.2, 3, 4];
    const rarities = ['COMMON', 'UNCOMMON', 'RARE', 'EPIC', 'LEGENDARY', 'MYTHIC'];
    const types = ['WEAPON', 'CHEST', 'ACCESSORY', 'CONSUMABLE', 'BOOTS', 'SHIELD'];
    for (let seed = 0; seed < 600; seed++) {
      const level = 1 + (seed % 30);
      const budget = Math.round((6 + 2 * level) * (multipliers[seed % 6] as number));
      const item = drop(
        'enemy: Frost Giant (tier 5, frost)',
        `type ${types[seed % 6]}; rarity ${rarities[seed % 6]}; level ${level}; stat budget ${budget}`,
        seed,
      );
      const texts = [item.description];
      for (const text of texts) {
        const biggest = Math.max(0, ...(text.match(/\d+/g) ?? []).map(Number));
        expect(biggest, text).toBeLessThanOrEqual(budget);
      }
    }
  });

  it('tells how a crafted item was made, not where it was looted', () => {
    const v = verdict([
      'Combine: 2 × Iron Ore (MATERIAL, iron, none); 1 × Ember Essence (MATERIAL, essence, fire)',
      'Station: Forge; tool: hammer',
      'Result: rarity RARE; level 5; stat budget 60',
    ]);
    expect(v.item?.lore).toMatch(/Forge/);
    expect(v.item?.lore).toMatch(/Iron Ore/);
    expect(v.item?.lore).not.toMatch(/taken from|fallen knight|looted/i);
  });
});

describe('writer: the crafting judge', () => {
  const forge = 'Station: Forge (makes WEAPON, SHIELD, HELMET, CHEST, LEGS, BOOTS, GLOVES); tool: hammer';
  const alchemy = 'Station: Alchemy Table (makes CONSUMABLE, MATERIAL); tool: mortar';
  const others =
    'Other stations: Workbench (makes WEAPON, SHIELD, CONTAINER); Forge (makes WEAPON, SHIELD, HELMET, CHEST, LEGS, BOOTS, GLOVES); Alchemy Table (makes CONSUMABLE, MATERIAL)';
  const result = 'Result: rarity UNCOMMON; level 4; stat budget 30';

  it.each([
    [
      'nonsense intent',
      [
        'Combine: 1 × Tempered Iron Blade (WEAPON, sword, iron, none); 1 × Iron Ore (MATERIAL, ore, iron, none)',
        alchemy,
        'Player intent: a banana-powered spaceship made of regret and tax forms',
      ],
    ],
    [
      'gibberish',
      [
        'Combine: 2 × Healing Herb (MATERIAL, herb, healing, none)',
        alchemy,
        'Player intent: asdkjh qwpoeiru',
      ],
    ],
    [
      'mismatched pieces',
      [
        'Combine: 1 × Leather Boots (BOOTS, boots, leather, none); 1 × Silk Robe (CHEST, robe, silk, none)',
        forge,
      ],
    ],
    [
      'herbs into a sword',
      ['Combine: 2 × Healing Herb (MATERIAL, herb, healing, none)', forge, 'Player intent: a sword'],
    ],
    [
      'a station that cannot',
      ['Combine: 2 × Iron Ore (MATERIAL, ore, iron, none)', alchemy, 'Player intent: a sword'],
    ],
    [
      'an element nothing carries',
      ['Combine: 2 × Iron Ore (MATERIAL, ore, iron, none)', forge, 'Player intent: a flaming sword'],
    ],
    [
      'a material nothing gives',
      ['Combine: 2 × Iron Ore (MATERIAL, ore, iron, none)', forge, 'Player intent: an oak shield'],
    ],
  ])('refuses %s with a message and concrete suggestions', (_, lines) => {
    const v = verdict([...lines, others, result]);
    expect(v.sensible).toBe(false);
    expect(v.item).toBeNull();
    expect(v.message.length).toBeGreaterThan(20);
    expect(v.suggestions.length).toBeGreaterThanOrEqual(1);
    // A suggestion names an ingredient or a station, not a platitude.
    expect(v.suggestions.join(' ')).toMatch(
      /Iron Ore|Oak Wood|Leather|Essence|Herb|Forge|Alchemy|Workbench|potion|sword/,
    );
  });

  it('follows the intent with what went in: an axe asked for is an iron fire axe', () => {
    const v = verdict([
      'Combine: 2 × Iron Ore (MATERIAL, ore, iron, none); 1 × Ember Essence (MATERIAL, essence, ember, fire)',
      forge,
      'Player intent: a heavy axe',
      result,
    ]);
    expect(v.sensible).toBe(true);
    expect(v.item).toMatchObject({ type: 'WEAPON', subtype: 'axe', material: 'iron', element: 'fire' });
    const shield = verdict([
      'Combine: 2 × Iron Ore (MATERIAL, ore, iron, none); 1 × Oak Wood (MATERIAL, wood, oak, none)',
      forge,
      'Player intent: a sturdy oak shield banded with iron',
      result,
    ]);
    expect(shield.item).toMatchObject({ type: 'SHIELD', subtype: 'shield' });
    // Improving a piece: what was added leads the element, and the piece stays what it is.
    const keg = verdict([
      'Combine: 1 × Plaguebound Powder Keg (CONSUMABLE, bomb, clay, poison); 2 × Ember Essence (MATERIAL, essence, ember, fire)',
      'Station: Workbench (makes WEAPON, SHIELD, CONTAINER, CONSUMABLE, ACCESSORY)',
      'Player intent: something to keep me alive down here',
      result,
    ]);
    expect(keg.item).toMatchObject({ subtype: 'bomb', element: 'fire' });
    expect(keg.item?.stats[0]?.name).toBe('attack');
    expect(keg.item?.description).toMatch(new RegExp(`bursts for ${keg.item?.stats[0]?.value} damage`));
    const potion = verdict([
      'Combine: 2 × Healing Herb (MATERIAL, herb, healing, none)',
      'Station: Alchemy Table (makes CONSUMABLE, MATERIAL)',
      result,
    ]);
    expect(potion.item?.type).toBe('CONSUMABLE');
    // The tool steers what the station makes when the intent does not: a mortar grinds.
    const ground = verdict(['Combine: 2 × Healing Herb (MATERIAL, herb, healing, none)', alchemy, result]);
    expect(ground.item?.subtype).toBe('dust');
  });
});
