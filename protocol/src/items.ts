import { z } from 'zod';

export const ITEM_TYPES = [
  'WEAPON',
  'EQUIPMENT',
  'CONTAINER',
  'HELMET',
  'CHEST',
  'LEGS',
  'BOOTS',
  'GLOVES',
  'SHIELD',
  'ACCESSORY',
  'CONSUMABLE',
  'MATERIAL',
] as const;
export const ItemType = z.enum(ITEM_TYPES);
export type ItemType = z.infer<typeof ItemType>;

export const RARITIES = ['COMMON', 'UNCOMMON', 'RARE', 'EPIC', 'LEGENDARY', 'MYTHIC'] as const;
export const Rarity = z.enum(RARITIES);
export type Rarity = z.infer<typeof Rarity>;

export const ELEMENTS = ['none', 'fire', 'frost', 'poison', 'shadow', 'holy', 'lightning'] as const;
export const Element = z.enum(ELEMENTS);
export type Element = z.infer<typeof Element>;

export const STAT_NAMES = [
  'attack',
  'defense',
  'magic',
  'speed',
  'health',
  'mana',
  'crit_chance',
  'luck',
  'fire_resist',
  'frost_resist',
  'poison_resist',
  'shadow_resist',
] as const;
export const StatName = z.enum(STAT_NAMES);
export type StatName = z.infer<typeof StatName>;

export const ItemStat = z.object({
  name: StatName,
  value: z.int().min(-999).max(9999),
});
export type ItemStat = z.infer<typeof ItemStat>;

export const ItemAffix = z.object({
  name: z.string().min(2).max(40),
  effect: z.string().min(2).max(120),
});
export type ItemAffix = z.infer<typeof ItemAffix>;

/** What a model writes for one item: the `response_format` JSON Schema is derived from this. */
export const GeneratedItem = z.object({
  name: z.string().min(2).max(48),
  type: ItemType,
  subtype: z.string().min(2).max(32),
  rarity: Rarity,
  level: z.int().min(1).max(100),
  element: Element,
  material: z.string().min(2).max(32),
  description: z.string().min(8).max(400),
  lore: z.string().min(8).max(400),
  stats: z.array(ItemStat).max(6),
  affixes: z.array(ItemAffix).max(4),
  value: z.int().min(0).max(10_000_000),
});
export type GeneratedItem = z.infer<typeof GeneratedItem>;

export const ItemIcon = z.looseObject({
  /** Content hash of the icon prompt; also its cache key. */
  id: z.string(),
  /** Path of the PNG (immutable) relative to the Lootsmith server's base URL, e.g. `/api/v1/icons/….png`. */
  url: z.string(),
  prompt: z.string(),
  /**
   * `pending` while the icon is still being painted: the item is already granted, and `url` answers
   * 202 ({@link IconPending}) until the PNG is there. Absent or `ready`: `url` serves the PNG.
   */
  status: z.enum(['ready', 'pending']).optional(),
});
export type ItemIcon = z.infer<typeof ItemIcon>;

/** The 202 answer of an icon URL while the icon is painted: ask again after `retry_after_ms`. */
export const IconPending = z.looseObject({
  status: z.literal('pending'),
  retry_after_ms: z.int().min(0),
});
export type IconPending = z.infer<typeof IconPending>;

/** An item as the server stores and returns it. */
export const Item = z.looseObject({
  ...GeneratedItem.shape,
  id: z.string(),
  icon: ItemIcon.nullable(),
  created_at: z.string(),
});
export type Item = z.infer<typeof Item>;

export const InventoryEntry = z.looseObject({
  item: Item,
  quantity: z.int().min(1),
});
export type InventoryEntry = z.infer<typeof InventoryEntry>;
