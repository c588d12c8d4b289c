import type { StatName } from '@lootsmith/plugin';

/** Milliseconds between the hero's swings (at an enemy or at the door). */
export const SWING_EVERY = 450;
/** The hero at level 1 with nothing worn. */
export const BASE = { attack: 2, health: 40, speed: 150, crit: 5 };
/** Health the hero's fighting level adds, per level above the first. */
export const HEALTH_PER_LEVEL = 4;

export type Element = 'fire' | 'frost' | 'poison' | 'shadow';

/** What the hero fights with: the base plus the worn items' stats (the server sums them). */
export interface HeroStats {
  attack: number;
  defense: number;
  maxHp: number;
  /** Pixels per second. */
  speed: number;
  /** Chance of a double hit, 0–1. */
  crit: number;
  /** Per cent less damage from enemies of that element. */
  resist: Record<Element, number>;
}

const clamp = (v: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, v));

/**
 * The demo's rules for item stats: attack adds to every hit (and half of magic), defence blunts
 * hits, health (and half of mana) adds to the health bar, speed quickens the step, crit chance and
 * half of luck give double hits, a resistance blunts that element's hits. Each fighting level above
 * the first adds `HEALTH_PER_LEVEL` health.
 */
export function heroStats(worn: Partial<Record<StatName, number>>, level = 1): HeroStats {
  const s = (name: StatName) => worn[name] ?? 0;
  const resist = (name: StatName) => clamp(s(name), 0, 60);
  return {
    attack: Math.max(1, BASE.attack + s('attack') + Math.floor(s('magic') / 2)),
    defense: Math.max(0, s('defense')),
    maxHp: Math.max(
      10,
      BASE.health + HEALTH_PER_LEVEL * (level - 1) + s('health') + Math.floor(s('mana') / 2),
    ),
    speed: clamp(BASE.speed + 5 * s('speed'), 100, 260),
    crit: clamp(BASE.crit + s('crit_chance') + Math.floor(s('luck') / 2), 0, 60) / 100,
    resist: {
      fire: resist('fire_resist'),
      frost: resist('frost_resist'),
      poison: resist('poison_resist'),
      shadow: resist('shadow_resist'),
    },
  };
}

/** The lowest and highest plain hit of an attack value. */
export function damageRange(attack: number): [number, number] {
  return [Math.max(1, Math.round(attack * 0.8)), Math.max(1, Math.round(attack * 1.2))];
}

/** "4–6", or "2" when every hit is the same. */
export function hitText(attack: number): string {
  const [min, max] = damageRange(attack);
  return min === max ? String(min) : `${min}–${max}`;
}

/** One swing: a roll in the range, doubled on a critical hit. */
export function rollDamage(stats: HeroStats, random = Math.random): { damage: number; crit: boolean } {
  const [min, max] = damageRange(stats.attack);
  const crit = random() < stats.crit;
  const damage = min + Math.floor(random() * (max - min + 1));
  return { damage: damage * (crit ? 2 : 1), crit };
}

/** Monsters hit this much harder for each hero level above the first: levels alone do not win. */
export const DAMAGE_PER_LEVEL = 0.1;
/** Defence blunts a blow by at most this share (60%); defence and a resistance together by 75%. */
const MOST_FROM_DEFENCE = 0.6;
const MOST_MITIGATED = 0.75;

/** The share of a blow defence lets through: 12 defence halves it, and no amount stops more than 60%. */
export const defenceLets = (defense: number) => Math.max(1 - MOST_FROM_DEFENCE, 12 / (12 + defense));

/**
 * What an enemy's hit does to a hero of `level`: harder by `DAMAGE_PER_LEVEL` a level, blunted by
 * defence and the matching resistance, never by more than 75%, and never less than 1.
 */
export function damageTaken(raw: number, stats: HeroStats, element?: string, level = 1): number {
  const resist = element && element in stats.resist ? stats.resist[element as Element] : 0;
  const lets = Math.max(1 - MOST_MITIGATED, defenceLets(stats.defense) * (1 - resist / 100));
  return Math.max(1, Math.round(raw * (1 + DAMAGE_PER_LEVEL * (level - 1)) * lets));
}

/** A potion restores this many times its health (and half its mana): one drink turns a fight. */
export const POTION_STRENGTH = 4;

/** Health a used item restores: its health and half its mana, times `POTION_STRENGTH`. */
export function healingOf(effects: Array<{ name: string; value: number }>): number {
  const of = (name: string) => effects.find((e) => e.name === name)?.value ?? 0;
  return Math.max(0, POTION_STRENGTH * (of('health') + Math.floor(of('mana') / 2)));
}
