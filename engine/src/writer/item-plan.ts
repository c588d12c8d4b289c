import type { Element } from '@lootsmith/protocol';
import type { Rng } from '../random.ts';
import type { Cues, ItemCue } from './cues.ts';
import {
  ELEMENT_ADJECTIVES,
  ELEMENT_EFFECTS,
  ELEMENT_MATERIALS,
  METALS_BY_TIER,
  NAME_ENDINGS,
  NAME_PREFIXES,
  NAME_ROOTS,
  NAME_SUFFIXES,
  RARITY_ORDER,
  SUBTYPE_NOUNS,
  SUBTYPE_TYPES,
  TYPE_SUBTYPES,
} from './lexicon.ts';

/** Everything the writer knows about one item before it meets a schema. */
export interface ItemPlan {
  name: string;
  type: string;
  subtype: string;
  rarity: string;
  level: number;
  element: Element;
  material: string;
  description: string;
  lore: string;
  stats: Array<{ name: string; value: number }>;
  affixes: Array<{ name: string; effect: string }>;
  value: number;
  budget: number;
}

const RARITY_POWER = [1, 1.25, 1.6, 2.1, 2.8, 3.6];
const PRIMARY_STATS: Record<string, readonly string[]> = {
  WEAPON: ['attack', 'crit_chance', 'speed'],
  SHIELD: ['defense', 'health'],
  HELMET: ['defense', 'health', 'magic'],
  CHEST: ['defense', 'health'],
  LEGS: ['defense', 'speed'],
  BOOTS: ['speed', 'defense'],
  GLOVES: ['attack', 'crit_chance', 'defense'],
  ACCESSORY: ['magic', 'luck', 'mana'],
  EQUIPMENT: ['defense', 'luck', 'speed'],
  CONSUMABLE: ['health', 'mana'],
  MATERIAL: ['luck'],
  CONTAINER: ['luck'],
};
const MAGIC_SUBTYPES = new Set(['staff', 'wand', 'robe', 'talisman', 'amulet', 'tome', 'hood']);
const FOCUS_STATS: Record<string, string> = {
  attack: 'attack',
  damage: 'attack',
  offense: 'attack',
  power: 'attack',
  strength: 'attack',
  defense: 'defense',
  defence: 'defense',
  armor: 'defense',
  armour: 'defense',
  protection: 'defense',
  magic: 'magic',
  spell: 'magic',
  arcane: 'magic',
  intellect: 'magic',
  speed: 'speed',
  agility: 'speed',
  health: 'health',
  vitality: 'health',
  life: 'health',
  mana: 'mana',
  crit: 'crit_chance',
  critical: 'crit_chance',
  luck: 'luck',
  fortune: 'luck',
};

export function rarityIndex(rarity: string | undefined): number {
  const i = RARITY_ORDER.indexOf((rarity ?? 'COMMON') as (typeof RARITY_ORDER)[number]);
  return Math.max(i, 0);
}

/** The budget a game would give, when the request names none: grows with level and rarity. */
export function defaultBudget(level: number, rarity: number): number {
  return Math.round((8 + level * 3) * (RARITY_POWER[rarity] as number));
}

function titleCase(word: string): string {
  return word.replace(/\b[a-z]/g, (c) => c.toUpperCase());
}

function nounFor(subtype: string, rng: Rng): string {
  const key = Object.keys(SUBTYPE_NOUNS).find((k) => subtype.includes(k));
  return key ? rng.pick(SUBTYPE_NOUNS[key] as string[]) : titleCase(subtype);
}

export function itemName(
  temperature: number,
  element: Element,
  subtype: string,
  material: string,
  rarity: number,
  naming: string | undefined,
  rng: Rng,
): string {
  const noun = nounFor(subtype, rng);
  const prefix = rng.pick(NAME_PREFIXES[element]);
  const simple = naming === 'simple' || naming === 'plain';
  const form =
    simple || temperature < 0.3
      ? rng.int(0, 1)
      : rng.int(rarity >= 3 ? 1 : 0, rarity >= 2 || temperature > 1.2 ? 4 : 2);
  switch (form) {
    case 0:
      // "Iron Axe" reads well; "Clay Flask Tonic" does not, so long materials take a prefix instead.
      if (!material.includes(' ')) return `${titleCase(material)} ${noun}`;
      return `${prefix} ${noun}`;
    case 1:
      return `${prefix} ${noun}`;
    case 2:
      return `${noun} ${rng.pick(NAME_SUFFIXES[element])}`;
    case 3:
      return `${prefix} ${noun} ${rng.pick(NAME_SUFFIXES[element])}`;
    default: {
      const proper = `${rng.pick(NAME_ROOTS[element])}${rng.pick(NAME_ENDINGS)}`;
      return rng.chance(0.4)
        ? proper
        : `${proper}, the ${rng.pick(['Ancient', 'Sworn', 'Last', 'Eternal', 'Relentless'])} ${noun}`;
    }
  }
}

function pickMaterial(type: string, subtype: string, element: Element, rarity: number, rng: Rng): string {
  if (type === 'CONSUMABLE')
    return subtype.includes('scroll') ? 'parchment' : rng.pick(['glass', 'crystal vial', 'clay flask']);
  if (type === 'CONTAINER') return rng.pick(['leather', 'oak', 'canvas']);
  if (['robe', 'hood', 'cloak', 'gloves', 'leggings'].some((w) => subtype.includes(w)))
    return rng.pick(['silk', 'linen', 'wool', 'leather']);
  if (['staff', 'wand', 'bow'].some((w) => subtype.includes(w)))
    return element !== 'none' && rng.chance(0.5)
      ? rng.pick(ELEMENT_MATERIALS[element])
      : rng.pick(['yew', 'ash wood', 'ironwood', 'elderwood']);
  if (element !== 'none' && rarity >= 2 && rng.chance(0.7)) return rng.pick(ELEMENT_MATERIALS[element]);
  return METALS_BY_TIER[Math.min(METALS_BY_TIER.length - 1, rarity + (rng.chance(0.3) ? 1 : 0))] as string;
}

/** Splits a stat budget over the item's stats: about the budget, never above, the focus stat first. */
export function allotStats(
  type: string,
  subtype: string,
  focus: string | undefined,
  element: Element,
  rarity: number,
  budget: number,
  allowed: readonly string[] | undefined,
  maxStats: number,
  rng: Rng,
  spread = 0.3,
): ItemPlan['stats'] {
  const names: string[] = [];
  const add = (name: string | undefined) => {
    if (name && !names.includes(name) && (!allowed || allowed.includes(name))) names.push(name);
  };
  const focusStat = focus
    ? (FOCUS_STATS[focus.split(/[^a-z]+/)[0] as string] ??
      (focus.includes('resist') && element !== 'none' ? `${element}_resist` : undefined))
    : undefined;
  add(focusStat);
  if (MAGIC_SUBTYPES.has(subtype)) add('magic');
  for (const s of PRIMARY_STATS[type] ?? PRIMARY_STATS.WEAPON ?? []) add(s);
  if (element === 'fire' || element === 'frost' || element === 'poison' || element === 'shadow')
    add(`${element}_resist`);
  for (const s of ['health', 'luck', 'speed', 'mana', 'crit_chance']) add(s);
  const count = Math.max(
    1,
    Math.min(maxStats, names.length, 1 + Math.ceil(rarity * 0.9) + (rng.chance(0.5) ? 1 : 0)),
  );
  const chosen = names.slice(0, count);
  const total = Math.max(chosen.length, Math.floor(budget * rng.range(0.92, 1)));
  const weights = chosen.map((_, i) => (i === 0 ? 2.2 : 1) * rng.range(1 - spread, 1 + spread));
  const sum = weights.reduce((a, b) => a + b, 0);
  const values = weights.map((w) => Math.max(1, Math.floor((total * w) / sum)));
  let over = values.reduce((a, b) => a + b, 0) - budget;
  for (let i = values.length - 1; over > 0 && i >= 0; i--) {
    const take = Math.min(over, (values[i] as number) - 1);
    values[i] = (values[i] as number) - take;
    over -= take;
  }
  return chosen.map((name, i) => ({ name, value: values[i] as number }));
}

export interface PlanOptions {
  allowedStats?: readonly string[];
  maxStats?: number;
  maxAffixes?: number;
  material?: string;
  nameHint?: string;
}

/** Plans one item from its "Item N:" cue and the conversation's context. */
export function planItem(cue: ItemCue, cues: Cues, rng: Rng, options: PlanOptions = {}): ItemPlan {
  const requested = cues.request
    ?.toLowerCase()
    .match(/[a-z]+/g)
    ?.find((w) => SUBTYPE_TYPES[w] && (!cue.type || SUBTYPE_TYPES[w] === cue.type));
  const subtypeWord = cue.subtype?.toLowerCase() ?? requested;
  const type =
    cue.type ??
    (subtypeWord ? SUBTYPE_TYPES[subtypeWord.split(' ').at(-1) as string] : undefined) ??
    rng.fork('type').pick(Object.keys(TYPE_SUBTYPES));
  const subtype = subtypeWord ?? rng.fork('subtype').pick(TYPE_SUBTYPES[type] ?? ['trinket']);
  const rarityName = cue.rarity ?? 'COMMON';
  const rarity = rarityIndex(rarityName);
  const level = Math.max(1, Math.min(100, cue.level ?? cues.playerLevel ?? 1));
  const budget = cue.budget ?? defaultBudget(level, rarity);
  const temperature = cues.temperature ?? 0.8;
  const element: Element =
    cues.element !== 'none'
      ? cues.element
      : rarity >= 3 && rng.fork('element').chance(0.3)
        ? rng.fork('element').pick(['fire', 'frost', 'lightning', 'shadow', 'holy', 'poison'] as const)
        : 'none';
  const forgedFrom = cues.materials?.find((i) => i.element === 'none' && i.material)?.material;
  const material =
    options.material ?? forgedFrom ?? pickMaterial(type, subtype, element, rarity, rng.fork('material'));
  const name =
    options.nameHint ??
    itemName(temperature, element, subtype, material, rarity, cues.naming, rng.fork('name'));
  const stats = allotStats(
    type,
    subtype,
    cue.focus,
    element,
    rarity,
    budget,
    options.allowedStats,
    options.maxStats ?? 6,
    rng.fork('stats'),
    0.1 + 0.2 * Math.min(2, temperature),
  );
  const affixCount = Math.min(options.maxAffixes ?? 4, [0, rng.int(0, 1), 1, 2, 3, 4][rarity] as number);
  const affixRng = rng.fork('affixes');
  const themed = ELEMENT_EFFECTS[element];
  const start = affixRng.int(0, themed.length - 1);
  // Themed affixes first (rotated by the seed), then generic ones if the item has room for more.
  const pool = [
    ...themed.slice(start),
    ...themed.slice(0, start),
    ...(element === 'none' ? [] : ELEMENT_EFFECTS.none),
  ];
  const affixes: ItemPlan['affixes'] = [];
  for (let i = 0; i < affixCount; i++) {
    const template = pool[i % pool.length] as { name: string; effect: string };
    const n = Math.max(2, Math.round(3 + level * 0.4 + rarity * 3 + affixRng.int(0, 4)));
    affixes.push({
      name: template.name,
      effect: template.effect.replace('{n}', String(n)).replace('{s}', String(1 + Math.floor(rarity / 2))),
    });
  }
  const value = Math.min(
    10_000_000,
    Math.round((budget * 2 + level * 5) * (RARITY_POWER[rarity] as number) * rng.range(0.9, 1.1)),
  );
  return {
    name,
    type,
    subtype,
    rarity: rarityName,
    level,
    element,
    material,
    description: describe(type, subtype, material, element, rarityName, stats, rng.fork('description')),
    lore: loreFor(cues, element, subtype, rng.fork('lore')),
    stats,
    affixes,
    value,
    budget,
  };
}

const ELEMENT_PHRASES: Record<Element, readonly string[]> = {
  none: [
    'It is solid and well balanced.',
    'Plain work, but honest and sturdy.',
    'Its maker took no shortcuts.',
  ],
  fire: [
    'Ember-light dances along it.',
    'It is warm to the touch and smells of smoke.',
    'Faint flames lick its edges.',
  ],
  frost: [
    'Rime creeps across its surface.',
    'It is cold enough to sting bare skin.',
    'Frost flowers bloom wherever it rests.',
  ],
  poison: [
    'A green sheen beads on it.',
    'It smells faintly of bitter almonds.',
    'Venom pools in its grooves.',
  ],
  shadow: [
    'It drinks the light around it.',
    'Its outline blurs at the edge of sight.',
    'Whispers follow it in the dark.',
  ],
  holy: [
    'It glows with a soft, warm light.',
    'It hums quietly, like a distant hymn.',
    'Its surface never tarnishes.',
  ],
  lightning: ['Sparks crawl over it.', 'The air around it smells of a storm.', 'It crackles when it moves.'],
};

function describe(
  type: string,
  subtype: string,
  material: string,
  element: Element,
  rarity: string,
  stats: ItemPlan['stats'],
  rng: Rng,
): string {
  const adjective = ELEMENT_ADJECTIVES[element];
  const article = /^[aeiou]/i.test(adjective) ? 'An' : 'A';
  const main = stats[0];
  const phrase = rng.pick(ELEMENT_PHRASES[element]);
  const rare =
    rarity === 'COMMON' ? '' : ` ${rarity.charAt(0)}${rarity.slice(1).toLowerCase()} craftsmanship.`;
  if (type === 'CONSUMABLE') {
    const effect = main ? ` Restores ${main.value} ${main.name.replace('_', ' ')} when used.` : '';
    return `${article} ${adjective} ${subtype} in ${material}.${effect} ${phrase}`;
  }
  if (type === 'MATERIAL')
    return `${article} ${adjective} piece of ${material}, sought after by crafters. ${phrase}`;
  const favour = main ? ` Grants +${main.value} ${main.name.replace('_', ' ')}.` : '';
  return rng.pick([
    `${article} ${adjective} ${subtype} of ${material}.${favour} ${phrase}${rare}`,
    `${phrase} This ${subtype} of ${material} is ${rarity.toLowerCase()} work.${favour}`,
    `Forged from ${material}, this ${adjective} ${subtype} ${element === 'none' ? 'serves well' : 'carries its element'}.${favour} ${phrase}`,
  ]);
}

function loreFor(cues: Cues, element: Element, subtype: string, rng: Rng): string {
  const where = cues.location ? ` in ${cues.location}` : '';
  const who = cues.enemy
    ? `the ${cues.enemy.replace(/^the /i, '')}`
    : rng.pick(['a forgotten warlord', 'a wandering smith', 'an old hermit', 'a fallen knight']);
  const flavour: Record<Element, string> = {
    none: 'It has seen more battles than its bearers remember.',
    fire: 'It never quite cools, and smells of smoke and cinders.',
    frost: 'Frost creeps over it even in summer, and its breath is the cold of the deep glacier.',
    poison: 'A green sheen clings to it; wise bearers wear gloves.',
    shadow: 'Shadows lean towards it, and whispers follow its wielder.',
    holy: 'It hums softly at dawn, as if remembering a prayer.',
    lightning: 'Sparks leap from it before every storm.',
  };
  const opening = rng.pick([
    `Taken from ${who}${where}.`,
    `Once carried by ${who}${where}.`,
    `This ${subtype} was found${where || ' on a battlefield'}, near ${who}.`,
  ]);
  return `${opening} ${flavour[element]}`;
}
