import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Booted, bootWithFake, SERVER_KEY, UPSTREAM_KEY } from '@lootsmith/test-support/boot';
import { startFakeUpstream } from '@lootsmith/test-support/fake-upstream';
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';
import { lootsmith } from '../src/index.ts';

const booted: Booted[] = [];
const dirs: string[] = [];
const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const t of booted.splice(0)) await t.close();
  for (const close of closers.splice(0).reverse()) await close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function boot(env: Record<string, string> = {}) {
  const t = await bootWithFake(env);
  booted.push(t);
  return t;
}

/** A folder with these files (path → content) in it. */
function folder(files: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), 'lootsmith-deploy-'));
  dirs.push(dir);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  return dir;
}

const refusal = (env: Record<string, string>) => {
  try {
    loadConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  return 'started';
};

describe('the static directory', () => {
  // Issue 35: LOOTSMITH_STATIC_DIR=. served /.env, /.git/config and the SQLite database under /.lootsmith/.
  it('never serves a dotfile', async () => {
    const dist = folder({
      'index.html': '<!doctype html><title>game</title>',
      '.npmrc': '//registry.npmjs.org/:_authToken=npm_secret',
      '.config/keys.json': '{"key":"secret"}',
    });
    const t = await boot({ LOOTSMITH_STATIC_DIR: dist });
    expect((await t.server.app.inject({ url: '/' })).statusCode).toBe(200);
    for (const url of ['/.npmrc', '/.config/keys.json', '/%2Enpmrc']) {
      const res = await t.server.app.inject({ url });
      expect(res.statusCode, url).toBe(404);
      expect(res.body).not.toContain('secret');
    }
  });

  it('refuses at start-up to serve the data directory or a project folder, saying what to serve', () => {
    const project = folder({ 'index.html': '', 'server.js': '' });
    expect(
      refusal({ LOOTSMITH_STATIC_DIR: project, LOOTSMITH_DATA_DIR: join(project, '.lootsmith') }),
    ).toMatch(/^LOOTSMITH_STATIC_DIR: .* holds LOOTSMITH_DATA_DIR .*: serve only your built game/);
    expect(refusal({ LOOTSMITH_STATIC_DIR: project, LOOTSMITH_DATA_DIR: project })).toMatch(
      /holds LOOTSMITH_DATA_DIR/,
    );
    for (const secret of ['.env', '.git/config']) {
      const withSecret = folder({ 'index.html': '', [secret]: 'LOOTSMITH_PLAYER_SECRET=hush' });
      const message = refusal({ LOOTSMITH_STATIC_DIR: withSecret, LOOTSMITH_DATA_DIR: '/tmp/unused' });
      expect(message).toMatch(/^LOOTSMITH_STATIC_DIR: .* has a \.(env|git) in it/);
      expect(message).toContain('e.g. ./dist');
    }
    const dist = folder({ 'index.html': '' });
    expect(refusal({ LOOTSMITH_STATIC_DIR: dist, LOOTSMITH_DATA_DIR: '/tmp/unused' })).toBe('started');
  });
});

describe('the console under a mount prefix', () => {
  // Issue 35: mounted at /loot in a game's Fastify app, the console's cookie was Path=/, sent to every
  // route of the game.
  it('scopes its cookie to its own API under the prefix', async () => {
    const upstream = await startFakeUpstream();
    closers.push(() => upstream.close());
    const app = Fastify();
    closers.push(() => app.close());
    await app.register(lootsmith, {
      prefix: '/loot',
      upstreamUrl: upstream.url,
      upstreamKey: UPSTREAM_KEY,
      serverKey: SERVER_KEY,
      dataDir: folder({}),
    });
    const signIn = await app.inject({
      method: 'POST',
      url: '/loot/api/v1/admin/session',
      payload: { credential: SERVER_KEY },
    });
    expect(signIn.statusCode).toBe(200);
    expect(String(signIn.headers['set-cookie'])).toMatch(/; Path=\/loot\/api\/v1\/admin;/);
  });
});

describe('the development console without a credential', () => {
  // Issue 35: it signed in any loopback socket whatever the Host, so a DNS-rebinding page, or anyone
  // behind a reverse proxy on the same machine, got an admin session and the playground's AI.
  it('signs in only a browser on this machine that asked this machine, through no proxy', async () => {
    const t = await boot({ LOOTSMITH_SERVER_KEY: '' });
    const signIn = (headers: Record<string, string>) =>
      t.server.app.inject({
        method: 'POST',
        url: '/api/v1/admin/session',
        remoteAddress: '127.0.0.1',
        headers,
        payload: { credential: '' },
      });
    const refused: Array<Record<string, string>> = [
      { host: 'rebind.evil.example:8787' },
      { host: 'rebind.evil.example:8787', origin: 'http://rebind.evil.example:8787' },
      { host: 'localhost:8787', origin: 'http://rebind.evil.example:8787' },
      { host: 'localhost.evil.example' },
      { host: '127.0.0.1:8787', 'x-forwarded-for': '203.0.113.9' },
      { host: '127.0.0.1:8787', 'x-forwarded-host': 'loot.example.com' },
      { host: '127.0.0.1:8787', forwarded: 'for=203.0.113.9' },
    ];
    for (const headers of refused) {
      const res = await signIn(headers);
      expect(res.statusCode, JSON.stringify(headers)).toBe(403);
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    const allowed: Array<Record<string, string>> = [
      { host: 'localhost:8787', origin: 'http://localhost:8787' },
      { host: '127.0.0.1:8787' },
      { host: '[::1]:8787', origin: 'http://[::1]:8787' },
    ];
    for (const headers of allowed)
      expect((await signIn(headers)).json(), JSON.stringify(headers)).toMatchObject({ signed_in: true });
  });
});

describe('per-address limits behind a load balancer', () => {
  // Issue 35: every request came from the balancer's address, so 600 icon requests a minute made
  // /health, the console (even with the server key) and the game definition answer 429.
  const LIMITED = { LOOTSMITH_GUEST_REQUESTS_PER_ADDRESS: '5' };

  it('never limits /health, nor the server key or a console session', async () => {
    const t = await boot(LIMITED);
    const app = t.server.app;
    const signIn = await app.inject({
      method: 'POST',
      url: '/api/v1/admin/session',
      payload: { credential: SERVER_KEY },
    });
    const cookie = String(signIn.headers['set-cookie']).split(';')[0] as string;
    const codes: number[] = [];
    for (let i = 0; i < 6; i++) codes.push((await app.inject({ url: '/api/v1/game' })).statusCode);
    expect(codes).toEqual([200, 200, 200, 200, 200, 429]);
    for (let i = 0; i < 3; i++) {
      expect((await app.inject({ url: '/health' })).statusCode).toBe(200);
      const byKey = await app.inject({
        url: '/api/v1/admin/overview',
        headers: { authorization: `Bearer ${SERVER_KEY}` },
      });
      expect(byKey.statusCode).toBe(200);
      expect((await app.inject({ url: '/api/v1/admin/overview', headers: { cookie } })).statusCode).toBe(200);
      expect(
        (
          await app.inject({
            method: 'POST',
            url: '/api/v1/admin/session',
            payload: { credential: SERVER_KEY },
          })
        ).statusCode,
      ).toBe(200);
    }
    // A wrong key is a stranger, counted like one.
    const wrong = await app.inject({ url: '/api/v1/game', headers: { authorization: 'Bearer nope' } });
    expect(wrong.statusCode).toBe(429);
  });

  it('keys the limits on the client a trusted proxy names, with LOOTSMITH_TRUST_PROXY', async () => {
    const t = await boot({ ...LIMITED, LOOTSMITH_TRUST_PROXY: '127.0.0.1, 10.0.0.0/8' });
    const game = (client: string, remoteAddress = '10.1.2.3') =>
      t.server.app.inject({ url: '/api/v1/game', remoteAddress, headers: { 'x-forwarded-for': client } });
    for (let i = 0; i < 5; i++) expect((await game('203.0.113.1')).statusCode).toBe(200);
    expect((await game('203.0.113.1')).statusCode).toBe(429);
    expect((await game('203.0.113.2')).statusCode).toBe(200);
    // Anyone else's X-Forwarded-For is not believed: their own address is counted.
    for (let i = 0; i < 5; i++) await game(`198.51.100.${i}`, '192.0.2.7');
    expect((await game('198.51.100.99', '192.0.2.7')).statusCode).toBe(429);

    expect(loadConfig({ LOOTSMITH_TRUST_PROXY: '::1, 10.0.0.0/8' }).trustProxy).toBe('::1,10.0.0.0/8');
    for (const bad of ['true', '*', '2', '10.0.0.0/40', '10.0.0.0/8,'])
      expect(refusal({ LOOTSMITH_TRUST_PROXY: bad }), bad).toMatch(/LOOTSMITH_TRUST_PROXY: must be/);
  });
});
