/** The least and the most an item's main stat may be. */
export interface StatRange {
  least: number;
  most: number;
}

/**
 * The range of an item type's main stat (the stat item cards compare) at each rarity of one level,
 * from the rarities' stat budgets at that level, most common first. A rarity's least is half its
 * budget, and at least a fifth above the least of the rarity below; its most stays a fifth below the
 * least of the rarity above (the rarest's reaches a fifth above its own least). So, at one level and
 * type, every item of a rarity beats every item of the rarity below on its main stat by a fifth or more.
 */
export function mainStatRanges(budgets: readonly number[]): StatRange[] {
  const least: number[] = [];
  for (const budget of budgets) {
    const below = least.at(-1);
    // 6/5 and 5/6 in whole numbers: 1.2 × 5 is not quite 6 in floating point.
    least.push(Math.max(1, Math.floor(budget / 2), below === undefined ? 1 : Math.ceil((6 * below) / 5)));
  }
  return least.map((l, i) => {
    const above = least[i + 1];
    return { least: l, most: above === undefined ? Math.floor((6 * l) / 5) : Math.floor((5 * above) / 6) };
  });
}
