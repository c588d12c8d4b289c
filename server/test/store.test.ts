import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Item } from '@lootsmith/protocol';
import { createTestSchema } from '@lootsmith/test-support/postgres';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PostgresStore } from '../src/store/postgres.ts';
import { SqliteStore } from '../src/store/sqlite.ts';
import {
  IDEMPOTENCY_PER_OWNER,
  IDEMPOTENCY_TTL_MS,
  InsufficientError,
  type Reservation,
  ReservationRefused,
  type Store,
} from '../src/store/store.ts';

const item = (id: string, name = `Item ${id}`): Item => ({
  id,
  name,
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
});

const starting = [
  { item_id: 'iron_ore', quantity: 4 },
  { item_id: 'oak_wood', quantity: 3 },
];

/**
 * Every method of `Store`: one added to the interface fails to compile here until a test calls it.
 * `Store.admin`, the console's queries, has its own tests on both databases (admin-store.test.ts).
 */
const METHODS = {
  ensurePlayer: true,
  getPlayer: true,
  updatePlayer: true,
  stacks: true,
  getItems: true,
  inventory: true,
  inventoryVersion: true,
  playerItemNames: true,
  grantLoot: true,
  changeStacks: true,
  craft: true,
  recipe: true,
  recipes: true,
  icon: true,
  putIcon: true,
  dailyUsage: true,
  reserve: true,
  release: true,
  settle: true,
  claimAlert: true,
  equipment: true,
  equip: true,
  unequip: true,
  reservePoolSlots: true,
  fillPoolSlot: true,
  releasePoolSlots: true,
  claimPoolItems: true,
  returnPoolItems: true,
  poolStock: true,
  guestSession: true,
  idempotent: true,
  saveIdempotent: true,
  hit: true,
  close: true,
} satisfies Record<Exclude<keyof Store, 'admin' | 'requestLog'>, true>;

it('calls every method of the Store interface in the tests below, which run on both databases', () => {
  const source = readFileSync(fileURLToPath(import.meta.url), 'utf8');
  expect(Object.keys(METHODS).filter((m) => !source.includes(`store.${m}(`))).toEqual([]);
});

interface Backend {
  name: string;
  open(): Promise<{ store: Store; cleanup(): Promise<void> } | null>;
}

const backends: Backend[] = [
  {
    name: 'SQLite',
    async open() {
      const dir = mkdtempSync(join(tmpdir(), 'lootsmith-store-'));
      const store = new SqliteStore(dir);
      return { store, cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
    },
  },
  {
    name: 'PostgreSQL',
    async open() {
      const schema = await createTestSchema();
      if (!schema) return null;
      const store = await PostgresStore.connect(schema.url);
      return { store, cleanup: () => schema.drop() };
    },
  },
];

describe.each(backends)('$name store', (backend) => {
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

  run(
    'reads inventory versions in groups, each read seeing every change made before it was asked',
    async () => {
      await store.ensurePlayer('gv1', starting);
      await store.ensurePlayer('gv2', starting);
      const before = await store.inventoryVersion('gv1');
      const other = (await store.inventoryVersion('gv2'))?.version;
      // Asked together: one read answers all three, an unknown player with null.
      const [a, b, unknown] = await Promise.all([
        store.inventoryVersion('gv1'),
        store.inventoryVersion('gv2'),
        store.inventoryVersion('gv-nobody'),
      ]);
      expect(a).toEqual(before);
      expect(b?.version).toBe(other);
      expect(unknown).toBeNull();
      // A change committed before the call is seen, even by a call that joins a group already asked for.
      const first = store.inventoryVersion('gv1');
      await store.changeStacks('gv1', [{ item_id: 'iron_ore', quantity: 1 }], 'test');
      const after = await store.inventoryVersion('gv1');
      expect((await first)?.version).toBeGreaterThanOrEqual(before?.version ?? 0);
      expect(after?.version).toBeGreaterThan(before?.version ?? 0);
      expect((await store.inventoryVersion('gv2'))?.version).toBe(other);
    },
  );

  run('creates a player once, with the starting materials', async () => {
    await store.ensurePlayer('p1', starting);
    await store.ensurePlayer('p1', starting);
    expect(await store.stacks('p1')).toEqual(starting);
  });

  run('reads a player, its items and its inventory, stacks in the order received', async () => {
    expect(await store.getPlayer('inv1')).toBeNull();
    expect(await store.inventory('inv1')).toBeNull();
    expect(await store.playerItemNames('inv1')).toEqual([]);
    await store.ensurePlayer('inv1', starting);
    const sword = item('itm_i1', 'Sword of Dawn');
    await store.grantLoot('inv1', [sword], [{ item_id: 'healing_herb', quantity: 2 }], 'loot');
    const first = await store.inventory('inv1');
    // A stack that grows or shrinks keeps its place; one used up and received again goes last.
    await store.changeStacks(
      'inv1',
      [
        { item_id: 'iron_ore', quantity: -1 },
        { item_id: 'healing_herb', quantity: 3 },
      ],
      'test',
    );
    await store.changeStacks('inv1', [{ item_id: 'oak_wood', quantity: -3 }], 'test');
    await store.changeStacks('inv1', [{ item_id: 'oak_wood', quantity: 1 }], 'test');
    const crafted = item('itm_i2', 'Iron Ring');
    await store.craft({
      playerId: 'inv1',
      consume: [{ item_id: 'iron_ore', quantity: 1 }],
      item: crafted,
      recipe: {
        key: 'r-inv',
        ingredients: [{ item_id: 'iron_ore', quantity: 1 }],
        station: 'forge',
        tool: null,
      },
      xp: 4,
      discoveryXp: 2,
      reason: 'combine',
    });
    const read = await store.inventory('inv1');
    expect(read?.stacks).toEqual([
      { item_id: 'iron_ore', quantity: 2, data: null },
      { item_id: 'itm_i1', quantity: 1, data: JSON.stringify(sword) },
      { item_id: 'healing_herb', quantity: 5, data: null },
      { item_id: 'oak_wood', quantity: 1, data: null },
      { item_id: 'itm_i2', quantity: 1, data: JSON.stringify(crafted) },
    ]);
    expect(await store.stacks('inv1')).toEqual(
      read?.stacks.map(({ item_id, quantity }) => ({ item_id, quantity })),
    );
    expect(read?.player).toEqual(await store.getPlayer('inv1'));
    expect(read?.player.crafting_xp).toBe(6);
    expect(read?.recipes).toEqual(await store.recipes('inv1'));
    expect(read?.recipes).toMatchObject([
      {
        key: 'r-inv',
        ingredients: [{ item_id: 'iron_ore', quantity: 1 }],
        crafting_station: 'forge',
        crafting_tool: null,
        result_name: 'Iron Ring',
      },
    ]);
    expect(read?.version).toBeGreaterThan(first?.version ?? Number.POSITIVE_INFINITY);
    expect(read?.version).toBe((await store.inventoryVersion('inv1'))?.version);
    expect((await store.playerItemNames('inv1')).sort()).toEqual(['Iron Ring', 'Sword of Dawn']);
  });

  run('updates player settings, making the player when first named', async () => {
    const updated = await store.updatePlayer('up1', {
      crafting_xp: 7,
      blocked: true,
      daily_items: 5,
      daily_images: 2,
      level: 3,
    });
    expect(updated).toEqual({
      id: 'up1',
      crafting_xp: 7,
      blocked: true,
      daily_items: 5,
      daily_images: 2,
      level: 3,
      claimed_level: null,
      tokens_after: null,
    });
    expect(await store.inventoryVersion('up1')).toMatchObject({ blocked: true });
    const unblocked = await store.updatePlayer('up1', { blocked: false, daily_items: null });
    expect(unblocked).toMatchObject({ blocked: false, daily_items: null, daily_images: 2, level: 3 });
    expect(await store.getPlayer('up1')).toEqual(unblocked);
    expect(await store.inventoryVersion('up1')).toMatchObject({ blocked: false });
  });

  run(
    'grants loot and changes stacks, refusing removals beyond what is owned without changing anything',
    async () => {
      await store.ensurePlayer('p2', starting);
      await store.grantLoot('p2', [item('itm_a')], [{ item_id: 'iron_ore', quantity: 2 }], 'loot');
      expect(await store.getItems(['itm_a'])).toEqual([item('itm_a')]);
      await expect(
        store.changeStacks(
          'p2',
          [
            { item_id: 'oak_wood', quantity: -1 },
            { item_id: 'iron_ore', quantity: -99 },
          ],
          'test',
        ),
      ).rejects.toBeInstanceOf(InsufficientError);
      // Every missing stack is named, in the order asked for.
      await expect(
        store.changeStacks(
          'p2',
          [
            { item_id: 'iron_ore', quantity: -99 },
            { item_id: 'oak_wood', quantity: -1 },
            { item_id: 'gold_ore', quantity: -2 },
          ],
          'test',
        ),
      ).rejects.toMatchObject({
        missing: [
          { item_id: 'iron_ore', have: 6, need: 99 },
          { item_id: 'gold_ore', have: 0, need: 2 },
        ],
      });
      const stacks = Object.fromEntries((await store.stacks('p2')).map((s) => [s.item_id, s.quantity]));
      expect(stacks).toEqual({ iron_ore: 6, oak_wood: 3, itm_a: 1 });
    },
  );

  run('crafts in one transaction: spends each ingredient once under concurrency', async () => {
    await store.ensurePlayer('p3', starting);
    const attempts = Array.from({ length: 20 }, (_, i) =>
      store.craft({
        playerId: 'p3',
        consume: [
          { item_id: 'oak_wood', quantity: 1 },
          { item_id: 'iron_ore', quantity: 1 },
        ],
        item: item(`itm_c${i}`),
        recipe: { key: 'r1', ingredients: [], station: null, tool: null },
        xp: 10,
        discoveryXp: 5,
        reason: 'combine',
      }),
    );
    const results = await Promise.allSettled(attempts);
    const ok = results.filter((r) => r.status === 'fulfilled');
    expect(ok).toHaveLength(3);
    expect(
      results.filter((r) => r.status === 'rejected').every((r) => r.reason instanceof InsufficientError),
    ).toBe(true);
    const discovered = ok.filter((r) => r.value.discovered);
    expect(discovered).toHaveLength(1);
    expect((await store.getPlayer('p3'))?.crafting_xp).toBe(3 * 10 + 5);
    const stacks = Object.fromEntries((await store.stacks('p3')).map((s) => [s.item_id, s.quantity]));
    expect(stacks.oak_wood).toBeUndefined();
    expect(stacks.iron_ore).toBe(1);
    expect(Object.keys(stacks).filter((k) => k.startsWith('itm_'))).toHaveLength(3);
    expect(await store.recipes('p3')).toHaveLength(1);
    expect((await store.recipe('r1'))?.name).toMatch(/^Item itm_c/);
  });

  run(
    'equips only owned items, one per slot, and forgets a worn item that leaves the inventory',
    async () => {
      await store.ensurePlayer('p7', starting);
      await store.grantLoot('p7', [item('itm_e1'), item('itm_e2')], [], 'loot');
      await expect(store.equip('p7', 'WEAPON', 'itm_nobody')).rejects.toBeInstanceOf(InsufficientError);
      expect(await store.equipment('p7')).toEqual([]);
      await store.equip('p7', 'WEAPON', 'itm_e1');
      await store.equip('p7', 'WEAPON', 'itm_e2');
      expect(await store.equipment('p7')).toEqual([{ slot: 'WEAPON', item_id: 'itm_e2' }]);
      // One item is worn in one slot at a time.
      await store.equip('p7', 'SHIELD', 'itm_e2');
      expect(await store.equipment('p7')).toEqual([{ slot: 'SHIELD', item_id: 'itm_e2' }]);
      await store.changeStacks('p7', [{ item_id: 'itm_e2', quantity: -1 }], 'test');
      expect(await store.equipment('p7')).toEqual([]);
      await store.equip('p7', 'WEAPON', 'itm_e1');
      await store.unequip('p7', 'WEAPON');
      await store.unequip('p7', 'WEAPON');
      expect(await store.equipment('p7')).toEqual([]);
      expect((await store.stacks('p7')).map((s) => s.item_id)).toContain('itm_e1');
    },
  );

  run('spends a stack one at a time under concurrency (using consumables)', async () => {
    await store.ensurePlayer('p8', [{ item_id: 'healing_herb', quantity: 3 }]);
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, () =>
        store.changeStacks('p8', [{ item_id: 'healing_herb', quantity: -1 }], 'use'),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
    expect(await store.stacks('p8')).toEqual([]);
  });

  run('counts rate-limit hits per fixed window', async () => {
    expect(await store.hit('k', 1000, 10_000)).toEqual({ count: 1, resetAt: 11_000 });
    expect(await store.hit('k', 1000, 10_500)).toEqual({ count: 2, resetAt: 11_000 });
    expect(await store.hit('k', 1000, 11_000)).toEqual({ count: 1, resetAt: 12_000 });
  });

  run('keeps idempotency records, icons, usage and player settings', async () => {
    await store.saveIdempotent('s', { status: 200, body: '{"a":1}' });
    await store.saveIdempotent('s', { status: 500, body: 'second' });
    expect(await store.idempotent('s')).toEqual({ status: 200, body: '{"a":1}' });
    await store.putIcon('i1', 'a sword', Buffer.from([1, 2, 3]));
    expect([...((await store.icon('i1')) ?? [])]).toEqual([1, 2, 3]);
    const day = '2026-11-22';
    await store.reserve({ playerId: 'p4', day, usage: { kind: 'items', n: 2, limit: null } }, 0);
    await store.reserve({ playerId: 'p4', day, usage: { kind: 'images', n: 1, limit: null } }, 0);
    await store.reserve({ playerId: 'p4', day, usage: { kind: 'items', n: 1, limit: null } }, 0);
    expect(await store.dailyUsage('p4', day)).toEqual({ items: 3, images: 1 });
    const updated = await store.updatePlayer('p4', { blocked: true, daily_items: 5 });
    expect(updated).toMatchObject({ id: 'p4', blocked: true, daily_items: 5, daily_images: null });
  });

  run(
    'reserves a daily budget atomically: 20 concurrent reservations of 1 against 2 take exactly 2',
    async () => {
      const day = '2026-11-23';
      const results = await Promise.allSettled(
        Array.from({ length: 20 }, () =>
          store.reserve({ playerId: 'p5', day, usage: { kind: 'items', n: 1, limit: 2 } }, 0),
        ),
      );
      const taken = results.filter((r) => r.status === 'fulfilled');
      expect(taken).toHaveLength(2);
      for (const r of results)
        if (r.status === 'rejected')
          expect((r.reason as ReservationRefused).refusal).toEqual({ kind: 'budget', used: 2, limit: 2 });
      expect(await store.dailyUsage('p5', day)).toEqual({ items: 2, images: 0 });
      // A released reservation gives its budget back; a request larger than what is left takes nothing.
      await store.release((taken[0] as PromiseFulfilledResult<Reservation>).value);
      await expect(
        store.reserve({ playerId: 'p5', day, usage: { kind: 'items', n: 2, limit: 2 } }, 0),
      ).rejects.toBeInstanceOf(ReservationRefused);
      expect(await store.dailyUsage('p5', day)).toEqual({ items: 1, images: 0 });
    },
  );

  run('reserves window counts and grants all or nothing, and releases them', async () => {
    const day = '2026-11-24';
    const windows = [
      { key: 'drop:m:1:p6', windowMs: 60_000, max: 3 },
      { key: 'drop:h:1:p6', windowMs: 3_600_000, max: 4 },
    ];
    const usage = { kind: 'items' as const, n: 1, limit: null };
    const at = 1_000_000;
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, () => store.reserve({ playerId: 'p6', day, usage, windows }, at)),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
    // The refused ones took nothing: not budget, not the hour window.
    expect(await store.dailyUsage('p6', day)).toEqual({ items: 3, images: 0 });
    const refusal = (results.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason;
    expect(refusal.refusal).toMatchObject({
      kind: 'window',
      key: 'drop:m:1:p6',
      max: 3,
      resetAt: at + 60_000,
    });
    // A new minute: the hour window has one left.
    const next = await store.reserve({ playerId: 'p6', day, usage, windows }, at + 60_000);
    await expect(store.reserve({ playerId: 'p6', day, usage, windows }, at + 61_000)).rejects.toMatchObject({
      refusal: { kind: 'window', key: 'drop:h:1:p6' },
    });
    await store.release(next);
    await store.reserve({ playerId: 'p6', day, usage, windows }, at + 62_000);

    const grant = { id: 'grant-1', playerId: 'p6', expiresAt: at + 60_000 };
    const spends = await Promise.allSettled(
      Array.from({ length: 5 }, () => store.reserve({ playerId: 'p6', day, usage, grant }, at)),
    );
    const spent = spends.filter((r) => r.status === 'fulfilled');
    expect(spent).toHaveLength(1);
    expect(await store.dailyUsage('p6', day)).toEqual({ items: 5, images: 0 });
    // Released after a failed drop, the grant may be used again.
    await store.release((spent[0] as PromiseFulfilledResult<Reservation>).value);
    await store.reserve({ playerId: 'p6', day, usage, grant }, at);
  });

  run(
    'answers each reservation of one group commit with its own outcome, whatever the order of players',
    async () => {
      const day = '2026-11-25';
      const at = 2_000_000;
      const items = (limit: number | null) => ({ kind: 'items' as const, n: 1, limit });
      // Made in one turn, so one group takes them all; players are locked by id, answers keep call order.
      const [first, broke, second, windowed, granted] = await Promise.allSettled([
        store.reserve({ playerId: 'gq2', day, usage: items(1) }, at),
        store.reserve({ playerId: 'gq1', day, usage: items(0) }, at),
        store.reserve({ playerId: 'gq2', day, usage: items(1) }, at),
        store.reserve(
          { playerId: 'gq1', day, usage: items(null), windows: [{ key: 'w:gq1', windowMs: 60_000, max: 1 }] },
          at,
        ),
        store.reserve(
          {
            playerId: 'gq3',
            day,
            usage: items(null),
            grant: { id: 'gq-grant', playerId: 'gq3', expiresAt: at + 1 },
          },
          at,
        ),
      ]);
      expect(first).toMatchObject({ status: 'fulfilled', value: { playerId: 'gq2' } });
      expect(broke).toMatchObject({
        status: 'rejected',
        reason: { refusal: { kind: 'budget', used: 0, limit: 0 } },
      });
      expect(second).toMatchObject({
        status: 'rejected',
        reason: { refusal: { kind: 'budget', used: 1, limit: 1 } },
      });
      expect(windowed).toMatchObject({
        status: 'fulfilled',
        value: { playerId: 'gq1', windows: [{ key: 'w:gq1', resetAt: at + 60_000 }] },
      });
      expect(granted).toMatchObject({ status: 'fulfilled', value: { grant: { id: 'gq-grant' } } });
      expect(await store.dailyUsage('gq1', day)).toEqual({ items: 1, images: 0 });
      expect(await store.dailyUsage('gq2', day)).toEqual({ items: 1, images: 0 });
      // A spent grant is refused until it has expired; then it is cleared before the next is taken.
      const spend = (expiresAt: number, now: number) =>
        store.reserve(
          { playerId: 'gq3', day, usage: items(null), grant: { id: 'gq-grant', playerId: 'gq3', expiresAt } },
          now,
        );
      await expect(spend(at + 9, at)).rejects.toMatchObject({ refusal: { kind: 'grant_used' } });
      await spend(at + 60_000, at + 2);
    },
  );

  run(
    'reserves money against spend caps at a call’s most, exactly under concurrency, settles it to the cost and gives it back',
    async () => {
      const day = { scope: 'game', period: '2026-11-26', cap: 1000 };
      const month = { scope: 'game', period: '2026-11', cap: 1500 };
      const player = (id: string) => ({ scope: `player:${id}`, period: '2026-11-26', cap: 400 });
      const money = (playerId: string, nanos: number) =>
        store.reserve(
          { playerId, day: '2026-11-26', spend: { nanos, caps: [day, month, player(playerId)] } },
          0,
        );
      // 30 concurrent calls of at most 100 against a player cap of 400 and a game cap of 1000.
      const results = await Promise.allSettled(
        Array.from({ length: 30 }, (_, i) => money(['sa', 'sb', 'sc'][i % 3] as string, 100)),
      );
      const taken = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
      expect(taken).toHaveLength(10);
      for (const id of ['sa', 'sb', 'sc'])
        expect(taken.filter((r) => r.playerId === id).length).toBeLessThanOrEqual(4);
      const refusals = results.flatMap((r) => (r.status === 'rejected' ? [r.reason.refusal] : []));
      expect(refusals).toContainEqual({
        kind: 'spend',
        scope: 'game',
        period: '2026-11-26',
        spent: 1000,
        cap: 1000,
      });
      // Settled to what each call cost: 40 each. What is left is the day's 1000 − 400.
      const [first, ...rest] = taken as [Reservation, ...Reservation[]];
      expect(await store.settle(first, 40)).toEqual([
        { ...day, spent: 940 },
        { ...month, spent: 940 },
        { ...player(first.playerId), spent: expect.any(Number) },
      ]);
      for (const r of rest) await store.settle(r, 40);
      await money('sd', 100);
      const refused = await money('sd', 600).catch((err: ReservationRefused) => err.refusal);
      expect(refused).toEqual({ kind: 'spend', scope: 'game', period: '2026-11-26', spent: 500, cap: 1000 });
      // A call that sent nothing gives its reservation back.
      const given = await money('se', 400);
      await store.release(given);
      await money('se', 400);
      await money('sf', 100);
      await expect(money('sg', 1)).rejects.toMatchObject({ refusal: { scope: 'game', spent: 1000 } });
      // The next day has room; the month's cap stops it at 1500.
      const nextDay = { ...day, period: '2026-11-27' };
      const later = (nanos: number) =>
        store.reserve({ playerId: 'sg', day: '2026-11-27', spend: { nanos, caps: [nextDay, month] } }, 0);
      await later(400);
      await expect(later(200)).rejects.toMatchObject({
        refusal: { kind: 'spend', scope: 'game', period: '2026-11', spent: 1400, cap: 1500 },
      });
      // The server's own work (no player) is held to the game's caps alone; a call of 0 always fits.
      await store.reserve({ playerId: '', day: '2026-11-26', spend: { nanos: 0, caps: [day, month] } }, 0);
      // Each alert of a cap's threshold is claimed once in its period, by whichever asks first.
      const claims = await Promise.all(
        Array.from({ length: 6 }, () => store.claimAlert('game', '2026-11-26', 80, 1)),
      );
      expect(claims.filter(Boolean)).toHaveLength(1);
      expect(await store.claimAlert('game', '2026-11-26', 100, 2)).toBe(true);
      expect(await store.claimAlert('game', '2026-11-27', 80, 3)).toBe(true);
    },
  );

  run('reserves against the limit recorded on the player, refusing a blocked or unknown player', async () => {
    const day = '2026-11-26';
    const images = { kind: 'images' as const, n: 1, limit: 'recorded' as const };
    await expect(store.reserve({ playerId: 'rec-nobody', day, usage: images }, 0)).rejects.toMatchObject({
      refusal: { kind: 'blocked' },
    });
    await store.updatePlayer('rec1', { daily_images: 2 });
    await store.reserve({ playerId: 'rec1', day, usage: images }, 0);
    // No recorded item limit: items are only counted.
    await store.reserve({ playerId: 'rec1', day, usage: { ...images, kind: 'items', n: 40 } }, 0);
    await store.reserve({ playerId: 'rec1', day, usage: images }, 0);
    await expect(store.reserve({ playerId: 'rec1', day, usage: images }, 0)).rejects.toMatchObject({
      refusal: { kind: 'budget', used: 2, limit: 2 },
    });
    await store.updatePlayer('rec1', { blocked: true });
    await expect(
      store.reserve({ playerId: 'rec1', day, usage: { ...images, kind: 'items' } }, 0),
    ).rejects.toMatchObject({ refusal: { kind: 'blocked' } });
    expect(await store.dailyUsage('rec1', day)).toEqual({ items: 40, images: 2 });
  });

  run('refuses a token issued at or before the block’s millisecond, and takes one issued after', async () => {
    const day = '2026-12-02';
    const blockedAt = 1_764_650_000_500;
    await store.updatePlayer('rev1', { tokens_after: blockedAt });
    const reserve = (issuedAt: number) =>
      store.reserve(
        { playerId: 'rev1', day, usage: { kind: 'items', n: 1, limit: 'recorded' }, issuedAt },
        0,
      );
    for (const issuedAt of [blockedAt - 500, blockedAt])
      await expect(reserve(issuedAt)).rejects.toMatchObject({ refusal: { kind: 'revoked' } });
    await reserve(blockedAt + 1);
    expect(await store.dailyUsage('rev1', day)).toEqual({ items: 1, images: 0 });
  });

  run('keeps a loot pool: slots reserved, filled, counted, claimed, returned and released', async () => {
    const game = 'store-game';
    const wants = [
      { id: 'ps1', rarity: 'RARE', level: 3 },
      { id: 'ps2', rarity: 'RARE', level: 3 },
    ];
    const slots = { game, bucket: 'b', wants, bucketMax: 5, totalMax: 5, hourlyMax: 5, leaseMs: 60_000 };
    expect(await store.reservePoolSlots(slots, 1_000)).toEqual({ slots: wants });
    const blade = item('ps1', 'Pooled Blade');
    expect(await store.fillPoolSlot('ps1', blade)).toBe(true);
    expect(await store.fillPoolSlot('ps1', item('ps1', 'Second Blade'))).toBe(false);
    expect(await store.poolStock(game, 1_000)).toEqual([
      { bucket: 'b', rarity: 'RARE', ready: 1, pending: 1 },
    ]);
    // Only unfilled slots are released.
    await store.releasePoolSlots(['ps1', 'ps2']);
    expect(await store.poolStock(game, 1_000)).toEqual([
      { bucket: 'b', rarity: 'RARE', ready: 1, pending: 0 },
    ]);
    const claim = { bucket: 'b', rarity: 'RARE', minLevel: 1, maxLevel: 5 };
    expect(await store.claimPoolItems(game, [claim, claim], [])).toEqual([blade, null]);
    expect(await store.poolStock(game, 1_000)).toEqual([]);
    await store.returnPoolItems(game, [{ bucket: 'b', item: blade }], 2_000);
    expect(await store.claimPoolItems(game, [claim], ['pooled blade'])).toEqual([null]);
    expect(await store.claimPoolItems(game, [claim], [])).toEqual([blade]);
  });

  run("records the claimed level in the grant's transaction, and nothing when the grant fails", async () => {
    await store.ensurePlayer('cl1', []);
    await store.grantLoot('cl1', [item('itm_cl1')], [], 'loot', { claimedLevel: 4 });
    expect((await store.getPlayer('cl1'))?.claimed_level).toBe(4);
    // The same item again cannot be stored: neither the level nor the stacks are recorded.
    await expect(
      store.grantLoot('cl1', [item('itm_cl1')], [{ item_id: 'iron_ore', quantity: 1 }], 'loot', {
        claimedLevel: 9,
      }),
    ).rejects.toThrow();
    expect((await store.getPlayer('cl1'))?.claimed_level).toBe(4);
    expect(await store.stacks('cl1')).toEqual([{ item_id: 'itm_cl1', quantity: 1 }]);
    await store.grantLoot('cl1', [], [{ item_id: 'iron_ore', quantity: 1 }], 'loot', { claimedLevel: 2 });
    expect((await store.getPlayer('cl1'))?.claimed_level).toBe(4);
  });

  run('records a claimed level that only rises', async () => {
    await store.ensurePlayer('p7', []);
    expect((await store.getPlayer('p7'))?.claimed_level).toBeNull();
    const grant = (level: number) => store.grantLoot('p7', [], [], 'loot', { claimedLevel: level });
    await Promise.all([3, 5, 4].map(grant));
    await grant(2);
    expect((await store.getPlayer('p7'))?.claimed_level).toBe(5);
  });

  run('makes a player first seen in a settings change with the starting stacks', async () => {
    await store.updatePlayer('st1', { daily_items: 3 }, [{ item_id: 'iron_ore', quantity: 4 }]);
    expect(await store.stacks('st1')).toEqual([{ item_id: 'iron_ore', quantity: 4 }]);
    await store.updatePlayer('st1', { daily_items: 5 }, [{ item_id: 'iron_ore', quantity: 4 }]);
    expect(await store.stacks('st1')).toEqual([{ item_id: 'iron_ore', quantity: 4 }]);
  });

  run('makes a guest player once, with its starting stacks and its secret’s hash', async () => {
    const starting = [{ item_id: 'oak_wood', quantity: 3 }];
    expect(await store.guestSession('gs1', 'hash-a', starting)).toEqual({
      created: true,
      secretHash: 'hash-a',
    });
    expect(await store.guestSession('gs1', 'hash-b', starting)).toEqual({
      created: false,
      secretHash: 'hash-a',
    });
    expect(await store.stacks('gs1')).toEqual(starting);
    await store.ensurePlayer('gs2', []);
    expect(await store.guestSession('gs2', 'hash-c', starting)).toEqual({ created: false, secretHash: null });
  });

  run('forgets idempotency records after 24 h, and keeps an owner’s newest 500', async () => {
    const t0 = 10_000_000;
    const answer = { status: 200, body: '{}' };
    await store.saveIdempotent('old', answer, 'owner-a', t0);
    expect(await store.idempotent('old', t0 + IDEMPOTENCY_TTL_MS - 1)).toEqual(answer);
    expect(await store.idempotent('old', t0 + IDEMPOTENCY_TTL_MS)).toBeNull();
    for (let i = 0; i < IDEMPOTENCY_PER_OWNER + 20; i++)
      await store.saveIdempotent(`k${i}`, answer, 'owner-b', t0 + i);
    const later = t0 + IDEMPOTENCY_PER_OWNER + 20;
    expect(await store.idempotent('k0', later)).toBeNull();
    expect(await store.idempotent('k19', later)).toBeNull();
    expect(await store.idempotent('k20', later)).toEqual(answer);
    expect(await store.idempotent(`k${IDEMPOTENCY_PER_OWNER + 19}`, later)).toEqual(answer);
    // Another owner's records are not counted against this one's.
    expect(await store.idempotent('old', t0)).toEqual(answer);
  });
});

describe('SQLite store', () => {
  it('closed as soon as it opened, asks its checkpointer to stop rather than terminating it', async () => {
    // Terminated while it loads better-sqlite3, the checkpointer aborts the whole process (node-addon-api's
    // fatal `Error::New napi_get_last_error_info`; here in one run of seven of 300 quick open-and-closes):
    // asked to stop, it ends by itself once loaded.
    const terminate = vi.spyOn(Worker.prototype, 'terminate');
    const dir = mkdtempSync(join(tmpdir(), 'lootsmith-store-'));
    const store = new SqliteStore(dir);
    const { checkpointer } = store as unknown as { checkpointer: Worker };
    let ended = false;
    checkpointer.once('exit', () => {
      ended = true;
    });
    await store.close();
    expect(ended).toBe(true);
    expect(terminate).not.toHaveBeenCalled();
    terminate.mockRestore();
    rmSync(dir, { recursive: true, force: true });
  });
});
