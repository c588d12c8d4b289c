import { SERVER_KEY } from '@lootsmith/test-support/boot';
import { startTwoInstances, type TwoInstances } from '@lootsmith/test-support/two-instances';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const PASSWORD = 'console-password-two-instances';

/** The fields of the answers this test reads. */
interface Answer {
  token?: string;
  error?: { code: string };
  player?: { drops: number; blocked: boolean };
  routes?: Array<{ route: string; requests: number }>;
  requests?: Array<{ id: string; status: number; kind: string }>;
  calls?: Array<{ kind: string; outcome: string }>;
}

/** The console over two instances sharing PostgreSQL and Redis: one game, whichever instance answers. */
describe('the console over two instances', () => {
  let two: TwoInstances | null = null;
  beforeAll(async () => {
    two = await startTwoInstances({ LOOTSMITH_CONSOLE_PASSWORD: PASSWORD });
  }, 60_000);
  afterAll(() => two?.close());

  const json = async (res: Response) => ({
    status: res.status,
    body: (await res.json()) as Answer,
  });
  const drop = (base: string, token: string) =>
    fetch(`${base}/v1/generate/items`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        client_id: 'nia',
        generation_context: { enemy: 'slime' },
        items: [{ type: 'WEAPON' }],
      }),
    }).then(json);

  it('counts both instances’ traffic, and a block made on one refuses the next drop on the other', async (ctx) => {
    if (!two) return ctx.skip();
    const { a, b } = two;
    const login = await fetch(`${a.url}/api/v1/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ player_id: 'nia' }),
    }).then(json);
    const token = login.body.token as string;
    expect((await drop(a.url, token)).status).toBe(200);
    expect((await drop(b.url, token)).status).toBe(200);

    // Signed in on A; the session is in the store, so B knows it too.
    const signIn = await fetch(`${a.url}/api/v1/admin/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ credential: PASSWORD }),
    });
    const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0] as string;
    const csrf = ((await signIn.json()) as { csrf_token: string }).csrf_token;
    const admin = (base: string, path: string, init: RequestInit = {}) =>
      fetch(base + path, { ...init, headers: { cookie, 'x-csrf-token': csrf, ...init.headers } }).then(json);

    // Each instance writes its figures within a second.
    await expect
      .poll(async () => (await admin(b.url, '/api/v1/admin/players/nia')).body.player?.drops, {
        timeout: 5_000,
      })
      .toBe(2);
    const overview = (await admin(b.url, '/api/v1/admin/overview')).body;
    const drops = overview.routes?.find((r) => r.route === 'POST /v1/generate/items');
    expect(drops?.requests).toBe(2);
    // Both instances' requests are in one request log, each with the calls it made, read from either.
    const logged = `/api/v1/admin/requests?player=nia&route=${encodeURIComponent('POST /v1/generate/items')}`;
    await expect
      .poll(async () => (await admin(a.url, logged)).body.requests?.length, { timeout: 5_000 })
      .toBe(2);
    for (const r of (await admin(a.url, logged)).body.requests ?? []) {
      expect(r).toMatchObject({ status: 200, kind: 'ok' });
      const detail = (await admin(b.url, `/api/v1/admin/requests/${r.id}`)).body;
      expect(detail.calls?.some((c) => c.kind === 'chat' && c.outcome === 'ok')).toBe(true);
    }

    const blocked = await admin(a.url, '/api/v1/admin/players/nia', {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ blocked: true }),
    });
    expect(blocked.body.player?.blocked).toBe(true);
    const refused = await drop(b.url, token);
    expect(refused.status).toBe(403);
    expect(refused.body.error?.code).toBe('player_blocked');

    // The server credential drives the same API from a script, on either instance.
    const unblock = await fetch(`${b.url}/api/v1/admin/players/nia`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${SERVER_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ blocked: false }),
    }).then(json);
    expect(unblock.body.player?.blocked).toBe(false);
    expect((await drop(a.url, token)).status).toBe(200);
  });
});
