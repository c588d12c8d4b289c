import type { EffectLine } from './effect-line.ts';
import type { EffectParamDefinition } from './game.ts';
import type { ItemEffect } from './items.ts';

/**
 * The greatest value an item of this rarity step (0: the most common) and level may carry in one
 * param of an effect: `min + per_rarity × step + per_level × level`, never above `max`; `max` when
 * the param says neither.
 */
export function effectParamCeiling(
  param: Pick<EffectParamDefinition, 'min' | 'max' | 'per_rarity' | 'per_level'>,
  rarityStep: number,
  level: number,
): number {
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
  catalogue: ReadonlyArray<{ id: string; name?: string; text?: string }>,
): { name: string; text: string } | undefined {
  const known = catalogue.find((e) => e.id === effect.id);
  if (!known?.name || !known.text) return undefined;
  const text = known.text.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = effect.params[name];
    return value === undefined ? whole : rounded(value);
  });
  return { name: known.name, text };
}

/**
 * The shipped fantasy game's effects (`effects` of server/game/fantasy-rpg.json, which a test keeps
 * equal): what the offline writer gives items when a request describes no game of its own.
 */
export const FANTASY_EFFECTS: readonly EffectLine[] = [
  {
    id: 'life_steal',
    name: 'Life Steal',
    text: 'Heals you for {percent}% of the damage you deal',
    types: ['WEAPON', 'GLOVES'],
    params: { percent: { unit: '%', min: 2, max: 20, per_rarity: 3, per_level: 0.1 } },
  },
  {
    id: 'burn',
    name: 'Burn',
    text: 'Hits set the target burning for {damage} damage a second for {seconds} s',
    types: ['WEAPON', 'GLOVES'],
    elements: ['fire'],
    params: {
      damage: { unit: 'damage', min: 1, max: 12, per_rarity: 1, per_level: 0.15 },
      seconds: { unit: 's', min: 2, max: 5, per_rarity: 0.5 },
    },
  },
  {
    id: 'frost_slow',
    name: 'Frost Slow',
    text: 'Hits slow the target by {percent}% for {seconds} s',
    types: ['WEAPON', 'GLOVES'],
    elements: ['frost'],
    params: {
      percent: { unit: '%', min: 10, max: 50, per_rarity: 6, per_level: 0.2 },
      seconds: { unit: 's', min: 1, max: 4, per_rarity: 0.5 },
    },
  },
  {
    id: 'thorns',
    name: 'Thorns',
    text: 'Enemies that hit you take {damage} damage',
    types: ['SHIELD', 'CHEST', 'HELMET', 'LEGS', 'BOOTS'],
    params: { damage: { unit: 'damage', min: 1, max: 15, per_rarity: 1.5, per_level: 0.15 } },
  },
  {
    id: 'heal_on_kill',
    name: 'Heal on Kill',
    text: 'Each enemy you defeat heals you for {health} health',
    types: ['WEAPON', 'GLOVES', 'HELMET', 'ACCESSORY'],
    params: { health: { unit: 'health', min: 2, max: 30, per_rarity: 2, per_level: 0.3 } },
  },
  {
    id: 'regeneration',
    name: 'Regeneration',
    text: 'Restores {health_per_5s} health every 5 s',
    types: ['CHEST', 'LEGS', 'BOOTS', 'SHIELD', 'ACCESSORY'],
    params: { health_per_5s: { unit: 'health', min: 1, max: 10, per_rarity: 1, per_level: 0.1 } },
  },
];
