import 'fake-indexeddb/auto';
import type { ItemIcon } from '@lootsmith/protocol';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LootsmithClient, type LootsmithConfig, type Progress } from '../src/core/client.ts';
import { LootsmithError } from '../src/core/errors.ts';
import { errorBody, type FakeServer, fakeItem, startFakeServer } from './support/fake-server.ts';

let server: FakeServer;
let clients = 0;

beforeEach(async () => {
  server = await startFakeServer();
});
afterEach(() => server.close());

/** A client with fast retries and its own cache database. */
function client(config: Partial<LootsmithConfig> = {}) {
  return new LootsmithClient({
    baseUrl: server.url,
    playerId: 'p1',
    retry: { baseDelayMs: 1, maxDelayMs: 5 },
    cache: { name: `client-test-${++clients}` },
    ...config,
  });
}

const iconOf = (n: number) => fakeItem(n).icon as ItemIcon;

const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (e: unknown) => e as LootsmithError,
  );

describe('LootsmithClient', () => {
  it('logs in as a guest, then sends the player token with each call', async () => {
    const items = await client().generateItems({ enemy: 'goblin', count: 2 });
    expect(items.map((i) => i.id)).toHaveLength(2);
    expect(server.calls('/api/v1/session')).toHaveLength(1);
    const [drop] = server.calls('/v1/generate/items');
    expect(drop?.headers.authorization).toBe('Bearer token-1');
    expect(drop?.body).toEqual({ client_id: 'p1', generation_context: { enemy: 'goblin' }, items: [{}, {}] });
  });

  it('asks the token provider again after a 401 and retries the call once', async () => {
    const given: string[] = [];
    const getToken = async () => {
      const res = await fetch(`${server.url}/api/v1/session`, { method: 'POST', body: '{"player_id":"p1"}' });
      const { token } = (await res.json()) as { token: string };
      given.push(token);
      return token;
    };
    const c = client({ getToken });
    await c.inventory();
    server.revokeTokens();
    const inventory = await c.inventory();
    expect(inventory.items).toHaveLength(2);
    expect(given).toEqual(['token-1', 'token-2']);
    expect(server.calls('/api/v1/player/p1/inventory').map((s) => s.headers.authorization)).toEqual([
      'Bearer token-1',
      'Bearer token-1',
      'Bearer token-2',
    ]);
  });

  it('asks for one new token when several calls meet the same expired one', async () => {
    let asked = 0;
    const getToken = async () => {
      asked++;
      const res = await fetch(`${server.url}/api/v1/session`, { method: 'POST', body: '{"player_id":"p1"}' });
      return ((await res.json()) as { token: string }).token;
    };
    const c = client({ getToken });
    await c.gameDefinition().catch(() => undefined);
    server.revokeTokens();
    await Promise.all([c.inventory(), c.combine({ ingredients: ['a'] }), c.generateItems({})]);
    expect(asked).toBe(2);
  });

  it('gives up with a 401 error when a fresh token is refused too', async () => {
    const c = client({ getToken: () => 'never-valid' });
    const error = await rejection(c.inventory());
    expect(error).toMatchObject({ code: 'unauthorized', status: 401 });
    expect(server.calls('/api/v1/player/p1/inventory')).toHaveLength(2);
  });

  it('retries a gateway 502 with the same Idempotency-Key, so a drop is granted once', async () => {
    server.script('/v1/generate/items', { status: 502 });
    const progress: Progress[] = [];
    const items = await client().generateItems({ count: 1 }, { onProgress: (p) => progress.push(p) });
    expect(items).toHaveLength(1);
    const keys = server.calls('/v1/generate/items').map((s) => s.headers['idempotency-key']);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toBeTruthy();
    expect(keys[1]).toBe(keys[0]);
    expect(progress.map((p) => p.stage)).toEqual(['sending', 'retrying', 'sending']);
    expect(progress[1]?.error?.code).toBe('http_502');
  });

  it('stops after the configured attempts and reports the last error', async () => {
    const failure = { status: 503 };
    server.script('/api/v1/crafting/combine', failure, failure, failure, failure);
    const error = await rejection(
      client({ retry: { attempts: 3, baseDelayMs: 1 } }).combine({ ingredients: ['a'] }),
    );
    expect(error).toBeInstanceOf(LootsmithError);
    expect(error).toMatchObject({ code: 'http_503', status: 503 });
    expect(server.calls('/api/v1/crafting/combine')).toHaveLength(3);
  });

  it.each(['generation_failed', 'upstream_unavailable'] as const)(
    'does not rerun a %s 502 the server already retried',
    async (code) => {
      server.script('/api/v1/crafting/combine', { status: 502, body: errorBody(code) });
      const error = await rejection(client().combine({ ingredients: ['a'] }));
      expect(error).toMatchObject({ code, status: 502 });
      expect(server.calls('/api/v1/crafting/combine')).toHaveLength(1);
    },
  );

  it('does not retry a game-rule 400 and exposes its reason', async () => {
    server.script('/api/v1/player/p1/create-item', {
      status: 400,
      body: errorBody('insufficient_materials'),
    });
    const error = await rejection(
      client().createItem({
        station: 'forge',
        materials: ['iron_ore'],
        type: 'WEAPON',
        description: 'a blade',
      }),
    );
    expect(error).toMatchObject({ status: 400, reason: 'insufficient_materials' });
    expect(server.calls('/api/v1/player/p1/create-item')).toHaveLength(1);
  });

  it('does not retry a 429 and tells the game when to try again', async () => {
    server.script('/api/v1/player/p1/create-item', {
      status: 429,
      body: errorBody('rate_limit_exceeded'),
      headers: { 'retry-after': '3600' },
    });
    const error = await rejection(
      client().createItem({
        station: 'forge',
        materials: ['iron_ore'],
        type: 'WEAPON',
        description: 'a blade',
      }),
    );
    expect(error).toMatchObject({ status: 429, reason: 'rate_limit_exceeded', retryAfter: 3600 });
    expect(server.calls('/api/v1/player/p1/create-item')).toHaveLength(1);
  });

  it('does not wait out a Retry-After longer than it is allowed to', async () => {
    server.script('/api/v1/game', { status: 503, headers: { 'retry-after': '60' } });
    const error = await rejection(client().gameDefinition());
    expect(error).toMatchObject({ status: 503, retryAfter: 60 });
    expect(server.calls('/api/v1/game')).toHaveLength(1);
  });

  it('retries network failures', async () => {
    let failures = 1;
    const flaky: typeof fetch = (input, init) =>
      failures-- > 0 ? Promise.reject(new TypeError('fetch failed')) : fetch(input, init);
    const inventory = await client({ fetch: flaky }).inventory();
    expect(inventory.player_id).toBe('p1');
  });

  it('gives up on a try that takes too long and retries it with the same Idempotency-Key', async () => {
    server.script('/api/v1/crafting/combine', { status: 200, hang: true });
    const progress: Progress[] = [];
    const result = await client({ timeoutMs: 300 }).combine(
      { ingredients: ['a'] },
      { onProgress: (p) => progress.push(p) },
    );
    expect(result.success).toBe(true);
    expect(progress.find((p) => p.stage === 'retrying')?.error?.code).toBe('timeout');
    const keys = server.calls('/api/v1/crafting/combine').map((s) => s.headers['idempotency-key']);
    expect(keys).toEqual([keys[0], keys[0]]);
  });

  it('reports a network error once the server cannot be reached at all', async () => {
    const c = client({ baseUrl: 'http://127.0.0.1:9', getToken: () => 't' });
    const error = await rejection(c.inventory());
    expect(error).toMatchObject({ code: 'network', status: 0 });
    expect(error.message).toContain('http://127.0.0.1:9');
    expect(error.message).toContain('baseUrl');
  });

  it('names CORS and baseUrl when a page cannot reach the server', async () => {
    vi.stubGlobal('location', new URL('http://localhost:5173/game/'));
    try {
      const c = client({ baseUrl: 'http://127.0.0.1:9', getToken: () => 't', retry: { attempts: 1 } });
      const error = await rejection(c.inventory());
      expect(error.code).toBe('network');
      expect(error.message).toContain('LOOTSMITH_CORS_ORIGINS=http://localhost:5173');
      expect(error.message).toContain('baseUrl');
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('sends identical crafting requests in flight once', async () => {
    server.script('/api/v1/crafting/combine', { status: 200, held: true });
    const c = client();
    const a = c.combine({ ingredients: ['x', 'y'], intent: 'sword' });
    const b = c.combine({ ingredients: ['x', 'y'], intent: 'sword' });
    const different = c.combine({ ingredients: ['x'], intent: 'sword' });
    await expect.poll(() => server.heldCount).toBe(1);
    server.release();
    const [ra, rb] = await Promise.all([a, b, different]);
    expect(ra).toEqual(rb);
    expect(server.calls('/api/v1/crafting/combine')).toHaveLength(2);
  });

  it("reports a shared request's retries to every caller waiting for it", async () => {
    server.script('/api/v1/crafting/combine', { status: 502 });
    const c = client();
    const stages: Record<string, string[]> = { a: [], b: [] };
    await Promise.all(
      (['a', 'b'] as const).map((who) =>
        c.combine({ ingredients: ['x'] }, { onProgress: (p) => stages[who]?.push(p.stage) }),
      ),
    );
    expect(server.calls('/api/v1/crafting/combine')).toHaveLength(2);
    expect(stages.a).toContain('retrying');
    expect(stages.b).toContain('retrying');
  });

  it('sends every drop, unless two name the same dropId', async () => {
    const c = client();
    await Promise.all([c.generateItems({ enemy: 'rat' }), c.generateItems({ enemy: 'rat' })]);
    expect(server.calls('/v1/generate/items')).toHaveLength(2);
    const [a, b] = await Promise.all([
      c.generateItems({ enemy: 'rat', dropId: 'rat-7' }),
      c.generateItems({ enemy: 'rat', dropId: 'rat-7' }),
    ]);
    expect(a).toEqual(b);
    expect(server.calls('/v1/generate/items')).toHaveLength(3);
    await client().generateItems({ enemy: 'rat', dropId: 'rat-7' });
    const keys = server.calls('/v1/generate/items').map((s) => s.headers['idempotency-key']);
    expect(new Set(keys).size).toBe(3);
    expect(keys[3]).toBe(keys[2]);
  });

  it('aborts the request when the caller aborts', async () => {
    server.script('/api/v1/player/p1/inventory', { status: 200, hang: true });
    const c = client();
    const controller = new AbortController();
    const pending = c.inventory({ signal: controller.signal });
    await expect.poll(() => server.calls('/api/v1/player/p1/inventory').length).toBe(1);
    controller.abort();
    expect(await rejection(pending)).toMatchObject({ code: 'aborted' });
    expect(c.pending).toBe(0);
  });

  it('fetches an item icon once per device: a new client reads it from IndexedDB', async () => {
    const cache = { name: 'icon-reload-test' };
    const first = await client({ cache }).icon(iconOf(1));
    expect(first).toMatchObject({ id: 'icon:icon-1', cached: false });
    expect(first.dataUrl).toMatch(/^data:image\/png;base64,iVBOR/);
    const afterReload = await client({ cache }).icon(iconOf(1));
    expect(afterReload).toEqual({ ...first, cached: true });
    expect(server.calls('/api/v1/icons/icon-1.png')).toHaveLength(1);
  });

  it('fetches icon images without the player token', async () => {
    await client().icon(iconOf(2));
    expect(server.calls('/api/v1/icons/icon-2.png')[0]?.headers.authorization).toBeUndefined();
  });

  it('paints a prompt icon once and caches it by prompt and options', async () => {
    const c = client();
    const [a, b] = await Promise.all([c.icon('a red potion'), c.icon('a red potion')]);
    const bigger = await c.icon('a red potion', { width: 256, height: 256 });
    const again = await c.icon('a red potion');
    expect(a.id).toBe(b.id);
    expect(again).toEqual({ ...a, cached: true });
    expect(bigger.id).not.toBe(a.id);
    expect(server.calls('/v1/image/generations')).toHaveLength(2);
  });

  it('keeps the last inventory for an instant first paint', async () => {
    const cache = { name: 'inventory-test' };
    expect(await client({ cache }).cachedInventory()).toBeUndefined();
    const fresh = await client({ cache }).inventory();
    expect(await client({ cache }).cachedInventory()).toEqual(fresh);
  });

  it('reads and changes equipment, and uses a consumable', async () => {
    const c = client();
    expect((await c.equipment()).stats).toEqual({ attack: 5 });
    const off = await c.unequip('WEAPON');
    expect(off.slots).toEqual([{ slot: 'WEAPON', item: null }]);
    expect(server.calls('/api/v1/player/p1/equipment/unequip')[0]?.body).toEqual({ slot: 'WEAPON' });
    const on = await c.equip(fakeItem(1));
    expect(on.slots[0]?.item?.id).toBe('item-1');
    expect(server.calls('/api/v1/player/p1/equipment/equip')[0]?.body).toEqual({ item_id: 'item-1' });
    const used = await c.useItem('potion-1');
    expect(used.effects).toEqual([{ name: 'health', value: 12 }]);
  });

  it('sends every use of a consumable, each with its own Idempotency-Key', async () => {
    const c = client();
    await Promise.all([c.useItem('potion-1'), c.useItem('potion-1')]);
    const uses = server.calls('/api/v1/player/p1/use-item');
    expect(uses).toHaveLength(2);
    expect(uses[0]?.headers['idempotency-key']).not.toBe(uses[1]?.headers['idempotency-key']);
  });

  it('works without IndexedDB caching when told so', async () => {
    const c = client({ cache: false });
    await c.icon(iconOf(3));
    await c.icon(iconOf(3));
    expect(server.calls('/api/v1/icons/icon-3.png')).toHaveLength(2);
  });
});
