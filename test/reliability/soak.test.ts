import { mkdirSync, writeFileSync } from 'node:fs';
import v8 from 'node:v8';
import vm from 'node:vm';
import { Pool } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auth, boot, checkLedger, FULL, type Harness, percentile } from './support/harness.ts';

// Simulated players dropping loot, crafting and loading icons over loopback for a bounded time:
// no unexpected errors, p99 latency recorded, and no heap growth trend over the second half.
const SECONDS = Number(process.env.LOOTSMITH_SOAK_SECONDS ?? (FULL ? 60 : 15));
// Untimed warm-up first: JIT, pools and caches fill here, not in the measured window.
const WARMUP_SECONDS = FULL ? 10 : 6;
const PLAYERS = FULL ? 24 : 12;
const SAMPLE_MS = 200;

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

let t: Harness;
let pool: Pool;
beforeAll(async () => {
  // A soak measures errors, latency and the heap, not deadlines: the harness's 1 s upstream deadline
  // (there for the fault suites) would turn a busy machine's slow answer into a 502.
  t = await boot({
    listen: true,
    logLevel: 'warn',
    unlimitedDrops: true,
    env: { LOOTSMITH_UPSTREAM_TIMEOUT_MS: '15000' },
  });
  pool = new Pool(t.server.url, { connections: PLAYERS * 2 });
});
afterAll(async () => {
  await pool?.close();
  await t?.close();
});

const latencies = new Map<string, number[]>();
const unexpected: string[] = [];
let requests = 0;
let measuring = false;

async function send(route: string, method: 'GET' | 'POST', path: string, token: string, body?: unknown) {
  const started = performance.now();
  if (measuring) requests++;
  const res = await pool.request({
    method,
    path,
    headers: { ...auth(token), ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const payload = Buffer.from(await res.body.arrayBuffer());
  const ms = performance.now() - started;
  if (res.statusCode !== 200 && unexpected.length < 50)
    unexpected.push(`${method} ${path} → ${res.statusCode} ${payload.toString().slice(0, 200)}`);
  if (!measuring) return payload;
  const list = latencies.get(route) ?? [];
  latencies.set(route, list);
  // Keep a bounded reservoir so the test itself does not grow without end.
  if (list.length < 20_000) list.push(ms);
  else list[Math.floor(Math.random() * list.length)] = ms;
  return payload;
}

async function play(i: number, until: number) {
  const id = `soak-${i}`;
  const token = await t.token(id);
  await t.grant(id, { iron_ore: 999, oak_wood: 999 });
  for (let n = 0; Date.now() < until; n++) {
    const drop = JSON.parse(
      (
        await send('drop', 'POST', '/v1/generate/items', token, {
          client_id: id,
          generation_context: { enemy: n % 2 ? 'skeleton' : 'fire_imp', player_level: 1 + (n % 20) },
          items: [{ type: 'WEAPON' }, { type: 'MATERIAL' }],
        })
      ).toString(),
    ) as { items: Array<{ icon?: { url: string } }> };
    for (const item of drop.items ?? []) if (item.icon) await send('icon', 'GET', item.icon.url, token);
    await send('combine', 'POST', '/api/v1/crafting/combine', token, {
      player_id: id,
      crafting_station: 'workbench',
      ingredients: [
        { item_id: 'iron_ore', quantity: 1 },
        { item_id: 'oak_wood', quantity: 1 },
      ],
    });
    if (n % 5 === 0) await send('inventory', 'GET', `/api/v1/player/${id}/inventory`, token);
    // Grants keep the materials coming, as a game server would between fights.
    if (n % 50 === 49) await t.grant(id, { iron_ore: 60, oak_wood: 60 });
  }
}

/** Least-squares slope of y over x. */
function slope(points: Array<[number, number]>) {
  const n = points.length;
  const mx = points.reduce((a, [x]) => a + x, 0) / n;
  const my = points.reduce((a, [, y]) => a + y, 0) / n;
  const num = points.reduce((a, [x, y]) => a + (x - mx) * (y - my), 0);
  const den = points.reduce((a, [x]) => a + (x - mx) ** 2, 0);
  return num / den;
}

describe(`soak: ${PLAYERS} players for ${WARMUP_SECONDS} + ${SECONDS} s`, () => {
  it('serves every request, records p99 and keeps the heap steady', async () => {
    const until = Date.now() + (WARMUP_SECONDS + SECONDS) * 1000;
    const players = Array.from({ length: PLAYERS }, (_, i) => play(i, until));
    await new Promise((r) => setTimeout(r, WARMUP_SECONDS * 1000));
    measuring = true;
    const began = Date.now();
    // [seconds, requests so far, heap MB after a full GC]
    const samples: Array<[number, number, number]> = [];
    const sampler = (async () => {
      while (Date.now() < until) {
        await new Promise((r) => setTimeout(r, SAMPLE_MS));
        gc();
        samples.push([(Date.now() - began) / 1000, requests, process.memoryUsage().heapUsed / 2 ** 20]);
      }
    })();
    await Promise.all([...players, sampler]);

    expect(unexpected).toEqual([]);
    const report = Object.fromEntries(
      [...latencies].map(([route, ms]) => [
        route,
        { count: ms.length, p50: +percentile(ms, 50).toFixed(2), p99: +percentile(ms, 99).toFixed(2) },
      ]),
    );
    const second = samples.filter(([s]) => s >= SECONDS / 2);
    const mbPerMinute = slope(second.map(([s, , mb]) => [s, mb])) * 60;
    // Growth per request, not per second, so the bound does not depend on how busy the machine is.
    const bytesPerRequest = slope(second.map(([, n, mb]) => [n, mb])) * 2 ** 20;
    const heap = second.map(([, , mb]) => mb);
    const summary = {
      warmup_seconds: WARMUP_SECONDS,
      seconds: SECONDS,
      players: PLAYERS,
      requests,
      rps: Math.round(requests / SECONDS),
      latency_ms: report,
      heap_mb: {
        min: +Math.min(...heap).toFixed(2),
        max: +Math.max(...heap).toFixed(2),
        second_half_trend_mb_per_min: +mbPerMinute.toFixed(3),
        second_half_bytes_per_request: Math.round(bytesPerRequest),
      },
    };
    console.info(`soak: ${JSON.stringify(summary)}`);
    mkdirSync('test-results', { recursive: true });
    writeFileSync('test-results/reliability-soak.json', `${JSON.stringify(summary, null, 2)}\n`);

    expect(requests).toBeGreaterThan(PLAYERS * 10);
    // A leak shows as a steady climb after warm-up. 15 s gives 30 or more samples over the second half
    // (fewer when forced GCs are slow on a busy machine), enough for the slope. Holding anything
    // request-sized (a body, a request, a closure over a socket) costs several kilobytes per request; 2 KB
    // is above the noise of a few hundred requests on a busy machine (1,070 bytes seen once at 19 requests/s). The icon prompt index's growth per generated item (a few hundred bytes per
    // request in this mix) is measured exactly, and pinned, in memory.test.ts.
    expect(second.length).toBeGreaterThanOrEqual(12);
    expect(bytesPerRequest).toBeLessThan(2048);
    expect(checkLedger(t.db)).toEqual({ unbalanced: [], duplicated: [], negative: 0 });
    expect(t.logs.leaks).toEqual([]);
  });
});
