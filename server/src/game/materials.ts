import { type GameDefinition, type Item, NO_ELEMENT } from '@lootsmith/protocol';
import type { IconService } from '../icons.ts';
import { rarityIds } from './rules.ts';

/** Gold a material is worth: 2 for the most common, about three and a half times more each rarity up. */
const materialValue = (game: GameDefinition, rarity: string) =>
  Math.round(2 * 3.4 ** Math.max(0, rarityIds(game).indexOf(rarity)));

/** Materials are items whose id is their game-definition id; they stack and are never generated. */
export function materialItems(game: GameDefinition, icons: IconService): Map<string, Item> {
  const items = new Map<string, Item>();
  for (const m of game.materials) {
    const words = m.name.toLowerCase().split(/\s+/);
    const base = {
      name: m.name,
      type: m.type,
      subtype: words.at(-1) ?? 'material',
      rarity: m.rarity,
      level: 1,
      element: m.element ?? NO_ELEMENT,
      material: words[0] ?? 'raw',
      description: m.description,
      lore: `A crafting material of ${game.name}.`,
      stats: [],
      effects: [],
      value: game.currency ? materialValue(game, m.rarity) : 0,
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
