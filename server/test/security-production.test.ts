import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { Writable } from 'node:stream';
import { type Booted, bootWithFake, PLAYER_SECRET, SERVER_KEY } from '@lootsmith/test-support/boot';
import { writeGameFile } from '@lootsmith/test-support/game-file';
import { createSigner } from 'fast-jwt';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { signPlayerToken } from '../src/auth.ts';
import { ConfigError, loadConfig } from '../src/config.ts';

// Issue 24, item 4, replayed as it was tried: production that failed open.
const KEYS = { LOOTSMITH_PLAYER_SECRET: PLAYER_SECRET, LOOTSMITH_SERVER_KEY: SERVER_KEY };
const auth = (token: string) => ({ authorization: `Bearer ${token}` });
/** A token as a game server signs one, issued `agoSeconds` ago and living `ttlSeconds` from then. */
const tokenIssued = (player: string, agoSeconds: number, ttlSeconds = 600, secret = PLAYER_SECRET) =>
  createSigner({
    key: secret,
    algorithm: 'HS256',
    clockTimestamp: Date.now() - agoSeconds * 1000,
    expiresIn: ttlSeconds * 1000,
  })({ sub: player });

const booted: Booted[] = [];
async function boot(env: Record<string, string> = {}, logs?: Writable) {
  const t = await bootWithFake(env, logs);
  booted.push(t);
  return t;
}
afterEach(async () => {
  for (const t of booted.splice(0)) await t.close();
});
const session = (t: Booted, payload: Record<string, unknown>) =>
  t.server.app.inject({ method: 'POST', url: '/api/v1/session', payload });

describe('what production is', () => {
  it('takes NODE_ENV in any spelling of production, or a bind address beyond loopback', () => {
    for (const spelling of ['production', 'prod', 'Production', ' PRODUCTION '])
      expect(loadConfig({ ...KEYS, NODE_ENV: spelling }).production, spelling).toBe(true);
    for (const host of ['0.0.0.0', '::', '192.0.2.10', 'game.example.com'])
      expect(loadConfig({ ...KEYS, LOOTSMITH_HOST: host }).production, host).toBe(true);
    for (const host of ['127.0.0.1', 'localhost', '::1', '127.0.0.2'])
      expect(loadConfig({ LOOTSMITH_HOST: host }).production, host).toBe(false);
    const exposed = loadConfig({ ...KEYS, LOOTSMITH_HOST: '0.0.0.0' });
    expect(exposed.devLogin).toBe(false);
    expect(exposed.corsLoopback).toBe(false);
  });

  it('refuses to start without the secrets, or with guest login, naming the variable', () => {
    const refusals: Array<[Record<string, string>, RegExp]> = [
      [
        { NODE_ENV: 'prod', LOOTSMITH_SERVER_KEY: SERVER_KEY },
        /LOOTSMITH_PLAYER_SECRET: required in production/,
      ],
      [
        { LOOTSMITH_HOST: '0.0.0.0', LOOTSMITH_PLAYER_SECRET: PLAYER_SECRET },
        /LOOTSMITH_SERVER_KEY: required/,
      ],
      [
        { NODE_ENV: 'Production', ...KEYS, LOOTSMITH_DEV_LOGIN: '1' },
        /LOOTSMITH_DEV_LOGIN: guest login is refused/,
      ],
      [{ LOOTSMITH_HOST: '0.0.0.0', ...KEYS, LOOTSMITH_DEV_LOGIN: '1' }, /LOOTSMITH_HOST=0.0.0.0/],
      [
        { LOOTSMITH_TOKEN_TTL_S: '864000' },
        /LOOTSMITH_TOKEN_TTL_S: must not be above LOOTSMITH_TOKEN_MAX_TTL_S/,
      ],
    ];
    for (const [env, message] of refusals) {
      expect(() => loadConfig(env)).toThrow(ConfigError);
      expect(() => loadConfig(env)).toThrow(message);
    }
  });

  // Issue 35: a 16-character player secret was guessed offline from one token, and one value could
  // serve as player secret, metrics token and server key at once.
  it('refuses weak or reused secrets in production, naming the variable and how to make one', () => {
    const strong = (name: string) => `${name}-Zq7vXk2Lm9RbT4wYc8NpJ5sHd3Gf6A`;
    const keys = { LOOTSMITH_PLAYER_SECRET: strong('player'), LOOTSMITH_SERVER_KEY: strong('server') };
    const production = { ...keys, NODE_ENV: 'production', LOOTSMITH_DATA_DIR: '/tmp/unused' };
    expect(loadConfig(production).production).toBe(true);
    const refused = (env: Record<string, string>) => {
      try {
        loadConfig({ ...production, ...env });
      } catch (err) {
        expect(err).toBeInstanceOf(ConfigError);
        return (err as Error).message;
      }
      return 'started';
    };
    for (const weak of ['lootsmith-secret', 'a'.repeat(40), 'password'.repeat(4), 'lootsmith-secret-0123'])
      for (const variable of ['LOOTSMITH_PLAYER_SECRET', 'LOOTSMITH_SERVER_KEY', 'LOOTSMITH_METRICS_TOKEN']) {
        const message = refused({ [variable]: weak });
        expect(message, `${variable}=${weak}`).toMatch(new RegExp(`^${variable}: too weak for production`));
        expect(message).toContain('openssl rand -base64 32');
        expect(message).not.toContain(weak);
      }
    expect(refused({ LOOTSMITH_SERVER_KEY: keys.LOOTSMITH_PLAYER_SECRET })).toMatch(
      /^LOOTSMITH_SERVER_KEY: must differ from LOOTSMITH_PLAYER_SECRET/,
    );
    expect(refused({ LOOTSMITH_METRICS_TOKEN: keys.LOOTSMITH_SERVER_KEY })).toMatch(
      /^LOOTSMITH_METRICS_TOKEN: must differ from LOOTSMITH_SERVER_KEY/,
    );
    // Outside production a short secret is fine for trying things out.
    expect(loadConfig({ LOOTSMITH_PLAYER_SECRET: 'lootsmith-secret' }).playerSecret).toBe('lootsmith-secret');
  });

  it('warns loudly at start-up about what weakens it, naming the variable', async () => {
    const lines: string[] = [];
    const logs = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    await boot(
      {
        NODE_ENV: 'prod',
        LOOTSMITH_ALLOW_CHAT: '1',
        LOOTSMITH_CORS_ORIGINS: '*',
        LOOTSMITH_LOG_LEVEL: 'warn',
      },
      logs,
    );
    const warnings = lines.filter((l) => l.includes('Weakened production server'));
    expect(warnings.join('\n')).toContain('LOOTSMITH_ALLOW_CHAT=1');
    expect(warnings.join('\n')).toContain('LOOTSMITH_CORS_ORIGINS=*');
  });

  it('has no guest login in production, whatever NODE_ENV says', async () => {
    const t = await boot({ NODE_ENV: 'Production' });
    const res = await session(t, { player_id: 'ann' });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('dev_login_disabled');
  });

  it('gives players finite daily budgets from the game definition in production', async () => {
    const gameFile = writeGameFile(() => ({ default_budgets: { daily_items: 2, daily_images: 1 } }));
    try {
      const drop = (t: Booted) =>
        t.server.app.inject({
          method: 'POST',
          url: '/v1/generate/items',
          headers: auth(signPlayerToken(PLAYER_SECRET, 'bob', 600)),
          payload: { client_id: 'bob', generation_context: { enemy: 'rat' }, items: [{ type: 'MATERIAL' }] },
        });
      const prod = await boot({ NODE_ENV: 'production', LOOTSMITH_GAME_FILE: gameFile });
      expect([(await drop(prod)).statusCode, (await drop(prod)).statusCode]).toEqual([200, 200]);
      const over = await drop(prod);
      expect(over.statusCode).toBe(429);
      expect(over.json().reason).toBe('budget_exceeded');
      // The game server's own setting for a player wins over the default.
      await prod.server.app.inject({
        method: 'PATCH',
        url: '/api/v1/player/bob',
        headers: auth(SERVER_KEY),
        payload: { daily_items: 10 },
      });
      expect((await drop(prod)).statusCode).toBe(200);
      const dev = await boot({ LOOTSMITH_GAME_FILE: gameFile });
      for (let i = 0; i < 3; i++) expect((await drop(dev)).statusCode).toBe(200);
    } finally {
      rmSync(dirname(gameFile), { recursive: true, force: true });
    }
  });
});

describe('guest login', () => {
  it('never issues a token for a player that exists, unless the guest shows the secret it was given', async () => {
    const t = await boot();
    // A player the game server made: guest login cannot sign in as it.
    await t.server.app.inject({
      method: 'PATCH',
      url: '/api/v1/player/cara',
      headers: auth(SERVER_KEY),
      payload: { daily_items: 5 },
    });
    const takeover = await session(t, { player_id: 'cara' });
    expect(takeover.statusCode).toBe(403);
    expect(takeover.json().error.code).toBe('guest_secret_required');
    expect(takeover.body).not.toContain('token');

    const first = await session(t, { player_id: 'dora' });
    expect(first.statusCode).toBe(200);
    const secret = first.json().guest_secret;
    expect(secret).toMatch(/^[\w-]{16,}$/);
    expect((await session(t, { player_id: 'dora' })).statusCode).toBe(403);
    expect((await session(t, { player_id: 'dora', guest_secret: 'x'.repeat(32) })).statusCode).toBe(403);
    const again = await session(t, { player_id: 'dora', guest_secret: secret });
    expect(again.statusCode).toBe(200);
    expect(again.json().guest_secret).toBeUndefined();
  });

  it('limits guest sessions and the routes a guest reaches per address', async () => {
    const t = await boot({ LOOTSMITH_SESSIONS_PER_ADDRESS: '3', LOOTSMITH_GUEST_REQUESTS_PER_ADDRESS: '5' });
    const sessions = [];
    for (let i = 0; i < 4; i++) sessions.push((await session(t, { player_id: `guest-${i}` })).statusCode);
    expect(sessions).toEqual([200, 200, 200, 429]);
    const reads = [];
    for (let i = 0; i < 6; i++) reads.push((await t.server.app.inject({ url: '/api/v1/game' })).statusCode);
    expect(reads).toEqual([200, 200, 200, 200, 200, 429]);
    expect((await t.server.app.inject({ url: '/api/v1/icons/0.png' })).statusCode).toBe(429);
    // Another address is not limited by this one's requests.
    expect((await t.server.app.inject({ url: '/api/v1/game', remoteAddress: '127.0.0.9' })).statusCode).toBe(
      200,
    );
    // Player routes are limited per player, not per address.
    const inventory = await t.server.app.inject({
      url: '/api/v1/player/guest-0/inventory',
      headers: auth(signPlayerToken(PLAYER_SECRET, 'guest-0', 600)),
    });
    expect(inventory.statusCode).toBe(200);
  });
});

describe('player tokens', () => {
  let t: Booted;
  afterAll(async () => {
    await t?.close();
  });
  const inventory = (token: string, player = 'eve') =>
    t.server.app.inject({ url: `/api/v1/player/${player}/inventory`, headers: auth(token) });
  const setBlocked = (player: string, blocked: boolean) =>
    t.server.app.inject({
      method: 'PATCH',
      url: `/api/v1/player/${player}`,
      headers: auth(SERVER_KEY),
      payload: { blocked },
    });

  it('refuses a 10-year token, and a token without iat', async () => {
    t = await bootWithFake({ NODE_ENV: 'production' });
    const decade = await inventory(signPlayerToken(PLAYER_SECRET, 'eve', 10 * 365 * 86_400));
    expect(decade.statusCode).toBe(401);
    expect(decade.json().error.message).toContain('lives longer than this server allows');
    const noIat = createSigner({
      key: PLAYER_SECRET,
      algorithm: 'HS256',
      noTimestamp: true,
      expiresIn: 60_000,
    })({
      sub: 'eve',
    });
    expect((await inventory(noIat)).statusCode).toBe(401);
    expect((await inventory(signPlayerToken(PLAYER_SECRET, 'eve', 3600))).statusCode).toBe(200);
  });

  it('refuses every token issued before a block, on every route, even after the unblock', async () => {
    const old = tokenIssued('fin', 30);
    expect((await inventory(old, 'fin')).statusCode).toBe(200);
    await setBlocked('fin', true);
    await setBlocked('fin', false);
    const drop = await t.server.app.inject({
      method: 'POST',
      url: '/v1/generate/items',
      headers: auth(old),
      payload: { client_id: 'fin', items: [{ type: 'MATERIAL' }] },
    });
    const image = await t.server.app.inject({
      method: 'POST',
      url: '/v1/image/generations',
      headers: auth(old),
      payload: { prompt: 'a shield' },
    });
    for (const res of [await inventory(old, 'fin'), drop, image]) {
      expect(res.statusCode, res.body).toBe(401);
      expect(res.json().error.code).toBe('token_revoked');
    }
    expect((await inventory(signPlayerToken(PLAYER_SECRET, 'fin', 600), 'fin')).statusCode).toBe(200);
  });

  it('12. refuses a token issued in the future, and counts a lifetime from now at the latest', async () => {
    const decadeAhead = 10 * 365 * 86_400;
    const future = await inventory(tokenIssued('eve', -decadeAhead, 600));
    expect(future.statusCode).toBe(401);
    expect(future.json().error.message).toContain('issued in the future');
    // A game server's clock a little ahead is fine; its token lives no longer for it.
    expect((await inventory(tokenIssued('eve', -30, 600))).statusCode).toBe(200);
    const week = 7 * 86_400;
    expect((await inventory(tokenIssued('eve', -50, week))).statusCode).toBe(401);
  });

  it('12. a block refuses a token minted in its own second; one signed after the unblock stands', async () => {
    const second = Math.ceil(Date.now() / 1000) + 1;
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(second * 1000 + 100);
      const before = signPlayerToken(PLAYER_SECRET, 'hal', 600);
      const signedElsewhere = tokenIssued('hal', 0);
      for (const token of [before, signedElsewhere])
        expect((await inventory(token, 'hal')).statusCode).toBe(200);
      vi.setSystemTime(second * 1000 + 500);
      await setBlocked('hal', true);
      await setBlocked('hal', false);
      vi.setSystemTime(second * 1000 + 700);
      const after = signPlayerToken(PLAYER_SECRET, 'hal', 600);
      for (const token of [before, signedElsewhere]) {
        const res = await inventory(token, 'hal');
        expect(res.statusCode).toBe(401);
        expect(res.json().error.code).toBe('token_revoked');
      }
      expect((await inventory(after, 'hal')).statusCode).toBe(200);
    } finally {
      vi.useRealTimers();
    }
  });

  it('9. blocks a player whose id is an email or has a space, on every route that names it', async () => {
    for (const player of ['mallory@example.com', 'Mallory Smith', 'team/mallory #1?%']) {
      const token = signPlayerToken(PLAYER_SECRET, player, 600);
      const path = encodeURIComponent(player);
      const drop = () =>
        t.server.app.inject({
          method: 'POST',
          url: '/v1/generate/items',
          headers: auth(token),
          payload: { client_id: player, items: [{ type: 'MATERIAL' }] },
        });
      expect((await drop()).statusCode, player).toBe(200);
      expect((await inventory(token, path)).json().player_id).toBe(player);
      const budget = await t.server.app.inject({
        method: 'PATCH',
        url: `/api/v1/player/${path}`,
        headers: auth(SERVER_KEY),
        payload: { daily_items: 5, blocked: true },
      });
      expect(budget.statusCode, budget.body).toBe(200);
      const shown = await t.server.app.inject({
        url: `/api/v1/admin/players/${path}`,
        headers: auth(SERVER_KEY),
      });
      expect(shown.statusCode, shown.body).toBe(200);
      expect(shown.json()).toMatchObject({ player: { id: player, blocked: true } });
      const refused = await drop();
      expect(refused.statusCode, player).toBe(403);
      expect(refused.json().error.code).toBe('player_blocked');
    }
    // A subject no route could name is refused by the verifier itself.
    for (const player of ['bell\u0007', 'x'.repeat(129)])
      expect((await inventory(signPlayerToken(PLAYER_SECRET, player, 600), 'x')).statusCode).toBe(401);
  });

  it('refuses tokens signed with the secret before a rotation', async () => {
    const rotated = await boot({
      NODE_ENV: 'production',
      LOOTSMITH_PLAYER_SECRET: 'rotated-secret-0123456789abcdefgh',
    });
    const res = await rotated.server.app.inject({
      url: '/api/v1/player/gus/inventory',
      headers: auth(signPlayerToken(PLAYER_SECRET, 'gus', 600)),
    });
    expect(res.statusCode).toBe(401);
  });
});
