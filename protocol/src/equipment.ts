import { z } from 'zod';
import { ItemId } from './api.ts';
import { PlayerId } from './generation.ts';
import { Item, ItemStat, SlotName, StatName } from './items.ts';

/**
 * Wear an owned item. Slots are the game definition's: an item goes in the `slot` of its item type,
 * and a type without one is not worn.
 */
export const EquipRequest = z.strictObject({
  item_id: ItemId,
  /** Optional: must be the slot of the item's type when given. */
  slot: SlotName.optional(),
});
export type EquipRequest = z.infer<typeof EquipRequest>;

export const UnequipRequest = z.strictObject({ slot: SlotName });
export type UnequipRequest = z.infer<typeof UnequipRequest>;

export const EquipmentSlot = z.looseObject({
  slot: SlotName,
  /** Null while the slot is empty. */
  item: Item.nullable(),
});
export type EquipmentSlot = z.infer<typeof EquipmentSlot>;

/** What a player wears, every slot of the game in order, and the sum of the worn items' stats. */
export const EquipmentResponse = z.looseObject({
  player_id: PlayerId,
  slots: z.array(EquipmentSlot),
  stats: z.record(StatName, z.int()),
});
export type EquipmentResponse = z.infer<typeof EquipmentResponse>;

/** Use (and spend) one owned CONSUMABLE. */
export const UseItemRequest = z.strictObject({ item_id: ItemId });
export type UseItemRequest = z.infer<typeof UseItemRequest>;

export const UseItemResponse = z.looseObject({
  item: Item,
  /** The item's stats, for the game to apply: a `health` effect heals that much. */
  effects: z.array(ItemStat),
  /** How many the player has left. */
  remaining: z.int().min(0),
});
export type UseItemResponse = z.infer<typeof UseItemResponse>;
