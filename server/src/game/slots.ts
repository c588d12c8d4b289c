import {
  type GameDefinition,
  ITEM_TYPES,
  type Item,
  type ItemType,
  type StatName,
} from '@lootsmith/protocol';

/** Item types that are carried, not worn. */
const NOT_WORN: readonly ItemType[] = ['CONSUMABLE', 'MATERIAL', 'CONTAINER'];

/** The game's equipment slots: every wearable type its loot or its stations can make, in protocol order. */
export function equipmentSlots(game: GameDefinition): ItemType[] {
  const made = new Set<ItemType>([...game.loot_types, ...game.stations.flatMap((s) => s.types)]);
  return ITEM_TYPES.filter((t) => made.has(t) && !NOT_WORN.includes(t));
}

export const isConsumable = (item: Item) => item.type === 'CONSUMABLE';

/** The sum of each stat over the items. */
export function statTotals(items: Item[]): Partial<Record<StatName, number>> {
  const totals: Partial<Record<StatName, number>> = {};
  for (const item of items) for (const s of item.stats) totals[s.name] = (totals[s.name] ?? 0) + s.value;
  return totals;
}
