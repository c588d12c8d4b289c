import type { EnemyKindId } from './dungeon-map.ts';

export interface EnemyKind {
  id: EnemyKindId;
  name: string;
  hp: number;
  /** Damage per hit on the hero, as [min, max]. */
  damage: [number, number];
  /** Pixels per second while chasing. */
  speed: number;
  /** Radius in pixels for clicks, contact and the shadow. */
  radius: number;
  /** Hero XP for a kill. */
  xp: number;
  /** How many items it drops. */
  loot: number;
  /** Seconds before another one appears at its spawn. */
  respawn: number;
  boss?: boolean;
}

export const ENEMY_KINDS: Record<EnemyKindId, EnemyKind> = {
  slime: {
    id: 'slime',
    xp: 8,
    name: 'Green Slime',
    hp: 5,
    damage: [1, 2],
    speed: 40,
    radius: 14,
    loot: 1,
    respawn: 12,
  },
  rat: {
    id: 'rat',
    xp: 6,
    name: 'Cellar Rat',
    hp: 4,
    damage: [1, 2],
    speed: 70,
    radius: 13,
    loot: 1,
    respawn: 12,
  },
  skeleton: {
    id: 'skeleton',
    xp: 18,
    name: 'Skeleton Warrior',
    hp: 9,
    damage: [2, 3],
    speed: 55,
    radius: 14,
    loot: 1,
    respawn: 20,
  },
  fire_imp: {
    id: 'fire_imp',
    xp: 24,
    name: 'Fire Imp',
    hp: 8,
    damage: [2, 4],
    speed: 75,
    radius: 14,
    loot: 1,
    respawn: 25,
  },
  cultist: {
    id: 'cultist',
    xp: 28,
    name: 'Shadow Cultist',
    hp: 11,
    damage: [2, 4],
    speed: 50,
    radius: 14,
    loot: 2,
    respawn: 25,
  },
  frost_giant: {
    id: 'frost_giant',
    xp: 90,
    name: 'Frost Giant',
    hp: 28,
    damage: [3, 6],
    speed: 35,
    radius: 30,
    loot: 3,
    respawn: 60,
    boss: true,
  },
};
