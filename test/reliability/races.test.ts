import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { unlimitedCrafting, writeGameFile } from '@lootsmith/test-support/game-file';
import { signDropGrant } from 'lootsmith';
import { Pool } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auth, boot, checkLedger, type Harness, SERVER_KEY } from './support/harness.ts';

// Races over real loopback sockets: many requests in flight at once against one store.
let t: Harness;
let pool: Pool;
let gameFile: string;

beforeAll(async () => {
  // Combines race here far faster than any player crafts: the combine limits out of reach.
  gameFile = writeGameFile(unlimitedCrafting);
  t = await boot({ listen: true, env: { LOOTSMITH_GAME_FILE: gameFile } });
  pool = new Pool(t.server.url, { connections: 128, pipelining: 1 });
});
afterAll(async () => {
  await pool?.close();
  await t?.close();
  rmSync(dirname(gameFile), { recursive: true, force: true });
});

async function post(path: string, token: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await pool.request({
    method: 'POST',
    path,
    headers: { ...auth(token), 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.body.text();
  return { status: res.statusCode, text, json: JSON.parse(text) };
}

const stack = (player: string, item: string) =>
  (
    t.db.prepare('SELECT quantity FROM inventory WHERE player_id = ? AND item_id = ?').get(player, item) as
      | { quantity: number }
      | undefined
  )?.quantity ?? 0;

const craftingXp = (player: string) =>
  (t.db.prepare('SELECT crafting_xp FROM players WHERE id = ?').get(player) as { crafting_xp: number })
    .crafting_xp;

const craftedBy = (player: string, reason: string) =>
  (
    t.db
      .prepare(
        "SELECT COUNT(*) AS n FROM ledger WHERE player_id = ? AND reason = ? AND delta = 1 AND item_id LIKE 'itm_%'",
      )
      .get(player, reason) as { n: number }
  ).n;

const consumed = (player: string, item: string, reason: string) =>
  -(
    t.db
      .prepare(
        'SELECT COALESCE(SUM(delta), 0) AS n FROM ledger WHERE player_id = ? AND item_id = ? AND reason = ?',
      )
      .get(player, item, reason) as { n: number }
  ).n;

describe('concurrent spending', () => {
  it('100 concurrent combines of the same ingredients succeed exactly as often as the inventory allows', async () => {
    const token = await t.token('race-a');
    await t.grant('race-a', { iron_ore: 33, oak_wood: 100 }); // iron 4 + 33 = 37 → 18 combines of 2
    const body = {
      player_id: 'race-a',
      crafting_station: 'workbench',
      ingredients: [
        { item_id: 'iron_ore', quantity: 2 },
        { item_id: 'oak_wood', quantity: 1 },
      ],
    };
    const chats = t.fake.calls.chat;
    const results = await Promise.all(
      Array.from({ length: 100 }, () => post('/api/v1/crafting/combine', token, body)),
    );
    const ok = results.filter((r) => r.status === 200 && r.json.success === true);
    const short = results.filter((r) => r.status === 400 && r.json.reason === 'insufficient_materials');
    expect(ok).toHaveLength(18);
    expect(short).toHaveLength(82);
    expect(new Set(ok.map((r) => r.json.result_item.id)).size).toBe(18);
    // Identical requests share one generation per recipe, also those arriving after it ends and before
    // the first craft commits it (the finished flight's result is reused for a while). A recipe is a
    // result level too, which rises with the crafting level: at most one per level this race reaches.
    const levels = new Set(ok.map((r) => r.json.result_item.level));
    const reachable = Math.floor(craftingXp('race-a') / 100) + 1;
    expect(t.fake.calls.chat - chats).toBeGreaterThanOrEqual(levels.size);
    expect(t.fake.calls.chat - chats).toBeLessThanOrEqual(reachable);
    expect(stack('race-a', 'iron_ore')).toBe(1);
    expect(stack('race-a', 'oak_wood')).toBe(103 - 18);
    expect(craftedBy('race-a', 'combine')).toBe(18);
    expect(consumed('race-a', 'iron_ore', 'combine')).toBe(36);
    expect(consumed('race-a', 'oak_wood', 'combine')).toBe(18);
    expect(checkLedger(t.db)).toEqual({ unbalanced: [], duplicated: [], negative: 0 });
  });

  it('two recipes racing for one material never spend more of it than there is', async () => {
    const token = await t.token('race-b');
    await t.grant('race-b', { iron_ore: 26, oak_wood: 100, leather_scraps: 100 }); // iron: 30
    const recipe = (other: string) => ({
      player_id: 'race-b',
      crafting_station: 'workbench',
      ingredients: [
        { item_id: 'iron_ore', quantity: 1 },
        { item_id: other, quantity: 1 },
      ],
    });
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        post('/api/v1/crafting/combine', token, recipe(i % 2 ? 'oak_wood' : 'leather_scraps')),
      ),
    );
    const ok = results.filter((r) => r.status === 200 && r.json.success);
    expect(ok).toHaveLength(30);
    expect(results.every((r) => r.status === 200 || r.json.reason === 'insufficient_materials')).toBe(true);
    expect(stack('race-b', 'iron_ore')).toBe(0);
    const oak = ok.filter((r) => r.json.consumed_items.includes('oak_wood')).length;
    expect(stack('race-b', 'oak_wood')).toBe(103 - oak);
    expect(stack('race-b', 'leather_scraps')).toBe(103 - (30 - oak));
    expect(checkLedger(t.db)).toEqual({ unbalanced: [], duplicated: [], negative: 0 });
  });

  it('the server credential removing stacks while the player crafts never drives a stack below zero', async () => {
    const token = await t.token('race-c');
    await t.grant('race-c', { iron_ore: 16, oak_wood: 17 }); // 20 each
    const body = {
      player_id: 'race-c',
      crafting_station: 'workbench',
      ingredients: [
        { item_id: 'iron_ore', quantity: 1 },
        { item_id: 'oak_wood', quantity: 1 },
      ],
    };
    const results = await Promise.all([
      ...Array.from({ length: 30 }, () => post('/api/v1/crafting/combine', token, body)),
      ...Array.from({ length: 30 }, () =>
        post('/api/v1/player/race-c/inventory/remove', 'server-credential-reliability-0123', {
          items: [{ item_id: 'iron_ore', quantity: 1 }],
        }),
      ),
    ]);
    expect(results.every((r) => r.status === 200 || r.json.reason === 'insufficient_materials')).toBe(true);
    const crafted = results.slice(0, 30).filter((r) => r.status === 200).length;
    const removed = results.slice(30).filter((r) => r.status === 200).length;
    expect(crafted + removed).toBe(20);
    expect(stack('race-c', 'iron_ore')).toBe(0);
    expect(stack('race-c', 'oak_wood')).toBe(20 - crafted);
    expect(checkLedger(t.db)).toEqual({ unbalanced: [], duplicated: [], negative: 0 });
  });
});

const createBody = (n: number) => ({
  crafting_station: 'workbench',
  materials: [{ id: 'oak_wood', quantity: 1 }],
  item_parameters: {
    type: 'WEAPON',
    description: `club number ${n}`,
    focus_attributes: ['attack'],
    visual_preferences: {},
  },
});

describe('the create-item rate limit under concurrency', () => {
  it('lets exactly 5 of 40 concurrent create-items through in an hour', async () => {
    const token = await t.token('race-d');
    await t.grant('race-d', { oak_wood: 100 });
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) => post('/api/v1/player/race-d/create-item', token, createBody(i))),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(5);
    expect(results.filter((r) => r.status === 429 && r.json.reason === 'rate_limit_exceeded')).toHaveLength(
      35,
    );
    expect(craftedBy('race-d', 'create_item')).toBe(5);
    expect(stack('race-d', 'oak_wood')).toBe(103 - 5);
  });

  it('holds across two server instances sharing one store', async () => {
    const second = await boot({ listen: true, dataDir: t.dataDir, fake: t.fake });
    const other = new Pool(second.server.url, { connections: 64 });
    try {
      const token = await t.token('race-e');
      await t.grant('race-e', { oak_wood: 100 });
      const send = async (p: Pool, i: number) => {
        const res = await p.request({
          method: 'POST',
          path: '/api/v1/player/race-e/create-item',
          headers: { ...auth(token), 'content-type': 'application/json' },
          body: JSON.stringify(createBody(i)),
        });
        await res.body.text();
        return res.statusCode;
      };
      const statuses = await Promise.all(Array.from({ length: 40 }, (_, i) => send(i % 2 ? pool : other, i)));
      expect(statuses.filter((s) => s === 200)).toHaveLength(5);
      expect(statuses.filter((s) => s === 429)).toHaveLength(35);
      expect(craftedBy('race-e', 'create_item')).toBe(5);
    } finally {
      await other.close();
      await second.close();
    }
  });
});

const patch = (player: string, settings: Record<string, unknown>) =>
  t.server.app.inject({
    method: 'PATCH',
    url: `/api/v1/player/${player}`,
    headers: auth(SERVER_KEY),
    payload: settings,
  });
const looted = (player: string) =>
  (
    t.db
      .prepare("SELECT COALESCE(SUM(delta), 0) AS n FROM ledger WHERE player_id = ? AND reason = 'loot'")
      .get(player) as { n: number }
  ).n;

describe('budgets and drop limits under concurrency', () => {
  it('20 concurrent drops against daily_items: 2 grant exactly 2 items', async () => {
    const token = await t.token('race-k');
    await patch('race-k', { daily_items: 2 });
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        post('/v1/generate/items', token, { client_id: 'race-k', items: [{ type: 'WEAPON' }] }),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(2);
    expect(results.filter((r) => r.status === 429 && r.json.reason === 'budget_exceeded')).toHaveLength(18);
    expect(looted('race-k')).toBe(2);
  });

  it('10 concurrent image forwards against daily_images: 1 pass exactly 1', async () => {
    const token = await t.token('race-l');
    await patch('race-l', { daily_images: 1 });
    const painted = t.fake.calls.image;
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        post('/v1/image/generations', token, { prompt: 'a shield, game item' }),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(t.fake.calls.image - painted).toBe(1);
  });

  it('the per-minute drop limit and a grant hold across two server instances sharing one store', async () => {
    const second = await boot({ listen: true, dataDir: t.dataDir, fake: t.fake });
    const other = new Pool(second.server.url, { connections: 64 });
    try {
      const token = await t.token('race-m');
      const send = async (p: Pool, body: unknown) => {
        const res = await p.request({
          method: 'POST',
          path: '/v1/generate/items',
          headers: { ...auth(token), 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        await res.body.text();
        return res.statusCode;
      };
      // A tier-1 enemy allows 20 drops a minute.
      const rat = {
        client_id: 'race-m',
        generation_context: { enemy: 'rat' },
        items: [{ type: 'MATERIAL' }],
      };
      const drops = await Promise.all(Array.from({ length: 40 }, (_, i) => send(i % 2 ? pool : other, rat)));
      expect(drops.filter((s) => s === 200)).toHaveLength(20);
      expect(drops.filter((s) => s === 429)).toHaveLength(20);
      expect(looted('race-m')).toBe(20);
      const grant = signDropGrant(SERVER_KEY, { playerId: 'race-m', enemy: 'skeleton', level: 3 });
      const granted = { client_id: 'race-m', grant, items: [{ type: 'MATERIAL' }] };
      const spends = await Promise.all(
        Array.from({ length: 20 }, (_, i) => send(i % 2 ? pool : other, granted)),
      );
      expect(spends.filter((s) => s === 200)).toHaveLength(1);
      expect(spends.filter((s) => s === 409)).toHaveLength(19);
    } finally {
      await other.close();
      await second.close();
    }
  });
});

describe('replays with one Idempotency-Key', () => {
  it('50 concurrent loot drops with one key: one generation, one grant, one answer', async () => {
    const token = await t.token('race-f');
    const chats = t.fake.calls.chat;
    const body = { client_id: 'race-f', items: [{ type: 'WEAPON' }, { type: 'HELMET' }] };
    const results = await Promise.all(
      Array.from({ length: 50 }, () =>
        post('/v1/generate/items', token, body, { 'idempotency-key': 'race-f-drop-1' }),
      ),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(new Set(results.map((r) => r.text)).size).toBe(1);
    expect(t.fake.calls.chat - chats).toBe(1);
    expect(craftedBy('race-f', 'loot')).toBe(2);
  });

  it('30 concurrent combines with one key: ingredients spent once', async () => {
    const token = await t.token('race-g');
    // An UNCOMMON result needs crafting level 1 on every crafting route.
    await t.server.app.inject({
      method: 'PATCH',
      url: '/api/v1/player/race-g',
      headers: auth(SERVER_KEY),
      payload: { crafting_level: 1 },
    });
    const body = {
      player_id: 'race-g',
      crafting_station: 'workbench',
      ingredients: [
        { item_id: 'iron_ore', quantity: 1 },
        { item_id: 'frost_shard', quantity: 1 },
      ],
    };
    const results = await Promise.all(
      Array.from({ length: 30 }, () =>
        post('/api/v1/crafting/combine', token, body, { 'idempotency-key': 'race-g-combine-1' }),
      ),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(new Set(results.map((r) => r.text)).size).toBe(1);
    expect(stack('race-g', 'iron_ore')).toBe(3);
    expect(stack('race-g', 'frost_shard')).toBe(1);
    expect(craftedBy('race-g', 'combine')).toBe(1);
  });

  it('20 concurrent create-items with one key: one item, and replays do not use up the hourly limit', async () => {
    const token = await t.token('race-h');
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        post('/api/v1/player/race-h/create-item', token, createBody(1), {
          'idempotency-key': 'race-h-create-1',
        }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(new Set(results.map((r) => r.text)).size).toBe(1);
    expect(craftedBy('race-h', 'create_item')).toBe(1);
    const next = await post('/api/v1/player/race-h/create-item', token, createBody(2));
    expect(next.status).toBe(200);
  });

  it('the same key from another player is another request', async () => {
    const [a, b] = [await t.token('race-i'), await t.token('race-j')];
    const drop = (token: string, player: string) =>
      post(
        '/v1/generate/items',
        token,
        { client_id: player, items: [{ type: 'WEAPON' }] },
        { 'idempotency-key': 'shared-key-0001' },
      );
    const [ra, rb] = await Promise.all([drop(a, 'race-i'), drop(b, 'race-j')]);
    expect(ra.status).toBe(200);
    expect(rb.status).toBe(200);
    expect(ra.text).not.toBe(rb.text);
  });

  it('left every ledger balanced and no secret in a log line', () => {
    expect(checkLedger(t.db)).toEqual({ unbalanced: [], duplicated: [], negative: 0 });
    expect(t.logs.lines.length).toBeGreaterThan(0);
    expect(t.logs.leaks).toEqual([]);
  });
});
