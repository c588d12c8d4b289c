import type { Item, ItemEffect } from '@lootsmith/plugin';

/** The effects the demo plays: those of the shipped fantasy RPG's catalogue. */
export const PLAYED_EFFECTS = [
  'life_steal',
  'burn',
  'frost_slow',
  'thorns',
  'heal_on_kill',
  'regeneration',
] as const;
export type EffectId = (typeof PLAYED_EFFECTS)[number];

const played = (id: string): id is EffectId => (PLAYED_EFFECTS as readonly string[]).includes(id);

/** The effects of an item that the demo plays (an effect of another game's catalogue is left out). */
export function itemEffects(item: Item): Array<ItemEffect & { id: EffectId }> {
  return item.effects.filter((e): e is ItemEffect & { id: EffectId } => played(e.id));
}

/** What the worn items' effects add up to (zero when nothing worn carries the effect). */
export interface HeroEffects {
  /** Per cent of each hit's damage healed. */
  lifeSteal: number;
  /** Damage a burning enemy takes each second, for `seconds` after a hit. */
  burn: { damage: number; seconds: number };
  /** Per cent slower an enemy moves and strikes, for `seconds` after a hit. */
  frostSlow: { percent: number; seconds: number };
  /** Damage an enemy takes each time it strikes the hero. */
  thorns: number;
  /** Health back for each kill. */
  healOnKill: number;
  /** Health back every five seconds, in or out of a fight. */
  regeneration: number;
}

const clamp = (v: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, v));

/**
 * The demo's rules for effects: amounts of one effect on several worn items add up (life steal to at
 * most 50%, a slow to at most 70%), and a burn's or a slow's length is the longest worn.
 */
export function heroEffects(worn: readonly Item[]): HeroEffects {
  const all = worn.flatMap(itemEffects);
  const param = (id: EffectId, name: string, pick: (a: number, b: number) => number = (a, b) => a + b) =>
    all.filter((e) => e.id === id).reduce((sum, e) => pick(sum, e.params[name] ?? 0), 0);
  return {
    lifeSteal: clamp(param('life_steal', 'percent'), 0, 50),
    burn: { damage: param('burn', 'damage'), seconds: param('burn', 'seconds', Math.max) },
    frostSlow: {
      percent: clamp(param('frost_slow', 'percent'), 0, 70),
      seconds: param('frost_slow', 'seconds', Math.max),
    },
    thorns: param('thorns', 'damage'),
    healOnKill: param('heal_on_kill', 'health'),
    regeneration: param('regeneration', 'health_per_5s'),
  };
}
