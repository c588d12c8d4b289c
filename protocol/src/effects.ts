import type { EffectDefinition, EffectParamDefinition } from './game.ts';
import type { ItemEffect } from './items.ts';

/**
 * The greatest value an item of this rarity step (0: the most common) and level may carry in one
 * param of an effect: `min + per_rarity × step + per_level × level`, never above `max`; `max` when
 * the param says neither.
 */
export function effectParamCeiling(param: EffectParamDefinition, rarityStep: number, level: number): number {
  if (param.per_rarity === undefined && param.per_level === undefined) return param.max;
  const rise = (param.per_rarity ?? 0) * rarityStep + (param.per_level ?? 0) * level;
  return Math.min(param.max, Math.max(param.min, param.min + rise));
}

const rounded = (n: number) => String(Math.round(n * 10) / 10);

/**
 * How an item card words an effect: its catalogue name, and the catalogue's text with the item's
 * numbers in it ("Heals you for 5% of the damage you deal"). Undefined for an effect the game's
 * catalogue lacks: a card shows only what the game does.
 */
export function effectText(
  effect: ItemEffect,
  catalogue: ReadonlyArray<Pick<EffectDefinition, 'id' | 'name' | 'text'>>,
): { name: string; text: string } | undefined {
  const known = catalogue.find((e) => e.id === effect.id);
  if (!known) return undefined;
  const text = known.text.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = effect.params[name];
    return value === undefined ? whole : rounded(value);
  });
  return { name: known.name, text };
}
