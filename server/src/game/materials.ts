import type { GameDefinition, Item, Rarity } from '@lootsmith/protocol';
import type { IconService } from '../icons.ts';

const VALUE: Record<Rarity, number> = {
  COMMON: 2,
  UNCOMMON: 8,
  RARE: 25,
  EPIC: 80,
  LEGENDARY: 250,
  MYTHIC: 900,
};

/** Materials are items whose id is their game-definition id; they stack and are never generated. */
export function materialItems(game: GameDefinition, icons: IconService): Map<string, Item> {
  const items = new Map<string, Item>();
  for (const m of game.materials) {
    const words = m.name.toLowerCase().split(/\s+/);
    const base = {
      name: m.name,
      type: 'MATERIAL' as const,
      subtype: words.at(-1) ?? 'material',
      rarity: m.rarity,
      level: 1,
      element: (m.element ?? 'none') as Item['element'],
      material: words[0] ?? 'raw',
      description: m.description,
      lore: `A crafting material of ${game.name}.`,
      stats: [],
      affixes: [],
      value: VALUE[m.rarity],
    };
    items.set(m.id, {
      ...base,
      id: m.id,
      icon: icons.describe(icons.promptFor(base)),
      created_at: '1970-01-01T00:00:00.000Z',
    });
  }
  return items;
}
