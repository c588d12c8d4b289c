import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { paintImage } from '@lootsmith/engine';
import { checkImage, Secrets } from '@lootsmith/test-support/internals';
import { SqliteStore } from 'lootsmith';
import { type Call, inParallel, load, mean, Pool, percentile, round, timed } from './load.ts';
import { type StoreKind, startLootsmith, UPSTREAM_KEY } from './lootsmith.ts';
import { type Child, startChild } from './processes.ts';
import type { BenchRow } from './row.ts';

const quick = process.env.LOOTSMITH_BENCH_QUICK === '1';
const LATENCY_CALLS = quick ? 500 : 3_000;
const WARMUP_CALLS = quick ? 200 : 500;
const ROUNDS = quick ? 2 : 4;
const ROUND_MS = quick ? 1_500 : 3_000;
const CONNECTIONS = 32;
/** The image forward allows 30 calls a minute per player: each bench player makes at most this many. */
const CALLS_PER_PLAYER = 25;
const HOP_TOKEN = 'bench-hop-static-token-0123456789';
const IMAGE_BODY = JSON.stringify({ prompt: 'an iron sword, game item, fantasy', width: 64, height: 64 });
const INVENTORY_PLAYER = 'bench-inventory';

type Rate = Awaited<ReturnType<typeof load>>;
const meanRate = (rates: Rate[]) => mean(rates.map((r) => r.rate));
const meanCpu = (rates: Rate[]) => Math.round(mean(rates.map((r) => r.cpuUs)));
const cpuHow =
  'CPU time (user + system, from /proc) of the server process during the throughput rounds, divided by the requests it answered';

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
const imageCall = (authorization: string, body = IMAGE_BODY): Call => ({
  method: 'POST',
  path: '/v1/image/generations',
  headers: { authorization, 'content-type': 'application/json' },
  body,
});

interface Target {
  name: string;
  pid: number;
  store: StoreKind;
  pool: Pool;
  image: () => Call;
  inventory: Call;
}

/** Players with tokens, each used for at most CALLS_PER_PLAYER image calls (the per-minute limit). */
async function imageCalls(url: string, players: number): Promise<() => Call> {
  const tokens: string[] = [];
  await inParallel(
    Array.from({ length: players }, (_, i) => `bench-image-${i}`),
    16,
    async (player) => {
      const res = await fetch(`${url}/api/v1/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ player_id: player }),
      });
      tokens.push(((await res.json()) as { token: string }).token);
    },
  );
  let calls = 0;
  return () => {
    const token = tokens[Math.floor(calls++ / CALLS_PER_PLAYER)];
    if (!token) throw new Error(`the benchmark ran out of its ${players} players`);
    return imageCall(`Bearer ${token}`);
  };
}

async function lootsmithTarget(server: Child & { store: StoreKind }, players: number): Promise<Target> {
  const session = await fetch(`${server.url}/api/v1/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ player_id: INVENTORY_PLAYER }),
  });
  const { token } = (await session.json()) as { token: string };
  return {
    name: server.store === 'sqlite' ? 'Lootsmith (SQLite)' : 'Lootsmith (PostgreSQL + Redis)',
    pid: server.pid,
    store: server.store,
    pool: new Pool(server.url, { connections: CONNECTIONS }),
    image: await imageCalls(server.url, players),
    inventory: {
      method: 'GET',
      path: `/api/v1/player/${INVENTORY_PLAYER}/inventory`,
      headers: { authorization: `Bearer ${token}` },
    },
  };
}

/**
 * What the security checks of an upstream image cost, in process: the base64 round trip, the PNG check
 * (signature, every CRC, chunk order, inflate to exactly the header's rows, row filters) and both
 * secret checks, as `UpstreamClient.image` runs them. Median of many runs.
 */
function imageCheckRows(): BenchRow[] {
  const secrets = new Secrets([
    UPSTREAM_KEY,
    'bench-player-secret-0123456789',
    'bench-server-credential-0123456789',
  ]);
  return ([64, 768] as const).map((side) => {
    const png = paintImage({ prompt: 'an iron sword, game item, fantasy', width: side, height: side });
    const image = png.toString('base64');
    const times: number[] = [];
    const runs = side === 64 ? 5_000 : 300;
    // A warm-up of a tenth first: the median is the steady state, not the compiler's first passes.
    for (let i = 0; i < runs * 1.1; i++) {
      const started = performance.now();
      const bytes = Buffer.from(image, 'base64');
      if (bytes.toString('base64') !== image) throw new Error('not base64');
      checkImage(bytes);
      if (secrets.leaks(bytes) || secrets.leaks(image)) throw new Error('a secret');
      if (i >= runs / 10) times.push(performance.now() - started);
    }
    return {
      name: `image check, ${side}×${side} PNG (${png.length.toLocaleString('en')} bytes)`,
      value: Math.round(percentile(times, 50) * 1000),
      unit: 'µs',
      goal: '',
      ok: true,
      how: 'in process, median after a warm-up: base64 decoded and encoded back, checkImage (signature, every chunk CRC with zlib.crc32, chunk order, the image data inflated where it lies to exactly the rows its header implies, row filters), both secret checks; a painted icon of that size',
    };
  });
}

/**
 * What one reservation costs on SQLite when it has its commit to itself (one call at a time, as in the
 * latency figures; under load concurrent ones share a commit): the forward's image limit and daily
 * budget, checked and taken in one transaction before the upstream call. Median of many, in process.
 */
async function reservationRow(): Promise<BenchRow> {
  const dir = mkdtempSync(join(tmpdir(), 'lootsmith-bench-reserve-'));
  const store = new SqliteStore(dir);
  try {
    const players = 200;
    for (let p = 0; p < players; p++) await store.ensurePlayer(`reserve-${p}`, []);
    const times: number[] = [];
    for (let i = 0; i < 3_000; i++) {
      const playerId = `reserve-${Math.floor(i / CALLS_PER_PLAYER) % players}`;
      const started = performance.now();
      await store.reserve(
        {
          playerId,
          day: `bench-${Math.floor(i / (CALLS_PER_PLAYER * players))}`,
          usage: { kind: 'images', n: 1, limit: 'recorded' },
          windows: [{ key: `image:${playerId}`, windowMs: 60_000, max: 30, kept: true }],
        },
        Date.now(),
      );
      if (i >= 500) times.push(performance.now() - started);
    }
    return {
      name: 'reservation alone, SQLite',
      value: Math.round(percentile(times, 50) * 1000),
      unit: 'µs',
      goal: '',
      ok: true,
      how: 'in process, median of 2,500 after 500 warm-up, one at a time: Store.reserve of the image forward (the player’s limits read, the daily image budget and the per-minute window taken with one upsert each, BEGIN IMMEDIATE … COMMIT in WAL mode); concurrent reservations share one commit',
    };
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Lootsmith over SQLite (and over PostgreSQL + Redis when they run) against the bare key-holding hop
 * and a bare route, all child processes over one instant upstream, measured in interleaved rounds.
 */
export async function benchForward(): Promise<BenchRow[]> {
  const children: Child[] = [];
  const pools: Pool[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'lootsmith-bench-forward-'));
  try {
    const upstream = await startChild(here('./instant-upstream.ts'), {});
    children.push(upstream);
    const servers = [];
    for (const store of ['sqlite', 'postgres'] as const) {
      const server = await startLootsmith(upstream.url, store);
      if (server) servers.push(server);
      if (server) children.push(server);
    }
    // Enough players that none passes the image limit, whatever the throughput (up to ~6,000 req/s).
    const players = Math.ceil(
      (WARMUP_CALLS + LATENCY_CALLS + (ROUNDS + 1) * ROUND_MS * 6) / CALLS_PER_PLAYER,
    );
    const targets = [];
    for (const server of servers) targets.push(await lootsmithTarget(server, players));
    pools.push(...targets.map((t) => t.pool));
    const first = targets[0] as Target;
    // The bare route sends exactly the bytes Lootsmith sends for the same inventory.
    const inventoryJson = await (await first.pool.request(first.inventory)).body.text();
    const jsonFile = join(dir, 'inventory.json');
    writeFileSync(jsonFile, inventoryJson);
    const hop = await startChild(here('./bare-hop.ts'), {
      BARE_UPSTREAM_URL: upstream.url,
      BARE_UPSTREAM_KEY: UPSTREAM_KEY,
      BARE_TOKEN: HOP_TOKEN,
      BARE_JSON_FILE: jsonFile,
    });
    children.push(hop);
    const hopPool = new Pool(hop.url, { connections: CONNECTIONS });
    const direct = new Pool(upstream.url, { connections: 1 });
    pools.push(hopPool, direct);
    const directCall = imageCall(
      `Bearer ${UPSTREAM_KEY}`,
      JSON.stringify({ ...JSON.parse(IMAGE_BODY), client_id: 'bench' }),
    );
    const hopCall = imageCall(`Bearer ${HOP_TOKEN}`);
    const bareInventory: Call = { method: 'GET', path: '/inventory' };

    // Latency: one call at a time, direct, hop and each Lootsmith in turn, so drift falls on all alike.
    const latency = {
      direct: [] as number[],
      hop: [] as number[],
      lootsmith: targets.map(() => [] as number[]),
    };
    for (let i = 0; i < WARMUP_CALLS + LATENCY_CALLS; i++) {
      const counted = i >= WARMUP_CALLS;
      const d = await timed(direct, directCall);
      const h = await timed(hopPool, hopCall);
      if (counted) latency.direct.push(d);
      if (counted) latency.hop.push(h);
      for (const [k, t] of targets.entries()) {
        const ms = await timed(t.pool, t.image());
        if (counted) latency.lootsmith[k]?.push(ms);
      }
    }
    // Throughput: interleaved rounds of CONNECTIONS closed loops, after one warm-up round each.
    const rates = {
      hopImage: [] as Rate[],
      bareInventory: [] as Rate[],
      image: targets.map(() => [] as Rate[]),
      inventory: targets.map(() => [] as Rate[]),
    };
    for (let r = 0; r <= ROUNDS; r++) {
      const keep = <T>(list: T[] | undefined, value: T) => r > 0 && list?.push(value);
      keep(rates.hopImage, await load(hopPool, () => hopCall, CONNECTIONS, ROUND_MS, hop.pid));
      for (const [k, t] of targets.entries())
        keep(rates.image[k], await load(t.pool, t.image, CONNECTIONS, ROUND_MS, t.pid));
      keep(rates.bareInventory, await load(hopPool, () => bareInventory, CONNECTIONS, ROUND_MS, hop.pid));
      for (const [k, t] of targets.entries())
        keep(rates.inventory[k], await load(t.pool, () => t.inventory, CONNECTIONS, ROUND_MS, t.pid));
    }

    const rows: BenchRow[] = [];
    const row = (name: string, value: number, unit: string, how: string, goal = '', ok = true) =>
      rows.push({ name, value, unit, goal, ok, how });
    // A ratio, held against its goal when it has one (the goal is checked on the rounded figure shown).
    const ratio = (name: string, value: number, how: string, goal?: ['≤' | '≥', number]) => {
      const shown = round(value, 2);
      const ok = !goal || (goal[0] === '≤' ? shown <= goal[1] : shown >= goal[1]);
      row(name, shown, '×', how, goal ? `${goal[0]} ${goal[1]} ×` : '', ok);
    };
    const throughputRatioHow = 'ratio of the two throughputs, same run';
    const latencyHow = `${LATENCY_CALLS} POST /v1/image/generations (a 64×64 PNG of the embedded painter) one at a time over loopback keep-alive (undici) after ${WARMUP_CALLS} warm-up, straight to the instant upstream, through the bare hop and through each Lootsmith in turn; added = the p50 (p99) of each call's time less that of the direct call made just before it`;
    // Paired: each call less the direct call made just before it, so a stall of the machine that hits
    // one call is not subtracted from another.
    const added = (xs: number[], p: number) =>
      percentile(
        xs.map((ms, i) => ms - (latency.direct[i] as number)),
        p,
      );
    const hopAdded = { p50: added(latency.hop, 50), p99: added(latency.hop, 99) };
    row('upstream called directly, p50', round(percentile(latency.direct, 50)), 'ms', latencyHow);
    row('upstream called directly, p99', round(percentile(latency.direct, 99)), 'ms', latencyHow);
    row('bare hop: added latency, p50', round(hopAdded.p50), 'ms', latencyHow);
    row('bare hop: added latency, p99', round(hopAdded.p99), 'ms', latencyHow);
    const throughputHow = (what: string) =>
      `${what}, ${CONNECTIONS} keep-alive connections (undici), mean of ${ROUNDS} rounds of ${ROUND_MS / 1000} s interleaved with the other servers' (after a warm-up round); every server a process of its own, load generator and upstream on the same 2 cores`;
    const hopRate = meanRate(rates.hopImage);
    const bareRate = meanRate(rates.bareInventory);
    row(
      'bare hop: image forwards',
      Math.round(hopRate),
      'req/s',
      throughputHow('POST /v1/image/generations'),
    );
    row('bare hop: CPU per image forward', meanCpu(rates.hopImage), 'µs', cpuHow);
    row(
      'bare route: inventory JSON',
      Math.round(bareRate),
      'req/s',
      throughputHow(`GET of the same ${inventoryJson.length}-byte inventory JSON from a bare Fastify route`),
    );
    row('bare route: CPU per inventory read', meanCpu(rates.bareInventory), 'µs', cpuHow);
    for (const [k, t] of targets.entries()) {
      const goals = t.store === 'sqlite';
      const mine = latency.lootsmith[k] as number[];
      const p50 = added(mine, 50);
      const p99 = added(mine, 99);
      row(`${t.name}: added latency, p50`, round(p50), 'ms', latencyHow);
      row(`${t.name}: added latency, p99`, round(p99), 'ms', latencyHow);
      const ratioHow = 'ratio of the two added latencies above, same run';
      ratio(`${t.name} ÷ bare hop: added p50`, p50 / hopAdded.p50, ratioHow, goals ? ['≤', 1.5] : undefined);
      ratio(`${t.name} ÷ bare hop: added p99`, p99 / hopAdded.p99, ratioHow, goals ? ['≤', 2] : undefined);
      const served = (name: string, cpuName: string, what: string, measured: Rate[]) => {
        row(`${t.name}: ${name}`, Math.round(meanRate(measured)), 'req/s', throughputHow(what));
        row(`${t.name}: CPU per ${cpuName}`, meanCpu(measured), 'µs', cpuHow);
        return meanRate(measured);
      };
      const imageRate = served(
        'image forwards',
        'image forward',
        'POST /v1/image/generations, a new player every 25 calls',
        rates.image[k] as Rate[],
      );
      ratio(
        `${t.name} ÷ bare hop: image throughput`,
        imageRate / hopRate,
        throughputRatioHow,
        goals ? ['≥', 0.8] : undefined,
      );
      const inventoryRate = served(
        'GET inventory',
        'inventory read',
        'GET /api/v1/player/{id}/inventory with a player token',
        rates.inventory[k] as Rate[],
      );
      ratio(`${t.name} ÷ bare route: inventory`, inventoryRate / bareRate, throughputRatioHow, [
        '≥',
        goals ? 0.6 : 0.4,
      ]);
    }
    return [...rows, ...imageCheckRows(), await reservationRow()];
  } finally {
    await Promise.all(pools.map((p) => p.close()));
    for (const child of children.reverse()) await child.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.table(await benchForward());
  process.exit(0);
}
