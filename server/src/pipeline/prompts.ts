import {
  type GameDefinition,
  type IngredientLine,
  type Item,
  type ItemType,
  QUOTED_TEXT_RULE,
  type Rarity,
  type StationLine,
} from '@lootsmith/protocol';

export function systemPrompt(game: GameDefinition, task: string): string {
  return [
    `You are the item designer of "${game.name}", a fantasy role-playing game.`,
    task,
    QUOTED_TEXT_RULE,
    'Names are short and evocative; descriptions say what the item does; lore is one or two sentences of history.',
    'Stats are whole numbers; their positive values together must stay within each item’s stat budget.',
    `An item is worth at most ${game.item_limits.value_per_budget_point} gold per point of its stat budget; no number in its description or affixes exceeds its stat budget.`,
  ].join('\n');
}

export interface ItemSpec {
  type: ItemType;
  subtype?: string;
  rarity: Rarity;
  level: number;
  budget: number;
  focus?: string;
  /** Whether the request named the type (a pool keeps such items apart from rolled types). */
  typeChosen?: boolean;
}

/** An ingredient as a prompt names it: how many, and what the item is. */
export const ingredientLine = (i: { quantity: number; item: Item }): IngredientLine => ({
  quantity: i.quantity,
  name: i.item.name,
  type: i.item.type,
  subtype: i.item.subtype,
  material: i.item.material,
  element: i.item.element,
});

export const stationLine = (s: GameDefinition['stations'][number]): StationLine => ({
  name: s.name,
  makes: s.types,
});
