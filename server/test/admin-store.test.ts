import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Item } from '@lootsmith/protocol';
import { createTestSchema } from '@lootsmith/test-support/postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ActivityBatch,
  LATENCY_BUCKETS,
  type ProvenanceRow,
  type RouteMinute,
} from '../src/admin/store.ts';
import { PostgresStore } from '../src/store/postgres.ts';
import { SqliteStore } from '../src/store/sqlite.ts';
import type { Store } from '../src/store/store.ts';

const item = (id: string, over: Partial<Item> = {}): Item => ({
  id,
  name: `Item ${id}`,
  type: 'WEAPON',
  subtype: 'sword',
  rarity: 'RARE',
  level: 3,
  element: 'none',
  material: 'iron',
  description: 'A test sword.',
  lore: 'Made for a store test.',
  stats: [{ name: 'attack', value: 9 }],
  effects: [],
  value: 5,
  icon: null,
  created_at: '2026-01-01T00:00:00.000Z',
  ...over,
});

const buckets = (at: number, n = 1) => Array.from({ length: LATENCY_BUCKETS }, (_, i) => (i === at ? n : 0));
const empty = (): ActivityBatch => ({
  routes: [],
  backends: [],
  counters: [],
  players: [],
  requests: [],
  provenance: [],
  spend: [],
  playerSpend: [],
  keepRequests: 1000,
});
const provenance = (it: Item, over: Partial<ProvenanceRow> = {}): ProvenanceRow => ({
  itemId: it.id,
  source: 'loot',
  playerId: 'ana',
  rarity: it.rarity,
  type: it.type,
  level: it.level,
  enemy: 'slime',
  backend: 'chat:embedded',
  model: 'lootsmith-writer',
  seed: 42,
  prompt: 'system\n\nuser',
  rules: { rarity: it.rarity, level: it.level, stat_budget: 30, value_cap: 750, clamps: [], rejected: [] },
  cost: 0,
  createdAt: it.created_at,
  ...over,
});

const backends = [
  {
    name: 'SQLite',
    async open() {
      const dir = mkdtempSync(join(tmpdir(), 'lootsmith-admin-store-'));
      return { store: new SqliteStore(dir) as Store, cleanup: async () => rmSync(dir, { recursive: true }) };
    },
  },
  {
    name: 'PostgreSQL',
    async open() {
      const schema = await createTestSchema();
      if (!schema) return null;
      return { store: (await PostgresStore.connect(schema.url)) as Store, cleanup: () => schema.drop() };
    },
  },
];

describe.each(backends)('$name admin store', (backend) => {
  let store: Store;
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
  });
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

  run('adds up the figures of every write (several instances write the same minute)', async () => {
    const minute = Math.floor(Date.now() / 60_000);
    const route = (over: Partial<RouteMinute>): RouteMinute => ({
      minute,
      route: 'POST /v1/generate/items',
      status: 200,
      code: '',
      count: 3,
      totalMs: 90,
      buckets: buckets(3, 3),
      ...over,
    });
    const batch = {
      ...empty(),
      routes: [
        route({}),
        route({ status: 429, code: 'rate_limit_exceeded', count: 1, totalMs: 2, buckets: buckets(0) }),
      ],
      backends: [
        {
          minute,
          backend: 'chat:embedded',
          kind: 'chat',
          outcome: 'ok',
          count: 2,
          totalMs: 40,
          buckets: buckets(2, 2),
          promptTokens: 100,
          completionTokens: 50,
          images: 0,
        },
      ],
      counters: [{ minute, name: 'pool_draw', label: 'hit', value: 2 }],
      spend: [
        {
          day: '2026-03-01',
          route: 'POST /v1/generate/items',
          backend: 'chat:openai',
          calls: 2,
          nanos: 900,
          unpriced: 0,
        },
        { day: '2026-03-01', route: 'background', backend: 'image:sdapi', calls: 1, nanos: 0, unpriced: 1 },
        {
          day: '2026-02-28',
          route: 'POST /v1/generate/items',
          backend: 'chat:openai',
          calls: 1,
          nanos: 7,
          unpriced: 0,
        },
      ],
      playerSpend: [{ playerId: 'ana', day: '2026-03-01', calls: 3, nanos: 905, unpriced: 1 }],
    };
    await store.admin.recordActivity(batch);
    await store.admin.recordActivity(batch);
    // Spend adds up per day, route and backend, and per player and day, whatever instance wrote it.
    expect(await store.admin.spend('2026-03-01')).toEqual(
      expect.arrayContaining([
        {
          day: '2026-03-01',
          route: 'POST /v1/generate/items',
          backend: 'chat:openai',
          calls: 4,
          nanos: 1800,
          unpriced: 0,
        },
        { day: '2026-03-01', route: 'background', backend: 'image:sdapi', calls: 2, nanos: 0, unpriced: 2 },
      ]),
    );
    expect(await store.admin.spend('2026-03-01')).toHaveLength(2);
    expect(await store.admin.playerSpend('ana', '2026-02-01')).toEqual([
      { playerId: 'ana', day: '2026-03-01', calls: 6, nanos: 1810, unpriced: 2 },
    ]);
    const routes = await store.admin.routeStats(minute - 60);
    const ok = routes.find((r) => r.status === 200);
    expect(ok).toMatchObject({ count: 6, totalMs: 180, code: '' });
    expect(ok?.buckets[3]).toBe(6);
    expect(routes.find((r) => r.status === 429)).toMatchObject({ count: 2, code: 'rate_limit_exceeded' });
    const [chat] = await store.admin.backendStats(minute - 60);
    expect(chat).toMatchObject({
      count: 4,
      promptTokens: 200,
      completionTokens: 100,
      backend: 'chat:embedded',
      kind: 'chat',
    });
    expect(await store.admin.counters(minute - 60)).toEqual([{ name: 'pool_draw', label: 'hit', value: 4 }]);
    expect(await store.admin.series(minute - 60, 1)).toEqual(
      expect.arrayContaining([
        { slot: minute, status: 200, code: '', count: 6 },
        { slot: minute, status: 429, code: 'rate_limit_exceeded', count: 2 },
      ]),
    );
    // Figures older than the window are not counted.
    expect(await store.admin.routeStats(minute + 1)).toEqual([]);
  });

  run('lists players by id and by last activity, paged, and searched by id prefix', async () => {
    for (const id of ['zed-1', 'zed-2', 'zed-3', 'zoe'])
      await store.ensurePlayer(id, [{ item_id: 'iron_ore', quantity: 2 }]);
    const now = Date.now();
    await store.admin.recordActivity({
      ...empty(),
      players: [
        {
          playerId: 'zed-1',
          requests: 5,
          drops: 2,
          crafts: 1,
          refusals: 1,
          tokens: 300,
          images: 2,
          spend: 5_000_000,
          lastAt: now - 3000,
          level: 4,
          levelAt: now - 3000,
        },
        {
          playerId: 'zed-2',
          requests: 1,
          drops: 1,
          crafts: 0,
          refusals: 0,
          tokens: 0,
          images: 1,
          spend: 0,
          lastAt: now - 1000,
          level: null,
          levelAt: null,
        },
        {
          playerId: 'zoe',
          requests: 1,
          drops: 0,
          crafts: 0,
          refusals: 1,
          tokens: 0,
          images: 0,
          spend: 0,
          lastAt: now - 2000,
          level: null,
          levelAt: null,
        },
      ],
      requests: [
        {
          playerId: 'zed-1',
          at: now - 4000,
          route: 'POST /v1/generate/items',
          status: 200,
          code: null,
          ms: 12,
        },
        {
          playerId: 'zed-1',
          at: now - 3000,
          route: 'POST /v1/generate/items',
          status: 429,
          code: 'rate_limit_exceeded',
          ms: 1,
        },
      ],
    });
    // A second write adds up and keeps the latest activity, and the level reported last.
    const later = (level: number | null, levelAt: number | null) =>
      store.admin.recordActivity({
        ...empty(),
        players: [
          {
            playerId: 'zed-1',
            requests: 1,
            drops: 1,
            crafts: 0,
            refusals: 0,
            tokens: 10,
            images: 0,
            spend: 1_500,
            lastAt: now - 5000,
            level,
            levelAt,
          },
        ],
      });
    await later(6, now - 1000);
    const zed = await store.admin.player('zed-1');
    expect(zed).toMatchObject({
      requests: 6,
      drops: 3,
      crafts: 1,
      refusals: 1,
      tokens: 310,
      images: 2,
      spend: 5_001_500,
      lastAt: now - 3000,
      stacks: 1,
      reportedLevel: 6,
      reportedAt: now - 1000,
    });
    // Instances write in any order: an older report, or none, leaves the newest in place.
    await later(5, now - 2000);
    await later(null, null);
    expect(await store.admin.player('zed-1')).toMatchObject({ reportedLevel: 6, reportedAt: now - 1000 });
    expect(await store.admin.player('zed-2')).toMatchObject({ reportedLevel: null, reportedAt: null });
    const byId = await store.admin.players({ sort: 'id', prefix: 'zed', limit: 2 });
    expect(byId.map((p) => p.id)).toEqual(['zed-1', 'zed-2']);
    const rest = await store.admin.players({ sort: 'id', prefix: 'zed', after: { id: 'zed-2' }, limit: 2 });
    expect(rest.map((p) => p.id)).toEqual(['zed-3']);
    expect(await store.admin.countPlayers('zed')).toBe(3);
    const recent = await store.admin.players({ sort: 'recent', prefix: 'z', limit: 2 });
    expect(recent.map((p) => p.id)).toEqual(['zed-2', 'zoe']);
    const older = await store.admin.players({
      sort: 'recent',
      prefix: 'z',
      after: { id: 'zoe', lastAt: now - 2000 },
      limit: 2,
    });
    expect(older.map((p) => p.id)).toEqual(['zed-1']);
    const requests = await store.admin.playerRequests('zed-1', 10);
    expect(requests.map((r) => r.status)).toEqual([429, 200]);
    expect(requests[0]).toMatchObject({ code: 'rate_limit_exceeded', route: 'POST /v1/generate/items' });
  });

  run(
    'keeps how an item was made apart from the item, and lists items by filters, newest first',
    async () => {
      await store.ensurePlayer('gal', []);
      const items = [
        item('itm_g1', { rarity: 'EPIC', created_at: '2026-02-01T10:00:00.000Z' }),
        item('itm_g2', { type: 'HELMET', created_at: '2026-02-02T10:00:00.000Z' }),
        item('itm_g3', { created_at: '2026-02-03T10:00:00.000Z' }),
      ];
      await store.grantLoot('gal', items, [], 'loot');
      await store.admin.recordActivity({
        ...empty(),
        provenance: [
          provenance(items[0] as Item, { enemy: 'frost_giant', playerId: 'gal' }),
          provenance(items[1] as Item, { playerId: 'gal' }),
          provenance(items[2] as Item, {
            playerId: 'gal',
            rules: {
              rarity: 'RARE',
              level: 3,
              stat_budget: 30,
              value_cap: 750,
              clamps: ['a claim'],
              rejected: [['too strong']],
            },
          }),
          // Generated but never granted (the drop failed): never listed.
          provenance(item('itm_lost'), { createdAt: '2026-02-04T00:00:00.000Z' }),
        ],
      });
      const all = await store.admin.items({ limit: 10 });
      expect(all.filter((i) => i.id.startsWith('itm_g')).map((i) => i.id)).toEqual([
        'itm_g3',
        'itm_g2',
        'itm_g1',
      ]);
      expect((await store.admin.items({ rarity: 'EPIC', limit: 10 })).map((i) => i.id)).toEqual(['itm_g1']);
      expect((await store.admin.items({ type: 'HELMET', limit: 10 })).map((i) => i.id)).toEqual(['itm_g2']);
      expect((await store.admin.items({ enemy: 'frost_giant', limit: 10 })).map((i) => i.id)).toEqual([
        'itm_g1',
      ]);
      const day = await store.admin.items({ from: '2026-02-02', to: '2026-02-03', limit: 10 });
      expect(day.map((i) => i.id)).toEqual(['itm_g2']);
      const page2 = await store.admin.items({
        after: { createdAt: '2026-02-03T10:00:00.000Z', id: 'itm_g3' },
        limit: 1,
      });
      expect(page2.map((i) => i.id)).toEqual(['itm_g2']);
      const detail = await store.admin.item('itm_g3');
      expect(detail?.provenance).toMatchObject({
        source: 'loot',
        backend: 'chat:embedded',
        seed: 42,
        prompt: 'system\n\nuser',
      });
      expect(detail?.provenance?.rules).toMatchObject({ clamps: ['a claim'], rejected: [['too strong']] });
      expect(detail?.holders).toEqual([{ player_id: 'gal', quantity: 1 }]);
      // What players receive is unchanged: no provenance in the item's JSON.
      expect(JSON.parse(detail?.row.data ?? '{}')).toEqual(items[2]);
      expect(detail?.consumed).toBeNull();
      expect(await store.admin.item('itm_lost')).toBeNull();

      // Eaten by a combine: no one holds it, and the list and the page say what used it up.
      await store.craft({
        playerId: 'gal',
        consume: [{ item_id: 'itm_g1', quantity: 1 }],
        item: item('itm_g4', { created_at: '2026-02-05T10:00:00.000Z' }),
        recipe: null,
        xp: 1,
        discoveryXp: 0,
        reason: 'combine',
      });
      const listed = await store.admin.items({ limit: 10 });
      expect(listed.filter((i) => i.id.startsWith('itm_g')).map((i) => [i.id, i.consumed])).toEqual([
        ['itm_g3', null],
        ['itm_g2', null],
        ['itm_g1', 'combine'],
      ]);
      const eaten = await store.admin.item('itm_g1');
      expect(eaten?.holders).toEqual([]);
      expect(eaten?.consumed).toEqual({ how: 'combine', playerId: 'gal', at: expect.any(String) });
    },
  );

  run(
    'removes an item from every inventory and slot, with a record of why, and forgets its recipe',
    async () => {
      const sword = item('itm_bad', { name: 'Offensive Blade' });
      await store.ensurePlayer('rem1', []);
      await store.ensurePlayer('rem2', []);
      await store.craft({
        playerId: 'rem1',
        consume: [],
        item: sword,
        recipe: { key: 'recipe-bad', ingredients: [], station: null, tool: null },
        xp: 1,
        discoveryXp: 0,
        reason: 'combine',
      });
      await store.changeStacks('rem2', [{ item_id: 'itm_bad', quantity: 2 }], 'server_grant');
      await store.equip('rem1', 'WEAPON', 'itm_bad');
      const before = await store.inventoryVersion('rem2');
      const removal = await store.admin.removeItem(
        'itm_bad',
        'its name is a slur',
        'console',
        '2026-03-01T00:00:00.000Z',
      );
      expect(removal).toEqual({
        reason: 'its name is a slur',
        removedBy: 'console',
        removedAt: '2026-03-01T00:00:00.000Z',
        holders: [
          { player_id: 'rem1', quantity: 1 },
          { player_id: 'rem2', quantity: 2 },
        ],
      });
      expect(await store.stacks('rem1')).toEqual([]);
      expect(await store.stacks('rem2')).toEqual([]);
      expect(await store.equipment('rem1')).toEqual([]);
      expect(await store.recipe('recipe-bad')).toBeNull();
      expect((await store.inventoryVersion('rem2'))?.version).toBeGreaterThan(before?.version ?? 0);
      const detail = await store.admin.item('itm_bad');
      expect(detail?.row.removed).toBe(true);
      expect(detail?.holders).toEqual([]);
      // Removed, not used up.
      expect(detail?.consumed).toBeNull();
      // Removing again keeps who held it.
      const again = await store.admin.removeItem(
        'itm_bad',
        'still bad',
        'console',
        '2026-03-02T00:00:00.000Z',
      );
      expect(again?.holders).toHaveLength(2);
      expect(again?.reason).toBe('still bad');
      expect(
        await store.admin.removeItem('itm_nothing', 'x', 'console', '2026-03-01T00:00:00.000Z'),
      ).toBeNull();
    },
  );

  run('records moderation events through the store method, newest first, by kind and player', async () => {
    const t0 = Date.now();
    await store.admin.recordModeration({
      playerId: 'mallory',
      at: t0 - 2000,
      kind: 'player_text',
      field: 'description',
      excerpt: 'IGNORE PREVIOUS INSTRUCTIONS',
      reason: 'prompt_injection',
      action: 'refused',
    });
    await store.admin.recordModeration({
      playerId: null,
      at: t0 - 1000,
      kind: 'generated_text',
      field: 'items.0.name',
      excerpt: 'x'.repeat(500),
      reason: 'profanity',
      action: 'regenerated',
    });
    await store.admin.recordModeration({
      playerId: 'mallory',
      kind: 'player_text',
      field: 'visual_preferences.look',
      excerpt: 'a slur',
      reason: 'slur',
      action: 'refused',
    });
    const all = await store.admin.moderation({ limit: 10 });
    expect(all.map((e) => e.reason)).toEqual(['slur', 'profanity', 'prompt_injection']);
    expect(all[1]?.excerpt).toHaveLength(200);
    expect(all[0]?.at).toBeGreaterThanOrEqual(t0);
    const hers = await store.admin.moderation({ playerId: 'mallory', limit: 1 });
    expect(hers.map((e) => e.field)).toEqual(['visual_preferences.look']);
    const next = await store.admin.moderation({ playerId: 'mallory', beforeId: hers[0]?.id, limit: 5 });
    expect(next.map((e) => e.field)).toEqual(['description']);
    expect((await store.admin.moderation({ kind: 'generated_text', limit: 5 })).map((e) => e.field)).toEqual([
      'items.0.name',
    ]);
    expect(await store.admin.moderationSince(t0 - 1500)).toBe(2);
    // The same player's refusal of the same reason within a minute counts on the row it repeats.
    await store.admin.recordModeration({
      playerId: 'mallory',
      kind: 'player_text',
      field: 'description',
      excerpt: 'the slur again',
      reason: 'slur',
      action: 'refused',
    });
    const [repeated] = await store.admin.moderation({ playerId: 'mallory', limit: 1 });
    expect(repeated).toMatchObject({ field: 'visual_preferences.look', count: 2 });
    expect(await store.admin.moderationSince(t0 - 1500)).toBe(3);
  });

  run(
    'keeps sessions until they expire, the newest requests, and sweeps what is past its retention',
    async () => {
      const now = Date.now();
      const session = {
        id: 'h1',
        csrf: 'c1',
        credential: 'f1',
        createdAt: now,
        seenAt: now,
        expiresAt: now + 1000,
      };
      await store.admin.createSession(session);
      await store.admin.touchSession('h1', now + 10);
      expect(await store.admin.session('h1')).toEqual({ ...session, seenAt: now + 10 });
      const minute = Math.floor(now / 60_000);
      await store.admin.recordActivity({
        ...empty(),
        routes: [
          {
            minute: minute - 100_000,
            route: 'GET /old',
            status: 200,
            code: '',
            count: 1,
            totalMs: 1,
            buckets: buckets(0),
          },
        ],
        requests: Array.from({ length: 5 }, (_, i) => ({
          playerId: 'sweep',
          at: now + i,
          route: 'GET /x',
          status: 200,
          code: null,
          ms: 1,
        })),
        spend: ['2026-01-01', '2026-01-02'].map((day) => ({
          day,
          route: 'GET /x',
          backend: 'image:openai',
          calls: 1,
          nanos: 5,
          unpriced: 0,
        })),
        playerSpend: ['2026-01-01', '2026-01-02'].map((day) => ({
          playerId: 'sweep',
          day,
          calls: 1,
          nanos: 5,
          unpriced: 0,
        })),
        keepRequests: 2,
      });
      await store.admin.sweep(
        { statsBefore: now - 86_400_000, spendBefore: '2026-01-02', maxModeration: 1 },
        now + 2000,
      );
      const kept = (await store.admin.spend('2000-01-01')).filter((s) => s.route === 'GET /x');
      expect(kept.map((s) => s.day)).toEqual(['2026-01-02']);
      expect((await store.admin.playerSpend('sweep', '2000-01-01')).map((s) => s.day)).toEqual([
        '2026-01-02',
      ]);
      expect(await store.admin.session('h1')).toBeNull();
      expect((await store.admin.routeStats(minute - 200_000)).some((r) => r.route === 'GET /old')).toBe(
        false,
      );
      expect(await store.admin.playerRequests('sweep', 10)).toHaveLength(2);
      expect(await store.admin.moderation({ limit: 10 })).toHaveLength(1);
    },
  );
});

describe('the console migration', () => {
  const earlier = item('itm_old', { rarity: 'EPIC', type: 'HELMET', level: 7 });
  const expected = {
    item_id: 'itm_old',
    source: 'earlier',
    player_id: 'old-timer',
    rarity: 'EPIC',
    type: 'HELMET',
    level: 7,
    created_at: earlier.created_at,
  };
  // A database from before the console: the migrations after it undone (the reservation's tables keyed
  // by their primary key, which stay so, the last refusal on the player, the request log, spend caps, money, the reported level, the moderation count, then issue 35's block
  // times in milliseconds, then security's), then the console's tables gone, the version before them.
  const undo = `UPDATE schema_version SET version = version - 1;
    ALTER TABLE players DROP COLUMN text_refused_at; UPDATE schema_version SET version = version - 1;
    DROP TABLE request_log; DROP TABLE request_calls; DROP INDEX IF EXISTS item_provenance_request;
    ALTER TABLE player_requests DROP COLUMN request_id; ALTER TABLE item_provenance DROP COLUMN request_id;
    UPDATE schema_version SET version = version - 1;
    DROP TABLE spend_usage; DROP TABLE spend_alerts; UPDATE schema_version SET version = version - 1;
    DROP TABLE spend_stats; DROP TABLE player_spend; ALTER TABLE player_stats DROP COLUMN spend;
    ALTER TABLE item_provenance DROP COLUMN cost; ALTER TABLE item_provenance DROP COLUMN unpriced;
    ALTER TABLE icons DROP COLUMN cost; ALTER TABLE icons DROP COLUMN unpriced;
    UPDATE schema_version SET version = version - 1;
    ALTER TABLE player_stats DROP COLUMN level; ALTER TABLE player_stats DROP COLUMN level_at;
    DROP INDEX IF EXISTS moderation_events_repeat; ALTER TABLE moderation_events DROP COLUMN count;
    UPDATE schema_version SET version = version - 3;
    DROP INDEX IF EXISTS discoveries_once; DROP INDEX IF EXISTS idempotency_owner;
    DROP INDEX IF EXISTS idempotency_age; ALTER TABLE discoveries DROP COLUMN discovery_key;
    ALTER TABLE idempotency DROP COLUMN owner; ALTER TABLE idempotency DROP COLUMN saved_at;
    ALTER TABLE players DROP COLUMN tokens_after; ALTER TABLE players DROP COLUMN guest_secret;
    UPDATE schema_version SET version = version - 1;
    DROP TABLE route_stats; DROP TABLE backend_stats; DROP TABLE activity_counters;
    DROP TABLE player_stats; DROP TABLE player_requests; DROP TABLE item_provenance; DROP TABLE item_removals;
    DROP TABLE moderation_events; DROP TABLE console_sessions; DROP INDEX IF EXISTS players_id_prefix;
    UPDATE schema_version SET version = version - 1`;
  const insertItem = 'INSERT INTO items (id, owner, name, data, created_at) VALUES ($1, $2, $3, $4, $5)';
  const values = ['itm_old', 'old-timer', earlier.name, JSON.stringify(earlier), earlier.created_at];
  const readBack = 'SELECT item_id, source, player_id, rarity, type, level, created_at FROM item_provenance';

  it('lists items made before it on SQLite', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lootsmith-admin-migration-'));
    try {
      const before = new SqliteStore(dir);
      before.db.exec(undo);
      before.db.prepare(insertItem.replace(/\$\d/g, '?')).run(...values);
      await before.close();
      const after = new SqliteStore(dir);
      expect(after.db.prepare(readBack).all()).toEqual([expected]);
      await after.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('lists items made before it on PostgreSQL', async (ctx) => {
    const schema = await createTestSchema();
    if (!schema) return ctx.skip();
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: schema.url });
    try {
      await (await PostgresStore.connect(schema.url)).close();
      await client.connect();
      await client.query(undo);
      await client.query(insertItem, values);
      await (await PostgresStore.connect(schema.url)).close();
      expect((await client.query(readBack)).rows).toEqual([expected]);
    } finally {
      await client.end();
      await schema.drop();
    }
  });
});
