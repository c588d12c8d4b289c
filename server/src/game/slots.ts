import type { GameDefinition, Item } from '@lootsmith/protocol';

/** The game's equipment slots, in the order its item types first name them. */
export function equipmentSlots(game: GameDefinition): string[] {
  return [...new Set(game.item_types.flatMap((t) => (t.slot ? [t.slot] : [])))];
}

/** The slot an item of this type is worn in; undefined when it is carried, not worn. */
export const slotOf = (game: GameDefinition, type: string) =>
  game.item_types.find((t) => t.id === type)?.slot;

export const isConsumable = (game: GameDefinition, item: Item) =>
  game.item_types.some((t) => t.id === item.type && t.consumable);

/** The sum of each stat over the items. */
export function statTotals(items: Item[]): Record<string, number> {
  const totals: Record<string, number> = {};
  for (const item of items) for (const s of item.stats) totals[s.name] = (totals[s.name] ?? 0) + s.value;
  return totals;
}
