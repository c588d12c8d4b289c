import { readFileSync } from 'node:fs';
import { Pool } from 'undici';

export type Call = Parameters<Pool['request']>[0];

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

export const round = (n: number, digits = 3) => Number(n.toFixed(digits));
export const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

async function send(pool: Pool, call: Call) {
  const res = await pool.request(call);
  const body = await res.body.text();
  if (res.statusCode !== 200)
    throw new Error(`${call.method} ${call.path}: ${res.statusCode} ${body.slice(0, 200)}`);
}

/** Milliseconds of one request, start to last byte. */
export async function timed(pool: Pool, call: Call): Promise<number> {
  const started = performance.now();
  await send(pool, call);
  return performance.now() - started;
}

/** Requests per second of `connections` closed loops for `ms`; `next` gives each request. */
export async function throughput(pool: Pool, next: () => Call, connections: number, ms: number) {
  return (await load(pool, next, connections, ms)).rate;
}

/** Closed loops as `throughput`, also telling the CPU the process `pid` used for each request (µs). */
export async function load(pool: Pool, next: () => Call, connections: number, ms: number, pid?: number) {
  const cpuBefore = pid ? cpuMs(pid) : 0;
  const deadline = Date.now() + ms;
  let done = 0;
  const began = performance.now();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (Date.now() < deadline) {
        await send(pool, next());
        done++;
      }
    }),
  );
  const rate = done / ((performance.now() - began) / 1000);
  return { rate, cpuUs: pid ? ((cpuMs(pid) - cpuBefore) * 1000) / done : 0 };
}

/** Runs `work` over `items` with at most `width` in flight. */
export async function inParallel<T>(items: T[], width: number, work: (item: T) => Promise<void>) {
  let at = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (at < items.length) await work(items[at++] as T);
    }),
  );
}

/** CPU time a process has used, user and system, in ms (Linux `/proc`; 0 elsewhere). */
function cpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}
const TICKS_PER_SECOND = 100;

export { Pool };
