import { RARITY_COLORS, type Rarity } from '@lootsmith/plugin';

export const rarityCss = (rarity: Rarity): string =>
  `#${(RARITY_COLORS[rarity] ?? RARITY_COLORS.COMMON).toString(16).padStart(6, '0')}`;

export const titleCase = (text: string): string =>
  text
    .toLowerCase()
    .replaceAll('_', ' ')
    .replace(/\b\w/g, (c) => c.toUpperCase());
