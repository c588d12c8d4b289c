import type * as Phaser from 'phaser';
import type { Progress } from '../core/client.ts';
import type { LootsmithError } from '../core/errors.ts';
import type {
  CombineResponse,
  CreateItemResponse,
  EquipmentResponse,
  Item,
  UseItemResponse,
} from '../core/game-types.ts';

export type LootsmithOp =
  | 'drop'
  | 'combine'
  | 'createItem'
  | 'icon'
  | 'inventory'
  | 'gameDefinition'
  | 'equipment'
  | 'equip'
  | 'unequip'
  | 'use';

interface OpEvent {
  /** Counts up per plugin; ties a request to its progress, result and error. */
  id: number;
  op: LootsmithOp;
}

/** The plugin's events and their payloads: `this.lootsmith.on('loot', ({ items }) => …)`. */
export interface LootsmithEvents {
  /** A call started: show a spinner. */
  request: OpEvent;
  /** `sending`/`retrying` per HTTP try, and `done` once per call however it ended: hide the spinner. */
  progress: OpEvent & (Progress | { stage: 'done' });
  loot: OpEvent & { items: Item[]; sprites: Phaser.GameObjects.GameObject[] };
  craft: OpEvent &
    ({ op: 'combine'; result: CombineResponse } | { op: 'createItem'; result: CreateItemResponse });
  icon: OpEvent & { key: string; cached: boolean };
  /**
   * A drop's icon that was still being painted is now a texture (the drop's `id`); a
   * {@link LootSprite} already shows it, a custom sprite can `setTexture(key)`.
   */
  iconready: OpEvent & { item: Item; key: string; sprite: Phaser.GameObjects.GameObject };
  /** The player's equipment changed (an equip or unequip succeeded). */
  equipment: OpEvent & { op: 'equip' | 'unequip'; equipment: EquipmentResponse };
  /** A consumable was used: apply `result.effects`. */
  use: OpEvent & { result: UseItemResponse };
  /** Any failure except aborts (a scene that shut down has no one to tell). */
  error: OpEvent & { error: LootsmithError };
}
