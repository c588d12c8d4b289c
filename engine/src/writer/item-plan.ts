import {
  type Colour,
  colourOfWord,
  fitsLook,
  type ItemEffect,
  type ItemFeature,
  type ItemLine,
  type ItemLook,
  lookNamedIn,
  mainStatRanges,
  type StatRange,
} from '@lootsmith/protocol';
import { fresh, type Rng } from '../random.ts';
import type { Cues } from './cues.ts';
import { effectsFor } from './effects.ts';
import { describeItem, type ItemFacts, loreFor, originClause } from './item-text.ts';
import { ELEMENT_MATERIALS, METALS_BY_TIER } from './lexicon.ts';
import { itemName } from './names.ts';
import { askedColour, askedNoun, namedMaterial, readWish, typeOfNoun } from './requests.ts';
import type { Vocabulary } from './vocabulary.ts';

/** Everything the writer knows about one item before it meets a schema. */
export interface ItemPlan {
  name: string;
  /** The noun the name uses for the subtype, which the text agrees with. */
  noun: string;
  type: string;
  subtype: string;
  rarity: string;
  level: number;
  /** An element of the game, or 'none'. */
  element: string;
  material: string;
  description: string;
  lore: string;
  stats: Array<{ name: string; value: number }>;
  /** Effects of the game's catalogue, with their numbers. */
  effects: ItemEffect[];
  value: number;
  budget: number;
  /** The game's own fields, for an item of a type that carries them. */
  fields: Record<string, string | number | boolean>;
  /** The colour the player asked for, which the icon is painted in. */
  color?: string;
  /** What the item looks like: its name and text name nothing else, and its icon shows it. */
  look: ItemLook;
}

/** How much more each rarity step is worth; past the sixth, each step a little more again. */
const RARITY_POWER = [1, 1.25, 1.6, 2.1, 2.8, 3.6];
const rarityPower = (rarity: number) => RARITY_POWER[rarity] ?? 3.6 * 1.3 ** (rarity - 5);
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

/** The budget a game would give, when the request names none: grows with level and rarity. */
export function defaultBudget(level: number, rarity: number): number {
  return Math.round(commonBudget(level) * rarityPower(rarity));
}
const commonBudget = (level: number) => 8 + level * 3;

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

function pickMaterial(
  vocab: Vocabulary,
  type: string,
  subtype: string,
  element: string,
  rarity: number,
  rng: Rng,
): string {
  // A game's own words for what things are made of, when it gives them.
  const own = vocab.words.materials;
  if (own?.length) return rng.pick(own);
  const themed = element === 'none' ? undefined : ELEMENT_MATERIALS[element];
  const fixed = SUBTYPE_MATERIALS.find(([pattern]) => pattern.test(subtype))?.[1];
  if (fixed) return rng.pick(fixed);
  if (vocab.type(type)?.consumable) return rng.pick(['glass', 'clay flask']);
  if (['staff', 'wand', 'bow', 'crossbow'].some((w) => subtype.includes(w)))
    return themed && rng.chance(0.5)
      ? rng.pick(themed)
      : rng.pick(['yew', 'ash wood', 'ironwood', 'elderwood']);
  if (themed && rarity >= 2 && rng.chance(0.7)) return rng.pick(themed);
  return METALS_BY_TIER[Math.min(METALS_BY_TIER.length - 1, rarity + (rng.chance(0.3) ? 1 : 0))] as string;
}

/** The stat a focus names: one of the game's by id or name, else the writer's word for one ("damage"). */
function focusStat(vocab: Vocabulary, focus: string, resist: string | undefined): string | undefined {
  const first = focus.split(/[,;]/)[0]?.trim() ?? '';
  const own = vocab.stats.find(
    (s) => s.id.toLowerCase() === first.replaceAll(' ', '_') || s.name.toLowerCase() === first,
  );
  if (own) return own.id;
  return FOCUS_STATS[first.split(/[^a-z]+/)[0] as string] ?? (focus.includes('resist') ? resist : undefined);
}

type Stats = ItemPlan['stats'];

/** The least share of its budget an item's stats come to. */
const LEAST_SHARE = 0.92;

/** The stats an item may carry, in the order the writer gives them: the focus, what it is, its type's. */
function statOrder(
  vocab: Vocabulary,
  type: string,
  subtype: string,
  focus: string | undefined,
  element: string,
  allowed: readonly string[] | undefined,
): string[] {
  const names: string[] = [];
  const add = (name: string | undefined) => {
    if (name && !names.includes(name) && (!allowed || allowed.includes(name)) && vocab.carries(type, name))
      names.push(name);
  };
  add(focus);
  if (MAGIC_SUBTYPES.has(subtype)) add('magic');
  if (/bomb/.test(subtype)) add('attack');
  for (const s of vocab.type(type)?.stats ?? []) add(s);
  // The element's resist, where the game has one (there is no holy resist).
  add(vocab.element(element)?.resist);
  for (const s of ['health', 'luck', 'speed', 'mana', 'crit_chance']) add(s);
  for (const s of vocab.statsFor(type)) add(s);
  return names;
}

/** Splits a stat budget over the first of `names`: about the budget, never above, the first the most. */
function allotStats(
  names: readonly string[],
  rarity: number,
  budget: number,
  maxStats: number,
  rng: Rng,
  spread = 0.3,
): Stats {
  // Every stat is worth at least 1: a budget of 3 has room for three stats at most.
  const count = Math.max(
    1,
    Math.min(maxStats, names.length, budget, 1 + Math.ceil(rarity * 0.9) + (rng.chance(0.5) ? 1 : 0)),
  );
  const chosen = names.slice(0, count);
  const total = Math.max(chosen.length, Math.floor(budget * rng.range(LEAST_SHARE, 1)));
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

/** An item type's main stat and the range it must be in. */
type MainStat = StatRange & { stat: string };

/**
 * The main stat of an item of this type and its range: as the request's line gives it, else from the
 * writer's own budgets of every rarity at the item's level (through the budget the line gives, if any),
 * the same for every item asked for at that level.
 */
function mainStatOf(
  cue: ItemLine,
  vocab: Vocabulary,
  type: string,
  rarity: number,
  level: number,
  allowed: readonly string[] | undefined,
): MainStat | undefined {
  const told = cue.main?.stat;
  const stat = told && vocab.carries(type, told) ? told : vocab.mainStat(type);
  if (!stat || (allowed && !allowed.includes(stat))) return undefined;
  const common = cue.budget === undefined ? commonBudget(level) : cue.budget / rarityPower(rarity);
  const range =
    cue.main ??
    (mainStatRanges(vocab.rarities.map((_, i) => Math.round(common * rarityPower(i))))[rarity] as StatRange);
  return { stat, least: range.least, most: range.most };
}

/** How the stats of an item are fitted around its main stat. */
interface Fitting {
  /** A stat the player asked the item to lean to. */
  focus: string | undefined;
  /** Stats the type may carry, most fitting first: what takes the points the others cannot. */
  spares: readonly string[];
  /** The most of the main stat another stat may have (three quarters for a new item). */
  sideShare: number;
  maxStats: number;
  budget: number;
}

/**
 * The stats with the main stat in its range: the other stats share what is left of their total as
 * they were drawn, none above `sideShare` of the main stat so it reads as what the item is for (what
 * that leaves over goes to the next stats the type leans to); but the focus, which is raised to the
 * main stat, the others giving way so the whole stays within the budget.
 */
function withMainStat(stats: Stats, main: MainStat, fit: Fitting, rng: Rng): Stats {
  const { budget } = fit;
  const lean = fit.focus !== main.stat && stats.some((s) => s.name === fit.focus) ? fit.focus : undefined;
  // With a focus to raise to it, the main stat takes half the budget at most.
  const value = lean
    ? Math.min(main.least, Math.floor(budget / 2))
    : Math.min(budget, rng.int(main.least, main.most));
  const positive = (list: Stats) => list.reduce((a, s) => a + Math.max(0, s.value), 0);
  // What was drawn, but never under the least share of the budget (rounding the draw loses points).
  const total = Math.min(budget, Math.max(positive(stats), Math.floor(budget * LEAST_SHARE)));
  const rest = Math.max(0, total - value);
  const others = stats.filter((s) => s.name !== main.stat);
  const drawn = Math.max(1, positive(others));
  const side = Math.max(1, Math.floor(value * fit.sideShare));
  let shared = others.map((s) => {
    if (s.value <= 0) return s;
    const share = Math.max(1, Math.floor((s.value * rest) / drawn));
    return { ...s, value: s.name === lean ? Math.max(share, value) : Math.min(share, side) };
  });
  let left = rest - positive(shared);
  for (const name of fit.spares) {
    if (left < 1 || shared.length + 1 >= fit.maxStats) break;
    if (name === main.stat || shared.some((x) => x.name === name)) continue;
    const points = Math.min(left, side);
    shared.push({ name, value: points });
    left -= points;
  }
  // Points the rounding lost go back a point at a time, under the cap.
  for (let i = 0; left >= 1 && i < shared.length; i++) {
    const s = shared[i] as Stats[number];
    const room = s.name === lean || s.value <= 0 ? 0 : Math.min(left, side - s.value);
    if (room > 0) {
      shared[i] = { ...s, value: s.value + room };
      left -= room;
    }
  }
  // Over the budget (a focus raised, a point each kept): the others give way, then go.
  let over = value + positive(shared) - budget;
  for (let i = shared.length - 1; over > 0 && i >= 0; i--) {
    const s = shared[i] as Stats[number];
    if (s.name === lean || s.value <= 1) continue;
    const take = Math.min(over, s.value - 1);
    shared[i] = { ...s, value: s.value - take };
    over -= take;
  }
  while (over > 0 && shared.some((s) => s.name !== lean && s.value > 0)) {
    const last = shared.findLastIndex((s) => s.name !== lean && s.value > 0);
    over -= (shared[last] as Stats[number]).value;
    shared = shared.filter((_, i) => i !== last);
  }
  if (over > 0 && lean)
    shared = shared.map((s) => (s.name === lean ? { ...s, value: Math.max(1, s.value - over) } : s));
  const kept = { name: main.stat, value };
  if (stats.some((s) => s.name === main.stat))
    return [
      ...stats.flatMap((s) => (s.name === main.stat ? [kept] : shared.filter((x) => x.name === s.name))),
      ...shared.filter((x) => !stats.some((s) => s.name === x.name)),
    ];
  // A main stat the draw left out comes first, after a focus that leads.
  const first = lean && shared[0]?.name === lean ? 1 : 0;
  return [...shared.slice(0, first), kept, ...shared.slice(first)];
}

export interface PlanOptions {
  allowedStats?: readonly string[];
  maxStats?: number;
  maxEffects?: number;
  material?: string;
  element?: string;
  nameHint?: string;
  nounHint?: string;
  /** Types the schema allows, when the request names none. */
  types?: readonly string[];
  /** Reworks the stats and effects drawn, before the text is written (a combine keeps what it improves). */
  keep?: (drawn: Kept, item: { type: string; rarity: number; level: number; budget: number }) => Kept;
}

type Kept = Pick<ItemPlan, 'stats' | 'effects'>;

/** The item's element: the enemy or room's always; a theme's on most drops; now and then one of its own. */
function elementFor(cues: Cues, rarity: number, rng: Rng): string {
  if (cues.element !== 'none' && !(cues.themeOnly && rng.chance(0.35))) return cues.element;
  const elements = cues.vocab.elements.map((e) => e.id);
  return elements.length && rarity >= 3 && rng.chance(0.3) ? rng.pick(elements) : 'none';
}

/**
 * Values of the game's own fields for an item: numbers within their bounds, higher for rarer items
 * (an epic suit lasts longer), strings among their values.
 */
function gameFields(vocab: Vocabulary, type: string, rarity: number, rng: Rng): ItemPlan['fields'] {
  const share = vocab.rarities.length > 1 ? rarity / (vocab.rarities.length - 1) : 0.5;
  const fields: ItemPlan['fields'] = {};
  for (const f of vocab.fieldsFor(type)) {
    const pick = rng.fork(f.id);
    if (f.type === 'boolean') fields[f.id] = pick.chance(0.3 + 0.5 * share);
    else if (f.type === 'string')
      fields[f.id] = f.values?.length ? pick.pick(f.values) : (f.description ?? f.id).slice(0, 32);
    else {
      const lo = f.minimum ?? 0;
      const hi = f.maximum ?? lo + 100;
      const at = Math.min(1, Math.max(0, 0.25 + 0.6 * share + pick.range(-0.15, 0.15)));
      const value = lo + (hi - lo) * at;
      fields[f.id] = f.type === 'integer' ? Math.round(value) : Math.round(value * 100) / 100;
    }
  }
  return fields;
}

/** Colours an element lends what carries it (its words name them: "green-tinged", "ink-black"). */
const ELEMENT_COLOURS: Record<string, readonly Colour[]> = {
  fire: ['red', 'orange'],
  frost: ['blue', 'white'],
  poison: ['green'],
  shadow: ['black', 'purple'],
  holy: ['gold', 'white'],
  lightning: ['blue', 'yellow'],
};

/** What can be seen on an item of a subtype, each with its chance, rarer items more often. */
const FEATURE_CHANCES: Array<[RegExp, ItemFeature, number]> = [
  [/ring|amulet|crown|circlet|talisman|staff|wand|sceptre|orb|diadem|tiara/, 'gem', 0.55],
  [/staff|wand|tome|robe|talisman|amulet|totem|scroll|hood/, 'runes', 0.4],
  [/helm|helmet|crown|hood/, 'horns', 0.25],
  [/mace|shield|gauntlet|armou?r|club|flail|buckler|pauldron|morningstar/, 'spikes', 0.3],
  [/boots|helm|helmet|cloak/, 'wings', 0.12],
  [/bow|quiver|hat|cloak|arrow/, 'feathers', 0.25],
  [/sword|axe|blade|dagger|spear|hammer|shield|armou?r|greaves|gauntlets|boots/, 'runes', 0.18],
  [/sword|axe|dagger|mace|shield|belt|gauntlets|greaves|bracers|boots/, 'gem', 0.15],
  [
    /chip|jack|board|implant|module|emitter|array|coupling|scanner|booster|lens|drive|terminal|deck|rig/,
    'circuits',
    0.45,
  ],
  [/emitter|lance|cutter|welder|lens|booster/, 'glow', 0.25],
];

/** The features of an item: by what it is, the rarer the more; a shadow item may bear a skull, a bright one glows. */
function featuresFor(subtype: string, element: string, rarity: number, rng: Rng): ItemFeature[] {
  const out: ItemFeature[] = [];
  const boost = 0.5 + 0.35 * rarity;
  for (const [pattern, feature, chance] of FEATURE_CHANCES)
    if (pattern.test(subtype) && !out.includes(feature) && rng.chance(Math.min(0.9, chance * boost)))
      out.push(feature);
  if (element === 'shadow' && rng.chance(0.25)) out.push('skull');
  if (['holy', 'lightning', 'fire', 'frost'].includes(element) && rarity >= 3 && rng.chance(0.5))
    out.push('glow');
  return out.slice(0, 3);
}

/** The look words of what the writer wrote, less the names of the context (an "Iron Golem" is no iron). */
function namedBy(texts: readonly string[], context: ReadonlyArray<string | undefined>) {
  let text = texts.join(' ').toLowerCase();
  for (const name of context)
    if (name) text = text.replaceAll(name.toLowerCase().replace(/^the\s+/, ''), ' ');
  return lookNamedIn(text);
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
  const { vocab } = cues;
  // The thing the player's own words name, if an item of the type asked for may be it.
  const requested = cues.request ? askedNoun(cues.request, vocab, cue.type) : undefined;
  // What the player's words ask for where the request leaves it open: the type, stat and effects.
  const words = cues.request ?? cues.combine?.intent;
  const wish = words ? readWish(words, vocab, cue.type ? [cue.type] : options.types) : undefined;
  const subtypeWord =
    cue.subtype?.toLowerCase() ??
    requested ??
    (!cue.type || cue.type === wish?.type ? wish?.thing : undefined);
  const type =
    cue.type ??
    vocab.typeOfSubtype(subtypeWord)?.id ??
    (requested ? typeOfNoun(requested, vocab) : undefined) ??
    wish?.type ??
    rng.fork('type').pick(options.types?.length ? options.types : vocab.types.map((t) => t.id));
  // A subtype this answer has not made yet, so the items of one drop differ in what they are.
  const subtype =
    subtypeWord ?? fresh(rng.fork('subtype'), vocab.type(type)?.subtypes ?? [type.toLowerCase()], used);
  const rarity = vocab.rarityIndex(cue.rarity);
  const rarityName = cue.rarity ?? vocab.rarityAt(0);
  const level = Math.max(1, Math.min(100, cue.level ?? cues.playerLevel ?? 1));
  const budget = cue.budget ?? defaultBudget(level, rarity);
  const temperature = cues.temperature ?? 0.8;
  const element = options.element ?? elementFor(cues, rarity, rng.fork('element'));
  const forgedFrom =
    namedMaterial(words, cues.materials) ??
    cues.materials?.find((i) => i.element === 'none' && i.material)?.material;
  const material =
    options.material ??
    forgedFrom ??
    pickMaterial(vocab, type, subtype, element, rarity, rng.fork('material'));
  // The colour the player asked for, on what they make (a drop asks for none).
  const color = cues.obtained === 'dropped' ? undefined : askedColour(words, cues.look);
  const asked = color ? colourOfWord(color) : undefined;
  const look: ItemLook = {
    noun: subtype,
    materials: [material],
    colors: [...new Set([...(asked ? [asked] : []), ...(ELEMENT_COLOURS[element] ?? [])])].slice(0, 3),
    features: featuresFor(subtype, element, rarity, rng.fork('features')),
  };
  const made = cues.obtained !== 'dropped';
  const fits = fitsLook(look);
  const named = itemName(
    {
      vocab,
      temperature,
      type,
      element,
      subtype,
      material,
      rarity,
      naming: cues.naming,
      enemy: cues.obtained === 'dropped' ? cues.enemy : undefined,
      location: cues.obtained === 'dropped' ? cues.location : undefined,
      fits,
      features: look.features,
      made,
    },
    rng.fork('name'),
    used,
  );
  const name = options.nameHint ?? named.name;
  // A forged item leans where the words ask; a combined piece keeps its nature (a bomb bursts).
  const leaning = cue.focus ?? (cues.request ? wish?.stat : undefined);
  const focus = leaning ? focusStat(vocab, leaning, vocab.element(element)?.resist) : undefined;
  const order = statOrder(vocab, type, subtype, focus, element, options.allowedStats);
  const allotted = allotStats(
    order,
    rarity,
    budget,
    options.maxStats ?? 6,
    rng.fork('stats'),
    0.1 + 0.2 * Math.min(2, temperature),
  );
  const rolled = [0, rng.int(0, 1), 1, 2, 3, 4][rarity] ?? 4;
  // An effect the player asked for is made when the item's rarity allows any.
  const effectCount = Math.min(
    options.maxEffects ?? 4,
    wish?.effects.length && rarity ? Math.max(1, rolled) : rolled,
  );
  const drawn = effectsFor(
    vocab,
    type,
    element,
    rarity,
    level,
    effectCount,
    rng.fork('effects'),
    wish?.effects,
  );
  const kept = options.keep
    ? options.keep({ stats: allotted, effects: drawn }, { type, rarity, level, budget })
    : { stats: allotted, effects: drawn };
  const { effects } = kept;
  // Rarity a player can see: the stat cards compare is in its rarity's range, whatever the draw gave.
  const main = mainStatOf(cue, vocab, type, rarity, level, options.allowedStats);
  const fit: Fitting = {
    focus,
    spares: order,
    // An improved item keeps what it carried: its other stats may stay as strong as its main stat.
    sideShare: options.keep ? 1 : 3 / 4,
    maxStats: options.maxStats ?? 6,
    budget,
  };
  const stats = main ? withMainStat(kept.stats, main, fit, rng.fork('main')) : kept.stats;
  const value = Math.min(
    10_000_000,
    Math.round((budget * 2 + level * 5) * rarityPower(rarity) * rng.range(0.9, 1.1)),
  );
  const facts: ItemFacts = {
    vocab,
    name,
    noun: options.nounHint ?? named.noun,
    type,
    subtype,
    material,
    element,
    stats,
    value,
    fits,
    made,
  };
  if (color) facts.color = color;
  const origin = originClause(cues, rng.fork('origin'), used);
  const description = describeItem(facts, rng.fork('description'), used, origin);
  const lore = loreFor(facts, cues, rng.fork('lore'), used, origin);
  look.noun = facts.noun.toLowerCase();
  // What a game's own words or a hint brought in (the writer's own words fit already) joins the look,
  // so the icon shows what the words say.
  const said = namedBy([name, description, lore], [cues.enemy, cues.location, look.noun, subtype]);
  look.materials = [...new Set([...look.materials, ...[...said.materials].filter((m) => !fits(m))])].slice(
    0,
    3,
  );
  look.colors = [...new Set([...look.colors, ...said.colours])].slice(0, 3);
  look.features = [...new Set([...look.features, ...said.features])].slice(0, 4);
  // Written out rather than spread from the facts: V8 builds a spread object it then extends slowly.
  const plan: ItemPlan & ItemFacts = {
    vocab,
    name,
    noun: facts.noun,
    type,
    subtype,
    material,
    element,
    stats,
    value,
    rarity: rarityName,
    level,
    description,
    lore,
    effects,
    budget,
    fields: gameFields(vocab, type, rarity, rng.fork('fields')),
    look,
  };
  if (color) plan.color = color;
  return plan;
}
