import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Item, RARITIES } from '@lootsmith/protocol';
import { Ajv } from 'ajv';
import { startEngine } from '../../engine/src/index.ts';
import { readPrompt } from '../../engine/src/painter/prompt.ts';
import { loadConfig } from '../../server/src/config.ts';
import { startServer } from '../../server/src/server.ts';
import { shippedGame, unlimitedDrops, writeGameFile } from '../../server/test/support/game-file.ts';
import { CRAFTS, type Craft } from './crafts.ts';
import {
  contextWords,
  mean,
  mentionsContext,
  percent,
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

const OUT = fileURLToPath(new URL('../../docs/CONTENT.md', import.meta.url));
const PLAYERS = Number(process.env.LOOTSMITH_REPORT_PLAYERS ?? 60);
const BAG = 30;
const SERVER_KEY = 'content-report-server-key-0123456789';
const ROOMS = ["Crafters' Hall", 'Frozen Crypt', 'Dungeon'];
const THEME = 'dark fantasy dungeon';
const fmt = (n: number, digits = 1) => n.toFixed(digits);

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

/** Players of the demo: each kills the game's enemies in its rooms until 30 items have dropped. */
async function dropBags(server: Server) {
  const game = shippedGame();
  const drops: Dropped[] = [];
  let failed = 0;
  let requests = 0;
  for (let p = 0; p < PLAYERS; p++) {
    const player = `report-player-${p}`;
    const level = 1 + ((p * 7) % 40);
    let got = 0;
    for (let kill = 0; got < BAG && kill < BAG * 3; kill++) {
      const enemy = game.enemies[(p + kill * 5) % game.enemies.length] as (typeof game.enemies)[number];
      const location = ROOMS[(p + kill) % ROOMS.length] as string;
      requests++;
      const res = await call(server, 'POST', '/v1/generate/items', {
        client_id: player,
        generation_context: { enemy: enemy.id, location, theme: THEME, player_level: level },
        items: [{}, {}],
      });
      if (res.status !== 200) {
        failed++;
        continue;
      }
      for (const item of (res.body as { items: Item[] }).items) {
        if (item.type === 'MATERIAL' && item.id === game.materials.find((m) => m.name === item.name)?.id)
          continue;
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

/** The game server asks for each rarity at each level: stats must rise along both. */
async function statGrid(server: Server) {
  const cells: Array<{ rarity: string; level: number; total: number }> = [];
  for (const rarity of RARITIES)
    for (const level of GRID_LEVELS)
      for (let n = 0; n < 6; n++) {
        const res = await call(server, 'POST', '/v1/generate/items', {
          client_id: `report-grid-${n}`,
          generation_context: { player_level: level, location: 'Dungeon', theme: THEME },
          items: [{ type: (['WEAPON', 'CHEST', 'ACCESSORY'] as const)[n % 3], rarity }],
        });
        for (const item of (res.body as { items?: Item[] }).items ?? [])
          cells.push({ rarity, level, total: statTotal(item) });
      }
  const byRarity = RARITIES.map((r) => mean(cells.filter((c) => c.rarity === r).map((c) => c.total)));
  const byLevel = GRID_LEVELS.map((l) => mean(cells.filter((c) => c.level === l).map((c) => c.total)));
  return { count: cells.length, byRarity, byLevel };
}

/** Icons of one kind under different names that come out pixel for pixel the same. */
async function identicalIcons(server: Server, items: Item[]) {
  const byHash = new Map<string, { kind: string; names: Set<string> }>();
  let painted = 0;
  for (const item of items) {
    if (!item.icon) continue;
    const res = await call(server, 'GET', item.icon.url);
    if (res.status !== 200) continue;
    painted++;
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
  return { painted, distinct: byHash.size, kinds: kinds.size, clashes };
}

interface CraftRow extends Craft {
  status: number;
  success: boolean;
  message: string;
  suggestions: string[];
  result?: string;
  level?: number;
  asExpected: boolean;
}

/** The crafting table: each row on a fresh player stocked with its ingredients, at the given crafting level. */
async function runCrafts(server: Server): Promise<CraftRow[]> {
  const rows: CraftRow[] = [];
  for (const [i, craft] of CRAFTS.entries()) {
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
        items: [{ type: id.slice(1), rarity: 'COMMON' }],
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
      asExpected: craft.expect.success === success && (!success || (matches && typed)),
    });
  }
  return rows;
}

/** Feeds each crafted item into the next combination, as a player farming levels would. */
async function craftChain(server: Server, playerLevel: number) {
  const player = 'report-chain';
  await call(server, 'PATCH', `/api/v1/player/${player}`, { crafting_level: 10, level: playerLevel });
  await call(server, 'POST', `/api/v1/player/${player}/inventory/grant`, {
    items: [{ item_id: 'iron_ore', quantity: 20 }],
  });
  const levels: number[] = [];
  let current = 'iron_ore';
  for (let step = 0; step < 6; step++) {
    const res = await call(server, 'POST', '/api/v1/crafting/combine', {
      player_id: player,
      ingredients: [
        { item_id: current, quantity: current === 'iron_ore' ? 2 : 1 },
        { item_id: 'iron_ore', quantity: 1 },
      ],
      crafting_station: 'forge',
      description: 'a sword',
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

async function main() {
  const started = Date.now();
  const dataDir = mkdtempSync(join(tmpdir(), 'lootsmith-content-'));
  const server = await startServer(
    loadConfig({
      LOOTSMITH_SERVER_KEY: SERVER_KEY,
      LOOTSMITH_PLAYER_SECRET: 'content-report-player-secret-0123',
      LOOTSMITH_DATA_DIR: dataDir,
      LOOTSMITH_GAME_FILE: writeGameFile(unlimitedDrops, dataDir),
      LOOTSMITH_LOG_LEVEL: 'silent',
      LOOTSMITH_PORT: '0',
    }),
    { listen: false },
  );
  let loot: Awaited<ReturnType<typeof dropBags>>;
  let icons: Awaited<ReturnType<typeof identicalIcons>>;
  let crafts: CraftRow[];
  let chain: number[];
  let grid: Awaited<ReturnType<typeof statGrid>>;
  try {
    console.log(`dropping ${PLAYERS} bags of ${BAG} items through the server…`);
    loot = await dropBags(server);
    console.log('checking icons…');
    icons = await identicalIcons(
      server,
      loot.drops.map((d) => d.item),
    );
    console.log('crafting…');
    crafts = await runCrafts(server);
    chain = await craftChain(server, 8);
    grid = await statGrid(server);
  } finally {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  console.log('asking the engine with unseen prompts…');
  const chat = await askEngine();

  // Loot through the server.
  const items = loot.drops;
  const bags = groupBy(items, (d) => d.player);
  const lootNames = uniqueNames(new Map([...bags].map(([k, v]) => [k, v.map((d) => d.item.name)])));
  const strictContext = items.filter((d) =>
    mentionsContext(
      [d.item.name, d.item.description, ...d.item.affixes.map((a) => `${a.name} ${a.effect}`)].join(' '),
      contextWords(d.enemyName, d.location, THEME),
    ),
  ).length;
  const anyContext = items.filter((d) =>
    mentionsContext(stringsOf(d.item).join(' '), contextWords(d.enemyName, d.location, THEME)),
  ).length;
  const elemental = items.filter((d) => d.enemyElement);
  const followsEnemy = elemental.filter((d) => d.item.element === d.enemyElement).length;
  const lootRepeats = [...bags.values()].map((bag) =>
    repeatedSentences(bag.map((d) => `${d.item.description} ${d.item.lore}`)),
  );
  const dropsOf = [...groupBy(items, (d) => String(d.drop)).values()].filter((drop) => drop.length > 1);
  const echoes = dropsOf.map((drop) =>
    sharedPhrases(
      drop.map((d) => `${d.item.description} ${d.item.lore}`),
      [drop[0]?.enemyName ?? '', drop[0]?.location ?? '', THEME],
    ),
  );
  const byRarity = RARITIES.map((r) =>
    items.filter((d) => d.item.rarity === r).map((d) => statTotal(d.item)),
  );
  const levelBands = [
    [1, 10],
    [11, 20],
    [21, 30],
    [31, 45],
  ] as const;
  const byLevel = levelBands.map(([lo, hi]) =>
    items.filter((d) => d.item.level >= lo && d.item.level <= hi).map((d) => statTotal(d.item)),
  );
  const consumableProcs = items.filter(
    (d) =>
      d.item.type === 'CONSUMABLE' && d.item.affixes.some((a) => /\bhits?\b|on hit|critical/i.test(a.effect)),
  ).length;

  // The engine's chat with prompts it has never seen.
  const chatBags = groupBy(chat, (c) => c.client);
  const chatNames = uniqueNames(new Map([...chatBags].map(([k, v]) => [k, v.flatMap((c) => c.names)])));
  // Prose only (descriptions, lore, card text): names are measured as names, and affix rules text
  // ("Keen Edge: Critical hits deal 16% more damage.") repeats by design, so it is counted apart.
  const affixLine = (x: string) => /^[A-Z][\w' -]{1,40}: /.test(x);
  const prose = (c: ChatResult) =>
    stringsOf(c.value).filter((x) => /[.!?]$/.test(x) && x.split(' ').length >= 6);
  const chatRepeats = [...chatBags.values()].map((bag) =>
    repeatedSentences(bag.flatMap((c) => prose(c).filter((x) => !affixLine(x)))),
  );
  const affixRepeats = [...chatBags.values()].map((bag) =>
    repeatedSentences(bag.flatMap((c) => prose(c).filter(affixLine))),
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
  const expected = crafts.filter((c) => c.asExpected).length;
  const chainLevel = 8;
  const peers = items.filter((d) => d.playerLevel === chainLevel).map((d) => d.item.level);

  const sample = bags.values().next().value ?? [];
  const md = `# Content report

Written by \`npm run content:report\` (\`test/content/report.ts\`) on ${new Date().toISOString().slice(0, 10)} in ${fmt((Date.now() - started) / 1000, 0)} s. Every figure below is measured from generated output on this run; none is written by hand.

- **Game definition, real server pipeline**: ${PLAYERS} players of the demo (\`server/game/fantasy-rpg.json\`, theme "${THEME}", rooms ${ROOMS.join(', ')}) each kill the game's enemies through \`POST /v1/generate/items\` on the Lootsmith server with its embedded engine until ${BAG} items have dropped: ${items.length} generated items from ${loot.requests} drops (${loot.failed} failed drops).
- **Prompts the engine's tests never saw**: ${chat.length} \`/v1/chat/completions\` requests to the engine with ${SCHEMAS.length} developer schemas (${SCHEMAS.map((s) => s.name).join(', ')}), the context written as JSON, \`key: value\` lines or prose (three phrasings each), ${SITUATIONS.length} situations, ${ASKED.length} rarities and ${LEVELS.length} levels (\`test/content/prompts.ts\`).

## Summary

${table(
  ['measure', 'game definition (server)', 'unseen prompts (engine chat)', 'goal'],
  [
    [
      'schema-valid',
      `${fmt(percent(items.length, items.length + loot.failed * 2))}% (${loot.failed} drops failed)`,
      `${fmt(percent(chat.filter((c) => c.valid).length, chat.length))}% of ${chat.length}`,
      '100%',
    ],
    [
      'names unique per player',
      `${fmt(percent(lootNames.unique, lootNames.names))}% (${lootNames.unique}/${lootNames.names})`,
      `${fmt(percent(chatNames.unique, chatNames.names))}% (${chatNames.unique}/${chatNames.names})`,
      '≥ 99%',
    ],
    [
      'context words present',
      `${fmt(percent(strictContext, items.length))}% in name, description or affixes; ${fmt(percent(anyContext, items.length))}% anywhere`,
      `${fmt(percent(chat.filter((c) => c.context).length, chat.length))}%`,
      '≥ 90%',
    ],
    [
      'bags of 30 with a repeated sentence',
      `${lootRepeats.filter((r) => r.length).length} of ${lootRepeats.length}`,
      `${chatRepeats.filter((r) => r.length).length} of ${chatRepeats.length}`,
      '0',
    ],
    [
      'drops whose items share a phrase (4 words in a row; names and stat lists aside)',
      `${echoes.filter((e) => e.length).length} of ${echoes.length}`,
      '—',
      '0',
    ],
    [
      'mean stats rise with rarity',
      `${strictlyRising(grid.byRarity) ? 'yes' : 'no'}: ${grid.byRarity.map((x) => fmt(x, 0)).join(', ')}`,
      `${schemaRows.filter((s) => strictlyRising(s.byR)).length} of ${SCHEMAS.length} schemas`,
      'strictly',
    ],
    [
      'mean stats rise with level',
      `${strictlyRising(grid.byLevel) ? 'yes' : 'no'}: ${grid.byLevel.map((x) => fmt(x, 0)).join(', ')}`,
      `${schemaRows.filter((s) => strictlyRising(s.byL)).length} of ${SCHEMAS.length} schemas`,
      'strictly',
    ],
  ],
)}

Sentences are those of descriptions, lore and other prose fields. Affix rules text is counted apart: in the unseen-prompt bags, ${affixRepeats.filter((r) => r.length).length} of ${affixRepeats.length} repeat an affix line word for word (two items with the same effect at the same strength).

Drops of enemies with an element carrying that element: ${fmt(percent(followsEnemy, elemental.length))}% (${followsEnemy}/${elemental.length}). Consumables with on-hit effects: ${consumableProcs}.

## Loot through the server

The rise of stats in the summary is measured on ${grid.count} items the game server asked for at each rarity (${RARITIES.join(', ')}) and level (${GRID_LEVELS.join(', ')}), so that rarity and level do not mix. In the players' bags rarity is rolled and mixes with level; there, mean stat total by rarity:

${table(
  ['rarity', ...RARITIES],
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

Icons: ${icons.painted} icons fetched, ${icons.distinct} distinct images over ${icons.kinds} kinds; different names with pixel-identical icons: ${icons.clashes.length}${
    icons.clashes.length
      ? ` (${icons.clashes
          .slice(0, 5)
          .map((c) => [...c.names].join(' = '))
          .join('; ')})`
      : ''
  }. The painter's contact sheet with every kind is \`docs/icons-sheet.png\` (\`npm run icons:sheet\`).

${
  lootRepeats.some((r) => r.length)
    ? `Repeated sentences: ${lootRepeats
        .flat()
        .slice(0, 5)
        .map(([s, n]) => `“${s}” ×${n}`)
        .join('; ')}\n\n`
    : ''
}${
  echoes.some((e) => e.length)
    ? `Phrases two items of one drop share: ${echoes
        .flat()
        .slice(0, 5)
        .map((p) => `“${p}”`)
        .join('; ')}\n\n`
    : ''
}${
  chatRepeats.some((r) => r.length)
    ? `Repeated sentences in the unseen-prompt bags: ${chatRepeats
        .flat()
        .slice(0, 5)
        .map(([s, n]) => `“${s}” ×${n}`)
        .join('; ')}\n\n`
    : ''
}The first player's bag, as dropped:

${table(
  ['name', 'type', 'rarity', 'lvl', 'element', 'from', 'description', 'lore', 'affixes'],
  sample.map((d) => [
    cell(d.item.name),
    `${d.item.type} ${d.item.subtype}`,
    d.item.rarity,
    d.item.level,
    d.item.element,
    `${d.enemyName}, ${d.location}`,
    cell(d.item.description),
    cell(d.item.lore),
    cell(d.item.affixes.map((a) => `${a.name}: ${a.effect}`).join(' / ') || '–'),
  ]),
)}

## Crafting verdicts

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
  crafts.map((c) => [
    c.ingredients.map(([id, q]) => `${q} × ${id}`).join(' + '),
    `${c.station ?? '–'}${c.tool ? ` (${c.tool})` : ''}`,
    cell(c.intent ?? '–'),
    c.craftingLevel,
    c.expect.success
      ? `success${c.expect.subtype ? `: ${c.expect.subtype}` : c.expect.type ? `: ${c.expect.type}` : ''}`
      : 'refused',
    `${c.success ? 'success' : `refused (${c.status})`}${c.asExpected ? '' : ' ✗'}`,
    cell(c.result ?? c.message),
    cell(c.suggestions.join(' / ') || '–'),
  ]),
)}

Crafting chain (each forged sword fed into the next, player level ${chainLevel}, crafting level 10): levels ${chain.join(' → ') || '(no craft succeeded)'}; loot dropped to level-${chainLevel} players in this run reached level ${Math.max(...peers)} (${peers.length} items).

## Unseen prompts by form

${table(['context form', 'requests', 'schema-valid %', 'context words %'], forms)}

Mean stat total by asked rarity and by level, per schema:

${table(
  ['schema', 'valid %', 'context %', ...ASKED, 'rising', ...LEVELS.map((l) => `lvl ${l}`), 'rising'],
  schemaRows.map((s) => [
    s.name,
    fmt(percent(s.rows.filter((c) => c.valid).length, s.rows.length)),
    fmt(percent(s.rows.filter((c) => c.context).length, s.rows.length)),
    ...s.byR.map((x) => fmt(x)),
    strictlyRising(s.byR) ? 'yes' : 'no',
    ...s.byL.map((x) => fmt(x)),
    strictlyRising(s.byL) ? 'yes' : 'no',
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
