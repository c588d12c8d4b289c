import { readFileSync } from 'node:fs';
import { isThingIn } from '@lootsmith/engine';
import type { GameDefinition, Item } from '@lootsmith/protocol';
import { gameLines } from '@lootsmith/test-support/internals';
import { percent } from './measure.ts';

/** A wish of `wishes.json`: what a player typed into create-item's form, and what they meant. */
/** A create-item form as a player sends it: station, materials, and the item parameters' fields. */
export interface FormRequest {
  station: string;
  materials: Array<{ id: string; quantity: number }>;
  /** The form's type: the station's first, as the demo's dropdown shows it, unless the player chose. */
  type: string;
  description: string;
  focus_attributes: string[];
  visual_preferences: Record<string, string>;
}

export interface Wish extends FormRequest {
  /** The shipped game's file name, without `.json`. */
  game: string;
  expect: {
    open?: boolean;
    type?: string[];
    subtype?: string;
    stat?: string;
    effect?: string[];
    element?: string;
    color?: string;
    material?: string;
  };
}

const read = (file: string, heldOut: boolean) =>
  (JSON.parse(readFileSync(new URL(file, import.meta.url), 'utf8')) as { wishes: Wish[] }).wishes.map(
    (wish) => ({ ...wish, heldOut }),
  );

/** The wishes tuned on, then the held-out ones (written after tuning, never tuned on). */
export const WISHES: Array<Wish & { heldOut: boolean }> = [
  ...read('./wishes.json', false),
  ...read('./wishes-held-out.json', true),
];

export interface WishRow {
  wish: Wish & { heldOut: boolean };
  route: 'create-item' | 'combine';
  status: number;
  item?: Item;
  /** The item's subtype is not a thing: neither the game's nor a known item noun ("Iron Think"). */
  nonNoun: boolean;
  /** What of the wish's purpose the item does not follow; empty when followed. */
  missed: string[];
  notes: string[];
}

type Call = (
  method: 'GET' | 'POST' | 'PATCH',
  url: string,
  payload?: unknown,
) => Promise<{ status: number; body: unknown }>;

/** What of the wish the item does not follow, each a short reason; an open wish asks only for a thing. */
function missed(wish: Wish, item: Item): string[] {
  const e = wish.expect;
  const out: string[] = [];
  if (e.type && !e.type.includes(item.type)) out.push(`type ${item.type}, not ${e.type.join('/')}`);
  if (e.subtype && !item.subtype.toLowerCase().endsWith(e.subtype)) out.push(`subtype ${item.subtype}`);
  const strongest = [...item.stats].sort((a, b) => b.value - a.value)[0]?.name;
  if (e.stat && strongest !== e.stat) out.push(`leans to ${strongest ?? 'nothing'}, not ${e.stat}`);
  if (e.effect && !item.effects.some((x) => e.effect?.includes(x.id)))
    out.push(`effects ${item.effects.map((x) => x.id).join(', ') || 'none'}, not ${e.effect.join('/')}`);
  if (e.element && item.element !== e.element) out.push(`element ${item.element}`);
  if (e.color && item.color !== e.color) out.push(`colour ${item.color ?? 'none'}, not ${e.color}`);
  if (e.material && !item.material.toLowerCase().includes(e.material)) out.push(`made of ${item.material}`);
  return out;
}

/**
 * Every wish of one game, each for a fresh player holding its materials: through create-item with
 * the form's defaults, and through combine with the same materials, station and words (at least two
 * items go in). A refused combine is not counted for purposes: a game master may refuse a wish.
 */
export async function runWishes(call: Call, gameFile: string, game: GameDefinition): Promise<WishRow[]> {
  const lines = gameLines(game);
  const rows: WishRow[] = [];
  const wishes = WISHES.filter((w) => gameFile.endsWith(`${w.game}.json`));
  for (const [i, wish] of wishes.entries()) {
    for (const route of ['create-item', 'combine'] as const) {
      const player = `report-wish-${wish.game}-${route}-${i}`;
      await call('PATCH', `/api/v1/player/${player}`, { crafting_level: 5, level: 10 });
      await call('POST', `/api/v1/player/${player}/inventory/grant`, {
        items: wish.materials.map((m) => ({ item_id: m.id, quantity: m.quantity })),
      });
      const res =
        route === 'create-item'
          ? await call('POST', `/api/v1/player/${player}/create-item`, {
              crafting_station: wish.station,
              materials: wish.materials,
              item_parameters: {
                type: wish.type,
                description: wish.description,
                focus_attributes: wish.focus_attributes,
                visual_preferences: wish.visual_preferences,
              },
            })
          : await call('POST', '/api/v1/crafting/combine', {
              player_id: player,
              ingredients: wish.materials.map((m) => ({ item_id: m.id, quantity: m.quantity })),
              crafting_station: wish.station,
              description: wish.description,
            });
      const body = res.body as { item?: Item; result_item?: Item; notes?: string[]; message?: string };
      const item = body.item ?? body.result_item;
      rows.push({
        wish,
        route,
        status: res.status,
        ...(item ? { item } : {}),
        nonNoun: item !== undefined && !isThingIn(item.subtype, lines, item.type),
        missed: item ? missed(wish, item) : [`refused: ${body.message ?? res.status}`],
        notes: body.notes ?? [],
      });
    }
  }
  return rows;
}

const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

/** The wishes' counts for one game's summary column. */
export function wishSummary(rows: WishRow[]) {
  const made = rows.filter((r) => r.item);
  const share = (of: WishRow[], suffix = '') => {
    const n = of.filter((r) => !r.missed.length).length;
    return `${percent(n, of.length).toFixed(1)}% (${n}/${of.length}${suffix})`;
  };
  const create = (heldOut: boolean) =>
    rows.filter((r) => r.route === 'create-item' && r.wish.heldOut === heldOut);
  return {
    nonNouns: `${made.filter((r) => r.nonNoun).length} of ${made.length} items`,
    followed: share(create(false)),
    heldOutFollowed: share(create(true)),
    combine: share(
      rows.filter((r) => r.route === 'combine' && r.item),
      ' made',
    ),
  };
}

/** The report's section on wishes: the counts and every wish with what it made. */
export function wishesSection(games: Array<{ name: string; rows: WishRow[] }>): string {
  const table = games.flatMap(({ name, rows }) =>
    rows
      .filter((r) => r.route === 'create-item')
      .map((r) => {
        const combined = rows.find((c) => c.route === 'combine' && c.wish === r.wish);
        const what = (row?: WishRow) =>
          row?.item
            ? `${row.item.name} (${row.item.type} ${row.item.subtype}${row.item.color ? `, ${row.item.color}` : ''})${row.nonNoun ? ' **not a thing**' : ''}${row.route === 'combine' && row.missed.length ? ` ✗ ${row.missed.join('; ')}` : ''}`
            : `refused (${row?.status})`;
        return `| ${name} | ${cell(r.wish.description)}${r.wish.heldOut ? ' (held out)' : ''} | ${cell(what(r))} | ${cell(r.missed.join('; ') || 'yes')} | ${cell(r.notes.join(' ') || '–')} | ${cell(what(combined))} |`;
      }),
  );
  return `## Wishes

Each wish of \`test/content/wishes.json\` (written before the writer was tuned for them) and of \`wishes-held-out.json\` (written after, never tuned on) goes through \`POST /api/v1/player/{id}/create-item\` with the form's defaults as written there, and through \`POST /api/v1/crafting/combine\` with the same materials, station and words, each for a fresh player at crafting level 5. A non-noun is an item whose subtype is no thing (neither one of the game's nouns nor a known item noun); a purpose is followed when the item has the type, subtype, strongest stat, effect, element, colour and material the wish means (an open wish asks only for a thing).

${[
  '| game | wishes made into non-nouns (both routes, both lists) | create-item purpose followed | held-out wishes: create-item purpose followed | combine purpose followed (both lists) |',
  '| --- | --- | --- | --- | --- |',
  ...games.map(({ name, rows }) => {
    const s = wishSummary(rows);
    return `| ${name} | ${s.nonNouns} | ${s.followed} | ${s.heldOutFollowed} | ${s.combine} |`;
  }),
].join('\n')}

| game | wish | create-item made | followed | notes | combine made |
| --- | --- | --- | --- | --- | --- |
${table.join('\n')}
`;
}
