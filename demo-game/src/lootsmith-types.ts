import type { LootsmithPlugin } from '@lootsmith/plugin';

// The plugin's public surface is the demo's only contract with Lootsmith: derive the shapes from it.
export type GameDefinition = Awaited<ReturnType<LootsmithPlugin['gameDefinition']>>;
export type InventoryResponse = Awaited<ReturnType<LootsmithPlugin['inventory']['list']>>;
export type InventoryEntry = InventoryResponse['items'][number];
export type Recipe = InventoryResponse['recipes'][number];
export type CombineResult = Awaited<ReturnType<LootsmithPlugin['crafting']['combine']>>;
export type ItemType = Parameters<LootsmithPlugin['crafting']['createItem']>[0]['type'];
export type EquipmentResponse = Awaited<ReturnType<LootsmithPlugin['equipment']['list']>>;
export type EquipmentSlot = EquipmentResponse['slots'][number];
