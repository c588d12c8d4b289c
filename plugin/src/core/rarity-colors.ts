/**
 * Glow colours of the spec's rarities, in the usual loot-game order: grey, green, blue, purple,
 * orange, red. A game's own rarity has none here: fall back to `COMMON` (or colour it yourself).
 */
export const RARITY_COLORS: Readonly<
  Record<'COMMON' | 'UNCOMMON' | 'RARE' | 'EPIC' | 'LEGENDARY' | 'MYTHIC', number> &
    Record<string, number | undefined>
> = {
  COMMON: 0xc8c8c8,
  UNCOMMON: 0x3ddc4a,
  RARE: 0x3b82f6,
  EPIC: 0xa855f7,
  LEGENDARY: 0xf59e0b,
  MYTHIC: 0xff3860,
};
