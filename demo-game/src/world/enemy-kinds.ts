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
}

export const ENEMY_KINDS: Record<EnemyKindId, EnemyKind> = {
  slime: {
    id: 'slime',
    xp: 8,
    name: 'Green Slime',
    hp: 7,
    damage: [1, 2],
    attackEvery: 1200,
    element: 'poison',
    speed: 40,
    radius: 14,
    loot: 1,
    respawn: 30,
  },
  rat: {
    id: 'rat',
    xp: 6,
    name: 'Cellar Rat',
    hp: 5,
    damage: [1, 3],
    attackEvery: 1000,
    speed: 70,
    radius: 13,
    loot: 1,
    respawn: 30,
  },
  skeleton: {
    id: 'skeleton',
    xp: 18,
    name: 'Skeleton Warrior',
    hp: 18,
    damage: [2, 4],
    attackEvery: 1200,
    speed: 55,
    radius: 14,
    loot: 1,
    respawn: 40,
  },
  fire_imp: {
    id: 'fire_imp',
    xp: 24,
    name: 'Fire Imp',
    hp: 14,
    damage: [3, 4],
    attackEvery: 1100,
    element: 'fire',
    speed: 75,
    radius: 14,
    loot: 1,
    respawn: 45,
  },
  cultist: {
    id: 'cultist',
    xp: 28,
    name: 'Shadow Cultist',
    hp: 22,
    damage: [3, 5],
    attackEvery: 1200,
    element: 'shadow',
    speed: 50,
    radius: 14,
    loot: 2,
    respawn: 45,
  },
  frost_giant: {
    id: 'frost_giant',
    xp: 90,
    name: 'Frost Giant',
    hp: 220,
    damage: [8, 11],
    attackEvery: 1300,
    element: 'frost',
    speed: 45,
    radius: 30,
    loot: 3,
    boss: true,
  },
};
