import type { Item, ItemType, LootsmithPlugin } from '@lootsmith/plugin';
import type { PlayerState } from '../player-state.ts';
import type { IconSource } from './IconSource.ts';
import type { Toasts } from './Toasts.ts';

/** What the hero does with an item: the scene carries it out (the server, then the hero). */
export interface GearActions {
  equip(item: Item): Promise<void>;
  unequip(slot: ItemType): Promise<void>;
  use(item: Item): Promise<void>;
}

/** What every panel works with. */
export interface Services {
  plugin: LootsmithPlugin;
  state: PlayerState;
  icons: IconSource;
  toasts: Toasts;
  gear: GearActions;
}
