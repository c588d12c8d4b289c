import type { LootsmithPlugin } from '@lootsmith/plugin';
import type { PlayerState } from '../player-state.ts';
import type { IconSource } from './IconSource.ts';
import type { Toasts } from './Toasts.ts';

/** What every panel works with. */
export interface Services {
  plugin: LootsmithPlugin;
  state: PlayerState;
  icons: IconSource;
  toasts: Toasts;
}
