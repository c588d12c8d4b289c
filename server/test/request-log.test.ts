import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type Booted,
  bootWithFake,
  PLAYER_SECRET,
  SERVER_KEY,
  UPSTREAM_KEY,
} from '@lootsmith/test-support/boot';
import { usageOf } from '@lootsmith/test-support/fake-upstream';
import { createTestSchema } from '@lootsmith/test-support/postgres';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ActivityRecorder } from '../src/admin/activity.ts';
import { csvCell, toCsv } from '../src/admin/csv.ts';
import type { LoggedCall, LoggedRequest } from '../src/admin/request-store.ts';
import { BODY_LIMIT, boundedJson, NOT_KEPT, newRequestId } from '../src/admin/requests.ts';
import { PostgresStore } from '../src/store/postgres.ts';
import { SqliteStore } from '../src/store/sqlite.ts';
import type { Store } from '../src/store/store.ts';

let t: Booted | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const admin = { authorization: `Bearer ${SERVER_KEY}` };
/** gpt-4o-mini's list price in billionths of a dollar: $0.15 and $0.60 per million tokens. */
const miniCost = (u: { prompt_tokens: number; completion_tokens: number }) =>
  u.prompt_tokens * 150 + u.completion_tokens * 600;

/** The server over OpenAI's chat (gpt-4o-mini) and Images (gpt-image-1-mini), both faked, at their list prices. */
async function bootOpenAI(env: Record<string, string> = {}) {
  const booted = await bootWithFake({ LOOTSMITH_CHAT_MODEL: 'gpt-4o-mini', ...env }, undefined, {
    chat: 'openai',
    image: 'openai',
  });
  booted.fake.models.push('gpt-4o-mini');
  return booted;
}

async function drop(b: Booted, player: string, extra: Record<string, unknown> = {}) {
  return b.server.app.inject({
    method: 'POST',
    url: '/v1/generate/items',
    headers: bearer(await b.token(player)),
    payload: {
      client_id: player,
      generation_context: { enemy: 'slime', player_level: 2 },
      items: [{ type: 'WEAPON' }],
      ...extra,
    },
  });
}

/** Writes what the request log and the figures hold. */
async function flush(b: Booted) {
  await b.server.requestLog.flush();
  await (b.server.core.deps.activity as ActivityRecorder).flush();
}

const get = async (b: Booted, url: string, headers: Record<string, string> = admin) =>
  b.server.app.inject({ url, headers });

describe('the request log', () => {
  it('keeps a drop with its body, its backend calls (prompt, answer, timing, cost) and the items it made', async () => {
    t = await bootOpenAI();
    const res = await drop(t, 'ana');
    expect(res.statusCode).toBe(200);
    const [made] = res.json().items as Array<{ id: string }>;
    await flush(t);

    const list = (await get(t, '/api/v1/admin/requests?player=ana')).json();
    const logged = list.requests.find((r: { route: string }) => r.route === 'POST /v1/generate/items');
    expect(logged).toMatchObject({
      method: 'POST',
      status: 200,
      kind: 'ok',
      code: null,
      player_id: 'ana',
    });
    expect(logged.ms).toBeGreaterThan(0);
    expect(list.retention).toEqual({ max: 10_000, days: 7 });

    const detail = (await get(t, `/api/v1/admin/requests/${logged.id}`)).json();
    expect(JSON.parse(detail.body)).toMatchObject({
      client_id: 'ana',
      generation_context: { enemy: 'slime', player_level: 2 },
    });
    expect(detail.body_truncated).toBe(false);
    expect(detail.result).toEqual({ items: [{ id: made?.id, known: true }], error: null });

    const chat = detail.calls.find((c: { kind: string }) => c.kind === 'chat');
    const usage = t.fake.usage[0] as { prompt_tokens: number; completion_tokens: number };
    expect(chat).toMatchObject({ backend: 'chat:openai', model: 'gpt-4o-mini', outcome: 'ok', status: null });
    expect(chat.cost).toBeCloseTo(miniCost(usage) / 1e9, 12);
    expect(chat.ms).toBeGreaterThanOrEqual(0);
    expect(chat.prompt.map((m: { role: string }) => m.role)).toEqual(['system', 'user']);
    expect(chat.prompt[1].content).toContain('WEAPON');
    // The answer is the model's text, as the fake wrote it: its usage is what it reported.
    expect(typeof chat.answer.text).toBe('string');
    expect(JSON.parse(chat.answer.text)).toHaveProperty('items');
    expect(usageOf(chat.prompt, chat.answer.text)).toEqual(usage);

    const image = detail.calls.find((c: { kind: string }) => c.kind === 'image');
    expect(image).toMatchObject({ backend: 'image:openai', outcome: 'ok', cost: 0.005 });
    expect(image.prompt).toMatchObject({ icon: true });
    expect(image.prompt.prompt).toEqual(expect.any(String));
    expect(image.answer).toMatchObject({ content_type: 'image/png' });
    expect(image.answer.bytes).toBeGreaterThan(0);

    // The item's provenance and the player's recent requests name the request.
    const item = (await get(t, `/api/v1/admin/items/${made?.id}`)).json();
    expect(item.provenance.request_id).toBe(logged.id);
    const player = (await get(t, '/api/v1/admin/players/ana')).json();
    expect(player.requests.map((r: { request_id: string }) => r.request_id)).toContain(logged.id);
  });

  it('keeps a failed request with its error answer and the backend failure that caused it', async () => {
    t = await bootOpenAI();
    const token = await t.token('bob');
    t.fake.mode = 'down';
    const res = await t.server.app.inject({
      method: 'POST',
      url: '/v1/generate/items',
      headers: bearer(token),
      // A weapon: an item left to chance may be a material, which the game file serves without a model.
      payload: {
        client_id: 'bob',
        generation_context: { enemy: 'slime', player_level: 2 },
        items: [{ type: 'WEAPON' }],
      },
    });
    expect(res.statusCode).toBe(502);
    await t.server.requestLog.flush();
    const [logged] = (await get(t, '/api/v1/admin/requests?kind=error')).json().requests;
    expect(logged).toMatchObject({
      status: 502,
      kind: 'error',
      code: 'upstream_unavailable',
      player_id: 'bob',
    });
    const detail = (await get(t, `/api/v1/admin/requests/${logged.id}`)).json();
    expect(detail.result.error).toEqual({ code: 'upstream_unavailable', message: res.json().error.message });
    // The fake is down: each attempt failed to connect, and none cost anything.
    expect(detail.calls[0]).toMatchObject({
      kind: 'chat',
      backend: 'chat:openai',
      outcome: 'network',
      cost: null,
    });
    expect(detail.calls[0].answer).toEqual({ error: expect.any(String) });
  });

  it('keeps a content refusal as the checks saw it: the words refused, the error, and no backend call', async () => {
    t = await bootOpenAI();
    const res = await drop(t, 'eve', {
      generation_context: { enemy: 'slime', player_level: 2, location: 'Fuck you' },
    });
    expect(res.json().error.code).toBe('content_refused');
    await flush(t);
    const [logged] = (await get(t, '/api/v1/admin/requests?kind=content_refusal')).json().requests;
    expect(logged).toMatchObject({ player_id: 'eve', status: res.statusCode, code: 'content_refused' });
    const detail = (await get(t, `/api/v1/admin/requests/${logged.id}`)).json();
    expect(JSON.parse(detail.body).generation_context.location).toBe('Fuck you');
    expect(detail.result.error.code).toBe('content_refused');
    expect(detail.calls).toEqual([]);
  });

  it('never keeps a credential: no key, token, guest secret or authorization header in the store or an export', async () => {
    t = await bootOpenAI();
    const marker = 'hdr-marker-7f3a9c';
    const token = await t.token('cleo');
    // The second session sends the guest secret in its body: the log keeps the body without it.
    await t.token('cleo');
    const res = await t.server.app.inject({
      method: 'POST',
      url: '/v1/generate/items',
      headers: { ...bearer(token), 'x-custom-header': marker, cookie: `session=${marker}` },
      payload: {
        client_id: 'cleo',
        generation_context: { enemy: 'slime', player_level: 2 },
        items: [{ type: 'WEAPON' }],
      },
    });
    expect(res.statusCode).toBe(200);
    await t.server.requestLog.flush();

    const sessions = (await get(t, '/api/v1/admin/requests?route=POST%20/api/v1/session')).json().requests;
    expect(sessions.length).toBeGreaterThanOrEqual(2);
    const bodies = await Promise.all(
      sessions.map(
        async (s: { id: string }) => (await get(t as Booted, `/api/v1/admin/requests/${s.id}`)).json().body,
      ),
    );
    expect(bodies.map((b) => JSON.parse(b).guest_secret)).toContain(NOT_KEPT);

    const csv = (await get(t, '/api/v1/admin/export/requests.csv')).body;
    const details = await Promise.all(
      (await get(t, '/api/v1/admin/requests'))
        .json()
        .requests.map(
          async (r: { id: string }) => (await get(t as Booted, `/api/v1/admin/requests/${r.id}`)).body,
        ),
    );
    await flush(t);
    const db = ['lootsmith.db', 'lootsmith.db-wal']
      .map((f) => join((t as Booted).dataDir, f))
      .filter((f) => existsSync(f))
      .map((f) => readFileSync(f).toString('latin1'))
      .join('\n');
    const guestSecret = JSON.parse(
      (await t.server.app.inject({ method: 'POST', url: '/api/v1/session', payload: { player_id: 'dora' } }))
        .body,
    ).guest_secret as string;
    for (const secret of [UPSTREAM_KEY, SERVER_KEY, PLAYER_SECRET, token, marker]) {
      expect(db).not.toContain(secret);
      expect(csv).not.toContain(secret);
      for (const d of details) expect(d).not.toContain(secret);
    }
    // A guest secret handed out now is not in the log either once written.
    await t.server.requestLog.flush();
    const after = ['lootsmith.db', 'lootsmith.db-wal']
      .map((f) => join((t as Booted).dataDir, f))
      .filter((f) => existsSync(f))
      .map((f) => readFileSync(f).toString('latin1'))
      .join('\n');
    expect(guestSecret.length).toBeGreaterThan(16);
    expect(after).not.toContain(guestSecret);
  });

  it('filters by player, route and kind, newest first, paged; a bad filter is refused and says why', async () => {
    t = await bootOpenAI();
    expect((await drop(t, 'ana')).statusCode).toBe(200);
    expect((await drop(t, 'bob')).statusCode).toBe(200);
    // A client error: an item type the game does not know.
    expect((await drop(t, 'bob', { items: [{ type: 'NOPE' }] })).statusCode).toBe(400);
    await t.server.requestLog.flush();

    const page = async (query: string) => (await get(t as Booted, `/api/v1/admin/requests?${query}`)).json();
    const drops = (await page('route=POST%20/v1/generate/items')).requests;
    expect(drops.map((r: { player_id: string }) => r.player_id)).toEqual(['bob', 'bob', 'ana']);
    expect(drops.map((r: { kind: string }) => r.kind)).toEqual(['client_error', 'ok', 'ok']);
    expect((await page('player=bob&kind=client_error')).requests).toHaveLength(1);
    expect((await page('player=ana&kind=client_error')).requests).toHaveLength(0);

    const first = await page('route=POST%20/v1/generate/items&limit=2');
    expect(first.requests).toHaveLength(2);
    const second = await page(`route=POST%20/v1/generate/items&limit=2&after=${first.next}`);
    expect(second.requests.map((r: { player_id: string }) => r.player_id)).toEqual(['ana']);
    expect(second.next).toBeNull();

    for (const [query, says] of [
      ['kind=broken', /query\.kind/],
      ['route=DROP%20TABLE', /query\.route/],
      ['limit=0', /query\.limit/],
      ['after=xyz', /query\.after/],
      ['colour=red', /colour/],
    ] as const) {
      const res = await get(t, `/api/v1/admin/requests?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error.message).toMatch(says);
    }
    expect((await get(t, '/api/v1/admin/requests/not-an-id')).statusCode).toBe(400);
    const missing = await get(t, '/api/v1/admin/requests/00000000-0000-4000-8000-000000000000');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.message).toMatch(/newest 10000 requests of the last 7 days/);
    // The console's own requests are not the game's: none of them is in the log.
    const all = (await page('limit=100')).requests;
    expect(all.some((r: { route: string }) => r.route.includes('/admin/'))).toBe(false);
  });

  it('exports requests, spend and items as CSV files, behind the console door', async () => {
    t = await bootOpenAI();
    const res = await drop(t, 'ana');
    const [made] = res.json().items as Array<{ id: string; name: string; rarity: string }>;
    await flush(t);

    const requests = await get(t, '/api/v1/admin/export/requests.csv?player=ana');
    expect(requests.statusCode).toBe(200);
    expect(requests.headers['content-type']).toMatch(/^text\/csv/);
    expect(requests.headers['content-disposition']).toMatch(
      /^attachment; filename="lootsmith-requests-\d{4}-\d\d-\d\d\.csv"$/,
    );
    const lines = requests.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe('id,at,method,route,status,kind,code,player_id,ms');
    expect(lines.slice(1).some((l) => /,POST,POST \/v1\/generate\/items,200,ok,,ana,\d+$/.test(l))).toBe(
      true,
    );

    const spend = (await get(t, '/api/v1/admin/export/spend.csv')).body.trimEnd().split('\r\n');
    expect(spend[0]).toBe('day,route,backend,calls,amount,unpriced_calls,currency');
    const today = new Date().toISOString().slice(0, 10);
    expect(spend).toContain(`${today},POST /v1/generate/items,image:openai,1,0.005,0,USD`);
    const byPlayer = (await get(t, '/api/v1/admin/export/spend.csv?by=player')).body.split('\r\n');
    expect(byPlayer[0]).toBe('day,player_id,calls,amount,unpriced_calls,currency');
    expect(byPlayer.some((l) => l.startsWith(`${today},ana,2,`))).toBe(true);

    const items = (await get(t, '/api/v1/admin/export/items.csv')).body.split('\r\n');
    expect(items[0]).toBe('id,name,type,rarity,player_id,created_at,cost,currency');
    expect(
      items.some((l) => l.startsWith(`${made?.id},${csvCell(made?.name)},WEAPON,${made?.rarity},ana,`)),
    ).toBe(true);

    // Bad days are refused; a player token or no credential gets nothing.
    const bad = await get(t, '/api/v1/admin/export/spend.csv?from=2026-02-10&to=2026-02-01');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toMatch(/query\.from: 2026-02-10 comes after query\.to 2026-02-01/);
    expect((await get(t, '/api/v1/admin/export/items.csv?from=yesterday')).statusCode).toBe(400);
    for (const url of ['/api/v1/admin/export/requests.csv', '/api/v1/admin/requests']) {
      expect((await get(t, url, bearer(await (t as Booted).token('ana')))).statusCode).toBe(403);
      expect((await get(t, url, {})).statusCode).toBe(401);
    }
  });

  it('is off with LOOTSMITH_REQUEST_LOG_MAX=0: nothing is kept, the figures still count', async () => {
    t = await bootOpenAI({ LOOTSMITH_REQUEST_LOG_MAX: '0' });
    expect((await drop(t, 'ana')).statusCode).toBe(200);
    await flush(t);
    expect((await get(t, '/api/v1/admin/requests')).json().requests).toEqual([]);
    const player = (await get(t, '/api/v1/admin/players/ana')).json();
    expect(player.requests.length).toBeGreaterThan(0);
    expect(player.requests.every((r: { request_id: null }) => r.request_id === null)).toBe(true);
  });

  it('leaves out a read answered well (no body, no backend call), and keeps a read refused, in the log and the player’s recent requests', async () => {
    const b = await bootOpenAI();
    t = b;
    const token = await b.token('dara');
    const read = (player: string) =>
      b.server.app.inject({ url: `/api/v1/player/${player}/inventory`, headers: bearer(token) });
    expect((await read('dara')).statusCode).toBe(200);
    expect((await read('someone-else')).statusCode).toBe(403);
    await flush(t);
    const logged = (await get(t, '/api/v1/admin/requests?player=dara')).json().requests;
    expect(logged.map((r: { method: string; status: number }) => [r.method, r.status])).toEqual([
      ['GET', 403],
    ]);
    // Both count in the player's requests; the player's recent requests list the refused one only.
    const player = (await get(t, '/api/v1/admin/players/dara')).json();
    expect(player.player.requests).toBe(2);
    expect(player.requests.map((r: { status: number }) => r.status)).toEqual([403]);
  });

  it('keeps the newest LOOTSMITH_REQUEST_LOG_MAX requests', async () => {
    t = await bootOpenAI({ LOOTSMITH_REQUEST_LOG_MAX: '3' });
    for (let i = 0; i < 3; i++) expect((await drop(t, `p${i}`)).statusCode).toBe(200);
    await t.server.requestLog.flush();
    const kept = (await get(t, '/api/v1/admin/requests')).json().requests;
    expect(kept).toHaveLength(3);
    // The last drop, its session before it... the newest three, whatever they were.
    expect(kept[0]).toMatchObject({ route: 'POST /v1/generate/items', player_id: 'p2' });
  });
});

describe('request ids', () => {
  it('are UUIDs of version 7 that sort by the time they were made', () => {
    const at = Date.UTC(2026, 11, 3, 14, 0, 0);
    const ids = [at, at + 1, at + 60_000, at + 86_400_000].map((t) => newRequestId(t));
    for (const id of ids)
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect([...ids].reverse().sort()).toEqual(ids);
    expect(Number.parseInt(ids[0]?.replace('-', '').slice(0, 12) ?? '', 16)).toBe(at);
    // Made in the same millisecond, they still differ.
    expect(new Set(Array.from({ length: 1_000 }, () => newRequestId(at))).size).toBe(1_000);
  });
});

describe('bounds', () => {
  it('cuts a long body to 16 KB, longest strings first, and says so', () => {
    const small = boundedJson({ a: 'x' }, BODY_LIMIT);
    expect(small).toEqual({ text: '{"a":"x"}', truncated: false });
    const big = boundedJson({ description: 'y'.repeat(40_000), name: 'sword', token: 'abc' }, BODY_LIMIT);
    expect(big.truncated).toBe(true);
    expect(big.text.length).toBeLessThanOrEqual(BODY_LIMIT);
    const value = JSON.parse(big.text);
    expect(value.name).toBe('sword');
    expect(value.token).toBe(NOT_KEPT);
    expect(value.description).toMatch(/^y+…\[cut\]$/);
    // Chat bodies keep max_tokens: only fields named like a credential are hidden.
    expect(
      JSON.parse(
        boundedJson({ max_tokens: 5, api_key: 'k', guest_secret: 's', grant: 'eyJ.x.y', password: 'p' }, 200)
          .text,
      ),
    ).toEqual({
      max_tokens: 5,
      api_key: NOT_KEPT,
      guest_secret: NOT_KEPT,
      grant: NOT_KEPT,
      password: NOT_KEPT,
    });
  });
});

describe('CSV', () => {
  it('escapes commas, quotes and line breaks, and defuses formulas', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('cr\r\nlf')).toBe('"cr\r\nlf"');
    expect(csvCell('=HYPERLINK("http://evil")')).toBe(`"'=HYPERLINK(""http://evil"")"`);
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-2+3')).toBe("'-2+3");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\tcmd')).toBe("'\tcmd");
    expect(csvCell(-5)).toBe('-5');
    expect(csvCell(null)).toBe('');
    expect(toCsv(['a', 'b'], [['x,y', 1]])).toBe('a,b\r\n"x,y",1\r\n');
  });
});

const request = (id: number, at: number, over: Partial<LoggedRequest> = {}): LoggedRequest => ({
  id: `00000000-0000-4000-8000-${String(id).padStart(12, '0')}`,
  at,
  method: 'POST',
  route: 'POST /v1/generate/items',
  status: 200,
  kind: 'ok',
  code: null,
  playerId: `player-${id % 2}`,
  ms: 12,
  body: '{"client_id":"x"}',
  bodyTruncated: false,
  result: null,
  ...over,
});
const callOf = (r: LoggedRequest, at = r.at + 5): LoggedCall => ({
  requestId: r.id,
  at,
  backend: 'chat:embedded',
  kind: 'chat',
  model: null,
  outcome: 'ok',
  status: null,
  ms: 5,
  cost: 0,
  unpriced: 0,
  prompt: '[]',
  answer: '{"text":"x"}',
  truncated: false,
});

describe.each([
  {
    name: 'SQLite',
    async open() {
      const dir = mkdtempSync(join(tmpdir(), 'lootsmith-reqlog-'));
      return {
        store: new SqliteStore(dir) as Store,
        cleanup: async () => rmSync(dir, { recursive: true, force: true }),
      };
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
])('the $name request log store', (backend) => {
  let store: Store | undefined;
  let cleanup = async () => {};
  beforeAll(async () => {
    const opened = await backend.open();
    if (!opened) return;
    store = opened.store;
    cleanup = opened.cleanup;
  });
  afterAll(async () => {
    await store?.close();
    await cleanup();
  });

  it('keeps the newest N requests and those of the last D days, and drops the calls of the requests it dropped', async (ctx) => {
    if (!store) return ctx.skip();
    const log = store.requestLog;
    const now = Date.now();
    const old = [request(1, now - 9 * 86_400_000), request(2, now - 8 * 86_400_000)];
    // An arrival is the answer's time less its latency: a fraction of a millisecond, which both take.
    const fresh = [1, 2, 3, 4, 5].map((i) => request(10 + i, now - 1000 + i + 0.25));
    const retention = { max: 4, before: now - 7 * 86_400_000 };
    await log.recordRequests({ requests: old, calls: old.map((r) => callOf(r)) }, { max: 100, before: 0 });
    expect(await log.requests({ limit: 10 })).toHaveLength(2);
    await log.recordRequests({ requests: fresh, calls: fresh.map((r) => callOf(r)) }, retention);
    const kept = await log.requests({ limit: 10 });
    expect(kept.map((r) => r.id)).toEqual(
      fresh
        .slice(1)
        .reverse()
        .map((r) => r.id),
    );
    expect(await log.request(old[0]?.id as string)).toBeNull();
    // The old requests' calls went with them; the call of the one dropped by count stays until it is
    // older than the oldest kept by more than a request may take to answer (10 minutes).
    if (store instanceof SqliteStore)
      expect(store.db.prepare('SELECT request_id FROM request_calls ORDER BY seq').all()).toEqual(
        fresh.map((r) => ({ request_id: r.id })),
      );
    const newest = await log.request(fresh[4]?.id as string);
    expect(newest?.calls).toHaveLength(1);
    // Filters, each on its own index, and together.
    expect((await log.requests({ playerId: 'player-1', limit: 10 })).map((r) => r.id)).toEqual(
      [fresh[4], fresh[2]].map((r) => r?.id),
    );
    expect(await log.requests({ kind: 'error', limit: 10 })).toEqual([]);
    expect(
      await log.requests({ route: 'POST /v1/generate/items', playerId: 'player-0', limit: 1 }),
    ).toHaveLength(1);
    // The calls of dropped requests went with them (older than the oldest kept, by more than a request may last).
    // Each list reads an index on position (on SQLite: PostgreSQL scans a table this small whole).
    if (backend.name === 'SQLite')
      expect(await log.plans()).toEqual({
        requests_recent: expect.stringMatching(/SEARCH request_log USING INTEGER PRIMARY KEY \(rowid<\?\)/),
        requests_by_player: expect.stringMatching(
          /SEARCH request_log USING INDEX request_log_player \(player_id=\?\)/,
        ),
        requests_by_route: expect.stringMatching(
          /SEARCH request_log USING INDEX request_log_route \(route=\?\)/,
        ),
        requests_by_kind: expect.stringMatching(
          /SEARCH request_log USING INDEX request_log_kind \(kind=\?\)/,
        ),
      });
    if (backend.name === 'SQLite')
      for (const plan of Object.values(await log.plans())) expect(plan).not.toMatch(/TEMP B-TREE/);
    await log.trimRequests({ max: 2, before: now - 7 * 86_400_000 });
    expect((await log.requests({ limit: 10 })).map((r) => r.id)).toEqual(
      [fresh[4], fresh[3]].map((r) => r?.id),
    );
  });
});
