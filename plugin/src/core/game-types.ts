import type * as P from '@lootsmith/protocol';

/**
 * The vocabulary of one game, as `lootsmith types` writes it from the game file: the ids its items
 * carry. The plugin's item types take one (`Item<MyGame>`); with none they are plain strings.
 */
export interface GameTypes {
  type: string;
  slot: string;
  stat: string;
  /** The game's elements and "none". */
  element: string;
  rarity: string;
  /** The game's own item fields, by id (optional: only some types carry each). */
  fields: Record<string, unknown>;
}

/**
 * Registers a game's types as the default of every plugin type (what `lootsmith types` writes):
 * `declare module '@lootsmith/plugin' { interface Register { game: MyGame } }`.
 */
// biome-ignore lint/suspicious/noEmptyInterface: declaration merging fills it in the game's code
export interface Register {}

/** The registered game, else any game. */
export type RegisteredGame = Register extends { game: infer G extends GameTypes } ? G : GameTypes;

/** A type's known properties, without the index signature that open (loose) protocol objects carry. */
type Known<T> = { [K in keyof T as string extends K ? never : number extends K ? never : K]: T[K] };

export type ItemType<G extends GameTypes = RegisteredGame> = G['type'];
export type SlotName<G extends GameTypes = RegisteredGame> = G['slot'];
export type StatName<G extends GameTypes = RegisteredGame> = G['stat'];
export type Element<G extends GameTypes = RegisteredGame> = G['element'];
export type Rarity<G extends GameTypes = RegisteredGame> = G['rarity'];
export type ItemStat<G extends GameTypes = RegisteredGame> = { name: G['stat']; value: number };

/** An item of the game: its type, rarity, element and stats are the game's ids, and its own fields ride along. */
export type Item<G extends GameTypes = RegisteredGame> = Omit<
  Known<P.Item>,
  'type' | 'rarity' | 'element' | 'stats'
> & {
  type: G['type'];
  rarity: G['rarity'];
  element: G['element'];
  stats: ItemStat<G>[];
} & Partial<G['fields']>;

export type InventoryEntry<G extends GameTypes = RegisteredGame> = Omit<Known<P.InventoryEntry>, 'item'> & {
  item: Item<G>;
};
export type InventoryResponse<G extends GameTypes = RegisteredGame> = Omit<
  Known<P.InventoryResponse>,
  'items'
> & { items: InventoryEntry<G>[] };
export type CombineResponse<G extends GameTypes = RegisteredGame> = Omit<
  Known<P.CombineResponse>,
  'result_item'
> & { result_item?: Item<G> };
export type CreateItemResponse<G extends GameTypes = RegisteredGame> = Omit<
  Known<P.CreateItemResponse>,
  'item'
> & { item: Item<G> };
export type EquipmentSlot<G extends GameTypes = RegisteredGame> = { slot: G['slot']; item: Item<G> | null };
export type EquipmentResponse<G extends GameTypes = RegisteredGame> = Omit<
  Known<P.EquipmentResponse>,
  'slots' | 'stats'
> & { slots: EquipmentSlot<G>[]; stats: Partial<Record<G['stat'], number>> };
export type UseItemResponse<G extends GameTypes = RegisteredGame> = Omit<
  Known<P.UseItemResponse>,
  'item' | 'effects'
> & { item: Item<G>; effects: ItemStat<G>[] };
