import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { type Booted, bootWithFake, SERVER_KEY, UPSTREAM_KEY } from '@lootsmith/test-support/boot';
import { startFakeUpstream } from '@lootsmith/test-support/fake-upstream';
import { startServerProcess } from '@lootsmith/test-support/process';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfigError, ENV_NAMES, loadConfig } from '../src/config.ts';
import { nodeRefusal } from '../src/node-version.ts';

let t: Booted | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const auth = (token: string) => ({ authorization: `Bearer ${token}` });

describe('configuration', () => {
  it('refuses a Node older than engines allows, naming the Node it needs and the one it has', () => {
    // On Node 20, better-sqlite3 13 crashes the process (a segmentation fault) opening the first database.
    expect(nodeRefusal('v20.20.2', '^22.12 || ^24')).toBe(
      'Lootsmith needs Node 22 or later (its engines: ^22.12 || ^24); this is Node v20.20.2.',
    );
    for (const version of ['v22.23.5', 'v24.22.3', 'v26.12.1']) expect(nodeRefusal(version)).toBeUndefined();
    expect(nodeRefusal('v20.20.2')).toMatch(/needs Node 22 or later/);
  });

  it('names each unknown LOOTSMITH_ variable, on a line of its own, and says it is unknown', () => {
    // A wrapper's own variable beside a typo: the operator must see which is refused, and why.
    expect(() => loadConfig({ LOOTSMITH_PROT: '1', LOOTSMITH_WRAPPER_RUN: 'ci' })).toThrow(
      [
        'Invalid configuration:',
        '  LOOTSMITH_PROT: unknown variable (did you mean LOOTSMITH_PORT?)',
        '  LOOTSMITH_WRAPPER_RUN: unknown variable',
        'Every LOOTSMITH_… variable must be a setting (see `lootsmith --help`): rename or unset these.',
      ].join('\n'),
    );
    expect(() => loadConfig({ LOOTSMITH_WRAPPER_RUN: 'ci' })).toThrow(
      /LOOTSMITH_WRAPPER_RUN: unknown variable\n.*unset it\./,
    );
  });

  it('names the variable of a bad value', () => {
    expect(() => loadConfig({ LOOTSMITH_PORT: 'eighty' })).toThrow(/LOOTSMITH_PORT/);
    expect(() => loadConfig({ LOOTSMITH_UPSTREAM_URL: 'ftp://x' })).toThrow(/LOOTSMITH_UPSTREAM_URL/);
    expect(() => loadConfig({ LOOTSMITH_UPSTREAM_URL: 'https://x.example' })).toThrow(
      /LOOTSMITH_UPSTREAM_KEY/,
    );
    expect(() => loadConfig({ LOOTSMITH_ALLOW_CHAT: 'yes' })).toThrow(/LOOTSMITH_ALLOW_CHAT/);
    expect(() => loadConfig({ LOOTSMITH_PLAYER_SECRET: 'short' })).toThrow(/LOOTSMITH_PLAYER_SECRET/);
    expect(
      loadConfig({ LOOTSMITH_ENGINE_KEY: 'engine-key-123', LOOTSMITH_CHROMIUM: '/usr/bin/chromium' }).port,
    ).toBe(8787);
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(ConfigError);
    expect(() => loadConfig({ LOOTSMITH_PORT: '8787.5' })).toThrow(/LOOTSMITH_PORT: must be a whole number/);
    expect(loadConfig({ LOOTSMITH_PORT: '' }).port).toBe(8787);
    expect(loadConfig({ LOOTSMITH_STATIC_DIR: 'server/examples' }).staticDir).toMatch(
      /^\/.*server\/examples$/,
    );
    expect(() => loadConfig({ LOOTSMITH_STATIC_DIR: 'no/such/dir' })).toThrow(
      /LOOTSMITH_STATIC_DIR: .* does not exist/,
    );
  });

  it('turns dev login off in production, and refuses to turn it on there', () => {
    const secret = {
      LOOTSMITH_PLAYER_SECRET: 'operations-player-secret-0123456789',
      LOOTSMITH_SERVER_KEY: 'operations-server-key-0123456789abc',
      NODE_ENV: 'production',
    };
    expect(loadConfig(secret).devLogin).toBe(false);
    // Issue 24: production with guest login on is refused at start-up (it was on before).
    expect(() => loadConfig({ ...secret, LOOTSMITH_DEV_LOGIN: '1' })).toThrow(/LOOTSMITH_DEV_LOGIN/);
    expect(loadConfig({}).devLogin).toBe(true);
  });

  it('has a --help and refuses bad arguments and values with exit code 2', () => {
    const cli = fileURLToPath(new URL('../src/cli.ts', import.meta.url));
    const run = (args: string[], env: Record<string, string> = {}) =>
      spawnSync(process.execPath, ['--conditions=@lootsmith/source', '--import', 'tsx', cli, ...args], {
        encoding: 'utf8',
        env: { PATH: process.env.PATH, ...env },
        timeout: 30_000,
      });
    const help = run(['--help']);
    expect(help.status).toBe(0);
    for (const variable of Object.values(ENV_NAMES)) expect(help.stdout).toContain(variable);
    expect(run(['--port', '1']).status).toBe(2);
    const bad = run([], { LOOTSMITH_PORT: '99999' });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('LOOTSMITH_PORT');
  });
});

describe('operations', () => {
  it('serves /health, /metrics and the OpenAPI document', async () => {
    t = await bootWithFake();
    expect((await t.server.app.inject({ url: '/health' })).json()).toEqual({ status: 'ok' });
    const token = await t.token('ana');
    await t.server.app.inject({ url: '/api/v1/player/ana/inventory', headers: auth(token) });
    expect((await t.server.app.inject({ url: '/metrics' })).statusCode).toBe(401);
    expect((await t.server.app.inject({ url: '/metrics', headers: auth(token) })).statusCode).toBe(401);
    const metrics = await t.server.app.inject({ url: '/metrics', headers: auth(SERVER_KEY) });
    expect(metrics.body).toContain(
      'lootsmith_http_requests_total{method="GET",route="/api/v1/player/:player_id/inventory",status="200"} 1',
    );
    expect(metrics.body).toContain('# TYPE lootsmith_http_request_seconds histogram');
    expect(metrics.body).toContain(
      'lootsmith_http_request_seconds_bucket{le="+Inf",method="GET",route="/api/v1/player/:player_id/inventory"} 1',
    );
    expect(metrics.body).toContain(
      'lootsmith_http_request_seconds_count{method="GET",route="/api/v1/player/:player_id/inventory"} 1',
    );
    const doc = (await t.server.app.inject({ url: '/docs/json' })).json();
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/v1/generate/items',
        '/api/v1/crafting/combine',
        '/api/v1/player/{player_id}/create-item',
      ]),
    );
    expect(
      doc.paths['/api/v1/crafting/combine'].post.requestBody.content['application/json'].schema.required,
    ).toContain('ingredients');
  });

  it('keeps the upstream key, player tokens and the server key out of every log line', async () => {
    let logs = '';
    const stream = new Writable({
      write(chunk, _enc, done) {
        logs += chunk.toString();
        done();
      },
    });
    t = await bootWithFake({ LOOTSMITH_LOG_LEVEL: 'trace' }, stream);
    const token = await t.token('ana');
    await t.server.app.inject({
      method: 'POST',
      url: '/v1/generate/items',
      headers: auth(token),
      payload: { client_id: 'ana', items: [{}] },
    });
    t.fake.mode = 'forbidden';
    const refused = await t.server.app.inject({
      method: 'POST',
      url: '/v1/image/generations',
      headers: auth(SERVER_KEY),
      payload: { client_id: 'ana', prompt: 'a sword' },
    });
    expect(refused.statusCode).toBe(502);
    expect(refused.body).not.toContain(UPSTREAM_KEY);
    expect(logs).toContain('incoming request');
    expect(logs).not.toContain(UPSTREAM_KEY);
    expect(logs).not.toContain(token);
    expect(logs).not.toContain(SERVER_KEY);
  });
});

describe('forwarded /v1 endpoints', () => {
  it('forwards images with client_id from the token and counts the daily image budget', async () => {
    t = await bootWithFake();
    const token = await t.token('ana');
    const image = (payload: Record<string, unknown>) =>
      t?.server.app.inject({ method: 'POST', url: '/v1/image/generations', headers: auth(token), payload });
    const ok = await image({
      prompt: 'a frost axe, game item',
      width: 64,
      height: 64,
      client_id: 'someone-else',
    });
    expect(ok?.statusCode).toBe(200);
    expect(Buffer.from(ok?.json().image, 'base64').subarray(1, 4).toString()).toBe('PNG');
    const plain = await image({ prompt: 'a frost axe', generation_only: true });
    expect(plain?.headers['content-type']).toContain('text/plain');
    expect((await image({ prompt: 'x', width: 4096 }))?.statusCode).toBe(400);
    expect((await image({ prompt: '' }))?.json().error.message).toContain('body.prompt');
    await t.server.app.inject({
      method: 'PATCH',
      url: '/api/v1/player/ana',
      headers: auth(SERVER_KEY),
      payload: { daily_images: 2 },
    });
    const over = await image({ prompt: 'one too many' });
    expect(over?.statusCode).toBe(429);
    expect(over?.json().reason).toBe('budget_exceeded');
    expect(t.fake.calls.image).toBe(2);
  });

  it('forwards raw chat only when LOOTSMITH_ALLOW_CHAT=1', async () => {
    const chat = async (booted: Booted) =>
      booted.server.app.inject({
        method: 'POST',
        url: '/v1/chat/completions',
        headers: auth(await booted.token('ana')),
        payload: { messages: [{ role: 'user', content: 'Hello' }] },
      });
    t = await bootWithFake();
    const off = await chat(t);
    expect(off.statusCode).toBe(403);
    expect(off.json().error.code).toBe('chat_disabled');
    await t.close();
    t = await bootWithFake({ LOOTSMITH_ALLOW_CHAT: '1' });
    const on = await chat(t);
    expect(on.statusCode).toBe(200);
    expect(on.json().choices[0].message.role).toBe('assistant');
  });

  it('ignores an Idempotency-Key on the unauthenticated guest login', async () => {
    t = await bootWithFake();
    const res = await t.server.app.inject({
      method: 'POST',
      url: '/api/v1/session',
      headers: { 'idempotency-key': 'login-0001-abc' },
      payload: { player_id: 'ana' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().token).toBeTruthy();
  });

  it('does not issue guest tokens when dev login is off', async () => {
    t = await bootWithFake({ LOOTSMITH_DEV_LOGIN: '0' });
    const res = await t.server.app.inject({
      method: 'POST',
      url: '/api/v1/session',
      payload: { player_id: 'ana' },
    });
    expect(res.statusCode).toBe(403);
  });
});

describe('upstream client', () => {
  it('retries a 429 or 500 and then succeeds, and uses the fallback when the primary is down', async () => {
    t = await bootWithFake({ LOOTSMITH_UPSTREAM_RETRIES: '2' });
    const token = await t.token('ana');
    const image = () =>
      t?.server.app.inject({
        method: 'POST',
        url: '/v1/image/generations',
        headers: auth(token),
        payload: { prompt: 'a ruby ring' },
      });
    t.fake.script = ['rate429', 'error500'];
    expect((await image())?.statusCode).toBe(200);
    await t.close();

    const fallback = await startFakeUpstream();
    t = await bootWithFake({
      LOOTSMITH_FALLBACK_URL: fallback.url,
      LOOTSMITH_FALLBACK_KEY: 'fallback-key-123',
    });
    t.fake.mode = 'down';
    const token2 = await t.token('ana');
    const res = await t.server.app.inject({
      method: 'POST',
      url: '/v1/image/generations',
      headers: auth(token2),
      payload: { prompt: 'a ruby ring' },
    });
    expect(res.statusCode).toBe(200);
    expect(fallback.calls.image).toBe(1);
    expect(fallback.lastAuth).toBe('Bearer fallback-key-123');
    fallback.mode = 'down';
    const both = await t.server.app.inject({
      method: 'POST',
      url: '/v1/image/generations',
      headers: auth(token2),
      payload: { prompt: 'a sapphire ring' },
    });
    expect(both.statusCode).toBe(502);
    expect(both.json().error.code).toBe('upstream_unavailable');
    await fallback.close();
  });

  it('rate-limits forwarded images per player', async () => {
    t = await bootWithFake();
    const token = await t.token('ana');
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) {
      const res = await t.server.app.inject({
        method: 'POST',
        url: '/v1/image/generations',
        headers: auth(token),
        payload: { prompt: `icon ${i}`, width: 16, height: 16 },
      });
      statuses.push(res.statusCode);
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(30);
    expect(statuses.at(-1)).toBe(429);
  });
});

describe('graceful shutdown', () => {
  it('finishes in-flight requests on SIGTERM, then exits 0', async () => {
    const fake = await startFakeUpstream();
    fake.delayMs = 1_500;
    const server = await startServerProcess({
      LOOTSMITH_UPSTREAM_URL: fake.url,
      LOOTSMITH_UPSTREAM_KEY: UPSTREAM_KEY,
      LOOTSMITH_SERVER_KEY: SERVER_KEY,
      LOOTSMITH_DATA_DIR: mkdtempSync(join(tmpdir(), 'lootsmith-shutdown-')),
    });
    try {
      const inFlight = fetch(`${server.url}/v1/image/generations`, {
        method: 'POST',
        headers: { authorization: `Bearer ${SERVER_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ client_id: 'ana', prompt: 'a slow shield' }),
      });
      // SIGTERM once the request is in flight: the server has passed it on to the fake.
      await vi.waitFor(() => expect(fake.lastAuth).toBe(`Bearer ${UPSTREAM_KEY}`), { timeout: 5_000 });
      const exited = new Promise<number | null>((r) => server.child.once('exit', (code) => r(code)));
      server.child.kill('SIGTERM');
      const res = await inFlight;
      expect(res.status).toBe(200);
      expect(((await res.json()) as { image: string }).image).toBeTruthy();
      expect(await exited).toBe(0);
    } finally {
      await server.stop();
      await fake.close();
    }
  });

  it('does not wait on a connection opened ahead of a request that never comes', async () => {
    t = await bootWithFake();
    const url = new URL(await t.server.app.listen({ host: '127.0.0.1', port: 0 }));
    // What browsers and HTTP clients do: connect early, send later (or never).
    const idle = connect(Number(url.port), url.hostname);
    await new Promise((r) => idle.once('connect', r));
    const started = Date.now();
    await t.server.close();
    expect(Date.now() - started).toBeLessThan(2_000);
    idle.destroy();
  });
});
