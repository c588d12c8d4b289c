import type { GameDefinition, GeneratedItem, Rarity } from '@lootsmith/protocol';
import { refuse } from '../refusal.ts';
import { pickWeighted, type Random } from './random.ts';

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

/** Most gold an item of this rarity and level is worth. */
export function valueCap(game: GameDefinition, rarity: Rarity, level: number): number {
  return Math.round(statBudget(game, rarity, level) * game.item_limits.value_per_budget_point);
}

export function clampLevel(game: GameDefinition, level: number): number {
  return Math.max(1, Math.min(game.max_item_level, Math.round(level)));
}

export function craftingLevel(game: GameDefinition, xp: number): number {
  return Math.floor(xp / game.xp_per_level);
}

export interface ItemExpectation {
  type?: string;
  rarity: Rarity;
  level: number;
}

/** Game rules a generated item must meet; each problem is a sentence a model can act on. */
export function checkItem(game: GameDefinition, item: GeneratedItem, want: ItemExpectation): string[] {
  const problems: string[] = [];
  if (item.rarity !== want.rarity) problems.push(`rarity must be ${want.rarity}, not ${item.rarity}`);
  if (want.type && item.type !== want.type) problems.push(`type must be ${want.type}, not ${item.type}`);
  if (item.level !== want.level) problems.push(`level must be ${want.level}, not ${item.level}`);
  const type = game.item_types.find((t) => t.id === item.type);
  const budget = statBudget(game, want.rarity, want.level);
  const sum = item.stats.reduce((a, s) => a + Math.max(0, s.value), 0);
  if (sum > budget * game.stat_budget.tolerance)
    problems.push(`stats sum to ${sum}, above the stat budget of ${budget}: lower them`);
  const names = new Set<string>();
  for (const s of item.stats) {
    if (names.has(s.name)) problems.push(`stat ${s.name} appears twice`);
    names.add(s.name);
    const carriers = game.stats.find((x) => x.id === s.name)?.types;
    if (carriers && !carriers.includes(item.type))
      problems.push(`a ${item.type} may not carry ${s.name} (only ${carriers.join(', ')} do)`);
  }
  for (const field of game.item_fields)
    if (field.types.includes(item.type) && (item[field.id] === undefined || item[field.id] === null))
      problems.push(`${field.id} is required on a ${item.type}: ${field.description}`);
  const cap = valueCap(game, want.rarity, want.level);
  if (item.value > cap) problems.push(`value ${item.value} is above ${cap}, the most this item may be worth`);
  const affixes = game.item_limits.affixes_by_rarity[want.rarity] ?? 0;
  if (item.affixes.length > affixes)
    problems.push(`a ${want.rarity} item has at most ${affixes} affixes, not ${item.affixes.length}`);
  if (type && !type.strikes)
    item.affixes.forEach((a, i) => {
      if (ON_HIT.test(a.effect))
        problems.push(
          `affixes.${i}: a ${item.type} does not strike, so its effects act on use or while worn, not on a hit`,
        );
    });
  const texts = [
    ['description', item.description],
    ...item.affixes.map((a, i) => [`affixes.${i}`, `${a.name} ${a.effect}`]),
  ];
  for (const [where, text] of texts as Array<[string, string]>) {
    const biggest = Math.max(
      0,
      ...(text.match(/\d+(?:[.,]\d+)*/g) ?? []).map((n) => Number(n.replace(/,/g, ''))),
    );
    if (biggest > budget) problems.push(`${where}: ${biggest} is more than the stat budget of ${budget}`);
    const named = rarityWord(game).exec(text)?.[0];
    if (named && named !== want.rarity)
      problems.push(`${where}: names the rarity ${named}; leave rarity out`);
  }
  return problems;
}

/**
 * The item as the game stores it: the game's own fields kept only on the types that carry them
 * (a model may write a potion's durability; a potion has none).
 */
export function keepGameFields<T extends GeneratedItem>(game: GameDefinition, item: T): T {
  const stray = game.item_fields.filter(
    (f) => f.id in item && (!f.types.includes(item.type) || item[f.id] === null),
  );
  if (!stray.length) return item;
  const kept = { ...item };
  for (const f of stray) delete kept[f.id];
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

/** Wording of an effect that acts when striking: only on types that strike. */
const ON_HIT = /\b(hits?|on hit|strikes?|struck|critical hits?)\b/i;
