import type { GameDefinition, ItemType, Rarity } from '@lootsmith/protocol';

export function systemPrompt(game: GameDefinition, task: string): string {
  return [
    `You are the item designer of "${game.name}", a fantasy role-playing game.`,
    task,
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

export function itemLine(n: number, s: ItemSpec): string {
  const parts = [`type ${s.type}`];
  if (s.subtype) parts.push(`subtype: ${s.subtype}`);
  parts.push(`rarity ${s.rarity}`, `level ${s.level}`, `stat budget ${s.budget}`);
  if (s.focus) parts.push(`focus: ${s.focus}`);
  return `Item ${n}: ${parts.join('; ')}`;
}

/** `key: value` pairs joined the way the writer and a language model both read them. */
export function contextLine(pairs: Record<string, string | number | undefined>): string {
  const text = Object.entries(pairs)
    .filter(([, v]) => v !== undefined && v !== '')
    .map(([k, v]) => `${k}: ${v}`)
    .join('; ');
  return text ? `Context: ${text}` : '';
}
