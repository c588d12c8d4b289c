import type { Rarity } from '@lootsmith/protocol';

/** Glow colours by rarity, in the usual loot-game order: grey, green, blue, purple, orange, red. */
export const RARITY_COLORS: Record<Rarity, number> = {
  COMMON: 0xc8c8c8,
  UNCOMMON: 0x3ddc4a,
  RARE: 0x3b82f6,
  EPIC: 0xa855f7,
  LEGENDARY: 0xf59e0b,
  MYTHIC: 0xff3860,
};
