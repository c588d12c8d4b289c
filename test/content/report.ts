import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEngine } from '@lootsmith/engine';
import {
  colourOfWord,
  effectParamCeiling,
  effectText,
  FANTASY_EFFECTS,
  type GameDefinition,
  type Item,
} from '@lootsmith/protocol';
import {
  FANTASY_GAME,
  SPACE_GAME,
  shippedGame,
  unlimitedDrops,
  writeGameFile,
} from '@lootsmith/test-support/game-file';
import { agreementProblems, decodePng, readPrompt } from '@lootsmith/test-support/internals';
import { Ajv } from 'ajv';
import { loadConfig, startServer } from 'lootsmith';
import { CRAFTS, type Craft, SPACE_CRAFTS } from './crafts.ts';
import { paintsColour } from './icon-colour.ts';
import {
  contextWords,
  impossiblePhrases,
  mean,
  mentionsContext,
  percent,
  recurringPhrases,
  repeatedSentences,
  sharedPhrases,
  statTotal,
  strictlyRising,
  stringsOf,
} from './measure.ts';
import {
  RARITIES as ASKED,
  type Form,
  LEVELS,
  SCHEMAS,
  SITUATIONS,
  SYSTEM_PROMPTS,
  userMessage,
} from './prompts.ts';
import { RARITY_LEVEL, type RarityRow, raritySummary, rarityTable, rarityTableText } from './rarity.ts';
import { type FormRequest, runWishes, type WishRow, wishesSection, wishSummary } from './wishes.ts';

const OUT = fileURLToPath(new URL('../../docs/CONTENT.md', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PLAYERS = Number(process.env.LOOTSMITH_REPORT_PLAYERS ?? 60);
const BAG = 30;
const SERVER_KEY = 'content-report-server-key-0123456789';
const fmt = (n: number, digits = 1) => n.toFixed(digits);

/** One game the report plays through the server: its file, where its players fight, what they craft. */
interface GameCase {
  file: string;
  game: GameDefinition;
  theme: string;
  rooms: string[];
  crafts: Craft[];
  /** Types the stat grid asks for. */
  gridTypes: string[];
  /** The crafting chain: a material fed with each result into the next combination at a station. */
  chain: { material: string; station: string; intent: string };
}

const GAMES: GameCase[] = [
  {
    file: FANTASY_GAME,
    game: shippedGame(FANTASY_GAME),
    theme: 'dark fantasy dungeon',
    rooms: ["Crafters' Hall", 'Frozen Crypt', 'Dungeon'],
    crafts: CRAFTS,
    gridTypes: ['WEAPON', 'CHEST', 'ACCESSORY'],
    chain: { material: 'iron_ore', station: 'forge', intent: 'a sword' },
  },
  {
    file: SPACE_GAME,
    game: shippedGame(SPACE_GAME),
    theme: 'derelict salvage run',
    rooms: ['Cargo Bay', 'Reactor Deck', 'Hangar'],
    crafts: SPACE_CRAFTS,
    gridTypes: ['TOOL', 'SUIT', 'IMPLANT'],
    chain: { material: 'scrap_alloy', station: 'fabricator', intent: 'a plasma cutter' },
  },
];

/**
 * Whether every effect an item carries is the game's: an id of its catalogue, on a type the effect
 * lists, with exactly its params, each between its least value and the ceiling of the item's rarity
 * and level.
 */
function withinCatalogue(game: GameDefinition, item: Item): boolean {
  const step = game.rarities.findIndex((r) => r.id === item.rarity);
  return item.effects.every((e) => {
    const known = game.effects.find((x) => x.id === e.id);
    if (!known?.types.includes(item.type)) return false;
    const names = Object.keys(known.params);
    return (
      names.length === Object.keys(e.params).length &&
      names.every((name) => {
        const v = e.params[name];
        const range = known.params[name] as (typeof known.params)[string];
        return v !== undefined && v >= range.min && v <= effectParamCeiling(range, step, item.level);
      })
    );
  });
}

/** Whether every value an item carries is the game's: type, rarity, element, stats and fields. */
function speaksOnly(game: GameDefinition, item: Item): boolean {
  const has = (list: ReadonlyArray<{ id: string }>, id: string) => list.some((x) => x.id === id);
  const fields = game.item_fields.filter((f) => f.types.includes(item.type)).map((f) => f.id);
  const stacked = game.item_types.find((t) => t.id === item.type)?.stackable;
  return (
    has(game.item_types, item.type) &&
    has(game.rarities, item.rarity) &&
    (item.element === 'none' || has(game.elements, item.element)) &&
    item.stats.every((s) => has(game.stats, s.name)) &&
    game.item_fields.every((f) => (!stacked && fields.includes(f.id)) === (item[f.id] !== undefined))
  );
}

interface Dropped {
  item: Item;
  player: string;
  playerLevel: number;
  enemy: string;
  enemyName: string;
  enemyElement?: string;
  location: string;
  /** Which answer of the server it came in. */
  drop: number;
}

type Server = Awaited<ReturnType<typeof startServer>>;

async function call(server: Server, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown) {
  const res = await server.app.inject({
    method,
    url,
    payload: payload as Record<string, unknown>,
    headers: { authorization: `Bearer ${SERVER_KEY}` },
  });
  return {
    status: res.statusCode,
    body: String(res.headers['content-type'] ?? '').includes('json') ? res.json() : res.rawPayload,
  };
}

/** Players of the game: each kills the game's enemies in its rooms until 30 items have dropped. */
async function dropBags(server: Server, { game, rooms, theme }: GameCase) {
  const stacked = new Set(game.item_types.filter((t) => t.stackable).map((t) => t.id));
  const drops: Dropped[] = [];
  let failed = 0;
  let requests = 0;
  for (let p = 0; p < PLAYERS; p++) {
    const player = `report-player-${p}`;
    const level = 1 + ((p * 7) % 40);
    let got = 0;
    for (let kill = 0; got < BAG && kill < BAG * 3; kill++) {
      const enemy = game.enemies[(p + kill * 5) % game.enemies.length] as (typeof game.enemies)[number];
      const location = rooms[(p + kill) % rooms.length] as string;
      requests++;
      const res = await call(server, 'POST', '/v1/generate/items', {
        client_id: player,
        generation_context: { enemy: enemy.id, location, theme, player_level: level },
        items: [{}, {}],
      });
      if (res.status !== 200) {
        failed++;
        continue;
      }
      for (const item of (res.body as { items: Item[] }).items) {
        if (stacked.has(item.type) && game.materials.some((m) => m.id === item.id)) continue;
        if (got >= BAG) break;
        drops.push({
          item,
          player,
          playerLevel: level,
          enemy: enemy.id,
          enemyName: enemy.name,
          enemyElement: enemy.element,
          location,
          drop: requests,
        });
        got++;
      }
    }
  }
  return { drops, failed, requests };
}

const GRID_LEVELS = [2, 10, 20, 35, 50];

/** Stat points an item carries, as its budget counts them: its positive stats. */
const statPoints = (item: Item) => item.stats.reduce((a, s) => a + Math.max(0, s.value), 0);

/**
 * The game server asks for each rarity of each grid type at each level: stats must rise along both,
 * and in every cell of one type and item level, the weakest item of a rarity must be above the
 * strongest of the rarity below.
 */
async function statGrid(server: Server, { game, rooms, theme, gridTypes }: GameCase) {
  const rarities = game.rarities.map((r) => r.id);
  const cells: Array<{ type: string; rarity: string; asked: number; level: number; total: number }> = [];
  for (const rarity of rarities)
    for (const level of GRID_LEVELS)
      for (const type of gridTypes) {
        const res = await call(server, 'POST', '/v1/generate/items', {
          client_id: `report-grid-${type}`,
          generation_context: { player_level: level, location: rooms.at(-1), theme },
          items: Array.from({ length: 6 }, () => ({ type, rarity })),
        });
        for (const item of (res.body as { items?: Item[] }).items ?? [])
          cells.push({ type, rarity, asked: level, level: item.level, total: statPoints(item) });
      }
  const byRarity = rarities.map((r) => mean(cells.filter((c) => c.rarity === r).map((c) => c.total)));
  const byLevel = GRID_LEVELS.map((l) => mean(cells.filter((c) => c.asked === l).map((c) => c.total)));
  // Each (type, item level) cell: the weakest of each rarity against the strongest of the one below.
  const pairs: Array<{
    type: string;
    level: number;
    rarity: string;
    weakest: number;
    strongestBelow: number;
  }> = [];
  for (const [key, group] of groupBy(cells, (c) => `${c.type}@${c.level}`)) {
    const [type, level] = key.split('@') as [string, string];
    rarities.forEach((rarity, i) => {
      const mine = group.filter((c) => c.rarity === rarity).map((c) => c.total);
      const below = group.filter((c) => c.rarity === rarities[i - 1]).map((c) => c.total);
      if (i > 0 && mine.length && below.length)
        pairs.push({
          type,
          level: Number(level),
          rarity,
          weakest: Math.min(...mine),
          strongestBelow: Math.max(...below),
        });
    });
  }
  const overlaps = pairs.filter((p) => p.weakest <= p.strongestBelow);
  return { count: cells.length, byRarity, byLevel, pairs: pairs.length, overlaps };
}

/** Icons of one kind under different names that come out pixel for pixel the same. */
async function identicalIcons(server: Server, items: Item[]) {
  const byHash = new Map<string, { kind: string; names: Set<string> }>();
  let painted = 0;
  // The look's main colour, measured on the icon's pixels.
  const coloured = { asked: 0, painted: 0 };
  for (const item of items) {
    if (!item.icon) continue;
    const res = await call(server, 'GET', item.icon.url);
    if (res.status !== 200) continue;
    painted++;
    const main = item.look?.colors[0];
    if (main) {
      coloured.asked++;
      if (paintsColour(decodePng(res.body as Buffer), main)) coloured.painted++;
    }
    const hash = createHash('sha256')
      .update(res.body as Buffer)
      .digest('hex');
    const kind = readPrompt(item.icon.prompt).kind ?? '(none)';
    const entry = byHash.get(hash) ?? { kind, names: new Set<string>() };
    entry.names.add(item.name);
    byHash.set(hash, entry);
  }
  const clashes = [...byHash.values()].filter((e) => e.names.size > 1);
  const kinds = new Set([...byHash.values()].map((e) => e.kind));
  return {
    painted,
    distinct: byHash.size,
    kinds: kinds.size,
    kindNames: [...kinds].sort(),
    clashes,
    coloured,
  };
}

interface HeldOut extends FormRequest {
  expect: { type: string; subtype: string; color: string | null };
}

/**
 * The held-out create-item requests (test/content/held-out-requests.json, written before the writer
 * was tuned), each for a fresh player holding its materials: honoured when the item has the type,
 * the subtype (or one it is a kind of: a warhammer is a hammer) and the colour asked for.
 */
async function heldOutRequests(server: Server) {
  const { requests } = JSON.parse(
    readFileSync(new URL('./held-out-requests.json', import.meta.url), 'utf8'),
  ) as { requests: HeldOut[] };
  const rows: Array<{ request: HeldOut; got: string; honoured: boolean; item?: Item; painted?: boolean }> =
    [];
  for (const [i, r] of requests.entries()) {
    const player = `report-held-out-${i}`;
    await call(server, 'PATCH', `/api/v1/player/${player}`, { crafting_level: 5, level: 10 });
    await call(server, 'POST', `/api/v1/player/${player}/inventory/grant`, {
      items: r.materials.map((m) => ({ item_id: m.id, quantity: m.quantity })),
    });
    const res = await call(server, 'POST', `/api/v1/player/${player}/create-item`, {
      crafting_station: r.station,
      materials: r.materials,
      item_parameters: {
        type: r.type,
        description: r.description,
        focus_attributes: r.focus_attributes,
        visual_preferences: r.visual_preferences,
      },
    });
    const item = (res.body as { item?: Item }).item;
    const subtype = item?.subtype.toLowerCase() ?? '';

    const honoured =
      item !== undefined &&
      item.type === r.expect.type &&
      (subtype === r.expect.subtype || subtype.endsWith(r.expect.subtype)) &&
      (r.expect.color === null || item.color === r.expect.color);
    rows.push({
      request: r,
      got: item
        ? `${item.type} ${item.subtype}${item.color ? `, ${item.color}` : ''}`
        : `refused (${res.status})`,
      honoured,
      ...(item ? { item } : {}),
    });
  }
  return rows;
}

interface CraftRow extends Craft {
  status: number;
  success: boolean;
  message: string;
  suggestions: string[];
  result?: string;
  level?: number;
  item?: Item;
  asExpected: boolean;
}

/** The crafting table: each row on a fresh player stocked with its ingredients, at the given crafting level. */
async function runCrafts(server: Server, crafts: Craft[], rarity: string): Promise<CraftRow[]> {
  const rows: CraftRow[] = [];
  for (const [i, craft] of crafts.entries()) {
    const player = `report-crafter-${i}`;
    await call(server, 'PATCH', `/api/v1/player/${player}`, {
      crafting_level: craft.craftingLevel,
      level: craft.playerLevel,
    });
    const ingredients: Array<{ item_id: string; quantity: number }> = [];
    for (const [id, quantity] of craft.ingredients) {
      if (!id.startsWith('@')) {
        await call(server, 'POST', `/api/v1/player/${player}/inventory/grant`, {
          items: [{ item_id: id, quantity }],
        });
        ingredients.push({ item_id: id, quantity });
        continue;
      }
      // A finished piece: dropped for the player, as it would be in play.
      const drop = await call(server, 'POST', '/v1/generate/items', {
        client_id: player,
        generation_context: { player_level: craft.playerLevel },
        items: [{ type: id.slice(1), rarity }],
      });
      const item = (drop.body as { items?: Item[] }).items?.[0];
      if (item) ingredients.push({ item_id: item.id, quantity: 1 });
    }
    const res = await call(server, 'POST', '/api/v1/crafting/combine', {
      player_id: player,
      ingredients,
      ...(craft.station ? { crafting_station: craft.station } : {}),
      ...(craft.tool ? { crafting_tool: craft.tool } : {}),
      ...(craft.intent ? { description: craft.intent } : {}),
    });
    const body = res.body as {
      success?: boolean;
      message?: string;
      suggestions?: string[];
      result_item?: Item;
      error?: { message: string; reason?: string };
    };
    const success = res.status === 200 && body.success === true;
    const result = body.result_item;
    const matches = craft.expect.subtype ? result?.subtype === craft.expect.subtype : true;
    const typed = craft.expect.type ? result?.type === craft.expect.type : true;
    rows.push({
      ...craft,
      status: res.status,
      success,
      message: body.message ?? body.error?.message ?? '',
      suggestions: body.suggestions ?? [],
      result: result
        ? `${result.name} (${result.type} ${result.subtype}, ${result.rarity}, level ${result.level})`
        : undefined,
      level: result?.level,
      ...(result ? { item: result } : {}),
      asExpected: craft.expect.success === success && (!success || (matches && typed)),
    });
  }
  return rows;
}

/** Feeds each crafted item into the next combination, as a player farming levels would. */
async function craftChain(server: Server, playerLevel: number, { chain }: GameCase) {
  const player = 'report-chain';
  const { material, station, intent } = chain;
  await call(server, 'PATCH', `/api/v1/player/${player}`, { crafting_level: 10, level: playerLevel });
  await call(server, 'POST', `/api/v1/player/${player}/inventory/grant`, {
    items: [{ item_id: material, quantity: 20 }],
  });
  const levels: number[] = [];
  let current = material;
  for (let step = 0; step < 6; step++) {
    const res = await call(server, 'POST', '/api/v1/crafting/combine', {
      player_id: player,
      ingredients: [
        { item_id: current, quantity: current === material ? 2 : 1 },
        { item_id: material, quantity: 1 },
      ],
      crafting_station: station,
      description: intent,
    });
    const item = (res.body as { result_item?: Item }).result_item;
    if (res.status !== 200 || !item) break;
    levels.push(item.level);
    current = item.id;
  }
  return levels;
}

interface ChatResult {
  schema: string;
  form: Form;
  client: string;
  rarity: number;
  level: number;
  valid: boolean;
  context: boolean;
  value: unknown;
  names: string[];
  stats: number;
}

/** Requests to the engine's chat endpoint with other developers' schemas, prompts and context forms. */
async function askEngine(): Promise<ChatResult[]> {
  const engine = await startEngine();
  const ajv = new Ajv({ strict: false, allErrors: false });
  const results: ChatResult[] = [];
  try {
    const jobs: Array<() => Promise<void>> = [];
    SCHEMAS.forEach(({ name, schema }, s) => {
      const validate = ajv.compile(schema);
      for (const form of ['json', 'lines', 'prose'] as const) {
        let n = 0;
        for (const situation of SITUATIONS)
          for (const [r, rarity] of ASKED.entries())
            for (const level of LEVELS) {
              const variant = n++;
              const client = `dev-${s}-${form}-${Math.floor(variant / BAG)}`;
              jobs.push(async () => {
                const res = await fetch(`${engine.url}/v1/chat/completions`, {
                  method: 'POST',
                  headers: { authorization: `Bearer ${engine.key}`, 'content-type': 'application/json' },
                  body: JSON.stringify({
                    client_id: client,
                    messages: [
                      { role: 'system', content: SYSTEM_PROMPTS[variant % SYSTEM_PROMPTS.length] },
                      { role: 'user', content: userMessage(form, situation, rarity, level, variant) },
                    ],
                    response_format: { type: 'json_schema', json_schema: { name: 'item', schema } },
                  }),
                });
                const body = (await res.json()) as { choices?: Array<{ message: { content: string } }> };
                let value: unknown;
                try {
                  value = JSON.parse(body.choices?.[0]?.message.content ?? '');
                } catch {
                  value = undefined;
                }
                const strings = stringsOf(value).join(' ');
                results.push({
                  schema: name,
                  form,
                  client,
                  rarity: r,
                  level,
                  valid: value !== undefined && validate(value) === true,
                  context: mentionsContext(
                    strings,
                    contextWords(situation.location, situation.enemy, situation.theme),
                  ),
                  value,
                  names: namesIn(value),
                  stats: statTotal(value),
                });
              });
            }
      }
    });
    for (let i = 0; i < jobs.length; i += 8) await Promise.all(jobs.slice(i, i + 8).map((job) => job()));
  } finally {
    await engine.close();
  }
  return results;
}

const FANTASY_NAMES = new Set(FANTASY_EFFECTS.map((e) => e.name?.toLowerCase()));

/** The effects an answer gives under effect-like fields: "Burn: Hits…" strings, or objects' names or ids. */
function effectsIn(value: unknown, under = false): string[] {
  if (Array.isArray(value)) return value.flatMap((v) => effectsIn(v, under));
  if (typeof value === 'string') return under ? [value.split(':')[0]?.trim().toLowerCase() ?? ''] : [];
  if (!value || typeof value !== 'object') return [];
  if (under) {
    const o = value as Record<string, unknown>;
    const name = o.name ?? o.id;
    return typeof name === 'string' ? [name.toLowerCase().replaceAll('_', ' ')] : [];
  }
  return Object.entries(value).flatMap(([k, v]) =>
    effectsIn(v, /^(affixes|effects|abilities|perks|modifiers|enchantments|traits|bonuses)$/i.test(k)),
  );
}

/** The names an answer gives its items: values of name-like fields. */
function namesIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(namesIn);
  if (!value || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) =>
    typeof v === 'string' && /name$|^title$/i.test(k) ? [v] : typeof v === 'object' ? namesIn(v) : [],
  );
}

function groupBy<T>(xs: readonly T[], key: (x: T) => string): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const x of xs) map.set(key(x), [...(map.get(key(x)) ?? []), x]);
  return map;
}

function uniqueNames(bags: Map<string, string[]>) {
  let names = 0;
  let unique = 0;
  for (const list of bags.values()) {
    names += list.length;
    unique += new Set(list.map((n) => n.toLowerCase())).size;
  }
  return { names, unique };
}

function table(head: string[], rows: Array<Array<string | number>>): string {
  return [
    `| ${head.join(' | ')} |`,
    `|${head.map(() => ' --- ').join('|')}|`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');
}

const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

interface Played {
  c: GameCase;
  loot: Awaited<ReturnType<typeof dropBags>>;
  icons: Awaited<ReturnType<typeof identicalIcons>>;
  crafts: CraftRow[];
  chain: number[];
  grid: Awaited<ReturnType<typeof statGrid>>;
  /** Each type's main stat by rarity, at one item level. */
  rarity: RarityRow[];
  heldOut?: Awaited<ReturnType<typeof heldOutRequests>>;
  /** Answers the server sent back to the model with its problems, by route. */
  reasks: Record<'drops' | 'crafts' | 'created' | 'wishes', number>;
  wishes: WishRow[];
  /** Colours players asked for (create-item, wishes), against those painted. */
  asked: { asked: number; painted: number };
}

/** Of the items a player asked a colour of, how many show it on their icon's pixels. */
async function askedColoursPainted(server: Server, items: Item[]) {
  const out = { asked: 0, painted: 0 };
  for (const item of items) {
    const family = item.color ? colourOfWord(item.color) : undefined;
    if (!family || !item.icon) continue;
    out.asked++;
    const png = await call(server, 'GET', item.icon.url);
    if (png.status === 200 && paintsColour(decodePng(png.body as Buffer), family)) out.painted++;
  }
  return out;
}

/** Answers the server has re-asked a model for so far (its problems listed): from /metrics. */
async function reasked(server: Server): Promise<number> {
  const res = await call(server, 'GET', '/metrics');
  return Number(/^lootsmith_reasks_total (\d+)/m.exec(String(res.body))?.[1] ?? 0);
}

/** Which rule of "one item, one story" a problem of `agreementProblems` breaks. */
const AGREEMENT_RULES: Array<[RegExp, string]> = [
  [/names the colour|asked for/, 'a colour the look lacks'],
  [/look\.features lacks/, 'a feature the look lacks'],
  [/but the item is made of|first of look\.materials/, 'a material it is not made of'],
  [/cannot be on|cancel out/, 'effects that cancel out'],
  [/the text names/, 'an ability it lacks'],
  [/promises healing/, 'healing it cannot give'],
  [/made just now/, 'former owners of a new item'],
];

/** Items whose parts disagree, by rule, on one route. */
function disagreements(game: GameDefinition, items: Item[], origin: 'dropped' | 'made') {
  const byRule = new Map(AGREEMENT_RULES.map(([, rule]) => [rule, 0]));
  let disagree = 0;
  const examples: string[] = [];
  for (const item of items) {
    const problems = agreementProblems(game, item, origin);
    if (!problems.length) continue;
    disagree++;
    if (examples.length < 3) examples.push(`${item.name}: ${problems[0]}`);
    for (const [pattern, rule] of AGREEMENT_RULES)
      if (problems.some((p: string) => pattern.test(p))) byRule.set(rule, (byRule.get(rule) ?? 0) + 1);
  }
  return { items: items.length, disagree, byRule, examples };
}

/** A server of one game over its embedded engine, in a scratch folder, for `use`. */
async function withServer<T>(c: GameCase, use: (server: Server) => Promise<T>): Promise<T> {
  const dataDir = mkdtempSync(join(tmpdir(), 'lootsmith-content-'));
  const server = await startServer(
    loadConfig({
      LOOTSMITH_SERVER_KEY: SERVER_KEY,
      LOOTSMITH_PLAYER_SECRET: 'content-report-player-secret-0123',
      LOOTSMITH_DATA_DIR: dataDir,
      LOOTSMITH_GAME_FILE: writeGameFile(unlimitedDrops, dataDir, c.file),
      LOOTSMITH_LOG_LEVEL: 'silent',
      LOOTSMITH_PORT: '0',
    }),
    { listen: false },
  );
  try {
    return await use(server);
  } finally {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Every wish of the game through create-item and combine (test/content/wishes.ts). */
const playWishes = (server: Server, c: GameCase) =>
  runWishes((method, url, payload) => call(server, method, url, payload), c.file, c.game);

/** One game played through the real server and its embedded engine: bags, icons, crafts, chain, grid. */
async function play(c: GameCase): Promise<Played> {
  return withServer(c, async (server) => {
    console.log(`${c.game.name}: dropping ${PLAYERS} bags of ${BAG} items through the server…`);
    const before = await reasked(server);
    const loot = await dropBags(server, c);
    const afterDrops = await reasked(server);
    console.log(`${c.game.name}: checking icons…`);
    const icons = await identicalIcons(
      server,
      loot.drops.map((d) => d.item),
    );
    console.log(`${c.game.name}: crafting…`);
    const crafts = await runCrafts(server, c.crafts, c.game.rarities[0]?.id as string);
    const chain = await craftChain(server, 8, c);
    const afterCrafts = await reasked(server);
    const grid = await statGrid(server, c);
    console.log(`${c.game.name}: the main stat by rarity…`);
    const rarity = await rarityTable((body) => call(server, 'POST', '/v1/generate/items', body), c.game);
    const beforeCreated = await reasked(server);
    const heldOut = c.file === FANTASY_GAME ? await heldOutRequests(server) : undefined;
    const reasks: Played['reasks'] = {
      wishes: 0,
      drops: afterDrops - before,
      crafts: afterCrafts - afterDrops,
      created: (await reasked(server)) - beforeCreated,
    };
    const beforeWishes = await reasked(server);
    const wishes = await playWishes(server, c);
    reasks.wishes = (await reasked(server)) - beforeWishes;
    const asked = await askedColoursPainted(server, [
      ...(heldOut ?? []).flatMap((r) => r.item ?? []),
      ...wishes.flatMap((w) => w.item ?? []),
    ]);
    return { c, loot, icons, crafts, chain, grid, rarity, heldOut, reasks, wishes, asked };
  });
}

/** The measures of one game's loot, and its section of the report. */
function measure({ c, loot, icons, crafts, chain, grid, rarity, heldOut, reasks, wishes, asked }: Played) {
  const { game, theme } = c;
  const rarities = game.rarities.map((r) => r.id);
  const items = loot.drops;
  const bags = groupBy(items, (d) => d.player);
  const names = uniqueNames(new Map([...bags].map(([k, v]) => [k, v.map((d) => d.item.name)])));
  const strictContext = items.filter((d) =>
    mentionsContext(
      [d.item.name, d.item.description].join(' '),
      contextWords(d.enemyName, d.location, theme),
    ),
  ).length;
  const anyContext = items.filter((d) =>
    mentionsContext(stringsOf(d.item).join(' '), contextWords(d.enemyName, d.location, theme)),
  ).length;
  const elemental = items.filter((d) => d.enemyElement);
  const followsEnemy = elemental.filter((d) => d.item.element === d.enemyElement).length;
  const repeats = [...bags.values()].map((bag) =>
    repeatedSentences(bag.map((d) => `${d.item.description} ${d.item.lore}`)),
  );
  const dropsOf = [...groupBy(items, (d) => String(d.drop)).values()].filter((drop) => drop.length > 1);
  const echoes = dropsOf.map((drop) =>
    sharedPhrases(
      drop.map((d) => `${d.item.description} ${d.item.lore}`),
      [drop[0]?.enemyName ?? '', drop[0]?.location ?? '', theme],
    ),
  );
  const byRarity = rarities.map((r) =>
    items.filter((d) => d.item.rarity === r).map((d) => statPoints(d.item)),
  );
  const levelBands = [
    [1, 10],
    [11, 20],
    [21, 30],
    [31, 45],
  ] as const;
  const byLevel = levelBands.map(([lo, hi]) =>
    items.filter((d) => d.item.level >= lo && d.item.level <= hi).map((d) => statPoints(d.item)),
  );
  const offCatalogue = items.filter((d) => !withinCatalogue(game, d.item)).length;
  const aboveCap = items.filter((d) => d.item.level > d.playerLevel + game.drop_level_over).length;
  const bagNames = game.enemies.map((e) => e.name).concat(c.rooms, [theme]);
  const recurring = [...bags.values()].map((bag) =>
    recurringPhrases(
      bag.map((d) => `${d.item.description} ${d.item.lore}`),
      [...bagNames, ...bag.map((d) => d.item.name)],
    ),
  );
  const recurringCount = recurring.reduce((a, r) => a + r.length, 0);
  const topRecurring = [...groupBy(recurring.flat(), (p) => p)]
    .sort((a, b) => b[1].length - a[1].length)
    .slice(0, 6);
  const impossible = items.flatMap((d) => impossiblePhrases(d.item, game, d.enemyName));
  const honoured = heldOut?.filter((r) => r.honoured).length ?? 0;
  const withEffects = items.filter((d) => d.item.effects.length > 0).length;
  const ownWords = items.filter((d) => speaksOnly(game, d.item)).length;
  const expected = crafts.filter((r) => r.asExpected).length;
  const chainLevel = 8;
  const peers = items.filter((d) => d.playerLevel === chainLevel).map((d) => d.item.level);
  const sample = bags.values().next().value ?? [];

  const agreement = [
    [
      'drops',
      disagreements(
        game,
        items.map((d) => d.item),
        'dropped',
      ),
      reasks.drops,
      loot.failed,
    ],
    [
      'combines',
      disagreements(
        game,
        crafts.flatMap((r) => r.item ?? []),
        'made',
      ),
      reasks.crafts,
      0,
    ],
    [
      'wishes (create-item and combine)',
      disagreements(
        game,
        wishes.flatMap((w) => w.item ?? []),
        'made',
      ),
      reasks.wishes,
      wishes.filter((w) => w.status >= 500).length,
    ],
    ...(heldOut
      ? [
          [
            'create-item',
            disagreements(
              game,
              heldOut.flatMap((r) => r.item ?? []),
              'made',
            ),
            reasks.created,
            heldOut.filter((r) => !r.item).length,
          ] as const,
        ]
      : []),
  ] as const;
  const disagreeing = agreement.reduce((a, [, d]) => a + d.disagree, 0);
  // Colour asked (a player's, or the look's main colour on a drop) against colour painted.
  const colourAsked = asked.asked + icons.coloured.asked;
  const colourPainted = asked.painted + icons.coloured.painted;
  const summary = {
    agreement: `${disagreeing} of ${agreement.reduce((a, [, d]) => a + d.items, 0)}`,
    valid: `${fmt(percent(items.length, items.length + loot.failed * 2))}% (${loot.failed} drops failed)`,
    vocabulary: `${fmt(percent(ownWords, items.length))}% (${ownWords}/${items.length})`,
    names: `${fmt(percent(names.unique, names.names))}% (${names.unique}/${names.names})`,
    context: `${fmt(percent(strictContext, items.length))}% in name or description; ${fmt(percent(anyContext, items.length))}% anywhere`,
    repeats: `${repeats.filter((r) => r.length).length} of ${repeats.length}`,
    echoes: `${echoes.filter((e) => e.length).length} of ${echoes.length}`,
    rarity: `${strictlyRising(grid.byRarity) ? 'yes' : 'no'}: ${grid.byRarity.map((x) => fmt(x, 0)).join(', ')}`,
    level: `${strictlyRising(grid.byLevel) ? 'yes' : 'no'}: ${grid.byLevel.map((x) => fmt(x, 0)).join(', ')}`,
    crafts: `${expected} of ${crafts.length}`,
    effects: `${offCatalogue} of ${items.length} (${withEffects} with effects)`,
    cells: `${grid.overlaps.length} of ${grid.pairs} cells overlap`,
    mainStat: raritySummary(rarity),
    cap: `${aboveCap} of ${items.length}`,
    recurring: `${fmt(recurringCount / Math.max(1, bags.size))} per bag (${recurringCount} in ${bags.size} bags)`,
    impossible: `${impossible.length}`,
    heldOut: heldOut ? `${fmt(percent(honoured, heldOut.length))}% (${honoured}/${heldOut.length})` : '—',
    colourPainted: `${fmt(percent(colourPainted, colourAsked))}% (${colourPainted}/${colourAsked}; players' own ${asked.painted}/${asked.asked})`,
    ...wishSummary(wishes),
  };

  const section = `## Loot through the server: ${game.name}

\`${relative(ROOT, c.file)}\`, theme "${theme}", rooms ${c.rooms.join(', ')}: ${PLAYERS} players kill the game's enemies through \`POST /v1/generate/items\` until ${BAG} items have dropped each, ${items.length} generated items from ${loot.requests} drops (${loot.failed} failed drops). Items carrying only the game's own types, rarities, elements, stats and item fields: ${summary.vocabulary}.

Drops of enemies with an element carrying that element: ${fmt(percent(followsEnemy, elemental.length))}% (${followsEnemy}/${elemental.length}). Items with an effect outside the game's catalogue (an id it lacks, on a type it does not list, or a number outside the range of the item's rarity and level): ${offCatalogue} of ${items.length} (${withEffects} carry effects).

Drops above the player's level plus \`drop_level_over\` (${game.drop_level_over}): ${aboveCap} of ${items.length}.

Phrases of four words that recur in at least three items of one player's bag (names of items, enemies and rooms aside): ${recurringCount} over ${bags.size} bags, ${fmt(recurringCount / Math.max(1, bags.size))} a bag${
    topRecurring.length
      ? `; the commonest: ${topRecurring.map(([p, bagsWith]) => `“${p}” (${bagsWith.length} bags)`).join(', ')}`
      : ''
  }. Phrases that cannot be so of their item (a grip on what is not held, rust on what is not metal, the hands of a slime, a monster the game lacks, a rarity in capitals): ${impossible.length}${
    impossible.length
      ? ` (${[...groupBy(impossible, (x) => x)]
          .map(([x, n]) => `${x} ×${n.length}`)
          .slice(0, 8)
          .join('; ')})`
      : ''
  }.

Rarity by item: in each cell of one type and item level, the weakest item of a rarity against the strongest item of the rarity below, over ${grid.count} items the game server asked for: ${grid.pairs - grid.overlaps.length} of ${grid.pairs} cells strictly above${
    grid.overlaps.length
      ? ` (overlaps: ${grid.overlaps
          .slice(0, 6)
          .map((o) => `${o.type} level ${o.level} ${o.rarity} ${o.weakest} ≤ ${o.strongestBelow}`)
          .join('; ')})`
      : ''
  }.

${rarityTableText(game, rarity, table)}

The rise of stats in the summary is measured on ${grid.count} items the game server asked for at each rarity (${rarities.join(', ')}) and level (${GRID_LEVELS.join(', ')}), so that rarity and level do not mix. In the players' bags rarity is rolled and mixes with level; there, mean stat total by rarity:

${table(
  ['rarity', ...rarities],
  [
    ['items', ...byRarity.map((xs) => xs.length)],
    ['mean stats', ...byRarity.map((xs) => (xs.length ? fmt(mean(xs)) : '–'))],
  ],
)}

Mean stat total by item level:

${table(
  ['level', ...levelBands.map(([a, b]) => `${a}–${b}`)],
  [
    ['items', ...byLevel.map((xs) => xs.length)],
    ['mean stats', ...byLevel.map((xs) => (xs.length ? fmt(mean(xs)) : '–'))],
  ],
)}

Icons: ${icons.painted} icons fetched, ${icons.distinct} distinct images over ${icons.kinds} kinds (${icons.kindNames.join(', ')}); different names with pixel-identical icons: ${icons.clashes.length}${
    icons.clashes.length
      ? ` (${icons.clashes
          .slice(0, 5)
          .map((x) => [...x.names].join(' = '))
          .join('; ')})`
      : ''
  }.

${
  repeats.some((r) => r.length)
    ? `Repeated sentences: ${repeats
        .flat()
        .slice(0, 5)
        .map(([x, n]) => `“${x}” ×${n}`)
        .join('; ')}\n\n`
    : ''
}${
  echoes.some((e) => e.length)
    ? `Phrases two items of one drop share: ${echoes
        .flat()
        .slice(0, 5)
        .map((x) => `“${x}”`)
        .join('; ')}\n\n`
    : ''
}The first player's bag, as dropped:

${table(
  ['name', 'type', 'rarity', 'lvl', 'element', 'from', 'description', 'lore', 'effects', 'own fields'],
  sample.map((d) => [
    cell(d.item.name),
    `${d.item.type} ${d.item.subtype}`,
    d.item.rarity,
    d.item.level,
    d.item.element,
    `${d.enemyName}, ${d.location}`,
    cell(d.item.description),
    cell(d.item.lore),
    cell(
      d.item.effects
        .map((e) => effectText(e, game.effects))
        .map((e) => (e ? `${e.name}: ${e.text}` : '(not in the catalogue)'))
        .join(' / ') || '–',
    ),
    cell(
      game.item_fields
        .filter((f) => d.item[f.id] !== undefined)
        .map((f) => `${f.id} ${d.item[f.id]}`)
        .join(', ') || '–',
    ),
  ]),
)}

### One item, one story

Every item this game's players were given, read again by the server's agreement check (\`server/src/game/agreement.ts\`): its name, description and lore name only the materials, colours and features of its look, no effect cancels out its element or another effect, the text names no ability it lacks, and an item made just now tells of no former owner. The server refuses an answer that breaks a rule and asks the model again with the problem; those re-asks are counted too (every re-ask, for any problem).

${table(
  ['route', 'items', 'whose parts disagree', ...AGREEMENT_RULES.map(([, rule]) => rule), 're-asks', 'failed'],
  agreement.map(([route, d, re, failed]) => [
    route,
    d.items,
    d.disagree,
    ...AGREEMENT_RULES.map(([, rule]) => d.byRule.get(rule) ?? 0),
    re,
    failed,
  ]),
)}
${agreement
  .flatMap(([, d]) => d.examples)
  .map((e) => `\n- ${cell(e)}`)
  .join('')}

### Crafting verdicts

${expected} of ${crafts.length} combinations judged as expected. Each row runs \`POST /api/v1/crafting/combine\` for a fresh player holding its ingredients.

${table(
  [
    'combination',
    'station (tool)',
    'intent',
    'crafting lvl',
    'expected',
    'verdict',
    'result / message',
    'suggestions',
  ],
  crafts.map((r) => [
    r.ingredients.map(([id, q]) => `${q} × ${id}`).join(' + '),
    `${r.station ?? '–'}${r.tool ? ` (${r.tool})` : ''}`,
    cell(r.intent ?? '–'),
    r.craftingLevel,
    r.expect.success
      ? `success${r.expect.subtype ? `: ${r.expect.subtype}` : r.expect.type ? `: ${r.expect.type}` : ''}`
      : 'refused',
    `${r.success ? 'success' : `refused (${r.status})`}${r.asExpected ? '' : ' ✗'}`,
    cell(r.result ?? r.message),
    cell(r.suggestions.join(' / ') || '–'),
  ]),
)}

Crafting chain (each result of "${c.chain.intent}" at the ${c.chain.station} fed into the next, player level ${chainLevel}, crafting level 10): levels ${chain.join(' → ') || '(no craft succeeded)'}; loot dropped to level-${chainLevel} players in this run reached level ${Math.max(...peers)} (${peers.length} items).
${
  heldOut
    ? `
### Held-out create-item requests

${honoured} of ${heldOut.length} requests of \`test/content/held-out-requests.json\` (written before the writer was tuned, never tuned on) honoured in type, subtype and colour; each for a fresh player holding its materials at its station.

${table(
  ['request', 'station', 'type', 'colour asked', 'expected', 'made', 'honoured'],
  heldOut.map((r) => [
    cell(r.request.description),
    r.request.station,
    r.request.type,
    r.request.visual_preferences.color ?? '–',
    `${r.request.expect.subtype}${r.request.expect.color ? `, ${r.request.expect.color}` : ''}`,
    cell(r.got),
    r.honoured ? 'yes' : 'no',
  ]),
)}
`
    : ''
}`;
  return { summary, section, wishes: { name: game.name, rows: wishes } };
}

/** `LOOTSMITH_REPORT_ONLY=wishes`: the wishes section alone, printed, for work on the writer's reading of wishes. */
async function wishesOnly() {
  const games = [];
  for (const c of GAMES)
    games.push({ name: c.game.name, rows: await withServer(c, (server) => playWishes(server, c)) });
  console.log(wishesSection(games));
}

async function main() {
  if (process.env.LOOTSMITH_REPORT_ONLY === 'wishes') return wishesOnly();
  const started = Date.now();
  const games: Array<ReturnType<typeof measure>> = [];
  for (const c of GAMES) games.push(measure(await play(c)));
  console.log('asking the engine with unseen prompts…');
  const chat = await askEngine();

  // The engine's chat with prompts it has never seen.
  const chatBags = groupBy(chat, (c) => c.client);
  const chatNames = uniqueNames(new Map([...chatBags].map(([k, v]) => [k, v.flatMap((c) => c.names)])));
  // Prose only (descriptions, lore, card text): names are measured as names, and effect lines
  // ("Burn: Hits set the target burning…") repeat by design, so they are counted apart.
  const effectLine = (x: string) => /^[A-Z][\w' -]{1,40}: /.test(x);
  const prose = (c: ChatResult) =>
    stringsOf(c.value).filter((x) => /[.!?]$/.test(x) && x.split(' ').length >= 6);
  const chatRepeats = [...chatBags.values()].map((bag) =>
    repeatedSentences(bag.flatMap((c) => prose(c).filter((x) => !effectLine(x)))),
  );
  const effectRepeats = [...chatBags.values()].map((bag) =>
    repeatedSentences(bag.flatMap((c) => prose(c).filter(effectLine))),
  );
  const schemaRows = SCHEMAS.map(({ name }) => {
    const rows = chat.filter((c) => c.schema === name);
    const byR = ASKED.map((_, r) => mean(rows.filter((c) => c.rarity === r).map((c) => c.stats)));
    const byL = LEVELS.map((l) => mean(rows.filter((c) => c.level === l).map((c) => c.stats)));
    return { name, rows, byR, byL };
  });
  const forms = (['json', 'lines', 'prose'] as const).map((form) => {
    const rows = chat.filter((c) => c.form === form);
    return [
      form,
      rows.length,
      fmt(percent(rows.filter((c) => c.valid).length, rows.length)),
      fmt(percent(rows.filter((c) => c.context).length, rows.length)),
    ];
  });
  const each = (key: keyof (typeof games)[number]['summary']) => games.map((g) => g.summary[key]);
  // Effects in developers' own schemas: each must be one of the fantasy catalogue's, by its name.
  const chatOffCatalogue = chat.filter((c) => effectsIn(c.value).some((e) => !FANTASY_NAMES.has(e))).length;

  const md = `# Content report

Written by \`npm run content:report\` (\`test/content/report.ts\`) on ${new Date().toISOString().slice(0, 10)} in ${fmt((Date.now() - started) / 1000, 0)} s. Every figure below is measured from generated output on this run; none is written by hand.

- **Two game definitions, real server pipeline**: ${GAMES.map((c) => `\`${relative(ROOT, c.file)}\` (${c.game.name})`).join(' and ')}, each played by ${PLAYERS} players through \`POST /v1/generate/items\` on the Lootsmith server with its embedded engine until ${BAG} items have dropped each. The two share none of their vocabulary: types, rarities, elements, stats and item fields.
- **Prompts the engine's tests never saw**: ${chat.length} \`/v1/chat/completions\` requests to the engine with ${SCHEMAS.length} developer schemas (${SCHEMAS.map((s) => s.name).join(', ')}), the context written as JSON, \`key: value\` lines or prose (three phrasings each), ${SITUATIONS.length} situations, ${ASKED.length} rarities and ${LEVELS.length} levels (\`test/content/prompts.ts\`).

## Summary

${table(
  ['measure', ...GAMES.map((c) => `${c.game.name} (server)`), 'unseen prompts (engine chat)', 'goal'],
  [
    [
      'schema-valid',
      ...each('valid'),
      `${fmt(percent(chat.filter((c) => c.valid).length, chat.length))}% of ${chat.length}`,
      '100%',
    ],
    ["only the game's own vocabulary", ...each('vocabulary'), '—', '100%'],
    [
      'names unique per player',
      ...each('names'),
      `${fmt(percent(chatNames.unique, chatNames.names))}% (${chatNames.unique}/${chatNames.names})`,
      '≥ 99%',
    ],
    [
      'context words present',
      ...each('context'),
      `${fmt(percent(chat.filter((c) => c.context).length, chat.length))}%`,
      '≥ 90%',
    ],
    [
      'bags of 30 with a repeated sentence',
      ...each('repeats'),
      `${chatRepeats.filter((r) => r.length).length} of ${chatRepeats.length}`,
      '0',
    ],
    [
      'drops whose items share a phrase (4 words in a row; names and stat lists aside)',
      ...each('echoes'),
      '—',
      '0',
    ],
    [
      'mean stats rise with rarity',
      ...each('rarity'),
      `${schemaRows.filter((r) => strictlyRising(r.byR)).length} of ${SCHEMAS.length} schemas`,
      'strictly',
    ],
    [
      'mean stats rise with level',
      ...each('level'),
      `${schemaRows.filter((r) => strictlyRising(r.byL)).length} of ${SCHEMAS.length} schemas`,
      'strictly',
    ],
    ['crafting verdicts as expected', ...each('crafts'), '—', 'all'],
    [
      "items with an effect outside the game's catalogue",
      ...each('effects'),
      `${chatOffCatalogue} of ${chat.length} answers`,
      '0',
    ],
    ['rarity cells (type, level) where a rarity overlaps the one below', ...each('cells'), '—', '0'],
    [
      `each rarity raises every type's main stat (level ${RARITY_LEVEL})`,
      ...each('mainStat'),
      '—',
      '≥ 1.2× every step',
    ],
    ["drops above the player's level plus drop_level_over", ...each('cap'), '—', '0'],
    ['recurring phrases (4 words in ≥ 3 items of a bag)', ...each('recurring'), '—', 'falls'],
    ['impossible phrases (grip, rust, slime hands, monsters, RARITY)', ...each('impossible'), '—', '0'],
    ['items whose parts disagree (drops, combines, create-item, wishes)', ...each('agreement'), '—', '0'],
    [
      "colour asked (a player's in create-item and wishes; a drop look's main colour) painted on the icon's pixels",
      ...each('colourPainted'),
      '—',
      '≥ 90%',
    ],
    ['held-out create-item requests honoured (type, subtype, colour)', ...each('heldOut'), '—', '≥ 90%'],
    ['wishes made into non-nouns (create-item and combine)', ...each('nonNouns'), '—', '0'],
    ['wishes whose purpose create-item followed', ...each('followed'), '—', '≥ 90%'],
    ['held-out wishes whose purpose create-item followed', ...each('heldOutFollowed'), '—', '≥ 90%'],
    ['wishes whose purpose combine followed (when it made one)', ...each('combine'), '—', '≥ 90%'],
  ],
)}

Sentences are those of descriptions, lore and other prose fields. Effect lines (the catalogue's text with an item's numbers) are counted apart: in the unseen-prompt bags, ${effectRepeats.filter((r) => r.length).length} of ${effectRepeats.length} repeat one word for word (two items with the same effect at the same strength). The painter's contact sheet with every kind is \`docs/icons-sheet.png\` (\`npm run icons:sheet\`).

${games.map((g) => g.section).join('\n')}
${wishesSection(games.map((g) => g.wishes))}
## Unseen prompts by form

${table(['context form', 'requests', 'schema-valid %', 'context words %'], forms)}

${
  chatRepeats.some((r) => r.length)
    ? `Repeated sentences in the unseen-prompt bags: ${chatRepeats
        .flat()
        .slice(0, 5)
        .map(([x, n]) => `“${x}” ×${n}`)
        .join('; ')}\n\n`
    : ''
}Mean stat total by asked rarity and by level, per schema:

${table(
  ['schema', 'valid %', 'context %', ...ASKED, 'rising', ...LEVELS.map((l) => `lvl ${l}`), 'rising'],
  schemaRows.map((r) => [
    r.name,
    fmt(percent(r.rows.filter((c) => c.valid).length, r.rows.length)),
    fmt(percent(r.rows.filter((c) => c.context).length, r.rows.length)),
    ...r.byR.map((x) => fmt(x)),
    strictlyRising(r.byR) ? 'yes' : 'no',
    ...r.byL.map((x) => fmt(x)),
    strictlyRising(r.byL) ? 'yes' : 'no',
  ]),
)}

One answer per schema (a legendary request at level 25, context as prose):

${SCHEMAS.map(({ name }) => {
  const one = chat.find((c) => c.schema === name && c.form === 'prose' && c.rarity === 4 && c.level === 25);
  return `- ${name}: \`${cell(JSON.stringify(one?.value))}\``;
}).join('\n')}
`;
  writeFileSync(OUT, md);
  console.log(md.split('## Loot through the server')[0]);
  console.log(`written to ${OUT}`);
}

await main();
