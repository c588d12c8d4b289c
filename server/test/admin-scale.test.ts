import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestSchema } from '@lootsmith/test-support/postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RequestService } from '../src/admin/request-service.ts';
import { AdminService } from '../src/admin/service.ts';
import { loadGameDefinition } from '../src/game/definition.ts';
import { PostgresStore } from '../src/store/postgres.ts';
import { SqliteStore } from '../src/store/sqlite.ts';
import type { Store } from '../src/store/store.ts';

// The console's pages over a big game: 5,000 players, 50,000 items with their provenance, 100,000
// recorded requests (and as many in the request log), 20,000 moderation events, a day of per-minute figures. Every page query must use an index (no sort of a
// whole table, no scan of one without an index) and answer in well under a page load.

const PLAYERS = 5_000;
const ITEMS = 50_000;
const REQUESTS = 100_000;
const MODERATION = 20_000;
const RARITIES = ['COMMON', 'UNCOMMON', 'RARE', 'EPIC', 'LEGENDARY', 'MYTHIC'];
const TYPES = ['WEAPON', 'HELMET', 'CHEST', 'BOOTS', 'SHIELD'];
const ENEMIES = ['slime', 'rat', 'skeleton', 'cultist', 'fire_imp', 'frost_giant'];
/** Slowest a page's queries may take here, on a shared and noisy machine. */
const PAGE_MS = 250;

const iso = (i: number) => new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString();
const itemJson = (i: number) =>
  JSON.stringify({
    id: `itm_${i}`,
    name: `Blade ${i}`,
    type: TYPES[i % TYPES.length],
    subtype: 'sword',
    rarity: RARITIES[i % RARITIES.length],
    level: 1 + (i % 50),
    element: 'none',
    material: 'iron',
    description: 'A blade for the scale test.',
    lore: 'One of very many.',
    stats: [{ name: 'attack', value: 5 }],
    effects: [],
    value: 10,
    icon: null,
    created_at: iso(i),
  });

/** Rows of the big game, by table, each a list of column values. */
function rows() {
  const now = Date.now();
  const minute = Math.floor(now / 60_000);
  const player = (i: number) => `player-${String(i).padStart(5, '0')}`;
  return {
    players: Array.from({ length: PLAYERS }, (_, i) => [player(i), iso(i)]),
    player_stats: Array.from({ length: PLAYERS }, (_, i) => [player(i), 10, 3, 1, 1, 500, 4, now - i * 1000]),
    items: Array.from({ length: ITEMS }, (_, i) => [
      `itm_${i}`,
      player(i % PLAYERS),
      `Blade ${i}`,
      itemJson(i),
      iso(i),
    ]),
    inventory: Array.from({ length: ITEMS }, (_, i) => [player(i % PLAYERS), `itm_${i}`, 1]),
    item_provenance: Array.from({ length: ITEMS }, (_, i) => [
      `itm_${i}`,
      'loot',
      player(i % PLAYERS),
      RARITIES[i % RARITIES.length],
      TYPES[i % TYPES.length],
      1 + (i % 50),
      ENEMIES[i % ENEMIES.length],
      'chat:embedded',
      iso(i),
    ]),
    player_requests: Array.from({ length: REQUESTS }, (_, i) => [
      player(i % PLAYERS),
      now - i * 100,
      'POST /v1/generate/items',
      200,
      3,
    ]),
    request_log: Array.from({ length: REQUESTS }, (_, i) => [
      `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      now - (REQUESTS - i) * 100,
      'POST',
      LOGGED_ROUTES[i % LOGGED_ROUTES.length],
      200,
      KINDS[i % KINDS.length],
      player(i % PLAYERS),
      12,
      '{"client_id":"x"}',
      0,
    ]),
    moderation_events: Array.from({ length: MODERATION }, (_, i) => [
      player(i % PLAYERS),
      now - i * 1000,
      i % 2 ? 'player_text' : 'generated_text',
      'description',
      'some refused words',
      'profanity',
      'refused',
    ]),
    // 23 hours: the day window holds all of them, however far into its hour it is now.
    route_stats: Array.from({ length: 1380 * 4 }, (_, i) => [
      minute - Math.floor(i / 4),
      [
        'POST /v1/generate/items',
        'GET /api/v1/player/:player_id/inventory',
        'POST /api/v1/crafting/combine',
        'POST /v1/image/generations',
      ][i % 4],
      200,
      '',
      25,
      500,
    ]),
  };
}

const LOGGED_ROUTES = [
  'POST /v1/generate/items',
  'POST /api/v1/crafting/combine',
  'POST /v1/image/generations',
];
const KINDS = ['ok', 'ok', 'ok', 'game_refusal', 'client_error', 'error', 'content_refusal'];

const COLUMNS: Record<string, string> = {
  request_log: 'id, at, method, route, status, kind, player_id, ms, body, body_truncated',
  players: 'id, created_at',
  player_stats: 'player_id, requests, drops, crafts, refusals, tokens, images, last_at',
  items: 'id, owner, name, data, created_at',
  inventory: 'player_id, item_id, quantity',
  item_provenance: 'item_id, source, player_id, rarity, type, level, enemy, backend, created_at',
  player_requests: 'player_id, at, route, status, ms',
  route_stats: 'minute, route, status, code, count, total_ms',
  moderation_events: 'player_id, at, kind, field, excerpt, reason, action',
};

/** A plan line that reads a whole table, or sorts what it read: what a page query must never do. */
const WHOLE_TABLE = {
  // A bare SCAN of a rowid table walks it in id order and stops at the LIMIT (moderation_events).
  sqlite: /^(SCAN (p|v|s|i|player_requests|request_log)$|USE TEMP B-TREE FOR ORDER BY)/m,
  postgres:
    /Seq Scan on (players|items|item_provenance|player_stats|player_requests|inventory|moderation_events|request_log)\b/,
};

const backends = [
  {
    name: 'SQLite' as const,
    dialect: 'sqlite' as const,
    async open() {
      const dir = mkdtempSync(join(tmpdir(), 'lootsmith-admin-scale-'));
      const store = new SqliteStore(dir);
      const data = rows();
      store.db.transaction(() => {
        for (const [table, list] of Object.entries(data)) {
          const columns = COLUMNS[table] as string;
          const insert = store.db.prepare(
            `INSERT INTO ${table} (${columns}) VALUES (${columns
              .split(',')
              .map(() => '?')
              .join(', ')})`,
          );
          for (const row of list) insert.run(...row);
        }
      })();
      store.db.exec('ANALYZE');
      return { store: store as Store, cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
    },
  },
  {
    name: 'PostgreSQL' as const,
    dialect: 'postgres' as const,
    async open() {
      const schema = await createTestSchema();
      if (!schema) return null;
      const store = await PostgresStore.connect(schema.url);
      const client = new pg.Client({ connectionString: schema.url });
      await client.connect();
      for (const [table, list] of Object.entries(rows())) {
        const columns = COLUMNS[table] as string;
        const width = columns.split(',').length;
        for (let at = 0; at < list.length; at += 2000) {
          const chunk = list.slice(at, at + 2000);
          const values = chunk
            .map((_, r) => `(${Array.from({ length: width }, (_, c) => `$${r * width + c + 1}`).join(', ')})`)
            .join(', ');
          await client.query(`INSERT INTO ${table} (${columns}) VALUES ${values}`, chunk.flat());
        }
      }
      await client.query('ANALYZE');
      await client.end();
      return { store: store as Store, cleanup: () => schema.drop() };
    },
  },
];

describe.each(backends)('$name console queries over 5,000 players and 50,000 items', (backend) => {
  let store: Store;
  let admin: AdminService;
  let requests: RequestService;
  let cleanup = async () => {};
  let available = true;
  beforeAll(async () => {
    const opened = await backend.open();
    if (!opened) {
      available = false;
      return;
    }
    store = opened.store;
    cleanup = opened.cleanup;
    admin = new AdminService({
      game: loadGameDefinition(),
      store,
      materials: new Map(),
      pools: false,
      currency: 'USD',
    });
    requests = new RequestService({ store, settings: { max: REQUESTS, days: 7 }, currency: 'USD' });
  }, 120_000);
  afterAll(async () => {
    if (!available) return;
    await store.close();
    await cleanup();
  });
  const run = (name: string, fn: () => Promise<void>) =>
    it(name, async (ctx) => {
      if (!available) ctx.skip();
      await fn();
    });

  run('plans every list and figure query on an index, sorting nothing whole', async () => {
    const plans = { ...(await store.admin.plans()), ...(await store.requestLog.plans()) };
    for (const [name, plan] of Object.entries(plans))
      expect(plan, `${name}:\n${plan}`).not.toMatch(WHOLE_TABLE[backend.dialect]);
  });

  run('answers each page in well under a page load', async () => {
    const timed = async <T>(name: string, work: () => Promise<T>): Promise<T> => {
      await work(); // warm
      const started = performance.now();
      const result = await work();
      const took = performance.now() - started;
      expect(took, `${name} took ${took.toFixed(1)} ms`).toBeLessThan(PAGE_MS);
      return result;
    };
    const players = await timed('players by recent', () => admin.players({ sort: 'recent', limit: 50 }));
    expect(players.players).toHaveLength(50);
    expect(players.total).toBe(PLAYERS);
    const page2 = await timed('players page 2', () =>
      admin.players({ sort: 'recent', limit: 50, after: players.next ?? undefined }),
    );
    expect(page2.players[0]?.id).toBe('player-00050');
    await timed('players by id prefix', () => admin.players({ sort: 'id', q: 'player-049', limit: 50 }));
    const items = await timed('items', () => admin.items({ limit: 60 }));
    expect(items.items[0]?.id).toBe(`itm_${ITEMS - 1}`);
    await timed('items page 2', () => admin.items({ limit: 60, after: items.next ?? undefined }));
    const epic = await timed('items by rarity and enemy', () =>
      admin.items({ rarity: 'EPIC', enemy: 'frost_giant', limit: 60 }),
    );
    expect(epic.items.every((i) => i.rarity === 'EPIC' && i.enemy === 'frost_giant')).toBe(true);
    await timed('items of a day', () =>
      admin.items({ type: 'WEAPON', from: '2026-01-10', to: '2026-01-12', limit: 60 }),
    );
    const player = await timed('a player', () => admin.player('player-00042'));
    expect(player.inventory).toHaveLength(ITEMS / PLAYERS);
    expect(player.requests).toHaveLength(REQUESTS / PLAYERS);
    await timed('an item', () => admin.item('itm_4242'));
    const day = await timed('the day overview', () => admin.overview('day'));
    expect(day.totals.requests).toBe(1380 * 4 * 25);
    await timed('the hour overview', () => admin.overview('hour'));
    const moderation = await timed('moderation', () => admin.moderation({ limit: 50 }));
    expect(moderation.events).toHaveLength(50);
    await timed('moderation of a player', () => admin.moderation({ player: 'player-00007', limit: 50 }));
    const logged = await timed('the request log', () => requests.list({ limit: 50 }));
    expect(logged.requests[0]?.id).toBe(`00000000-0000-4000-8000-${String(REQUESTS - 1).padStart(12, '0')}`);
    await timed('the request log, page 2', () =>
      requests.list({ limit: 50, after: logged.next ?? undefined }),
    );
    const errors = await timed('the request log by player and kind', () =>
      requests.list({ player: 'player-00005', kind: 'error', limit: 50 }),
    );
    expect(errors.requests.every((r) => r.player_id === 'player-00005' && r.kind === 'error')).toBe(true);
    await timed('the request log by route', () =>
      requests.list({ route: 'POST /api/v1/crafting/combine', limit: 50 }),
    );
    await timed('a request', () => requests.detail(logged.requests[0]?.id as string));
  });
});
