import type { LootsmithPlugin } from '@lootsmith/plugin';
import type Phaser from 'phaser';
import type { HeroProgress } from '../hero-progress.ts';
import type { PlayerState } from '../player-state.ts';
import type { Toasts } from '../ui/Toasts.ts';
import type { Hero } from '../world/Hero.ts';

/** The run so far, for the goal line and the victory screen. */
export interface Run {
  startedAt: number;
  kills: number;
  itemsTaken: number;
  itemsMade: number;
  /** Times the hero fell and woke in the Crafters' Hall. */
  knockOuts: number;
  won: boolean;
}

/** What every part of the dungeon works with: the scene, the player, the hero and the run. */
export interface DungeonContext {
  readonly scene: Phaser.Scene;
  readonly plugin: LootsmithPlugin;
  readonly state: PlayerState;
  readonly progress: HeroProgress;
  readonly toasts: Toasts;
  readonly hero: Hero;
  readonly run: Run;
}
