import { afterEach, describe, expect, it } from 'vitest';
import { ActivityRecorder, failureCode } from '../src/admin/activity.ts';
import type { ActivityBatch, AdminStore } from '../src/admin/store.ts';

/** An admin store that only takes activity writes: held, failed or kept, as a test needs. */
function fakeStore(write: (batch: ActivityBatch) => Promise<void>) {
  return { recordActivity: write, sweep: async () => {} } as unknown as AdminStore;
}

let recorder: ActivityRecorder | undefined;
afterEach(async () => {
  await recorder?.close().catch(() => {});
  recorder = undefined;
});

const at = Date.UTC(2026, 0, 1, 12, 0, 30);
const request = (over: Partial<Parameters<ActivityRecorder['request']>[0]> = {}) => ({
  route: 'POST /v1/generate/items',
  status: 200,
  ms: 12,
  playerId: 'ana',
  at,
  ...over,
});

describe('the activity recorder', () => {
  it('adds requests up per minute, route, status and code, and counts each player’s drops, crafts and refusals', async () => {
    const batches: ActivityBatch[] = [];
    recorder = new ActivityRecorder(fakeStore(async (b) => void batches.push(b)));
    const combine = 'POST /api/v1/crafting/combine';
    recorder.request(request());
    recorder.request(request({ ms: 3000 }));
    recorder.request(request({ status: 429, code: 'rate_limit_exceeded', ms: 1 }));
    recorder.request(request({ route: combine }));
    recorder.request(request({ status: 400, code: 'invalid_request' }));
    recorder.request(request({ route: 'GET /nowhere', status: 404, playerId: undefined }));
    // A combine the judge refused answers 200 with its verdict: a refusal, not a craft.
    recorder.request(request({ route: combine, code: 'not_sensible' }));
    recorder.request(request({ route: combine, status: 400, code: 'skill_too_low' }));
    recorder.request(request({ route: combine, status: 400, code: 'content_refused' }));
    recorder.request(request({ status: 502, code: 'upstream_unavailable' }));
    // A retry with the same Idempotency-Key gets the first answer again: listed, not a second craft.
    recorder.request(request({ route: combine, code: 'replayed' }));
    await recorder.flush();
    const [batch] = batches;
    const drops = batch?.routes.find((r) => r.route === 'POST /v1/generate/items' && r.status === 200);
    expect(drops).toMatchObject({ minute: Math.floor(at / 60_000), code: '', count: 2, totalMs: 3012 });
    expect(drops?.buckets.reduce((a, b) => a + b, 0)).toBe(2);
    expect(batch?.routes.find((r) => r.status === 404)?.code).toBe('not_found');
    expect(batch?.routes.find((r) => r.route === combine && r.status === 200 && r.code)).toMatchObject({
      code: 'not_sensible',
      count: 1,
    });
    // A malformed request and a backend's failure are no refusals of the game's; a rate limit, a
    // skill too low, a judge's verdict and the content checks are.
    expect(batch?.players).toEqual([
      {
        playerId: 'ana',
        requests: 10,
        drops: 2,
        crafts: 1,
        refusals: 4,
        tokens: 0,
        images: 0,
        spend: 0,
        lastAt: at,
        level: null,
        levelAt: null,
      },
    ]);
    expect(batch?.requests.map((r) => r.code)).toEqual([
      null,
      null,
      'rate_limit_exceeded',
      null,
      'invalid_request',
      'not_sensible',
      'skill_too_low',
      'content_refused',
      'upstream_unavailable',
      'replayed',
    ]);
    // Nothing new: nothing written.
    await recorder.flush();
    expect(batches).toHaveLength(1);
  });

  it('adds up each backend’s calls by kind and outcome, and charges what they report to the player they were for', async () => {
    const batches: ActivityBatch[] = [];
    recorder = new ActivityRecorder(fakeStore(async (b) => void batches.push(b)));
    const chat = { backend: 'chat:openai', kind: 'chat', clientId: 'ana' } as const;
    recorder.upstreamCall(
      { ...chat, outcome: 'ok', ms: 40, usage: { prompt_tokens: 100, completion_tokens: 20 } },
      at,
    );
    recorder.upstreamCall(
      { ...chat, outcome: 'error', ms: 1000, detail: 'no whole answer within 1000 ms' },
      at,
    );
    recorder.upstreamCall(
      { ...chat, backend: 'fallback', outcome: 'error', ms: 5, status: 503, detail: 'status 503' },
      at,
    );
    recorder.upstreamCall(
      { backend: 'image:sdapi', kind: 'image', clientId: 'ana', outcome: 'ok', ms: 9 },
      at,
    );
    await recorder.flush();
    const [batch] = batches;
    expect(batch?.backends.map((b) => [b.backend, b.kind, b.outcome, b.count])).toEqual([
      ['chat:openai', 'chat', 'ok', 1],
      ['chat:openai', 'chat', 'timeout', 1],
      ['fallback', 'chat', 'status_503', 1],
      ['image:sdapi', 'image', 'ok', 1],
    ]);
    expect(batch?.backends[0]).toMatchObject({ promptTokens: 100, completionTokens: 20 });
    expect(batch?.players).toEqual([
      expect.objectContaining({ playerId: 'ana', tokens: 120, images: 1, requests: 0 }),
    ]);
  });

  it('adds up what successful calls cost per day, route and backend, and per player of the request', async () => {
    const batches: ActivityBatch[] = [];
    recorder = new ActivityRecorder(fakeStore(async (b) => void batches.push(b)));
    const drop = {
      route: 'POST /v1/generate/items',
      player: 'ana',
      clientId: 'ana',
      outcome: 'ok',
      ms: 1,
    } as const;
    recorder.upstreamCall({ ...drop, backend: 'chat:openai', kind: 'chat', cost: 450 }, at);
    recorder.upstreamCall({ ...drop, backend: 'chat:openai', kind: 'chat', cost: 300 }, at);
    recorder.upstreamCall({ ...drop, backend: 'image:openai', kind: 'image', cost: 5_000_000 }, at);
    // A failed attempt costs nothing known; an unpriced call is counted as one.
    recorder.upstreamCall({ ...drop, backend: 'image:openai', kind: 'image', outcome: 'error', ms: 5 }, at);
    recorder.upstreamCall({ ...drop, backend: 'image:sdapi', kind: 'image', cost: null }, at + 86_400_000);
    // The server's own work (a pool refill) is no request's and no player's.
    recorder.upstreamCall(
      { backend: 'chat:openai', kind: 'chat', clientId: 'lootsmith-pool', outcome: 'ok', ms: 1, cost: 7 },
      at,
    );
    await recorder.flush();
    const [batch] = batches;
    expect(batch?.spend).toEqual([
      { day: '2026-01-01', route: drop.route, backend: 'chat:openai', calls: 2, nanos: 750, unpriced: 0 },
      {
        day: '2026-01-01',
        route: drop.route,
        backend: 'image:openai',
        calls: 1,
        nanos: 5_000_000,
        unpriced: 0,
      },
      { day: '2026-01-02', route: drop.route, backend: 'image:sdapi', calls: 1, nanos: 0, unpriced: 1 },
      { day: '2026-01-01', route: 'background', backend: 'chat:openai', calls: 1, nanos: 7, unpriced: 0 },
    ]);
    expect(batch?.playerSpend).toEqual([
      { playerId: 'ana', day: '2026-01-01', calls: 3, nanos: 5_000_750, unpriced: 0 },
      { playerId: 'ana', day: '2026-01-02', calls: 1, nanos: 0, unpriced: 1 },
    ]);
    expect(batch?.players.find((p) => p.playerId === 'ana')?.spend).toBe(5_000_750);
  });

  it('keeps the level the game reported last for each player', async () => {
    const batches: ActivityBatch[] = [];
    recorder = new ActivityRecorder(fakeStore(async (b) => void batches.push(b)));
    recorder.level('ana', 4, at);
    recorder.level('ana', 6, at + 1000);
    recorder.level('ana', 5, at + 500);
    recorder.level('bob', 2, at);
    await recorder.flush();
    expect(batches[0]?.players.map((p) => [p.playerId, p.level, p.levelAt])).toEqual([
      ['ana', 6, at + 1000],
      ['bob', 2, at],
    ]);
  });

  it('keeps at most 20,000 requests waiting while the store is stuck, counting what it drops', async () => {
    let release = () => {};
    const stuck = new Promise<void>((resolve) => {
      release = resolve;
    });
    recorder = new ActivityRecorder(fakeStore(() => stuck));
    for (let i = 0; i < 1_000; i++) recorder.request(request({ playerId: `p${i % 100}` }));
    // The thousandth request starts a write, which takes them and waits on the store.
    await new Promise((r) => setImmediate(r));
    for (let i = 0; i < 24_000; i++) recorder.request(request({ playerId: `p${i % 100}` }));
    expect(recorder.dropped).toBe(4_000);
    release();
  });

  it('loses a failed write’s figures, counted, and writes the next ones', async () => {
    const written: ActivityBatch[] = [];
    let fail = true;
    recorder = new ActivityRecorder(
      fakeStore(async (b) => {
        if (fail) throw new Error('store down');
        written.push(b);
      }),
    );
    recorder.request(request());
    await recorder.flush();
    expect(recorder.dropped).toBe(1);
    fail = false;
    recorder.request(request());
    await recorder.flush();
    expect(written.map((b) => b.requests.length)).toEqual([1]);
  });

  it('names why an attempt failed', () => {
    const code = (detail: string) => failureCode({ outcome: 'error', detail });
    expect(failureCode({ outcome: 'error', status: 429, detail: 'status 429: slow down' })).toBe(
      'status_429',
    );
    expect(code('no whole answer within 30000 ms')).toBe('timeout');
    expect(code('network: connect ECONNREFUSED')).toBe('network');
    expect(code('answer larger than 4194304 bytes')).toBe('too_large');
    expect(code('image carries a secret')).toBe('secret_echoed');
    expect(code('image refused: not an image')).toBe('image_refused');
    expect(code('response does not match the /v1 schema')).toBe('invalid_answer');
    expect(failureCode({ outcome: 'key_refused', status: 401 })).toBe('key_refused');
    expect(failureCode({ outcome: 'ok' })).toBe('ok');
  });
});
