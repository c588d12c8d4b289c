import {
  effectParamCeiling,
  type GameDefinition,
  type GeneratedItem,
  type ItemOrigin,
  mainStatRanges,
  type Rarity,
  type StatRange,
} from '@lootsmith/protocol';
import { plainForm } from '../content/filter.ts';
import { itemTexts } from '../content/guard.ts';
import { refuse } from '../refusal.ts';
import { agreementProblems } from './agreement.ts';
import { pickWeighted, type Random } from './random.ts';

const ANY_NUMBER = /\d+(?:[.,]\d+)*/g;
const STAT_NUMBER = /(?<![\p{L}\d])[+\-−]\s*\d+(?:[.,]\d+)*|\d+(?:[.,]\d+)*\s*%/gu;

/** The game's rarities, from the most common up. */
export const rarityIds = (game: GameDefinition) => game.rarities.map((r) => r.id);
const rarityIndex = (game: GameDefinition, r: Rarity) => rarityIds(game).indexOf(r);

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A rarity as the game writes its id: text that claims a rarity the item does not have. */
const rarityWords = new WeakMap<GameDefinition, RegExp>();
function rarityWord(game: GameDefinition): RegExp {
  let re = rarityWords.get(game);
  if (!re) {
    re = new RegExp(`\\b(${rarityIds(game).map(escapeRegExp).join('|')})\\b`);
    rarityWords.set(game, re);
  }
  return re;
}

/** A rarity as players read it, with its article: "an Uncommon", "a Rare". */
export function rarityPhrase(game: GameDefinition, rarity: Rarity): string {
  const name = game.rarities.find((r) => r.id === rarity)?.name ?? rarity;
  return `${/^[aeiou]/i.test(name) ? 'an' : 'a'} ${name}`;
}

/** Refused `unknown_type`, naming the game's types, unless the game has an item type of this id. */
export function knownType(game: GameDefinition, type: string, where: string) {
  const types = game.item_types.map((t) => t.id);
  if (!types.includes(type))
    throw refuse(
      'unknown_type',
      `${where}: the game has no item type "${type}"; its types: ${types.join(', ')}`,
      {
        types,
      },
    );
}

/** Refused `invalid_request`, naming the game's rarities, unless the game has a rarity of this id. */
export function knownRarity(game: GameDefinition, rarity: string, where: string) {
  const rarities = rarityIds(game);
  if (!rarities.includes(rarity))
    throw refuse(
      'invalid_request',
      `${where}: the game has no rarity "${rarity}"; its rarities: ${rarities.join(', ')}`,
      { rarities },
    );
}

/**
 * The ids and names the game file gives its enemies, stations, materials, item types, rarities and
 * locations, lower case: what requests name the game's own things by, not a player's free text.
 */
export function gameNames(game: GameDefinition): Set<string> {
  const named = [...game.enemies, ...game.stations, ...game.materials];
  return new Set(
    [
      ...named.flatMap((n) => [n.id, n.name]),
      ...game.item_types.map((t) => t.id),
      ...game.rarities.map((r) => r.id),
      ...game.loot_pools.locations,
      ...game.loot_pools.rooms.map((r) => r.name),
    ].map((name) => name.toLowerCase()),
  );
}

/** The enemy of the game definition with this id or name (any case). */
export function findEnemy(game: GameDefinition, name: string | undefined) {
  if (!name) return undefined;
  const needle = name.toLowerCase();
  return game.enemies.find((e) => e.id === needle || e.name.toLowerCase() === needle);
}

/** Weights of each rarity (in the game's order) for an enemy tier; higher player levels shift weight upwards. */
export function rarityWeights(game: GameDefinition, tier: number, playerLevel: number): number[] {
  const table = game.loot_tables[Math.min(tier, game.loot_tables.length) - 1] ?? game.loot_tables[0] ?? {};
  const weights = rarityIds(game).map((r) => table[r] ?? 0);
  const shift = Math.min(0.5, game.level_luck * Math.max(0, playerLevel - 1));
  // Top-down so moved weight does not cascade; a rarity the table leaves out stays out.
  for (let i = weights.length - 2; i >= 0; i--) {
    if (!weights[i + 1]) continue;
    const moved = (weights[i] ?? 0) * shift;
    weights[i] = (weights[i] ?? 0) - moved;
    weights[i + 1] = (weights[i + 1] ?? 0) + moved;
  }
  return weights;
}

/** Rolls a rarity from the enemy tier's loot table; higher player levels shift weight upwards. */
export function rollRarity(game: GameDefinition, tier: number, playerLevel: number, random: Random): Rarity {
  return rarityIds(game)[pickWeighted(rarityWeights(game, tier, playerLevel), random)] as Rarity;
}

/** Stat points an item of this rarity and level may carry. */
export function statBudget(game: GameDefinition, rarity: Rarity, level: number): number {
  const b = game.stat_budget;
  return Math.round((b.base + b.per_level * level) * (b.rarity_multiplier[rarity] ?? 1));
}

/** Most stat points an item of this rarity and level may carry: its budget within the tolerance. */
export function statCeiling(game: GameDefinition, rarity: Rarity, level: number): number {
  return Math.floor(statBudget(game, rarity, level) * game.stat_budget.tolerance);
}

/**
 * Fewest stat points an item of this rarity and level carries: one above the most the rarity below
 * may carry, so every item of a rarity is stronger than every item of the rarity below (0 for the
 * most common).
 */
export function statFloor(game: GameDefinition, rarity: Rarity, level: number): number {
  const below = rarityIds(game)[rarityIndex(game, rarity) - 1];
  return below === undefined ? 0 : statCeiling(game, below, level) + 1;
}

/** The stat item cards compare for an item type (its `main_stat`): the one each rarity raises by a fifth. */
export const mainStat = (game: GameDefinition, type: string) =>
  game.item_types.find((t) => t.id === type)?.main_stat;

/**
 * The range of an item's main stat at its rarity and level: at one level, every item of a rarity beats
 * every item of the rarity below on it by a fifth or more (`mainStatRanges` over the game's budgets).
 */
export function mainStatRange(game: GameDefinition, rarity: Rarity, level: number): StatRange {
  const ranges = mainStatRanges(rarityIds(game).map((r) => statBudget(game, r, level)));
  return ranges[Math.max(0, rarityIndex(game, rarity))] as StatRange;
}

type Stats = GeneratedItem['stats'];

/** The stats with the main stat raised to the least of its range, if it was below (or missing). */
function mainRaised(stats: Stats, main: string | undefined, range: StatRange): Stats {
  if (!main) return stats;
  const value = stats.find((s) => s.name === main)?.value;
  if (value === undefined) return [{ name: main, value: range.least }, ...stats];
  return value >= range.least
    ? stats
    : stats.map((s) => (s.name === main ? { ...s, value: range.least } : s));
}

/** Most gold an item of this rarity and level is worth. */
export function valueCap(game: GameDefinition, rarity: Rarity, level: number): number {
  return Math.round(statBudget(game, rarity, level) * game.item_limits.value_per_budget_point);
}

export function clampLevel(game: GameDefinition, level: number): number {
  return Math.max(1, Math.min(game.max_item_level, Math.round(level)));
}

/**
 * How far above a player a drop of this enemy tier reaches: its tier (a tier-3 enemy's drops reach
 * three levels up), never more than the game's `drop_level_over`.
 */
export const dropReach = (game: GameDefinition, tier: number) => Math.min(tier, game.drop_level_over);

/** The item levels a drop may give a player: three levels, the highest the player's level plus its reach. */
export function dropLevels(game: GameDefinition, playerLevel: number, tier: number): [number, number] {
  const top = playerLevel + dropReach(game, tier);
  return [clampLevel(game, top - 2), clampLevel(game, top)];
}

export function craftingLevel(game: GameDefinition, xp: number): number {
  return Math.floor(xp / game.xp_per_level);
}

export interface ItemExpectation {
  type?: string;
  rarity: Rarity;
  level: number;
  /** What the player asked the item to lean to ("health", "crit chance, speed"). */
  focus?: string;
  /** How it comes to be; default: dropped. */
  origin?: ItemOrigin;
}

/** The game's stats a focus names, by id or name, in the order named ("Health, crit chance"). */
export function focusStats(game: GameDefinition, focus: string | undefined): string[] {
  const words = (focus ?? '').split(/[,;/]|\band\b/).map((w) => w.trim().toLowerCase().replaceAll(' ', '_'));
  return words.flatMap(
    (w) =>
      game.stats.find((s) => s.id.toLowerCase() === w || s.name.toLowerCase().replaceAll(' ', '_') === w)
        ?.id ?? [],
  );
}

/** Whether an item of this type may carry the stat. */
export const carries = (game: GameDefinition, type: string, stat: string) => {
  const carriers = game.stats.find((s) => s.id === stat)?.types;
  return !carriers || carriers.includes(type);
};

/** Game rules a generated item must meet; each problem is a sentence a model can act on. */
export function checkItem(game: GameDefinition, item: GeneratedItem, want: ItemExpectation): string[] {
  const problems: string[] = [];
  if (item.rarity !== want.rarity) problems.push(`rarity must be ${want.rarity}, not ${item.rarity}`);
  if (want.type && item.type !== want.type) problems.push(`type must be ${want.type}, not ${item.type}`);
  if (item.level !== want.level) problems.push(`level must be ${want.level}, not ${item.level}`);
  const budget = statBudget(game, want.rarity, want.level);
  // A main stat below its range is raised when the item is settled, one above it is re-asked: the
  // other rules hold for the stats as they will be stored.
  const main = mainStat(game, item.type);
  const range = mainStatRange(game, want.rarity, want.level);
  const given = item.stats.find((s) => s.name === main)?.value;
  if (main && given !== undefined && given > range.most)
    problems.push(
      `${main} is a ${item.type}'s main stat: at ${want.rarity} level ${want.level} it is ${range.least} to ${range.most}, not ${given}: lower it`,
    );
  const stats = mainRaised(item.stats, main, range);
  const raised = stats === item.stats ? '' : ` once ${main}, its main stat, is raised to ${range.least}`;
  const sum = stats.reduce((a, s) => a + Math.max(0, s.value), 0);
  if (sum > statCeiling(game, want.rarity, want.level))
    problems.push(`stats sum to ${sum}${raised}, above the stat budget of ${budget}: lower them`);
  // A drawback is bounded as a bonus is: a -999 would break the game as a +999 would.
  const drawbacks = item.stats.reduce((a, s) => a - Math.min(0, s.value), 0);
  if (drawbacks > statCeiling(game, want.rarity, want.level))
    problems.push(`negative stats sum to -${drawbacks}, beyond the stat budget of ${budget}: raise them`);
  const names = new Set<string>();
  for (const s of item.stats) {
    if (names.has(s.name)) problems.push(`stat ${s.name} appears twice`);
    names.add(s.name);
    if (!carries(game, item.type, s.name))
      problems.push(
        `a ${item.type} may not carry ${s.name} (only ${game.stats.find((x) => x.id === s.name)?.types?.join(', ')} do)`,
      );
  }
  const lean = focusStats(game, want.focus).find((stat) => carries(game, item.type, stat));
  const leaning = stats.find((s) => s.name === lean)?.value;
  if (lean && (leaning === undefined || stats.some((s) => s.value > leaning)))
    problems.push(`the player asked for ${lean}: make it the item's strongest stat${raised}`);
  for (const field of game.item_fields)
    if (field.types.includes(item.type) && (item[field.id] === undefined || item[field.id] === null))
      problems.push(`${field.id} is required on a ${item.type}: ${field.description}`);
  const cap = valueCap(game, want.rarity, want.level);
  if (item.value > cap) problems.push(`value ${item.value} is above ${cap}, the most this item may be worth`);
  problems.push(...effectProblems(game, item, want.rarity));
  problems.push(...agreementProblems(game, item, want.origin ?? 'dropped'));
  // Every text players read (a colour is a hex code), in its plain form: "＋９９９９９" is +99999. The
  // description quotes stats, so any number counts there; elsewhere a signed one or a percentage
  // ("+99999", "-999"), not a name's "Blade of the 12 Winds".
  for (const [field, text] of itemTexts(item)) {
    if (!text || field === 'color') continue;
    const plain = plainForm(text);
    const numbers = plain.match(field === 'description' ? ANY_NUMBER : STAT_NUMBER) ?? [];
    const biggest = Math.max(0, ...numbers.map((n) => Number(n.replace(/[^\d.]/g, ''))));
    if (biggest > budget) problems.push(`${field}: ${biggest} is more than the stat budget of ${budget}`);
    const named = rarityWord(game).exec(plain)?.[0];
    if (named && named !== want.rarity)
      problems.push(`${field}: names the rarity ${named}; leave rarity out`);
  }
  return problems;
}

/**
 * What is wrong with an item's effects: one the game's catalogue lacks, one its type may not carry,
 * one twice, more than its rarity allows, or numbers not the effect's own. Numbers out of range are
 * not wrong here: `settleItem` clamps them.
 */
function effectProblems(game: GameDefinition, item: GeneratedItem, rarity: Rarity): string[] {
  const problems: string[] = [];
  const most = game.item_limits.affixes_by_rarity[rarity] ?? 0;
  if (item.effects.length > most)
    problems.push(`a ${rarity} item has at most ${most} effects, not ${item.effects.length}`);
  const seen = new Set<string>();
  const catalogue = game.effects.map((e) => e.id);
  item.effects.forEach((effect, i) => {
    const at = `effects.${i}`;
    const known = game.effects.find((e) => e.id === effect.id);
    if (!known) {
      problems.push(
        `${at}: the game has no effect "${effect.id}"; ${catalogue.length ? `use one of ${catalogue.join(', ')}` : 'leave effects empty'}`,
      );
      return;
    }
    if (seen.has(effect.id)) problems.push(`${at}: ${effect.id} appears twice`);
    seen.add(effect.id);
    if (!known.types.includes(item.type))
      problems.push(`${at}: a ${item.type} may not carry ${effect.id} (only ${known.types.join(', ')} do)`);
    const wanted = Object.keys(known.params);
    const given = Object.keys(effect.params);
    const missing = wanted.filter((p) => !given.includes(p));
    const stray = given.filter((p) => !wanted.includes(p));
    if (missing.length || stray.length)
      problems.push(
        `${at}: ${effect.id} takes ${wanted.length ? `exactly ${wanted.join(', ')}` : 'no params'}${missing.length ? `; missing ${missing.join(', ')}` : ''}${stray.length ? `; not ${stray.join(', ')}` : ''}`,
      );
  });
  return problems;
}

/**
 * An item's stats as a model should have written them: its main stat raised to the least of its range,
 * then the whole raised to its rarity's floor, the shortfall on its strongest other stat, else on the
 * next stat its type leans to (the main stat only when the type may carry no other).
 */
function statsAtFloor(game: GameDefinition, item: GeneratedItem): Stats {
  const main = mainStat(game, item.type);
  const stats = mainRaised(item.stats, main, mainStatRange(game, item.rarity, item.level));
  const short =
    statFloor(game, item.rarity, item.level) - stats.reduce((a, s) => a + Math.max(0, s.value), 0);
  if (short <= 0) return stats;
  const strongest = stats
    .filter((s) => s.name !== main && s.value > 0)
    .reduce<Stats[number] | undefined>((best, s) => (s.value > (best?.value ?? 0) ? s : best), undefined);
  const other = [...(game.primary_stats[item.type] ?? []), ...game.stats.map((s) => s.id)].find(
    (s) => s !== main && carries(game, item.type, s) && !stats.some((x) => x.name === s),
  );
  const lift = strongest?.name ?? other ?? main;
  if (!lift) return stats;
  if (!stats.some((s) => s.name === lift)) return [...stats, { name: lift, value: short }];
  return stats.map((s) => (s.name === lift ? { ...s, value: Math.max(0, s.value) + short } : s));
}

/** A description that quoted a stat ("+6 attack") quoting it as raised ("+9 attack"). */
function restated(
  game: GameDefinition,
  description: string,
  before: GeneratedItem['stats'],
  after: GeneratedItem['stats'],
): string {
  let text = description;
  for (const s of after) {
    const old = before.find((b) => b.name === s.name);
    if (!old || old.value === s.value) continue;
    const name = game.stats.find((x) => x.id === s.name)?.name ?? s.name;
    for (const word of new Set([name, s.name.replaceAll('_', ' ')]))
      text = text
        .replaceAll(`+${old.value} ${word}`, `+${s.value} ${word}`)
        .replaceAll(`+${old.value}% ${word}`, `+${s.value}% ${word}`);
  }
  return text;
}

/** Each number of an item's effects within its range for the item's rarity and level. */
function clampEffects(game: GameDefinition, item: GeneratedItem): GeneratedItem['effects'] {
  const step = Math.max(0, rarityIndex(game, item.rarity));
  return item.effects.map((effect) => {
    const known = game.effects.find((e) => e.id === effect.id);
    if (!known) return effect;
    const params = Object.fromEntries(
      Object.entries(effect.params).map(([name, value]) => {
        const range = known.params[name];
        if (!range) return [name, value];
        const ceiling = effectParamCeiling(range, step, item.level);
        return [name, Math.round(Math.min(ceiling, Math.max(range.min, value)) * 10) / 10];
      }),
    );
    return { id: effect.id, params };
  });
}

/**
 * The item as the game stores it, once `checkItem` passed it, with how it came to be: the game's own fields kept only on the
 * types that carry them (a model may write a potion's durability; a potion has none), its stats raised
 * to its rarity's floor, and each effect number clamped to its range for the item's rarity and level.
 */
export function settleItem<T extends GeneratedItem>(
  game: GameDefinition,
  item: T,
  origin: ItemOrigin = 'dropped',
): T {
  const stats = statsAtFloor(game, item);
  const kept: T = {
    ...item,
    stats,
    description: restated(game, item.description, item.stats, stats),
    effects: clampEffects(game, item),
    // A game without a currency gives its items no worth (its cards show none).
    value: game.currency ? item.value : 0,
    origin,
  };
  for (const f of game.item_fields)
    if (f.id in kept && (!f.types.includes(item.type) || kept[f.id] === null)) delete kept[f.id];
  if (kept.color === null) delete kept.color;
  return kept;
}

/** The rarity a crafted item gets: its best ingredient's, a step up for a generous stack and for skill. */
export function craftedRarity(
  game: GameDefinition,
  ingredientRarities: Rarity[],
  totalQuantity: number,
  craftingLvl: number,
): Rarity {
  const rules = game.crafting;
  const best = Math.max(0, ...ingredientRarities.map((r) => rarityIndex(game, r)));
  const stack = Math.floor(totalQuantity / rules.rarity_step_quantity);
  const skill = rules.rarity_step_crafting_levels
    ? Math.floor(craftingLvl / rules.rarity_step_crafting_levels)
    : 0;
  return rarityIds(game)[Math.min(best + stack + skill, rarityIndex(game, rules.max_rarity))] as Rarity;
}

/**
 * A crafted item's level: its best ingredient's plus a share of crafting skill, bounded by the
 * player's level, so no chain of crafts outruns what the loot tables drop.
 */
export function craftedLevel(
  game: GameDefinition,
  bestIngredient: number,
  craftingLvl: number,
  playerLevel: number | null,
): number {
  const rules = game.crafting;
  const wanted = bestIngredient + Math.floor(craftingLvl * rules.levels_per_crafting_level);
  // A player whose level the server never learnt crafts at the level of what went in, no higher.
  const bound = playerLevel === null ? bestIngredient : playerLevel + rules.max_levels_above_player;
  return clampLevel(game, Math.min(wanted, Math.max(bound, 1)));
}

/** Crafting XP for a result: the route's XP times the factor of its rarity. */
export function craftingXp(game: GameDefinition, base: number, rarity: Rarity): number {
  return Math.round(base * (game.crafting.xp_factor_by_rarity[rarity] ?? 1));
}
