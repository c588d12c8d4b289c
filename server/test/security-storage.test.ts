import { type Booted, bootWithFake, PLAYER_SECRET, SERVER_KEY } from '@lootsmith/test-support/boot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signPlayerToken } from '../src/auth.ts';
import { LocalCoordination } from '../src/coordination/local.ts';
import type { SqliteStore } from '../src/store/sqlite.ts';
import { IDEMPOTENCY_PER_OWNER } from '../src/store/store.ts';

// Issue 24, item 5, replayed as it was tried: storage that grew with whatever a player sent.
const auth = (token: string) => ({ authorization: `Bearer ${token}` });

let t: Booted;
beforeAll(async () => {
  t = await bootWithFake({ NODE_ENV: 'production' });
});
afterAll(async () => {
  await t?.close();
});
const db = () => (t.server.core.deps.store as SqliteStore).db;

describe('nothing grows without bound', () => {
  it('1,000 unequips with fresh keys and 15 KB query strings store a bounded amount', async () => {
    const token = signPlayerToken(PLAYER_SECRET, 'ada', 600);
    const padding = 'x'.repeat(15_000);
    for (let i = 0; i < 1_000; i++) {
      const res = await t.server.app.inject({
        method: 'POST',
        url: `/api/v1/player/ada/equipment/unequip?pad=${padding}`,
        headers: { ...auth(token), 'idempotency-key': `unequip-key-${i}` },
        payload: { slot: 'HELMET' },
      });
      expect(res.statusCode).toBe(200);
    }
    const { rows, bytes, longest } = db()
      .prepare(
        'SELECT COUNT(*) AS rows, SUM(LENGTH(scope) + LENGTH(body)) AS bytes, MAX(LENGTH(scope)) AS longest FROM idempotency',
      )
      .get() as { rows: number; bytes: number; longest: number };
    expect(rows).toBe(IDEMPOTENCY_PER_OWNER);
    expect(longest).toBeLessThan(200);
    // Each record is the scope and the (small) answer: well under 1 MB in all.
    expect(bytes).toBeLessThan(1_000_000);
    // A replay is still answered from the record, whatever query string it carries.
    const replay = await t.server.app.inject({
      method: 'POST',
      url: '/api/v1/player/ada/equipment/unequip?other=1',
      headers: { ...auth(token), 'idempotency-key': 'unequip-key-999' },
      payload: { slot: 'HELMET' },
    });
    expect(replay.headers['idempotent-replayed']).toBe('true');
  });

  it('keeps at most 100,000 icon prompts in memory, the newest', async () => {
    const coordination = new LocalCoordination(t.server.core.deps.store);
    for (let i = 0; i <= 100_000; i++) await coordination.rememberIcon(`icon-${i}`, `prompt ${i}`);
    expect(await coordination.iconPrompt('icon-0')).toBeNull();
    expect(await coordination.iconPrompt('icon-100000')).toBe('prompt 100000');
  });

  it('a budget set before a player’s first call does not take its starting materials', async () => {
    const set = await t.server.app.inject({
      method: 'PATCH',
      url: '/api/v1/player/bea',
      headers: auth(SERVER_KEY),
      payload: { daily_items: 5 },
    });
    expect(set.statusCode).toBe(200);
    const inventory = await t.server.app.inject({
      url: '/api/v1/player/bea/inventory',
      headers: auth(signPlayerToken(PLAYER_SECRET, 'bea', 600)),
    });
    const owned = Object.fromEntries(
      inventory.json().items.map((e: { item: { id: string }; quantity: number }) => [e.item.id, e.quantity]),
    );
    expect(owned).toMatchObject({ iron_ore: 4, oak_wood: 3, leather_scraps: 3 });
  });
});
