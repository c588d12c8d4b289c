import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { Item } from '@lootsmith/protocol';
import Fastify from 'fastify';
import { Pool } from 'undici';
import { loadConfig } from '../../server/src/config.ts';
import { type RunningServer, startServer } from '../../server/src/server.ts';
import { SqliteStore } from '../../server/src/store/sqlite.ts';
import { TINY_PNG } from '../../server/test/support/fake-upstream.ts';
import type { BenchRow } from './row.ts';

const PLAYER_SECRET = 'bench-player-secret-0123456789';
const SERVER_KEY = 'bench-server-credential-0123456789';
const UPSTREAM_KEY = 'bench-upstream-key-0123456789';

const quick = process.env.LOOTSMITH_BENCH_QUICK === '1';
const LATENCY_CALLS = quick ? 500 : 4_000;
const THROUGHPUT_MS = quick ? 1_500 : 5_000;
const CONNECTIONS = 32;
const PLAYERS = quick ? 1_000 : 10_000;
const ITEMS_PER_PLAYER = 100;
const CRAFTS = quick ? 500 : 3_000;

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}
const round = (n: number, digits = 3) => Number(n.toFixed(digits));

/** A `/v1` service that answers at once: the best case, so what is left is the server's own cost. */
async function fastUpstream(): Promise<{ url: string; server: Server }> {
  const image = JSON.stringify({ image: TINY_PNG.toString('base64') });
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(image) });
      res.end(image);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

const discard = () =>
  new Writable({
    write(_chunk, _enc, done) {
      done();
    },
  });

async function start(upstreamUrl: string, dataDir: string): Promise<RunningServer> {
  return startServer(
    loadConfig({
      LOOTSMITH_UPSTREAM_URL: upstreamUrl,
      LOOTSMITH_UPSTREAM_KEY: UPSTREAM_KEY,
      LOOTSMITH_SERVER_KEY: SERVER_KEY,
      LOOTSMITH_PLAYER_SECRET: PLAYER_SECRET,
      LOOTSMITH_DATA_DIR: dataDir,
      LOOTSMITH_PORT: '0',
      // The default level: every request is logged (to a sink here rather than a terminal).
      LOOTSMITH_LOG_LEVEL: 'info',
    }),
    { listen: true, logStream: discard() },
  );
}

async function timed(pool: Pool, options: Parameters<Pool['request']>[0]) {
  const started = performance.now();
  const res = await pool.request(options);
  await res.body.arrayBuffer();
  if (res.statusCode !== 200) throw new Error(`${options.path}: status ${res.statusCode}`);
  return performance.now() - started;
}

/** Requests per second of `CONNECTIONS` closed loops for `THROUGHPUT_MS`. */
async function throughput(pool: Pool, options: Parameters<Pool['request']>[0]) {
  const deadline = Date.now() + THROUGHPUT_MS;
  let done = 0;
  const began = performance.now();
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (Date.now() < deadline) {
        const res = await pool.request(options);
        await res.body.arrayBuffer();
        if (res.statusCode !== 200) throw new Error(`${options.path}: status ${res.statusCode}`);
        done++;
      }
    }),
  );
  return done / ((performance.now() - began) / 1000);
}

/** Added latency of the image forward over calling the same upstream directly, interleaved call by call. */
async function addedLatency(): Promise<BenchRow[]> {
  const upstream = await fastUpstream();
  const dataDir = mkdtempSync(join(tmpdir(), 'lootsmith-bench-'));
  const server = await start(upstream.url, dataDir);
  const direct = new Pool(upstream.url, { connections: 1 });
  const proxied = new Pool(server.url, { connections: 1 });
  try {
    // The image route allows 30 calls a minute per player: spread the calls over enough players.
    const tokens: string[] = [];
    for (let i = 0; i < Math.ceil((LATENCY_CALLS + 300) / 25); i++) {
      const session = await server.app.inject({
        method: 'POST',
        url: '/api/v1/session',
        payload: { player_id: `bench-latency-${i}` },
      });
      tokens.push(session.json().token as string);
    }
    const body = { prompt: 'an iron sword, game item, fantasy', width: 64, height: 64 };
    const upstreamCall = {
      method: 'POST' as const,
      path: '/v1/image/generations',
      headers: { authorization: `Bearer ${UPSTREAM_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ...body, client_id: 'bench-latency' }),
    };
    let calls = 0;
    const serverCall = () => ({
      method: 'POST' as const,
      path: '/v1/image/generations',
      headers: {
        authorization: `Bearer ${tokens[Math.floor(calls++ / 25)]}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify(body),
    });
    for (let i = 0; i < 300; i++) {
      await timed(direct, upstreamCall);
      await timed(proxied, serverCall());
    }
    const a: number[] = [];
    const b: number[] = [];
    for (let i = 0; i < LATENCY_CALLS; i++) {
      a.push(await timed(direct, upstreamCall));
      b.push(await timed(proxied, serverCall()));
    }
    const how = `${LATENCY_CALLS} POST /v1/image/generations (64×64) one at a time over loopback keep-alive (undici), each through the server (player token, daily-budget count in SQLite, info logging) interleaved with the same call straight to an instant upstream`;
    const p50 = percentile(b, 50) - percentile(a, 50);
    const p99 = percentile(b, 99) - percentile(a, 99);
    return [
      {
        name: 'upstream called directly, p50',
        value: round(percentile(a, 50)),
        unit: 'ms',
        goal: '',
        ok: true,
        how,
      },
      {
        name: 'through the server, p50',
        value: round(percentile(b, 50)),
        unit: 'ms',
        goal: '',
        ok: true,
        how,
      },
      { name: 'added latency, p50', value: round(p50), unit: 'ms', goal: '< 1 ms', ok: p50 < 1, how },
      {
        name: 'upstream called directly, p99',
        value: round(percentile(a, 99)),
        unit: 'ms',
        goal: '',
        ok: true,
        how,
      },
      {
        name: 'through the server, p99',
        value: round(percentile(b, 99)),
        unit: 'ms',
        goal: '',
        ok: true,
        how,
      },
      { name: 'added latency, p99', value: round(p99), unit: 'ms', goal: '< 5 ms', ok: p99 < 5, how },
      {
        name: 'through the server ÷ direct, p50',
        value: round(percentile(b, 50) / percentile(a, 50), 2),
        unit: '×',
        goal: '',
        ok: true,
        how: 'ratio of the two p50 figures above, same run',
      },
    ];
  } finally {
    await direct.close();
    await proxied.close();
    await server.close();
    upstream.server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Inventory reads through the server against a bare Fastify route sending the same bytes. */
async function routeThroughput(): Promise<BenchRow[]> {
  const upstream = await fastUpstream();
  const dataDir = mkdtempSync(join(tmpdir(), 'lootsmith-bench-'));
  const server = await start(upstream.url, dataDir);
  const bare = Fastify({ logger: false });
  try {
    const session = await server.app.inject({
      method: 'POST',
      url: '/api/v1/session',
      payload: { player_id: 'bench-throughput' },
    });
    const token = session.json().token as string;
    const inventory = await server.app.inject({
      url: '/api/v1/player/bench-throughput/inventory',
      headers: { authorization: `Bearer ${token}` },
    });
    const payload = inventory.body;
    bare.get('/inventory', async (_req, reply) => reply.type('application/json').send(payload));
    await bare.listen({ host: '127.0.0.1', port: 0 });
    const bareUrl = `http://127.0.0.1:${(bare.server.address() as AddressInfo).port}`;
    const serverPool = new Pool(server.url, { connections: CONNECTIONS });
    const barePool = new Pool(bareUrl, { connections: CONNECTIONS });
    try {
      const serverCall = {
        method: 'GET' as const,
        path: '/api/v1/player/bench-throughput/inventory',
        headers: { authorization: `Bearer ${token}` },
      };
      const bareCall = { method: 'GET' as const, path: '/inventory' };
      await throughput(barePool, bareCall);
      await throughput(serverPool, serverCall);
      const bareRps = await throughput(barePool, bareCall);
      const serverRps = await throughput(serverPool, serverCall);
      const how = `${CONNECTIONS} keep-alive connections for ${THROUGHPUT_MS / 1000} s (undici), load generator in the same process on the same machine; the bare route sends the same ${payload.length}-byte inventory JSON`;
      return [
        { name: 'bare Fastify route', value: Math.round(bareRps), unit: 'req/s', goal: '', ok: true, how },
        {
          name: 'server: GET inventory (token, SQLite read, info logging)',
          value: Math.round(serverRps),
          unit: 'req/s',
          goal: '',
          ok: true,
          how,
        },
        {
          name: 'server ÷ bare Fastify',
          value: round(serverRps / bareRps, 2),
          unit: '×',
          goal: '',
          ok: true,
          how: 'ratio of the two throughputs above, same run',
        },
      ];
    } finally {
      await serverPool.close();
      await barePool.close();
    }
  } finally {
    await bare.close();
    await server.close();
    upstream.server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function sampleItem(id: string, owner: string): Item {
  return {
    id,
    name: `Bench Blade ${id.slice(-6)}`,
    type: 'WEAPON',
    subtype: 'sword',
    rarity: 'COMMON',
    level: 3,
    element: 'none',
    material: 'iron',
    description: `A blade of ${owner}.`,
    lore: 'Forged for a benchmark.',
    stats: [{ name: 'attack', value: 9 }],
    affixes: [],
    value: 10,
    created_at: '2026-01-01T00:00:00.000Z',
  } as unknown as Item;
}

/** Seeds players × items in one transaction: 14 material stacks and the rest unique crafted items. */
function seed(store: SqliteStore) {
  const { db } = store;
  const player = db.prepare('INSERT INTO players (id, crafting_xp, created_at) VALUES (?, 100, ?)');
  const item = db.prepare('INSERT INTO items (id, owner, name, data, created_at) VALUES (?, ?, ?, ?, ?)');
  const stack = db.prepare('INSERT INTO inventory (player_id, item_id, quantity) VALUES (?, ?, ?)');
  const ledger = db.prepare(
    'INSERT INTO ledger (player_id, item_id, delta, reason, created_at) VALUES (?, ?, ?, ?, ?)',
  );
  const materials = [
    'iron_ore',
    'copper_ore',
    'oak_wood',
    'leather_scraps',
    'bone_shard',
    'healing_herb',
    'gold_nugget',
    'ember_essence',
    'frost_shard',
    'venom_gland',
    'shadow_silk',
    'holy_water',
    'storm_crystal',
    'arcane_dust',
  ];
  const at = '2026-01-01T00:00:00.000Z';
  db.transaction(() => {
    for (let p = 0; p < PLAYERS; p++) {
      const id = `bench-${p}`;
      player.run(id, at);
      for (const m of materials) {
        stack.run(id, m, 1_000);
        ledger.run(id, m, 1_000, 'starting', at);
      }
      for (let i = materials.length; i < ITEMS_PER_PLAYER; i++) {
        const itemId = `itm_bench_${p}_${i}`;
        const data = sampleItem(itemId, id);
        item.run(itemId, id, data.name, JSON.stringify(data), at);
        stack.run(id, itemId, 1);
        ledger.run(id, itemId, 1, 'loot', at);
      }
    }
  })();
  db.pragma('wal_checkpoint(TRUNCATE)');
}

/** One crafting transaction (spend, store the item, grant it, recipe, xp) on a store of 10,000 × 100. */
async function craftingTransaction(): Promise<BenchRow[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'lootsmith-bench-store-'));
  const store = new SqliteStore(dataDir);
  try {
    const seeding = performance.now();
    seed(store);
    const seeded = (performance.now() - seeding) / 1000;
    const craftTimes = async (tag: string) => {
      const times: number[] = [];
      for (let i = 0; i < CRAFTS + 200; i++) {
        const playerId = `bench-${Math.floor(Math.random() * PLAYERS)}`;
        const item = sampleItem(`itm_crafted_${tag}_${i}`, playerId);
        const started = performance.now();
        await store.craft({
          playerId,
          consume: [
            { item_id: 'iron_ore', quantity: 1 },
            { item_id: 'oak_wood', quantity: 1 },
          ],
          item,
          recipe: {
            key: 'bench-recipe',
            ingredients: [
              { item_id: 'iron_ore', quantity: 1 },
              { item_id: 'oak_wood', quantity: 1 },
            ],
            station: null,
            tool: null,
          },
          xp: 15,
          discoveryXp: 35,
          reason: 'combine',
        });
        if (i >= 200) times.push(performance.now() - started);
      }
      return times;
    };
    const times = await craftTimes('default');
    const rows = (store.db.prepare('SELECT COUNT(*) AS n FROM inventory').get() as { n: number }).n;
    const how = `SqliteStore.craft (one WAL transaction: check and spend 2 stacks, insert the item, grant it, recipe and discovery, xp; WAL checkpoints in the store's worker thread) for a random player, ${CRAFTS} times after 200 warm-up, on a store of ${PLAYERS.toLocaleString('en')} players × ${ITEMS_PER_PLAYER} items (${rows.toLocaleString('en')} inventory rows, seeded in ${seeded.toFixed(1)} s)`;
    const p99 = percentile(times, 99);
    return [
      {
        name: 'crafting transaction, p50',
        value: round(percentile(times, 50)),
        unit: 'ms',
        goal: '',
        ok: true,
        how,
      },
      { name: 'crafting transaction, p99', value: round(p99), unit: 'ms', goal: '< 5 ms', ok: p99 < 5, how },
    ];
  } finally {
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The server's figures: added latency, throughput against bare Fastify, crafting at 10,000 players. */
export async function benchServer(): Promise<BenchRow[]> {
  return [...(await addedLatency()), ...(await routeThroughput()), ...(await craftingTransaction())];
}

if (import.meta.url === `file://${process.argv[1]}`) console.table(await benchServer());
