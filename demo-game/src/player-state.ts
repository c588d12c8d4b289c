import type { EffectDefinition, Item, LootsmithPlugin } from '@lootsmith/plugin';
import type {
  EquipmentResponse,
  EquipmentSlot,
  GameDefinition,
  InventoryEntry,
  InventoryResponse,
  Recipe,
} from './lootsmith-types.ts';

/**
 * What the player owns, as the server last said, minus the loot still lying on the floor (the
 * server grants a drop at once; the game shows it in the bag only once the hero picks it up).
 */
export class PlayerState extends EventTarget {
  game: GameDefinition | undefined;
  #inventory: InventoryResponse | undefined;
  #equipment: EquipmentResponse | undefined;
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

  /** Every slot of the game with what is worn in it (empty before the server first answered). */
  get slots(): EquipmentSlot[] {
    return this.#equipment?.slots ?? [];
  }

  /** The worn items' stats, summed by the server. */
  get wornStats(): EquipmentResponse['stats'] {
    return this.#equipment?.stats ?? {};
  }

  /** The game's effect catalogue (how item cards word an item's effects). */
  get effects(): EffectDefinition[] {
    return this.game?.effects ?? [];
  }

  /** Whether something is worn in the WEAPON slot (what the Frost Door needs). */
  get wearsWeapon(): boolean {
    return this.slots.some((s) => s.slot === 'WEAPON' && s.item);
  }

  isWorn(id: string): boolean {
    return this.slots.some((s) => s.item?.id === id);
  }

  /** The game definition's word on an item's type: its slot, whether it is used up or stacks. */
  typeOf(item: Item) {
    return this.game?.item_types.find((t) => t.id === item.type);
  }

  /** The stat cards compare for an item's type (its `main_stat`): what each rarity raises. */
  mainStatOf(item: Item): string | undefined {
    return this.typeOf(item)?.main_stat;
  }

  /** The slot an item is worn in, if its type is worn at all. */
  slotOf(item: Item): string | undefined {
    return this.typeOf(item)?.slot;
  }

  /** What is worn in an item's slot, to compare with. */
  wornInSlotOf(item: Item): Item | undefined {
    const slot = this.slotOf(item);
    return this.slots.find((s) => s.slot === slot)?.item ?? undefined;
  }

  canWear(item: Item): boolean {
    const slot = this.slotOf(item);
    return this.slots.some((s) => s.slot === slot);
  }

  /** Consumables in the bag, the one that heals most first. */
  get consumables(): InventoryEntry[] {
    const healing = (e: InventoryEntry) => e.item.stats.find((s) => s.name === 'health')?.value ?? 0;
    return this.items
      .filter((e) => this.typeOf(e.item)?.consumable)
      .toSorted((a, b) => healing(b) - healing(a));
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

  setEquipment(equipment: EquipmentResponse) {
    this.#equipment = equipment;
    for (const { item } of equipment.slots) if (item) this.#seen.set(item.id, item);
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

  /** Fetches the inventory again (after loot, crafting or a reload), and what is worn. */
  async refresh(plugin: LootsmithPlugin) {
    const [inventory, equipment] = await Promise.all([plugin.inventory.list(), plugin.equipment.list()]);
    this.setInventory(inventory);
    this.setEquipment(equipment);
  }

  /** Calls `listener` after every change; returns the way to stop. */
  onChange(listener: () => void): () => void {
    this.addEventListener('change', listener);
    return () => this.removeEventListener('change', listener);
  }

  #changed() {
    this.dispatchEvent(new Event('change'));
  }
}
