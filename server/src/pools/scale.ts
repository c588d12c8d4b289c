import type { GameDefinition, Item } from '@lootsmith/protocol';
import {
  checkItem,
  type ItemExpectation,
  mainStat,
  mainStatRange,
  statBudget,
  valueCap,
} from '../game/rules.ts';

const STAT_MIN = -999;
const STAT_MAX = 9999;

/**
 * A pooled item made for a neighbouring level band, brought to `level` by the game's own stat rules:
 * each stat and the value are scaled by the ratio of the stat budgets of the two levels (a stat keeps
 * its sign and at least one point; the main stat stays in its range at the new level; the value stays
 * within the game's cap), then the whole item is
 * checked by `checkItem` as a fresh answer would be. Name, icon, type, rarity, element, material,
 * text, affixes and the game's own fields are unchanged. Returns the problems when it fails a rule.
 */
export function scaleItem(
  game: GameDefinition,
  item: Item,
  level: number,
  want: Omit<ItemExpectation, 'level'>,
): { item: Item } | { problems: string[] } {
  const ratio = statBudget(game, item.rarity, level) / Math.max(1, statBudget(game, item.rarity, item.level));
  const scale = (value: number) => {
    if (value === 0) return 0;
    const scaled = Math.round(value * ratio);
    const bounded = Math.min(STAT_MAX, Math.max(STAT_MIN, scaled));
    return bounded === 0 ? Math.sign(value) : bounded;
  };
  const main = mainStat(game, item.type);
  const range = mainStatRange(game, item.rarity, level);
  const scaled: Item = {
    ...item,
    level,
    stats: item.stats.map((s) => ({
      ...s,
      value: s.name === main ? Math.min(range.most, Math.max(range.least, scale(s.value))) : scale(s.value),
    })),
    value: Math.min(valueCap(game, item.rarity, level), Math.max(0, Math.round(item.value * ratio))),
  };
  const problems = checkItem(game, scaled, { ...want, level });
  return problems.length ? { problems } : { item: scaled };
}
