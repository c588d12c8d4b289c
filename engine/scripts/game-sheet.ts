import { readFileSync } from 'node:fs';
import {
  formatPrompt,
  GameFile,
  type GameLines,
  GeneratedItemBatch,
  type IconPlan,
  iconPrompt,
  jsonSchemaOf,
  NO_ELEMENT,
} from '@lootsmith/protocol';
import { readPrompt } from '../src/painter/prompt.ts';
import { writeCompletion } from '../src/writer/index.ts';
import { TYPE_SUBTYPES } from '../src/writer/lexicon.ts';

/** One tile of a game's sheet: what it shows, and the icon prompt it is painted from. */
export interface GameTile {
  label: string;
  prompt: string;
}

/** One row of a game's sheet: an item type and an item of each of its subtypes. */
export interface GameRow {
  type: string;
  /** The silhouette the game names for the type, or undefined when the painter guesses it. */
  icon: string | undefined;
  tiles: GameTile[];
}

/** Most subtypes a row shows. */
const COLUMNS = 8;

/**
 * Every item type of a game file, an item of each subtype (up to eight), as the server would ask the
 * writer for it and make its icon prompt: the game's silhouette or its type for a painter to guess
 * from, and the game's style, palette and art. The file is read as the server reads it: its schema,
 * and the default game's vocabulary (the writer's own) for what it leaves out.
 */
export function gameSheet(file: string): { name: string; rows: GameRow[]; size: number } {
  const game = GameFile.parse(JSON.parse(readFileSync(file, 'utf8')));
  const types = (game.item_types ?? Object.keys(TYPE_SUBTYPES).map((id) => ({ id }) as never)).map(
    (t: NonNullable<typeof game.item_types>[number]) => ({
      ...t,
      name: t.name ?? t.id.toLowerCase().replaceAll('_', ' '),
      subtypes: t.subtypes?.length
        ? t.subtypes
        : (TYPE_SUBTYPES[t.id] ?? [t.id.toLowerCase().replaceAll('_', ' ')]),
    }),
  );
  const rarities = game.rarities?.map((r) => r.id) ?? ['COMMON', 'UNCOMMON', 'RARE', 'EPIC', 'LEGENDARY'];
  const lines: GameLines = {
    name: game.name,
    ...(game.theme ? { theme: game.theme } : {}),
    rarities,
    types: types.map((t) => ({
      id: t.id,
      name: t.name,
      ...(t.slot ? { slot: t.slot } : {}),
      ...(t.consumable ? { consumable: true } : {}),
      ...(t.stackable ? { stackable: true } : {}),
      ...(t.strikes ? { strikes: true } : {}),
      ...(game.item_types ? { subtypes: [...t.subtypes] } : {}),
    })),
    ...(game.elements
      ? { elements: game.elements.map((e) => ({ id: e.id, name: e.name ?? e.id, words: e.words ?? [] })) }
      : {}),
    ...(game.writer ? { words: game.writer } : {}),
  };
  const system = formatPrompt({ game: lines });
  const schema = jsonSchemaOf(GeneratedItemBatch);
  const { art } = game;
  const plan = (
    t: (typeof types)[number],
    look: IconPlan['look'],
    name: string,
    element: string,
    rarity: string,
  ) =>
    iconPrompt({
      name,
      look,
      element,
      rarity,
      silhouette: t.icon,
      // Without a silhouette of the game's, the type's name helps the painter guess.
      ...(t.icon ? {} : { type: t.name }),
      style: art.style ?? game.icon_style,
      palette: game.icon_palette,
      art,
    });
  const rows = types.map((t, row): GameRow => {
    if (t.stackable) {
      // A drop of a stackable type is one of the game's materials, whose look is its name.
      const own = game.materials.filter((m) => (m.type ?? t.id) === t.id).slice(0, COLUMNS);
      return {
        type: t.id,
        icon: t.icon,
        tiles: own.map((m) => {
          const words = m.name.toLowerCase().split(/\s+/);
          const look = {
            noun: words.at(-1) as string,
            materials: [words[0] as string],
            colors: [],
            features: [],
          };
          return {
            label: m.name,
            prompt: plan(t, look, m.name, m.element ?? NO_ELEMENT, m.rarity ?? (rarities[0] as string)),
          };
        }),
      };
    }
    const tiles = t.subtypes.slice(0, COLUMNS).map((subtype, column): GameTile => {
      const rarity = rarities[(row + column) % rarities.length] as string;
      const user = formatPrompt({
        count: 1,
        context: { theme: game.theme ?? 'role-playing game', playerLevel: 10 },
        items: [{ type: t.id, subtype, rarity, level: 10 }],
      });
      const { content } = writeCompletion({
        messages: [
          { role: 'system', content: system },
          { role: 'user', content: user },
        ],
        response_format: { type: 'json_schema', json_schema: { schema } },
        seed: 1000 + row * 31 + column,
      });
      const item = GeneratedItemBatch.parse(JSON.parse(content))
        .items[0] as GeneratedItemBatch['items'][number];
      const look = item.look ?? { noun: item.subtype, materials: [item.material], colors: [], features: [] };
      return { label: subtype, prompt: plan(t, look, item.name, item.element, item.rarity) };
    });
    return { type: t.id, icon: t.icon, tiles };
  });
  return { name: game.name, rows, size: game.icon_size };
}

/** The kind the painter draws for a tile's prompt ("emblem" for what it has no shape for). */
export const paintedKind = (prompt: string) => readPrompt(prompt).kind ?? 'emblem';
