export type {
  EffectDefinition,
  GameDefinition,
  ItemEffect,
  ItemEquippedDetails,
  ItemIcon,
  Recipe,
} from '@lootsmith/protocol';
export { DEFAULT_RETRY, type RetryPolicy } from './core/backoff.ts';
export { CACHE_VERSION, type CacheLimits, DEFAULT_CACHE_LIMITS, LootsmithCache } from './core/cache.ts';
export {
  type CallOptions,
  type IconImage,
  LootsmithClient,
  type LootsmithConfig,
  type Progress,
} from './core/client.ts';
export { type ClientErrorCode, equippedIngredients, LootsmithError } from './core/errors.ts';
export type {
  CombineResponse,
  CreateItemResponse,
  Element,
  EquipmentResponse,
  EquipmentSlot,
  GameTypes,
  InventoryEntry,
  InventoryResponse,
  Item,
  ItemStat,
  ItemType,
  Rarity,
  Register,
  RegisteredGame,
  SlotName,
  StatName,
  UseItemResponse,
} from './core/game-types.ts';
export { RARITY_COLORS } from './core/rarity-colors.ts';
export type {
  CombineParams,
  CreateItemParams,
  DropParams,
  IconPromptOptions,
  ItemRef,
} from './core/requests.ts';
export type { LootsmithEvents, LootsmithOp } from './phaser/events.ts';
export {
  type DropOptions,
  type IconOptions,
  type LootDrop,
  LootsmithPlugin,
} from './phaser/LootsmithPlugin.ts';
export { type DropSpriteInfo, LootSprite } from './phaser/loot-sprite.ts';

import { LootsmithPlugin } from './phaser/LootsmithPlugin.ts';

/** The game-config entry: `plugins: { scene: [lootsmithScenePlugin] }`. */
export const lootsmithScenePlugin = {
  key: 'Lootsmith',
  plugin: LootsmithPlugin,
  mapping: 'lootsmith',
} as const;

// Types `this.lootsmith` in every scene; Phaser declares `Scene` as a class in its global namespace.
declare global {
  namespace Phaser {
    interface Scene {
      /** Lootsmith: loot, crafting and icons. Installed with mapping `'lootsmith'`. */
      lootsmith: LootsmithPlugin;
    }
  }
}
