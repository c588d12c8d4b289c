import {
  ELEMENTS,
  type Element,
  ITEM_TYPES,
  type ItemLine,
  type ItemType,
  RARITIES,
  STAT_NAMES,
} from '@lootsmith/protocol';
import type { Rng } from '../random.ts';
import { affixesFor } from './affixes.ts';
import type { Cues } from './cues.ts';
import { describeItem, loreFor, originClause } from './item-text.ts';
import { ELEMENT_MATERIALS, METALS_BY_TIER, SUBTYPE_TYPES, TYPE_SUBTYPES } from './lexicon.ts';
import { itemName } from './names.ts';

/** Everything the writer knows about one item before it meets a schema. */
export interface ItemPlan {
  name: string;
  /** The noun the name uses for the subtype, which the text agrees with. */
  noun: string;
  type: ItemType;
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
const PRIMARY_STATS: Record<ItemType, readonly string[]> = {
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
  const i = RARITIES.indexOf((rarity ?? 'COMMON') as (typeof RARITIES)[number]);
  return Math.max(i, 0);
}

/** The budget a game would give, when the request names none: grows with level and rarity. */
export function defaultBudget(level: number, rarity: number): number {
  return Math.round((8 + level * 3) * (RARITY_POWER[rarity] as number));
}

/** Materials by what a subtype is made of; metal work falls through to metals by rarity. */
const SUBTYPE_MATERIALS: Array<[RegExp, readonly string[]]> = [
  [/scroll|map/, ['parchment', 'vellum']],
  [/bandage/, ['linen', 'gauze']],
  [/bomb/, ['iron', 'clay']],
  [/potion|elixir|tonic/, ['glass', 'crystal vial', 'clay flask']],
  [/pouch|satchel|quiver|belt|whip/, ['leather', 'canvas', 'hide']],
  [/^chest$/, ['oak', 'ironbound oak', 'ebony']],
  [/robe|hood|cloak|gloves|leggings|hat|tunic/, ['silk', 'linen', 'wool', 'leather']],
  [/boots|bracers/, ['leather', 'hide', 'suede']],
  [/crown|circlet|ring|amulet|talisman/, ['gold', 'silver', 'copper', 'platinum']],
  [/orb/, ['crystal', 'glass', 'obsidian']],
  [/totem/, ['oak', 'bone', 'ebony']],
  [/horn/, ['bone', 'ivory', 'ram horn']],
  [/lantern/, ['brass', 'iron', 'copper']],
  [/^dust$/, ['arcane', 'bone', 'star', 'ash']],
  [/^essence$/, ['distilled', 'bottled', 'pure']],
  [/^crystal$/, ['quartz', 'amethyst', 'moonstone']],
  [/^herb$/, ['moonleaf', 'bitterroot', 'silverleaf']],
  [/^bone$/, ['giant', 'wyrm', 'old']],
  [/^hide$/, ['wolf', 'bear', 'drake']],
  [/^(ore|ingot)$/, ['iron', 'copper', 'silver', 'mithril']],
];

function pickMaterial(type: string, subtype: string, element: Element, rarity: number, rng: Rng): string {
  const fixed = SUBTYPE_MATERIALS.find(([pattern]) => pattern.test(subtype))?.[1];
  if (fixed) return rng.pick(fixed);
  if (type === 'CONSUMABLE') return rng.pick(['glass', 'clay flask']);
  if (['staff', 'wand', 'bow', 'crossbow'].some((w) => subtype.includes(w)))
    return element !== 'none' && rng.chance(0.5)
      ? rng.pick(ELEMENT_MATERIALS[element])
      : rng.pick(['yew', 'ash wood', 'ironwood', 'elderwood']);
  if (element !== 'none' && rarity >= 2 && rng.chance(0.7)) return rng.pick(ELEMENT_MATERIALS[element]);
  return METALS_BY_TIER[Math.min(METALS_BY_TIER.length - 1, rarity + (rng.chance(0.3) ? 1 : 0))] as string;
}

/** Splits a stat budget over the item's stats: about the budget, never above, the focus stat first. */
export function allotStats(
  type: ItemType,
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
  // The element's resist, where the game has one (there is no holy resist).
  const resist = STAT_NAMES.find((s) => s === `${element}_resist`);
  const focusStat = focus
    ? (FOCUS_STATS[focus.split(/[^a-z]+/)[0] as string] ?? (focus.includes('resist') ? resist : undefined))
    : undefined;
  add(focusStat);
  if (MAGIC_SUBTYPES.has(subtype)) add('magic');
  if (/bomb/.test(subtype)) add('attack');
  for (const s of PRIMARY_STATS[type]) add(s);
  add(resist);
  for (const s of ['health', 'luck', 'speed', 'mana', 'crit_chance']) add(s);
  // Every stat is worth at least 1: a budget of 3 has room for three stats at most.
  const count = Math.max(
    1,
    Math.min(maxStats, names.length, budget, 1 + Math.ceil(rarity * 0.9) + (rng.chance(0.5) ? 1 : 0)),
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
  element?: Element;
  nameHint?: string;
  nounHint?: string;
  /** Types the schema allows, when the request names none. */
  types?: readonly ItemType[];
}

const THEMES = ELEMENTS.filter((e) => e !== 'none');

/** The item's element: the enemy or room's always; a theme's on most drops; now and then one of its own. */
function elementFor(cues: Cues, rarity: number, rng: Rng): Element {
  if (cues.element !== 'none' && !(cues.themeOnly && rng.chance(0.35))) return cues.element;
  return rarity >= 3 && rng.chance(0.3) ? rng.pick(THEMES) : 'none';
}

/** Plans one item from its "Item N:" cue and the conversation's context. */
export function planItem(
  cue: ItemLine,
  cues: Cues,
  rng: Rng,
  options: PlanOptions = {},
  /** Phrases the answer has already written, which the item's text avoids while it can. */
  used = new Set<string>(),
): ItemPlan {
  const requested = cues.request
    ?.toLowerCase()
    .match(/[a-z]+/g)
    ?.find((w) => SUBTYPE_TYPES[w] && (!cue.type || SUBTYPE_TYPES[w] === cue.type));
  const subtypeWord = cue.subtype?.toLowerCase() ?? requested;
  const type =
    cue.type ??
    (subtypeWord ? SUBTYPE_TYPES[subtypeWord.split(' ').at(-1) as string] : undefined) ??
    rng.fork('type').pick(options.types?.length ? options.types : ITEM_TYPES);
  const subtype = subtypeWord ?? rng.fork('subtype').pick(TYPE_SUBTYPES[type]);
  const rarityName = cue.rarity ?? 'COMMON';
  const rarity = rarityIndex(rarityName);
  const level = Math.max(1, Math.min(100, cue.level ?? cues.playerLevel ?? 1));
  const budget = cue.budget ?? defaultBudget(level, rarity);
  const temperature = cues.temperature ?? 0.8;
  const element = options.element ?? elementFor(cues, rarity, rng.fork('element'));
  const forgedFrom = cues.materials?.find((i) => i.element === 'none' && i.material)?.material;
  const material =
    options.material ?? forgedFrom ?? pickMaterial(type, subtype, element, rarity, rng.fork('material'));
  const named = itemName(
    {
      temperature,
      type,
      element,
      subtype,
      material,
      rarity,
      naming: cues.naming,
      enemy: cues.obtained === 'dropped' ? cues.enemy : undefined,
      location: cues.obtained === 'dropped' ? cues.location : undefined,
    },
    rng.fork('name'),
    used,
  );
  const name = options.nameHint ?? named.name;
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
  const affixes = affixesFor(type, element, rarity, level, affixCount, rng.fork('affixes'));
  const value = Math.min(
    10_000_000,
    Math.round((budget * 2 + level * 5) * (RARITY_POWER[rarity] as number) * rng.range(0.9, 1.1)),
  );
  const facts = {
    name,
    noun: options.nounHint ?? named.noun,
    type,
    subtype,
    material,
    element,
    stats,
    value,
  };
  const origin = originClause(cues, rng.fork('origin'), used);
  return {
    ...facts,
    rarity: rarityName,
    level,
    description: describeItem(facts, rng.fork('description'), used, origin),
    lore: loreFor(facts, cues, rng.fork('lore'), used, origin),
    affixes,
    budget,
  };
}
