import { type GameDefinition, type GeneratedItem, RARITIES, type Rarity } from '@lootsmith/protocol';
import { pickWeighted, type Random } from './random.ts';

const rarityIndex = (r: Rarity) => RARITIES.indexOf(r);
/** A rarity written as the game writes it, in capitals: text that claims a rarity the item does not have. */
const RARITY_WORD = new RegExp(`\\b(${RARITIES.join('|')})\\b`);

/** The enemy of the game definition with this id or name (any case). */
export function findEnemy(game: GameDefinition, name: string | undefined) {
  if (!name) return undefined;
  const needle = name.toLowerCase();
  return game.enemies.find((e) => e.id === needle || e.name.toLowerCase() === needle);
}

/** Weights of each rarity (in `RARITIES` order) for an enemy tier; higher player levels shift weight upwards. */
export function rarityWeights(game: GameDefinition, tier: number, playerLevel: number): number[] {
  const table = game.loot_tables[Math.min(tier, game.loot_tables.length) - 1] ?? game.loot_tables[0] ?? {};
  const weights = RARITIES.map((r) => table[r] ?? 0);
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
  return RARITIES[pickWeighted(rarityWeights(game, tier, playerLevel), random)] as Rarity;
}

/** Stat points an item of this rarity and level may carry. */
export function statBudget(game: GameDefinition, rarity: Rarity, level: number): number {
  const b = game.stat_budget;
  return Math.round((b.base + b.per_level * level) * b.rarity_multiplier[rarity]);
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
  type?: GeneratedItem['type'];
  rarity: Rarity;
  level: number;
}

/** Game rules a generated item must meet; each problem is a sentence a model can act on. */
export function checkItem(game: GameDefinition, item: GeneratedItem, want: ItemExpectation): string[] {
  const problems: string[] = [];
  if (item.rarity !== want.rarity) problems.push(`rarity must be ${want.rarity}, not ${item.rarity}`);
  if (want.type && item.type !== want.type) problems.push(`type must be ${want.type}, not ${item.type}`);
  if (item.level !== want.level) problems.push(`level must be ${want.level}, not ${item.level}`);
  const budget = statBudget(game, want.rarity, want.level);
  const sum = item.stats.reduce((a, s) => a + Math.max(0, s.value), 0);
  if (sum > budget * game.stat_budget.tolerance)
    problems.push(`stats sum to ${sum}, above the stat budget of ${budget}: lower them`);
  const names = new Set<string>();
  for (const s of item.stats) {
    if (names.has(s.name)) problems.push(`stat ${s.name} appears twice`);
    names.add(s.name);
  }
  const cap = valueCap(game, want.rarity, want.level);
  if (item.value > cap) problems.push(`value ${item.value} is above ${cap}, the most this item may be worth`);
  const affixes = game.item_limits.affixes_by_rarity[want.rarity];
  if (item.affixes.length > affixes)
    problems.push(`a ${want.rarity} item has at most ${affixes} affixes, not ${item.affixes.length}`);
  if (!game.item_limits.on_hit_types.includes(item.type))
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
    const named = RARITY_WORD.exec(text)?.[0];
    if (named && named !== want.rarity)
      problems.push(`${where}: names the rarity ${named}; leave rarity out`);
  }
  return problems;
}

/** The rarity a crafted item gets: its best ingredient's, a step up for a generous stack and for skill. */
export function craftedRarity(
  game: GameDefinition,
  ingredientRarities: Rarity[],
  totalQuantity: number,
  craftingLvl: number,
): Rarity {
  const rules = game.crafting;
  const best = Math.max(0, ...ingredientRarities.map(rarityIndex));
  const stack = Math.floor(totalQuantity / rules.rarity_step_quantity);
  const skill = rules.rarity_step_crafting_levels
    ? Math.floor(craftingLvl / rules.rarity_step_crafting_levels)
    : 0;
  return RARITIES[Math.min(best + stack + skill, rarityIndex(rules.max_rarity))] as Rarity;
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
