import type { Item, LootsmithPlugin } from '@lootsmith/plugin';
import type { GameDefinition, InventoryEntry, InventoryResponse, Recipe } from './lootsmith-types.ts';

/**
 * What the player owns, as the server last said, minus the loot still lying on the floor (the
 * server grants a drop at once; the game shows it in the bag only once the hero picks it up).
 */
export class PlayerState extends EventTarget {
  game: GameDefinition | undefined;
  #inventory: InventoryResponse | undefined;
  readonly #onGround = new Map<string, number>();
  /** Every item seen this session, so a spent ingredient still has a name. */
  readonly #seen = new Map<string, Item>();

  get loaded() {
    return this.#inventory !== undefined;
  }

  get craftingLevel() {
    return this.#inventory?.crafting_level ?? 0;
  }

  get craftingXp() {
    return this.#inventory?.crafting_xp ?? 0;
  }

  get recipes(): Recipe[] {
    return this.#inventory?.recipes ?? [];
  }

  /** The bag: owned stacks without what still lies on the floor. */
  get items(): InventoryEntry[] {
    return (this.#inventory?.items ?? []).flatMap((entry) => {
      const quantity = entry.quantity - (this.#onGround.get(entry.item.id) ?? 0);
      return quantity > 0 ? [{ ...entry, quantity }] : [];
    });
  }

  /** An owned item, or one seen earlier this session. */
  item(id: string): Item | undefined {
    return this.#seen.get(id);
  }

  owned(id: string): number {
    return this.#inventory?.items.find((e) => e.item.id === id)?.quantity ?? 0;
  }

  setInventory(inventory: InventoryResponse) {
    this.#inventory = inventory;
    for (const { item } of inventory.items) this.#seen.set(item.id, item);
    this.#changed();
  }

  dropped(items: Item[]) {
    for (const item of items) this.#seen.set(item.id, item);
    for (const item of items) this.#onGround.set(item.id, (this.#onGround.get(item.id) ?? 0) + 1);
    this.#changed();
  }

  pickedUp(item: Item) {
    const left = (this.#onGround.get(item.id) ?? 0) - 1;
    if (left > 0) this.#onGround.set(item.id, left);
    else this.#onGround.delete(item.id);
    this.#changed();
  }

  /** Fetches the inventory again (after loot, crafting or a reload). */
  async refresh(plugin: LootsmithPlugin) {
    this.setInventory(await plugin.inventory.list());
  }

  onChange(listener: () => void) {
    this.addEventListener('change', listener);
  }

  #changed() {
    this.dispatchEvent(new Event('change'));
  }
}
