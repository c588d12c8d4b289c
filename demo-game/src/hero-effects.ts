import type { Item } from '@lootsmith/plugin';

/** One effect an item carries: an id of the game's effect catalogue and its numbers. */
export interface ItemEffect {
  id: string;
  params: Record<string, number>;
}

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
  const effects = (item as Item & { effects?: ItemEffect[] }).effects ?? [];
  return effects.filter((e): e is ItemEffect & { id: EffectId } => played(e.id));
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

/** What an effect does in the demo, in the words of an item card. */
export function effectText({ id, params: p }: ItemEffect & { id: EffectId }): string {
  switch (id) {
    case 'life_steal':
      return `heals you ${p.percent ?? 0}% of the damage you deal`;
    case 'burn':
      return `sets the enemy you hit burning: ${p.damage ?? 0} damage a second for ${p.seconds ?? 0} s`;
    case 'frost_slow':
      return `chills the enemy you hit: ${p.percent ?? 0}% slower for ${p.seconds ?? 0} s`;
    case 'thorns':
      return `an enemy that strikes you takes ${p.damage ?? 0} damage`;
    case 'heal_on_kill':
      return `+${p.health ?? 0} health for each kill`;
    case 'regeneration':
      return `+${p.health_per_5s ?? 0} health every 5 s, even in a fight`;
  }
}
