import {
  formatPrompt,
  type GameDefinition,
  type GameLines,
  type IngredientLine,
  type Item,
  type ItemLine,
  QUOTED_TEXT_RULE,
  type Rarity,
  type ResultLine,
  type StationLine,
} from '@lootsmith/protocol';
import { mainStat, mainStatRange, statBudget } from '../game/rules.ts';

/**
 * The game as the writer is told it, once per system message: its vocabulary (types and what they
 * are, stats, elements, fields of its own), stations and materials, so a model or the offline writer
 * names only what the game has.
 */
export function gameLines(game: GameDefinition): GameLines {
  const primary = game.primary_stats;
  return {
    name: game.name,
    theme: game.theme,
    rarities: game.rarities.map((r) => r.id),
    types: game.item_types.map((t) => ({
      id: t.id,
      name: t.name,
      ...(t.slot ? { slot: t.slot } : {}),
      ...(t.consumable ? { consumable: true } : {}),
      ...(t.stackable ? { stackable: true } : {}),
      ...(t.strikes ? { strikes: true } : {}),
      ...(t.subtypes.length ? { subtypes: t.subtypes } : {}),
      ...(t.main_stat ? { main: t.main_stat } : {}),
      ...(primary[t.id] ? { stats: primary[t.id] } : {}),
    })),
    stats: game.stats.map((s) => ({
      id: s.id,
      name: s.name,
      kind: s.kind,
      ...(s.types ? { types: s.types } : {}),
    })),
    elements: game.elements.map((e) => ({
      id: e.id,
      name: e.name,
      ...(e.resist ? { resist: e.resist } : {}),
      ...(e.opposes.length ? { opposes: e.opposes } : {}),
      ...(e.words.length ? { words: e.words } : {}),
    })),
    fields: game.item_fields.map((f) => ({
      id: f.id,
      type: f.type,
      description: f.description,
      ...(f.minimum !== undefined ? { minimum: f.minimum } : {}),
      ...(f.maximum !== undefined ? { maximum: f.maximum } : {}),
      ...(f.values ? { values: f.values } : {}),
      types: f.types,
    })),
    effects: game.effects.map((e) => ({
      id: e.id,
      name: e.name,
      text: e.text,
      types: e.types,
      ...(e.elements ? { elements: e.elements } : {}),
      params: e.params,
    })),
    stations: game.stations.map(stationLine),
    materials: game.materials.map((m) => {
      const words = m.name.toLowerCase().split(/\s+/);
      return {
        name: m.name,
        type: m.type,
        subtype: words.at(-1) as string,
        material: words[0] as string,
        ...(m.element ? { element: m.element } : {}),
      };
    }),
    ...(game.writer ? { words: game.writer } : {}),
  };
}

/** What the system message says in every call for one game: the same text, so it is written once. */
const gameText = new WeakMap<GameDefinition, string>();

export function systemPrompt(game: GameDefinition, task: string): string {
  let lines = gameText.get(game);
  if (lines === undefined) {
    lines = formatPrompt({ game: gameLines(game) });
    gameText.set(game, lines);
  }
  return [
    `You are the item designer of "${game.name}", a ${game.theme}.`,
    task,
    QUOTED_TEXT_RULE,
    'Names are short and evocative; descriptions say what the item does; lore is one or two sentences of history.',
    'Stats are whole numbers; their positive values together must stay within each item’s stat budget.',
    "Each item's main stat (its type's main, which players compare) is within the range its line gives: rarer items are visibly stronger.",
    `An item is worth at most ${game.item_limits.value_per_budget_point} gold per point of its stat budget; no number in its description exceeds its stat budget.`,
    'Use only the item types, stats, elements, effects and fields of the game below; each stat and effect only on the types it lists, each field on every item of the types it lists.',
    'An effect gives every one of its params, each at most min + per_rarity × the rarity step (0 for the most common) + per_level × the item level, never above max; its text is what the game does, so describe only these.',
    lines,
  ].join('\n');
}

export interface ItemSpec {
  type: string;
  subtype?: string;
  rarity: string;
  level: number;
  budget: number;
  focus?: string;
  /** Whether the request named the type (a pool keeps such items apart from rolled types). */
  typeChosen?: boolean;
}

/** An item as its prompt line asks for it: the spec, with the range of its type's main stat. */
export function itemLine(game: GameDefinition, spec: ItemSpec): ItemLine {
  const { typeChosen: _, ...line } = spec;
  const stat = mainStat(game, spec.type);
  return { ...line, main: { ...(stat ? { stat } : {}), ...mainStatRange(game, spec.rarity, spec.level) } };
}

/** What a craft must come out as: its rarity, level, stat budget and main stat's range, whatever its type. */
export const resultLine = (game: GameDefinition, rarity: Rarity, level: number): ResultLine => ({
  rarity,
  level,
  budget: statBudget(game, rarity, level),
  main: mainStatRange(game, rarity, level),
});

/** An ingredient as a prompt names it: how many, and what the item is. */
export const ingredientLine = (i: { quantity: number; item: Item }): IngredientLine => ({
  quantity: i.quantity,
  name: i.item.name,
  type: i.item.type,
  subtype: i.item.subtype,
  material: i.item.material,
  element: i.item.element,
});

/** An item going into a combine, with what it is worth: its rarity, level, stats and effects, as data. */
export const combineIngredientLine = (i: { quantity: number; item: Item }): IngredientLine => ({
  ...ingredientLine(i),
  rarity: i.item.rarity,
  level: i.item.level,
  stats: Object.fromEntries(i.item.stats.map((s) => [s.name, s.value])),
  effects: i.item.effects.map((e) => ({ id: e.id, params: e.params })),
});

export const stationLine = (s: GameDefinition['stations'][number]): StationLine => ({
  name: s.name,
  makes: s.types,
});
