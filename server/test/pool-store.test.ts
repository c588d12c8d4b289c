import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Item } from '@lootsmith/protocol';
import { createTestSchema } from '@lootsmith/test-support/postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresStore } from '../src/store/postgres.ts';
import { SqliteStore } from '../src/store/sqlite.ts';
import type { PoolSlotRequest, Store } from '../src/store/store.ts';

const pooled = (id: string, name: string, rarity = 'COMMON', level = 2): Item => ({
  id,
  name,
  type: 'WEAPON',
  subtype: 'sword',
  rarity: rarity as Item['rarity'],
  level,
  element: 'none',
  material: 'iron',
  description: 'A pooled test sword.',
  lore: 'Made ahead of any drop.',
  stats: [{ name: 'attack', value: 5 }],
  effects: [],
  value: 5,
  icon: null,
  created_at: '2026-01-01T00:00:00.000Z',
});

/** Two handles on one database, as two instances have; SQLite opens the same file twice. */
interface Backend {
  name: string;
  open(): Promise<{ a: Store; b: Store; cleanup(): Promise<void> } | null>;
}

const backends: Backend[] = [
  {
    name: 'SQLite',
    async open() {
      const dir = mkdtempSync(join(tmpdir(), 'lootsmith-pool-store-'));
      const a = new SqliteStore(dir);
      const b = new SqliteStore(dir);
      return {
        a,
        b,
        cleanup: async () => {
          await b.close();
          await a.close();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  },
  {
    name: 'PostgreSQL',
    async open() {
      const schema = await createTestSchema();
      if (!schema) return null;
      const a = await PostgresStore.connect(schema.url);
      const b = await PostgresStore.connect(schema.url);
      return {
        a,
        b,
        cleanup: async () => {
          await Promise.all([a.close(), b.close()]);
          await schema.drop();
        },
      };
    },
  },
];

let slotCounter = 0;
const request = (game: string, bucket: string, n: number, limits: Partial<PoolSlotRequest> = {}) => ({
  game,
  bucket,
  wants: Array.from({ length: n }, () => ({ id: `pool_${++slotCounter}`, rarity: 'COMMON', level: 2 })),
  bucketMax: 100,
  totalMax: 1000,
  hourlyMax: 1000,
  leaseMs: 60_000,
  ...limits,
});

/** Reserves one slot and fills it: a ready pooled item. */
async function stock(store: Store, game: string, bucket: string, name: string, rarity = 'COMMON', level = 2) {
  const { slots } = await store.reservePoolSlots(
    { ...request(game, bucket, 1), wants: [{ id: `pool_${++slotCounter}`, rarity, level }] },
    Date.now(),
  );
  const slot = slots[0];
  if (!slot) throw new Error('no slot');
  expect(await store.fillPoolSlot(slot.id, pooled(slot.id, name, rarity, level))).toBe(true);
  return slot.id;
}

describe.each(backends)('$name pool store', (backend) => {
  let a: Store;
  let b: Store;
  let cleanup: () => Promise<void>;
  let skip = false;

  beforeAll(async () => {
    const opened = await backend.open();
    if (!opened) {
      skip = true;
      return;
    }
    ({ a, b, cleanup } = opened);
  });
  afterAll(async () => {
    if (!skip) await cleanup();
  });

  it('hands each pooled item to exactly one of 100 concurrent claims from two handles', async ({
    skip: s,
  }) => {
    if (skip) s();
    const ids = new Set<string>();
    for (let i = 0; i < 30; i++) ids.add(await stock(a, 'g-race', 'rat/1-5/*/*', `Race Blade ${i}`));
    const claim = { bucket: 'rat/1-5/*/*', rarity: 'COMMON', minLevel: 1, maxLevel: 3 };
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) => (i % 2 ? a : b).claimPoolItems('g-race', [claim], [])),
    );
    const got = results.flat().filter((x): x is Item => x !== null);
    expect(got).toHaveLength(30);
    expect(new Set(got.map((x) => x.id))).toEqual(ids);
    expect(await a.poolStock('g-race', Date.now())).toEqual([]);
  });

  it('never takes more slots than the bucket size, the total or the hourly budget, even concurrently', async ({
    skip: s,
  }) => {
    if (skip) s();
    const limits = { bucketMax: 5, totalMax: 8, hourlyMax: 1000 };
    const taken = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 ? a : b).reservePoolSlots(request('g-size', `b${i % 3}`, 2, limits), Date.now()),
      ),
    );
    const stockNow = await a.poolStock('g-size', Date.now());
    const perBucket = new Map<string, number>();
    for (const row of stockNow) perBucket.set(row.bucket, (perBucket.get(row.bucket) ?? 0) + row.pending);
    expect(Math.max(...perBucket.values())).toBeLessThanOrEqual(5);
    expect([...perBucket.values()].reduce((x, y) => x + y, 0)).toBe(8);
    expect(taken.flatMap((t) => t.slots)).toHaveLength(8);
    expect(taken.some((t) => t.refused === 'total_full')).toBe(true);

    const budget = { bucketMax: 100, totalMax: 1000, hourlyMax: 7 };
    const spent = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        (i % 2 ? a : b).reservePoolSlots(request('g-budget', 'b', 3, budget), Date.now()),
      ),
    );
    expect(spent.flatMap((t) => t.slots)).toHaveLength(7);
    expect(spent.filter((t) => t.refused === 'budget').length).toBeGreaterThan(0);
    // Released slots free their place but not the budget: the money may have been spent.
    await a.releasePoolSlots(spent.flatMap((t) => t.slots.map((x) => x.id)));
    const again = await a.reservePoolSlots(request('g-budget', 'b', 1, budget), Date.now());
    expect(again).toEqual({ slots: [], refused: 'budget' });
    // A new hour, a new budget.
    const later = await a.reservePoolSlots(request('g-budget', 'b', 1, budget), Date.now() + 3_600_001);
    expect(later.slots).toHaveLength(1);
  });

  it('serves only ready items of the game, bucket, rarity and level window, skipping names given', async ({
    skip: s,
  }) => {
    if (skip) s();
    await stock(a, 'g-fit', 'rat/1-5/*/*', 'Old Spoon', 'COMMON', 2);
    await stock(a, 'g-fit', 'rat/1-5/*/*', 'Rare Spoon', 'RARE', 2);
    await stock(a, 'g-fit', 'rat/1-5/*/*', 'High Spoon', 'COMMON', 9);
    await stock(a, 'g-other', 'rat/1-5/*/*', 'Foreign Spoon', 'COMMON', 2);
    const unfilled = await a.reservePoolSlots(request('g-fit', 'rat/1-5/*/*', 1), Date.now());
    expect(unfilled.slots).toHaveLength(1);
    const claim = { bucket: 'rat/1-5/*/*', rarity: 'COMMON', minLevel: 1, maxLevel: 3 };
    expect(await a.claimPoolItems('g-fit', [claim], ['old spoon'])).toEqual([null]);
    const [first, second] = await a.claimPoolItems('g-fit', [claim, claim], []);
    expect(first?.name).toBe('Old Spoon');
    expect(second).toBeNull();
    // Given back after a failed drop, it can be claimed again.
    await a.returnPoolItems('g-fit', [{ bucket: claim.bucket, item: first as Item }], Date.now());
    expect((await b.claimPoolItems('g-fit', [claim], []))[0]?.id).toBe(first?.id);
    const stockNow = await a.poolStock('g-fit', Date.now());
    expect(stockNow).toEqual([
      { bucket: 'rat/1-5/*/*', rarity: 'COMMON', ready: 1, pending: 1 },
      { bucket: 'rat/1-5/*/*', rarity: 'RARE', ready: 1, pending: 0 },
    ]);
  });

  it('lets an unfilled slot lapse after its lease, freeing its place', async ({ skip: s }) => {
    if (skip) s();
    const now = Date.now();
    const first = await a.reservePoolSlots(request('g-lease', 'b', 2, { bucketMax: 2, leaseMs: 1000 }), now);
    expect(first.slots).toHaveLength(2);
    expect((await a.reservePoolSlots(request('g-lease', 'b', 1, { bucketMax: 2 }), now)).slots).toHaveLength(
      0,
    );
    const later = await a.reservePoolSlots(request('g-lease', 'b', 1, { bucketMax: 2 }), now + 1001);
    expect(later.slots).toHaveLength(1);
    // The lapsed slot cannot be filled any more.
    expect(await a.fillPoolSlot(first.slots[0]?.id as string, pooled('x', 'Late Spoon'))).toBe(false);
  });
});
