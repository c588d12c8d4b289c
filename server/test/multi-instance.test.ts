import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SERVER_KEY } from '@lootsmith/test-support/boot';
import type { FakeUpstream } from '@lootsmith/test-support/fake-upstream';
import { CLUB_REQUEST, unlimitedCrafting, writeGameFile } from '@lootsmith/test-support/game-file';
import type { ServerProcess } from '@lootsmith/test-support/process';
import { startTwoInstances, type TwoInstances } from '@lootsmith/test-support/two-instances';
import { startWebhookReceiver, type WebhookReceiver } from '@lootsmith/test-support/webhook';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

/** Two server processes over one PostgreSQL and one Redis behave as one server. */
describe('two instances over PostgreSQL and Redis', () => {
  let schema: TwoInstances['schema'] | undefined;
  let fake: FakeUpstream;
  let a: ServerProcess;
  let b: ServerProcess;
  let close: (() => Promise<void>) | undefined;
  const run = `${randomBytes(4).toString('hex')}`;
  // Every call free but a forwarded image of the model `priced-image` ($0.001), under a player cap of $0.01.
  const prices = mkdtempSync(join(tmpdir(), 'lootsmith-multi-prices-'));
  writeFileSync(
    join(prices, 'prices.json'),
    JSON.stringify({
      chat: { v1: { '*': { input_per_1m: 0, output_per_1m: 0 } } },
      image: { v1: { '*': 0, 'priced-image': 0.001 } },
    }),
  );

  let hook: WebhookReceiver | undefined;

  beforeAll(async () => {
    hook = await startWebhookReceiver();
    // 100 combines at once by one player: the combine limits out of reach, the rest as shipped.
    const two = await startTwoInstances({
      LOOTSMITH_GAME_FILE: writeGameFile(unlimitedCrafting),
      LOOTSMITH_PRICES_FILE: join(prices, 'prices.json'),
      LOOTSMITH_SPEND_PLAYER_DAILY_CAP: '0.01',
      LOOTSMITH_SPEND_ALERT_URL: hook.url,
    });
    if (two) ({ schema, fake, a, b, close } = two);
  }, 60_000);

  afterAll(async () => {
    await close?.();
    await hook?.close();
    rmSync(prices, { recursive: true, force: true });
  });

  const call = async (
    base: string,
    method: string,
    path: string,
    token: string,
    body?: unknown,
    headers = {},
  ) => {
    const res = await fetch(base + path, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, text: await res.text() };
  };
  const session = async (player: string) => {
    const res = await fetch(`${a.url}/api/v1/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ player_id: player }),
    });
    return ((await res.json()) as { token: string }).token;
  };

  it('spends each ingredient once across 100 concurrent combines on both instances', async (ctx) => {
    if (!schema) ctx.skip();
    const player = `multi-${run}`;
    const token = await session(player);
    await call(b.url, 'POST', `/api/v1/player/${player}/inventory/grant`, SERVER_KEY, {
      items: [
        { item_id: 'iron_ore', quantity: 30 },
        { item_id: 'oak_wood', quantity: 20 },
      ],
    });
    // iron_ore 34, oak_wood 23: oak runs out first.
    const body = {
      player_id: player,
      crafting_station: 'workbench',
      ingredients: [
        { item_id: 'iron_ore', quantity: 1 },
        { item_id: 'oak_wood', quantity: 1 },
      ],
    };
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        call(i % 2 ? a.url : b.url, 'POST', '/api/v1/crafting/combine', token, body),
      ),
    );
    const ok = results.filter((r) => r.status === 200);
    const refused = results.filter(
      (r) => r.status === 400 && JSON.parse(r.text).reason === 'insufficient_materials',
    );
    expect(ok).toHaveLength(23);
    expect(refused).toHaveLength(77);
    // One generation per recipe, shared by both instances; the rest come from the recipe book. A
    // recipe is a result level too, which rises with the crafting XP earned here (15 a craft, 35 for
    // the discovery, 100 a level): at most one generation per level this run reaches.
    const levels = new Set(ok.map((r) => JSON.parse(r.text).result_item.level));
    expect(fake.calls.chat).toBeGreaterThanOrEqual(levels.size);
    expect(fake.calls.chat).toBeLessThanOrEqual(Math.floor((23 * 15 + 35) / 100) + 1);

    const db = new pg.Client({ connectionString: schema?.url });
    await db.connect();
    const stacks = await db.query<{ item_id: string; quantity: number }>(
      'SELECT item_id, quantity FROM inventory WHERE player_id = $1',
      [player],
    );
    const ledger = await db.query<{ item_id: string; total: string }>(
      'SELECT item_id, SUM(delta) AS total FROM ledger WHERE player_id = $1 GROUP BY item_id',
      [player],
    );
    await db.end();
    const owned = Object.fromEntries(stacks.rows.map((r) => [r.item_id, r.quantity]));
    expect(owned.oak_wood).toBeUndefined();
    expect(owned.iron_ore).toBe(34 - 23);
    for (const row of ledger.rows) expect(Number(row.total)).toBe(owned[row.item_id] ?? 0);
  });

  it('spends each potion once across 20 concurrent uses on both instances', async (ctx) => {
    if (!schema) ctx.skip();
    const player = `potions-${run}`;
    const token = await session(player);
    const drop = await call(a.url, 'POST', '/v1/generate/items', SERVER_KEY, {
      client_id: player,
      items: [{ type: 'CONSUMABLE' }],
    });
    const potion = JSON.parse(drop.text).items[0] as { id: string; type: string };
    expect(potion.type).toBe('CONSUMABLE');
    await call(b.url, 'POST', `/api/v1/player/${player}/inventory/grant`, SERVER_KEY, {
      items: [{ item_id: potion.id, quantity: 4 }],
    });
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        call(i % 2 ? a.url : b.url, 'POST', `/api/v1/player/${player}/use-item`, token, {
          item_id: potion.id,
        }),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(5);
    for (const r of results.filter((r) => r.status !== 200))
      expect(JSON.parse(r.text).reason).toBe('not_owned');
    const db = new pg.Client({ connectionString: schema?.url });
    await db.connect();
    const uses = await db.query<{ n: string }>(
      "SELECT COUNT(*) AS n FROM ledger WHERE player_id = $1 AND item_id = $2 AND reason = 'use'",
      [player, potion.id],
    );
    const left = await db.query('SELECT 1 FROM inventory WHERE player_id = $1 AND item_id = $2', [
      player,
      potion.id,
    ]);
    await db.end();
    expect(Number(uses.rows[0]?.n)).toBe(5);
    expect(left.rowCount).toBe(0);
  });

  it('holds the 5-per-hour create-item limit across instances', async (ctx) => {
    if (!schema) ctx.skip();
    const player = `limit-${run}`;
    const token = await session(player);
    const body = CLUB_REQUEST;
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        call(i % 2 ? a.url : b.url, 'POST', `/api/v1/player/${player}/create-item`, token, body),
      ),
    );
    const limited = results.filter((r) => r.status === 429);
    expect(limited).toHaveLength(3);
    expect(limited.every((r) => JSON.parse(r.text).reason === 'rate_limit_exceeded')).toBe(true);
  });

  it('restricts a player refused on one instance on the other too', async (ctx) => {
    if (!schema) ctx.skip();
    const player = `rude-${run}`;
    const token = await session(player);
    const image = (base: string, as: string, prompt: string) =>
      call(base, 'POST', '/v1/image/generations', as, { prompt, width: 64, height: 64 });
    // The game's rule: five refusals of the player's own text within a day.
    for (let i = 0; i < 5; i++) expect((await image(a.url, token, `a sh1t shield ${i}`)).status).toBe(400);
    const clean = await image(b.url, token, 'a round wooden shield');
    expect(clean.status, clean.text).toBe(403);
    expect(JSON.parse(clean.text).error.code).toBe('player_restricted');
    // Another player on the same instance is not.
    const polite = await image(b.url, await session(`polite-${run}`), 'a round wooden shield');
    expect(polite.status, polite.text).toBe(200);
  });

  it('reserves budgets and drop limits atomically across instances on PostgreSQL', async (ctx) => {
    if (!schema) ctx.skip();
    const player = `budget-${run}`;
    const token = await session(player);
    await call(a.url, 'PATCH', `/api/v1/player/${player}`, SERVER_KEY, { daily_items: 2 });
    const weapon = { client_id: player, items: [{ type: 'WEAPON' }] };
    const drops = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        call(i % 2 ? a.url : b.url, 'POST', '/v1/generate/items', token, weapon),
      ),
    );
    expect(drops.filter((r) => r.status === 200)).toHaveLength(2);
    expect(
      drops.filter((r) => r.status === 429 && JSON.parse(r.text).reason === 'budget_exceeded'),
    ).toHaveLength(18);
    // The frost giant's tier allows 3 drops a minute, however the requests are spread.
    const farmer = `farm-${run}`;
    const farmerToken = await session(farmer);
    const giant = {
      client_id: farmer,
      generation_context: { enemy: 'frost_giant' },
      items: [{ type: 'MATERIAL' }],
    };
    const farmed = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        call(i % 2 ? a.url : b.url, 'POST', '/v1/generate/items', farmerToken, giant),
      ),
    );
    expect(farmed.filter((r) => r.status === 200)).toHaveLength(3);
    expect(farmed.filter((r) => r.status === 429)).toHaveLength(9);
  });

  it('holds a player’s spend cap in money exactly across instances', async (ctx) => {
    if (!schema) ctx.skip();
    const player = `spender-${run}`;
    const image = { client_id: player, prompt: 'a lantern, game item', model: 'priced-image' };
    const painted = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        call(i % 2 ? a.url : b.url, 'POST', '/v1/image/generations', SERVER_KEY, image),
      ),
    );
    // $0.001 each against $0.01: ten, however the calls are spread over the instances.
    expect(painted.filter((r) => r.status === 200)).toHaveLength(10);
    const refused = painted.filter((r) => r.status === 429);
    expect(refused).toHaveLength(10);
    for (const r of refused) expect(JSON.parse(r.text).error.details.cap).toBe('player_daily');
    // Each threshold's alert is sent once, by whichever instance claimed it first.
    const mine = () => (hook?.got ?? []).filter((g) => g.body.player_id === player);
    await vi.waitFor(() => expect(mine()).toHaveLength(2));
    // Calls in flight on the other instance count at their most: the 80% alert may see more spent,
    // and the two instances' webhooks may land in either order.
    expect(
      mine()
        .map((g) => Number(g.body.threshold))
        .sort((x, y) => x - y),
    ).toEqual([80, 100]);
    for (const g of mine()) expect(g.body.spent).toBeGreaterThanOrEqual(0.008);
    // A line in the log for each, written (at most 100 ms later) by the instance that sent it.
    const logged = () =>
      `${a.output()}${b.output()}`.match(new RegExp(`spend cap player_daily of ${player} at`, 'g'));
    await vi.waitFor(() => expect(logged()).toHaveLength(2));
  });

  it('answers an idempotent replay on the other instance with the first response', async (ctx) => {
    if (!schema) ctx.skip();
    const player = `replay-${run}`;
    const token = await session(player);
    const key = { 'idempotency-key': `replay-${run}-0001` };
    const drop = { client_id: player, items: [{ type: 'WEAPON' }] };
    const first = await call(a.url, 'POST', '/v1/generate/items', token, drop, key);
    const replay = await call(b.url, 'POST', '/v1/generate/items', token, drop, key);
    expect(first.status).toBe(200);
    expect(replay.text).toBe(first.text);
    const inventory = JSON.parse(
      (await call(b.url, 'GET', `/api/v1/player/${player}/inventory`, token)).text,
    );
    const generated = inventory.items.filter((e: { item: { id: string } }) => e.item.id.startsWith('itm_'));
    expect(generated).toHaveLength(1);
  });
});
