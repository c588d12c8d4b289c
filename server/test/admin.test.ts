import { type Booted, bootWithFake, PLAYER_SECRET, SERVER_KEY } from '@lootsmith/test-support/boot';
import { startFakeUpstream } from '@lootsmith/test-support/fake-upstream';
import type { LightMyRequestResponse } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ActivityRecorder } from '../src/admin/activity.ts';
import { SESSION_IDLE_MS } from '../src/admin/sessions.ts';
import { loadConfig } from '../src/config.ts';

const PASSWORD = 'console-password-0123456789';
let t: Booted | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await t?.close();
  t = undefined;
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** A signed-in console: its cookie and CSRF token, and requests made with them. */
async function signIn(b: Booted, credential = PASSWORD) {
  const res = await b.server.app.inject({
    method: 'POST',
    url: '/api/v1/admin/session',
    payload: { credential },
  });
  expect(res.statusCode).toBe(200);
  const cookie = String(res.headers['set-cookie']).split(';')[0] as string;
  const csrf = res.json().csrf_token as string;
  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) =>
    b.server.app.inject({
      method,
      url,
      headers: { cookie, ...(method === 'GET' ? {} : { 'x-csrf-token': csrf }) },
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });
  return { cookie, csrf, call, res };
}

const flush = (b: Booted) => (b.server.core.deps.activity as ActivityRecorder).flush();

async function drop(
  b: Booted,
  token: string,
  player: string,
  items = 1,
  level = 2,
): Promise<LightMyRequestResponse> {
  return b.server.app.inject({
    method: 'POST',
    url: '/v1/generate/items',
    headers: bearer(token),
    payload: {
      client_id: player,
      generation_context: { enemy: 'slime', player_level: level },
      items: Array(items).fill({ type: 'WEAPON' }),
    },
  });
}

describe('console access', () => {
  it('signs in with the console password or the server key into an HttpOnly, SameSite=Strict cookie that expires', async () => {
    t = await bootWithFake({ LOOTSMITH_CONSOLE_PASSWORD: PASSWORD });
    const app = t.server.app;
    expect((await app.inject({ url: '/api/v1/admin/session' })).json()).toEqual({
      mode: 'credential',
      signed_in: false,
    });
    const wrong = await app.inject({
      method: 'POST',
      url: '/api/v1/admin/session',
      payload: { credential: 'guess' },
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.headers['set-cookie']).toBeUndefined();
    const { cookie, csrf, res, call } = await signIn(t);
    const set = String(res.headers['set-cookie']);
    expect(set).toMatch(
      /^lootsmith_console=[\w-]{43}; Path=\/api\/v1\/admin; Max-Age=28800; HttpOnly; SameSite=Strict$/,
    );
    // The credential is in neither the answer nor the cookie.
    expect(res.body).not.toContain(PASSWORD);
    expect(cookie).not.toContain(PASSWORD);
    expect((await app.inject({ url: '/api/v1/admin/session', headers: { cookie } })).json()).toMatchObject({
      signed_in: true,
      csrf_token: csrf,
    });
    expect((await call('GET', '/api/v1/admin/players')).statusCode).toBe(200);
    // Over https the cookie is Secure.
    const https = await app.inject({
      method: 'POST',
      url: '/api/v1/admin/session',
      headers: { 'x-forwarded-proto': 'https' },
      payload: { credential: SERVER_KEY },
    });
    expect(String(https.headers['set-cookie'])).toContain('; Secure');

    // Idle past the limit: the session is over.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + SESSION_IDLE_MS + 1000 });
    expect((await call('GET', '/api/v1/admin/players')).statusCode).toBe(401);
    vi.useRealTimers();

    const again = await signIn(t, SERVER_KEY);
    expect((await again.call('DELETE', '/api/v1/admin/session')).json()).toEqual({
      mode: 'credential',
      signed_in: false,
    });
    expect((await again.call('GET', '/api/v1/admin/players')).statusCode).toBe(401);
  });

  it('needs the CSRF token for every change, and refuses a cookie without a session', async () => {
    t = await bootWithFake({ LOOTSMITH_CONSOLE_PASSWORD: PASSWORD });
    await t.token('ana');
    const { cookie } = await signIn(t);
    const patch = (headers: Record<string, string>) =>
      t?.server.app.inject({
        method: 'PATCH',
        url: '/api/v1/admin/players/ana',
        headers: { cookie, ...headers },
        payload: { blocked: true },
      });
    expect((await patch({}))?.statusCode).toBe(403);
    expect((await patch({ 'x-csrf-token': 'forged' }))?.statusCode).toBe(403);
    expect((await t.server.core.deps.store.getPlayer('ana'))?.blocked).toBe(false);
    const forged = await t.server.app.inject({
      url: '/api/v1/admin/players',
      headers: { cookie: 'lootsmith_console=not-a-session' },
    });
    expect(forged.statusCode).toBe(401);
  });

  // Issue 35: every sign-in counted, so behind a proxy (one address for everyone) ten wrong guesses
  // locked the real admin out, and so did signing in ten times.
  it('limits failed sign-ins per address, never the right credential', async () => {
    t = await bootWithFake({ LOOTSMITH_CONSOLE_PASSWORD: PASSWORD });
    const attempt = async (credential: string) =>
      (
        await t?.server.app.inject({
          method: 'POST',
          url: '/api/v1/admin/session',
          payload: { credential },
        })
      )?.statusCode;
    const codes: Array<number | undefined> = [];
    for (let i = 0; i < 12; i++) codes.push(await attempt(PASSWORD));
    expect(codes.every((c) => c === 200)).toBe(true);
    codes.length = 0;
    for (let i = 0; i < 12; i++) codes.push(await attempt(`guess-${i}`));
    expect(codes.slice(0, 10).every((c) => c === 401)).toBe(true);
    expect(codes.slice(10)).toEqual([429, 429]);
    // A stranger's guesses from the same address do not lock out whoever holds the password.
    expect(await attempt(PASSWORD)).toBe(200);
    expect(await attempt(SERVER_KEY)).toBe(200);
    expect(await attempt('guess-12')).toBe(429);
  });

  it('answers no console route to a player token, a wrong bearer or no credential at all', async () => {
    t = await bootWithFake({ LOOTSMITH_CONSOLE_PASSWORD: PASSWORD });
    const token = await t.token('ana');
    const doc = (await t.server.app.inject({ url: '/docs/json' })).json() as {
      paths: Record<string, Record<string, { tags?: string[] }>>;
    };
    const routes = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods)
        .filter(([, op]) => op.tags?.includes('admin'))
        .map(([method]) => ({
          method: method.toUpperCase() as 'GET' | 'POST' | 'PATCH' | 'DELETE',
          url: path.replace('{player_id}', 'ana').replace('{item_id}', 'itm_x'),
        })),
    );
    expect(routes.length).toBeGreaterThanOrEqual(14);
    let checked = 0;
    for (const route of routes) {
      // Asking whether one is signed in, and signing in, are for anyone.
      if (route.url === '/api/v1/admin/session' && route.method !== 'DELETE') continue;
      for (const headers of [bearer(token), bearer(PLAYER_SECRET), bearer(PASSWORD), {}]) {
        const res = await t.server.app.inject({ ...route, headers, payload: {} });
        expect([401, 403], `${route.method} ${route.url}`).toContain(res.statusCode);
        expect(Object.keys(res.json())).toEqual(['error']);
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(13 * 4);
    // The server credential, as a bearer token, is the console's API for scripts.
    const players = await t.server.app.inject({ url: '/api/v1/admin/players', headers: bearer(SERVER_KEY) });
    expect(players.statusCode).toBe(200);
  });

  // Issue 24: production without LOOTSMITH_SERVER_KEY no longer starts at all (it served a disabled
  // console before), so there is no console without a credential in production.
  it('is refused in production without a credential: the server does not start', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', LOOTSMITH_PLAYER_SECRET: PLAYER_SECRET })).toThrow(
      /LOOTSMITH_SERVER_KEY: required in production/,
    );
  });

  it('lets a development server without a credential be used from this machine only', async () => {
    t = await bootWithFake({ LOOTSMITH_SERVER_KEY: '' });
    const session = (remoteAddress: string) =>
      t?.server.app.inject({
        method: 'POST',
        url: '/api/v1/admin/session',
        remoteAddress,
        payload: { credential: '' },
      });
    expect((await session('10.1.2.3'))?.statusCode).toBe(403);
    const local = await session('127.0.0.1');
    expect(local?.json()).toMatchObject({ mode: 'open', signed_in: true });
  });

  it('takes a console password only apart from the metrics token and the player secret', () => {
    const password = { LOOTSMITH_CONSOLE_PASSWORD: PASSWORD, LOOTSMITH_DATA_DIR: '/tmp/unused' };
    expect(() => loadConfig({ ...password, LOOTSMITH_METRICS_TOKEN: PASSWORD })).toThrow(
      'LOOTSMITH_CONSOLE_PASSWORD: must differ from LOOTSMITH_METRICS_TOKEN',
    );
    expect(() => loadConfig({ ...password, LOOTSMITH_PLAYER_SECRET: PASSWORD })).toThrow(
      'LOOTSMITH_CONSOLE_PASSWORD: must differ from LOOTSMITH_PLAYER_SECRET',
    );
    expect(() => loadConfig({ ...password, LOOTSMITH_CONSOLE_PASSWORD: 'short' })).toThrow(
      /LOOTSMITH_CONSOLE_PASSWORD/,
    );
    expect(loadConfig(password).consolePassword).toBe(PASSWORD);
  });
});

describe('console actions', () => {
  it('blocks a player so the next drop is refused at once, unblocks, and sets a daily budget', async () => {
    t = await bootWithFake({ LOOTSMITH_CONSOLE_PASSWORD: PASSWORD });
    const token = await t.token('ana');
    const { call } = await signIn(t);
    expect((await drop(t, token, 'ana')).statusCode).toBe(200);
    const blocked = await call('PATCH', '/api/v1/admin/players/ana', { blocked: true });
    expect(blocked.json().player).toMatchObject({ id: 'ana', blocked: true });
    const refused = await drop(t, token, 'ana');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('player_blocked');
    const inventory = await t.server.app.inject({
      url: '/api/v1/player/ana/inventory',
      headers: bearer(token),
    });
    expect(inventory.statusCode).toBe(403);
    await call('PATCH', '/api/v1/admin/players/ana', { blocked: false });
    expect((await drop(t, token, 'ana')).statusCode).toBe(200);

    const budget = await call('PATCH', '/api/v1/admin/players/ana', { daily_items: 3 });
    expect(budget.json().player).toMatchObject({ daily_items: 3 });
    expect((await drop(t, token, 'ana')).statusCode).toBe(200);
    const over = await drop(t, token, 'ana');
    expect(over.json().error.code).toBe('budget_exceeded');
    await call('PATCH', '/api/v1/admin/players/ana', { daily_items: null });
    expect((await drop(t, token, 'ana')).statusCode).toBe(200);
    // A bad patch changes nothing; an unknown player is not created.
    expect((await call('PATCH', '/api/v1/admin/players/ana', { daily_items: -1 })).statusCode).toBe(400);
    expect((await call('PATCH', '/api/v1/admin/players/nobody', { blocked: true })).statusCode).toBe(404);
    expect(await t.server.core.deps.store.getPlayer('nobody')).toBeNull();
  });

  it('shows every request and model call in the overview, the players list and the player page', async () => {
    t = await bootWithFake({ LOOTSMITH_CONSOLE_PASSWORD: PASSWORD });
    const token = await t.token('ana');
    await t.token('bob');
    const { call } = await signIn(t);
    expect((await drop(t, token, 'ana', 2)).statusCode).toBe(200);
    expect((await drop(t, token, 'ana', 4)).statusCode).toBe(400);
    await flush(t);
    const overview = (await call('GET', '/api/v1/admin/overview?window=hour')).json();
    // Guest logins carry no token: they count as requests, not as a player's.
    expect(overview.totals).toMatchObject({
      requests: 4,
      errors: 0,
      game_refusals: 1,
      generated_items: 2,
      players: 2,
      active_players: 1,
    });
    const drops = overview.routes.find((r: { route: string }) => r.route === 'POST /v1/generate/items');
    expect(drops).toMatchObject({
      requests: 2,
      errors: 0,
      game_refusals: 1,
      answers: [{ kind: 'game_refusal', code: 'too_many_items', count: 1 }],
    });
    expect(drops.latency.p50_ms).toBeGreaterThan(0);
    const chat = overview.backends.find((b: { kind: string }) => b.kind === 'chat');
    expect(chat).toMatchObject({
      backend: 'chat:v1',
      calls: 1,
      failures: 0,
      prompt_tokens: expect.any(Number),
    });
    expect(overview.series).toHaveLength(60);
    // The last minute's bucket, and the one before when the requests straddled a minute's turn.
    const lastTwo = overview.series.slice(-2) as Array<{ requests: number }>;
    expect(lastTwo.reduce((sum, minute) => sum + minute.requests, 0)).toBe(4);
    expect((await call('GET', '/api/v1/admin/overview?window=day')).json().series).toHaveLength(24);

    const list = (await call('GET', '/api/v1/admin/players?sort=recent')).json();
    expect(list.total).toBe(2);
    expect(list.players.map((p: { id: string }) => p.id)).toEqual(['ana']);
    expect((await call('GET', '/api/v1/admin/players?sort=id')).json().players).toHaveLength(2);
    expect(list.players.find((p: { id: string }) => p.id === 'ana')).toMatchObject({
      drops: 1,
      refusals: 1,
      images: 2,
    });
    const ana = (await call('GET', '/api/v1/admin/players/ana')).json();
    const generated = ana.inventory.filter((e: { item: { id: string } }) => e.item.id.startsWith('itm_'));
    expect(generated).toHaveLength(2);
    expect(generated[0].item.icon.url).toMatch(/^\/api\/v1\/icons\/[0-9a-f]{32}\.png$/);
    expect(ana.requests.map((r: { status: number }) => r.status)).toEqual([400, 200]);
    expect(ana.usage_today).toEqual({ items: 2, images: 0 });
    expect((await call('GET', '/api/v1/admin/players/nobody')).statusCode).toBe(404);
  });

  it('counts the game’s refusals apart from errors: skill_too_low and a craft the judge refused are no errors, a backend’s failure is', async () => {
    t = await bootWithFake({ LOOTSMITH_CONSOLE_PASSWORD: PASSWORD });
    const token = await t.token('ana');
    const { call } = await signIn(t);
    const combine = (station: string, extra: object = {}) =>
      (t as Booted).server.app.inject({
        method: 'POST',
        url: '/api/v1/crafting/combine',
        headers: bearer(token),
        payload: {
          player_id: 'ana',
          crafting_station: station,
          ingredients: [
            { item_id: 'iron_ore', quantity: 2 },
            { item_id: 'oak_wood', quantity: 1 },
          ],
          ...extra,
        },
      });
    // The forge needs crafting level 1; a new player has 0.
    expect((await combine('forge')).json().reason).toBe('skill_too_low');
    t.fake.mode = 'senseless';
    const judged = await combine('workbench');
    expect(judged.statusCode, judged.body).toBe(200);
    expect(judged.json()).toMatchObject({ success: false, consumed_items: [] });
    expect((await combine('workbench', { description: 'a nazi blade' })).json().error.code).toBe(
      'content_refused',
    );
    expect((await combine('workbench', { ingredients: [] })).json().error.code).toBe('invalid_request');
    t.fake.mode = 'error500';
    const failed = await drop(t, token, 'ana');
    expect(failed.statusCode).toBe(502);
    await flush(t);

    const overview = (await call('GET', '/api/v1/admin/overview?window=hour')).json();
    // The guest login is a request too.
    expect(overview.totals).toMatchObject({
      requests: 6,
      game_refusals: 2,
      content_refusals: 1,
      client_errors: 1,
      errors: 1,
    });
    expect(overview.answers).toEqual(
      expect.arrayContaining([
        { kind: 'game_refusal', code: 'skill_too_low', count: 1 },
        { kind: 'game_refusal', code: 'not_sensible', count: 1 },
        { kind: 'content_refusal', code: 'content_refused', count: 1 },
        { kind: 'client_error', code: 'invalid_request', count: 1 },
        { kind: 'error', code: failed.json().error.code, count: 1 },
      ]),
    );
    expect(overview.answers).toHaveLength(5);
    const crafts = overview.routes.find(
      (r: { route: string }) => r.route === 'POST /api/v1/crafting/combine',
    );
    expect(crafts).toMatchObject({ requests: 4, game_refusals: 2, content_refusals: 1, errors: 0 });
    // The chart counts the same way: three refusals and one error, not five errors.
    const series = overview.series as Array<{ refusals: number; errors: number }>;
    expect(series.reduce((sum, s) => sum + s.refusals, 0)).toBe(3);
    expect(series.reduce((sum, s) => sum + s.errors, 0)).toBe(1);

    const ana = (await call('GET', '/api/v1/admin/players/ana')).json();
    expect(ana.player).toMatchObject({ refusals: 3, crafts: 0, drops: 0 });
    expect(ana.requests[3]).toMatchObject({
      route: 'POST /api/v1/crafting/combine',
      status: 200,
      code: 'not_sensible',
    });
  });

  it('shows a player’s level as the game last reported it, today’s use of each budget, and what a combine ate', async () => {
    t = await bootWithFake({ LOOTSMITH_CONSOLE_PASSWORD: PASSWORD });
    const token = await t.token('ana');
    const { call } = await signIn(t);
    const player = async () => {
      await flush(t as Booted);
      return (await call('GET', '/api/v1/admin/players/ana')).json();
    };
    // The hero reached level 6; the claim is served one level above the last (4), as the rules say.
    expect((await drop(t, token, 'ana', 1, 3)).statusCode).toBe(200);
    const [sword] = (await drop(t, token, 'ana', 1, 6)).json().items;
    expect(sword.level).toBeLessThanOrEqual(4);
    expect((await player()).player).toMatchObject({ level: 6, level_at: expect.any(String) });
    const listed = (await call('GET', '/api/v1/admin/players?q=ana')).json().players[0];
    expect(listed.level).toBe(6);
    // Then the game server sets level 7: the latest report (and a crafting level for any sword below).
    await t.server.app.inject({
      method: 'PATCH',
      url: '/api/v1/player/ana',
      headers: bearer(SERVER_KEY),
      payload: { level: 7, crafting_level: 50 },
    });
    expect((await player()).player.level).toBe(7);

    // Two icons painted with the items (the items budget), one image asked for (the images budget).
    const image = await t.server.app.inject({
      method: 'POST',
      url: '/v1/image/generations',
      headers: bearer(token),
      payload: { client_id: 'ana', prompt: 'a red potion, game item' },
    });
    expect(image.statusCode).toBe(200);
    const spent = await player();
    expect(spent.usage_today).toEqual({ items: 2, images: 1 });
    expect(spent.player.images).toBe(3);

    // The sword goes into a combine: consumed, not owned.
    const upgraded = await t.server.app.inject({
      method: 'POST',
      url: '/api/v1/crafting/combine',
      headers: bearer(token),
      payload: {
        player_id: 'ana',
        crafting_station: 'workbench',
        ingredients: [
          { item_id: sword.id, quantity: 1 },
          { item_id: 'iron_ore', quantity: 1 },
        ],
      },
    });
    expect(upgraded.json(), upgraded.body).toMatchObject({
      success: true,
      consumed_items: [sword.id, 'iron_ore'],
    });
    await flush(t);
    const eaten = (await call('GET', `/api/v1/admin/items/${sword.id}`)).json();
    expect(eaten).toMatchObject({
      holders: [],
      removal: null,
      consumed: { how: 'combine', player_id: 'ana', at: expect.any(String) },
    });
    const gallery = (await call('GET', '/api/v1/admin/items')).json().items as Array<{
      id: string;
      consumed: string | null;
    }>;
    expect(gallery.find((i) => i.id === sword.id)?.consumed).toBe('combine');
    const made = gallery.find((i) => i.id === upgraded.json().result_item.id);
    expect(made?.consumed).toBeNull();
    const inventory = (await player()).inventory as Array<{ item: { id: string } }>;
    expect(inventory.map((e) => e.item.id)).not.toContain(sword.id);
  });

  it('names the backend of every call and item: the fallback when the primary is down', async () => {
    const fallback = await startFakeUpstream();
    try {
      t = await bootWithFake({
        LOOTSMITH_CONSOLE_PASSWORD: PASSWORD,
        LOOTSMITH_FALLBACK_URL: fallback.url,
        LOOTSMITH_FALLBACK_KEY: 'fallback-key-0123',
      });
      t.fake.mode = 'down';
      const token = await t.token('ana');
      const { call } = await signIn(t);
      const [item] = (await drop(t, token, 'ana')).json().items;
      await flush(t);
      const overview = (await call('GET', '/api/v1/admin/overview?window=hour')).json();
      const figures = overview.backends.map(
        (b: { backend: string; kind: string; calls: number; failures_by_code: object }) => [
          b.backend,
          b.kind,
          b.calls,
          b.failures_by_code,
        ],
      );
      expect(figures).toEqual([
        ['chat:v1', 'chat', 1, { network: 1 }],
        ['fallback', 'chat', 1, {}],
        ['fallback', 'image', 1, {}],
        ['image:v1', 'image', 1, { network: 1 }],
      ]);
      const detail = (await call('GET', `/api/v1/admin/items/${item.id}`)).json();
      expect(detail.provenance.backend).toBe('fallback');
    } finally {
      await fallback.close();
    }
  });

  it('shows how an item was made, and removes it from the game with a record of why', async () => {
    t = await bootWithFake({ LOOTSMITH_CONSOLE_PASSWORD: PASSWORD });
    const token = await t.token('ana');
    const { call } = await signIn(t);
    t.fake.script = ['invalid'];
    const [item] = (await drop(t, token, 'ana')).json().items;
    await flush(t);
    const gallery = (await call('GET', '/api/v1/admin/items?enemy=slime')).json();
    expect(gallery.items.map((i: { id: string }) => i.id)).toEqual([item.id]);
    expect((await call('GET', `/api/v1/admin/items?rarity=MYTHIC`)).json().items).toEqual([]);
    const detail = (await call('GET', `/api/v1/admin/items/${item.id}`)).json();
    expect(detail.item).toEqual(item);
    expect(detail.holders).toEqual([{ player_id: 'ana', quantity: 1 }]);
    expect(detail.provenance).toMatchObject({
      source: 'loot',
      backend: 'chat:v1',
      model: 'fake',
      enemy: 'slime',
    });
    expect(detail.provenance.prompt).toContain('Item 1: type');
    expect(detail.provenance.seed).toEqual(expect.any(Number));
    // The model's first answer was refused by the schema and re-asked.
    expect(detail.provenance.rules.rejected).toHaveLength(1);
    expect(detail.provenance.rules.stat_budget).toBeGreaterThan(0);
    // What the player receives carries none of it.
    expect(JSON.stringify(item)).not.toContain('provenance');

    expect((await call('POST', `/api/v1/admin/items/${item.id}/remove`, { reason: '' })).statusCode).toBe(
      400,
    );
    const removed = (
      await call('POST', `/api/v1/admin/items/${item.id}/remove`, { reason: 'a name we do not want' })
    ).json();
    expect(removed.removal).toMatchObject({
      reason: 'a name we do not want',
      removed_by: 'console',
      holders: [{ player_id: 'ana', quantity: 1 }],
    });
    const inventory = (
      await t.server.app.inject({ url: '/api/v1/player/ana/inventory', headers: bearer(token) })
    ).json();
    expect(inventory.items.map((e: { item: { id: string } }) => e.item.id)).not.toContain(item.id);
    expect(
      (await call('POST', '/api/v1/admin/items/itm_none/remove', { reason: 'no such item' })).statusCode,
    ).toBe(404);
  });

  it('screens what the model writes in the playground as in the game', async () => {
    t = await bootWithFake({ LOOTSMITH_CONSOLE_PASSWORD: PASSWORD });
    const { call } = await signIn(t);
    const itemsFor = t.fake.itemsFor;
    let asks = 0;
    t.fake.itemsFor = (prompt, n) =>
      itemsFor(prompt, n).map((i) => (asks++ === 0 ? { ...i, name: 'Sh1tstorm Cleaver' } : i));
    const result = await call('POST', '/api/v1/admin/playground/drop', {
      player_level: 1,
      count: 1,
      type: 'WEAPON',
    });
    expect(result.statusCode, result.body).toBe(200);
    expect(result.json().items[0].name).not.toMatch(/sh1t/i);
    expect(asks).toBe(2);
  });

  it('runs a playground drop and combine with icons, granting nothing and counting against no one', async () => {
    t = await bootWithFake({ LOOTSMITH_CONSOLE_PASSWORD: PASSWORD });
    const { call } = await signIn(t);
    const store = t.server.core.deps.store;
    const players = await store.admin.countPlayers();
    const result = await call('POST', '/api/v1/admin/playground/drop', {
      enemy: 'frost_giant',
      player_level: 20,
      count: 3,
    });
    expect(result.statusCode).toBe(200);
    const body = result.json();
    expect(body.site).toEqual({ enemy: 'frost_giant', tier: 5, player_level: 20 });
    expect(body.items).toHaveLength(3);
    for (const i of body.items) expect(i.icon.url).toMatch(/^\/api\/v1\/icons\//);
    const icon = await t.server.app.inject({ url: body.items[0].icon.url });
    expect(icon.headers['content-type']).toBe('image/png');
    expect(Object.values(body.odds).reduce((a: number, b) => a + (b as number), 0)).toBeCloseTo(1);
    await flush(t);
    expect(await store.admin.countPlayers()).toBe(players);
    expect(await store.getItems(body.items.map((i: { id: string }) => i.id))).toEqual([]);
    expect((await call('GET', '/api/v1/admin/items')).json().items).toEqual([]);
    expect(
      (
        await call('POST', '/api/v1/admin/playground/drop', { enemy: 'dragon', player_level: 1, count: 1 })
      ).json().error.code,
    ).toBe('unknown_enemy');

    const combine = await call('POST', '/api/v1/admin/playground/combine', {
      ingredients: [{ item_id: 'iron_ore', quantity: 2 }],
      crafting_station: 'forge',
      crafting_level: 1,
    });
    expect(combine.json()).toMatchObject({ success: true, item: { icon: { url: expect.any(String) } } });
    const tooLow = await call('POST', '/api/v1/admin/playground/combine', {
      ingredients: [{ item_id: 'iron_ore', quantity: 2 }],
      crafting_station: 'enchanting_altar',
      crafting_level: 0,
    });
    expect(tooLow.json().error.code).toBe('skill_too_low');
  });

  it('shows the loaded game definition and checks a candidate without loading it', async () => {
    t = await bootWithFake({ LOOTSMITH_CONSOLE_PASSWORD: PASSWORD });
    const { call } = await signIn(t);
    const state = (await call('GET', '/api/v1/admin/game')).json();
    expect(state).toMatchObject({ file: null, file_state: 'loaded', issues: [] });
    const definition = { ...state.definition, level_luck: 5, enemies: 'many' };
    const check = (await call('POST', '/api/v1/admin/game/check', { definition })).json();
    expect(check.valid).toBe(false);
    expect(check.issues.map((i: { path: string }) => i.path)).toEqual(
      expect.arrayContaining(['level_luck', 'enemies']),
    );
    const tried = await call('POST', '/api/v1/admin/playground/drop', {
      player_level: 1,
      count: 1,
      definition,
    });
    expect(tried.statusCode).toBe(400);
    // A valid candidate drives the playground: here one where only MYTHIC drops.
    const mythic = { ...state.definition, loot_tables: [{ MYTHIC: 1 }], loot_types: ['WEAPON'] };
    const drop = (
      await call('POST', '/api/v1/admin/playground/drop', { player_level: 1, count: 2, definition: mythic })
    ).json();
    expect(drop.items.map((i: { rarity: string }) => i.rarity)).toEqual(['MYTHIC', 'MYTHIC']);
  });

  it('lists moderation events recorded through the store, newest first, by kind and player', async () => {
    t = await bootWithFake({ LOOTSMITH_CONSOLE_PASSWORD: PASSWORD });
    const { call } = await signIn(t);
    const admin = t.server.core.deps.store.admin;
    for (const [i, reason] of ['profanity', 'deny_list', 'web_address'].entries())
      await admin.recordModeration({
        playerId: 'mallory',
        kind: 'player_text',
        field: 'description',
        excerpt: `bad words ${i}`,
        reason,
        action: 'refused',
      });
    await admin.recordModeration({
      playerId: null,
      kind: 'generated_text',
      field: 'items.0.name',
      excerpt: 'a slur',
      reason: 'slur',
      action: 'regenerated',
    });
    const first = (await call('GET', '/api/v1/admin/moderation?player=mallory&limit=2')).json();
    expect(first.events.map((e: { excerpt: string }) => e.excerpt)).toEqual(['bad words 2', 'bad words 1']);
    const next = (
      await call('GET', `/api/v1/admin/moderation?player=mallory&limit=2&after=${first.next}`)
    ).json();
    expect(next).toMatchObject({
      events: [{ excerpt: 'bad words 0', kind: 'player_text', count: 1 }],
      next: null,
    });
    const generated = (await call('GET', '/api/v1/admin/moderation?kind=generated_text')).json();
    expect(generated.events).toEqual([
      expect.objectContaining({ player_id: null, reason: 'slur', action: 'regenerated' }),
    ]);
    expect((await call('GET', '/api/v1/admin/moderation?after=garbage')).statusCode).toBe(400);
  });
});
