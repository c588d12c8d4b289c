import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type Booted,
  bootWithFake,
  PLAYER_SECRET,
  SERVER_KEY,
  UPSTREAM_KEY,
} from '@lootsmith/test-support/boot';
import { type FakeUpstream, startFakeUpstream } from '@lootsmith/test-support/fake-upstream';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildLootsmithApp, ConfigError, loadConfig, lootsmith, resolveConfig } from '../src/index.ts';

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  vi.unstubAllEnvs();
  for (const close of closers.splice(0).reverse()) await close();
});

async function boot(env: Record<string, string> = {}): Promise<Booted> {
  const booted = await bootWithFake(env);
  closers.push(() => booted.close());
  return booted;
}

async function fake(): Promise<FakeUpstream> {
  const upstream = await startFakeUpstream();
  closers.push(() => upstream.close());
  return upstream;
}

function dataDir() {
  const dir = mkdtempSync(join(tmpdir(), 'lootsmith-embed-'));
  closers.push(async () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const preflight = (app: FastifyInstance, origin: string, url = '/v1/generate/items') =>
  app.inject({
    method: 'OPTIONS',
    url,
    headers: {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization,content-type,idempotency-key',
    },
  });

describe('cross-origin games', () => {
  it('answers preflights from loopback pages on any port outside production', async () => {
    const { server } = await boot();
    for (const origin of ['http://localhost:5173', 'http://127.0.0.1:4173', 'http://[::1]:8080']) {
      const res = await preflight(server.app, origin);
      expect(res.statusCode).toBe(204);
      expect(res.headers['access-control-allow-origin']).toBe(origin);
      expect(String(res.headers['access-control-allow-headers'])).toMatch(/authorization/);
      expect(String(res.headers['access-control-allow-headers'])).toMatch(/idempotency-key/);
    }
    const session = await server.app.inject({
      method: 'POST',
      url: '/api/v1/session',
      headers: { origin: 'http://localhost:5173' },
      payload: { player_id: 'ana' },
    });
    expect(session.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    expect(String(session.headers['access-control-expose-headers'])).toMatch(/retry-after/);
  });

  it('gives any other origin no Access-Control-Allow-Origin', async () => {
    const { server } = await boot();
    for (const origin of ['https://evil.example', 'http://localhost.evil.example:80', 'null']) {
      expect((await preflight(server.app, origin)).headers['access-control-allow-origin']).toBeUndefined();
      const res = await server.app.inject({ url: '/api/v1/game', headers: { origin } });
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    }
  });

  it('allows only the listed origins in production', async () => {
    const { server } = await boot({
      NODE_ENV: 'production',
      LOOTSMITH_CORS_ORIGINS: 'https://game.example.com, https://beta.game.example.com/',
    });
    for (const origin of ['https://game.example.com', 'https://beta.game.example.com'])
      expect((await preflight(server.app, origin)).headers['access-control-allow-origin']).toBe(origin);
    for (const origin of ['http://localhost:5173', 'https://game.example.com:8443'])
      expect((await preflight(server.app, origin)).headers['access-control-allow-origin']).toBeUndefined();
  });

  it('allows no origin at all in production unless listed', async () => {
    const { server } = await boot({ NODE_ENV: 'production' });
    const res = await preflight(server.app, 'http://localhost:5173');
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('refuses a value that is not a list of origins at start-up, naming the variable', () => {
    for (const bad of ['https://game.example.com/play', 'game.example.com', 'https://a.example,ftp//b'])
      expect(() => loadConfig({ LOOTSMITH_CORS_ORIGINS: bad })).toThrow(
        /LOOTSMITH_CORS_ORIGINS: .*not an origin/,
      );
    expect(loadConfig({ LOOTSMITH_CORS_ORIGINS: '*' }).corsOrigins).toEqual(['*']);
    expect(() => resolveConfig({ corsOrigins: ['https://ok.example', 'nope'] })).toThrow(/corsOrigins/);
  });
});

describe('the server from code', () => {
  it('registers under a prefix inside a game server and leaves the rest of it alone', async () => {
    const upstream = await fake();
    const app = Fastify();
    app.get('/', async () => ({ game: 'mine' }));
    await app.register(lootsmith, {
      prefix: '/loot',
      upstreamUrl: upstream.url,
      upstreamKey: UPSTREAM_KEY,
      playerSecret: PLAYER_SECRET,
      dataDir: dataDir(),
    });
    closers.push(() => app.close());

    expect((await app.inject({ url: '/' })).json()).toEqual({ game: 'mine' });
    const session = await app.inject({
      method: 'POST',
      url: '/loot/api/v1/session',
      payload: { player_id: 'ana' },
    });
    expect(session.statusCode).toBe(200);
    const headers = { authorization: `Bearer ${session.json().token}` };
    const drop = await app.inject({
      method: 'POST',
      url: '/loot/v1/generate/items',
      headers,
      payload: { client_id: 'ana', items: [{ type: 'WEAPON' }] },
    });
    expect(drop.statusCode).toBe(200);
    const [item] = drop.json().items;
    // Icon paths are relative to Lootsmith's base URL (the plugin's baseUrl), wherever it is mounted.
    expect(item.icon.url).toMatch(/^\/api\/v1\/icons\//);
    expect((await app.inject({ url: `/loot${item.icon.url}` })).headers['content-type']).toBe('image/png');
    const inventory = await app.inject({ url: '/loot/api/v1/player/ana/inventory', headers });
    expect(inventory.json().items.some((e: { item: { id: string } }) => e.item.id === item.id)).toBe(true);
    // Lootsmith's error shape inside its prefix, Fastify's own outside it.
    expect((await app.inject({ url: '/loot/nothing' })).json().error.code).toBe('not_found');
    expect((await app.inject({ url: '/nothing' })).json()).not.toHaveProperty('error.code', 'not_found');
    expect(Object.keys((await app.inject({ url: '/loot/docs/json' })).json().paths)).toContain(
      '/loot/v1/generate/items',
    );
  });

  it('builds the standalone app from options, naming a bad option', async () => {
    const upstream = await fake();
    await expect(buildLootsmithApp({ upstreamUrl: upstream.url })).rejects.toThrow(
      /upstreamKey: required when upstreamUrl is set/,
    );
    await expect(buildLootsmithApp({ port: -1 })).rejects.toThrow(ConfigError);
    const app = await buildLootsmithApp({
      upstreamUrl: upstream.url,
      upstreamKey: UPSTREAM_KEY,
      dataDir: dataDir(),
      logLevel: 'silent',
    });
    closers.push(() => app.close());
    expect((await app.inject({ url: '/health' })).json()).toEqual({ status: 'ok' });
    // No demo and no static files unless a directory is given.
    expect((await app.inject({ url: '/' })).statusCode).toBe(404);
  });
});

describe('the server from code in production', () => {
  // Issue 35: the plugin and buildLootsmithApp read only their options, so NODE_ENV=production ran a
  // development server (guest login, no budgets, /metrics and the console open).
  it('is in production when NODE_ENV says so, and refuses to start without the secrets', async () => {
    vi.stubEnv('NODE_ENV', 'production');
    const upstream = await fake();
    const backend = { upstreamUrl: upstream.url, upstreamKey: UPSTREAM_KEY, dataDir: dataDir() };
    const refused = Fastify();
    closers.push(() => refused.close());
    refused.register(lootsmith, { ...backend, prefix: '/loot' });
    await expect(refused.ready().then(() => 'started')).rejects.toThrow(
      /playerSecret: required in production \(NODE_ENV=production\)/,
    );
    const built = buildLootsmithApp({ ...backend, playerSecret: PLAYER_SECRET });
    const started = built.then((app) => closers.push(() => app.close()));
    await expect(started).rejects.toThrow(/serverKey: required in production/);

    const app = Fastify();
    await app.register(lootsmith, {
      ...backend,
      prefix: '/loot',
      playerSecret: PLAYER_SECRET,
      serverKey: SERVER_KEY,
    });
    closers.push(() => app.close());
    const guest = await app.inject({
      method: 'POST',
      url: '/loot/api/v1/session',
      payload: { player_id: 'ana' },
    });
    expect(guest.json().error.code).toBe('dev_login_disabled');
    expect((await app.inject({ url: '/loot/metrics' })).statusCode).toBe(401);
    const console = await app.inject({
      method: 'POST',
      url: '/loot/api/v1/admin/session',
      payload: { credential: '' },
    });
    expect(console.statusCode).toBe(401);

    // A caller who says otherwise in code is believed.
    expect(resolveConfig({ production: false }).production).toBe(false);
  });

  it('ships an example game server that will not start without its player secret', () => {
    const example = fileURLToPath(new URL('../examples/game-server.mjs', import.meta.url));
    const run = spawnSync(process.execPath, ['--conditions=@lootsmith/source', '--import', 'tsx', example], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH, PORT: '0', LOOTSMITH_DATA_DIR: dataDir() },
      timeout: 20_000,
    });
    expect(run.stderr).toMatch(/PLAYER_SECRET/);
    expect(run.status).toBe(1);
  });
});
