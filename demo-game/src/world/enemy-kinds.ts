import type { EnemyKindId } from './dungeon-map.ts';

export interface EnemyKind {
  id: EnemyKindId;
  name: string;
  hp: number;
  /** Damage per hit on the hero, as [min, max], before the hero's defence. */
  damage: [number, number];
  /** Milliseconds between its hits. */
  attackEvery: number;
  /** Its hits are of this element: the matching resistance blunts them. */
  element?: 'fire' | 'frost' | 'poison' | 'shadow';
  /** Pixels per second while chasing. */
  speed: number;
  /** Radius in pixels for clicks, contact and the shadow. */
  radius: number;
  /** Hero XP for a kill. */
  xp: number;
  /** How many items it drops. */
  loot: number;
  /** Seconds before another one appears at its spawn; none for the boss. */
  respawn?: number;
  boss?: boolean;
  /**
   * A blow on everything near: every `every` ms in a fight it winds up for `windup` ms (a ring on the
   * floor shows its `radius`), then hurts a hero still inside the ring by `damage`.
   */
  stomp?: { every: number; windup: number; radius: number; damage: number };
}

export const ENEMY_KINDS: Record<EnemyKindId, EnemyKind> = {
  slime: {
    id: 'slime',
    xp: 8,
    name: 'Green Slime',
    hp: 12,
    damage: [1, 3],
    attackEvery: 1200,
    element: 'poison',
    speed: 40,
    radius: 14,
    loot: 1,
    respawn: 90,
  },
  rat: {
    id: 'rat',
    xp: 6,
    name: 'Cellar Rat',
    hp: 9,
    damage: [2, 3],
    attackEvery: 1000,
    speed: 70,
    radius: 13,
    loot: 1,
    respawn: 90,
  },
  skeleton: {
    id: 'skeleton',
    xp: 18,
    name: 'Skeleton Warrior',
    hp: 80,
    damage: [4, 6],
    attackEvery: 1200,
    speed: 55,
    radius: 14,
    loot: 1,
    respawn: 120,
  },
  fire_imp: {
    id: 'fire_imp',
    xp: 24,
    name: 'Fire Imp',
    hp: 95,
    damage: [6, 9],
    attackEvery: 1100,
    element: 'fire',
    speed: 75,
    radius: 14,
    loot: 1,
    respawn: 120,
  },
  cultist: {
    id: 'cultist',
    xp: 28,
    name: 'Shadow Cultist',
    hp: 140,
    damage: [7, 10],
    attackEvery: 1200,
    element: 'shadow',
    speed: 50,
    radius: 14,
    loot: 2,
    respawn: 120,
  },
  frost_giant: {
    id: 'frost_giant',
    xp: 150,
    name: 'Frost Giant',
    hp: 3000,
    damage: [5, 8],
    attackEvery: 1700,
    element: 'frost',
    speed: 50,
    radius: 30,
    loot: 3,
    boss: true,
    stomp: { every: 6500, windup: 1300, radius: 95, damage: 30 },
  },
};
