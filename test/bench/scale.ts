import { startFakeUpstream } from '@lootsmith/test-support/fake-upstream';
import { createTestSchema } from '@lootsmith/test-support/postgres';
import { type ServerProcess, startServerProcess } from '@lootsmith/test-support/process';
import { REDIS_URL } from '@lootsmith/test-support/redis';
import type { BenchRow } from './row.ts';

const SECRET = 'bench-player-secret-0123456789';
const DURATION_MS = 3_000;
const ROUNDS = 3;
const CONNECTIONS = 32;

/** Requests per second of a loop of inventory reads spread round-robin over the given instances. */
async function throughput(instances: ServerProcess[], tokens: Map<string, string>): Promise<number> {
  const players = [...tokens.keys()];
  const deadline = Date.now() + DURATION_MS;
  let done = 0;
  let failed = 0;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async (_, worker) => {
      for (let i = worker; Date.now() < deadline; i += CONNECTIONS) {
        const player = players[i % players.length] as string;
        const base = (instances[i % instances.length] as ServerProcess).url;
        const res = await fetch(`${base}/api/v1/player/${player}/inventory`, {
          headers: { authorization: `Bearer ${tokens.get(player)}` },
        });
        await res.arrayBuffer();
        if (res.ok) done++;
        else failed++;
      }
    }),
  );
  if (failed) throw new Error(`${failed} requests failed during the scale benchmark`);
  return done / (DURATION_MS / 1000);
}

/** Throughput with one and with two instances over one PostgreSQL and Redis (issue: scale-out). */
export async function benchScale(): Promise<BenchRow[]> {
  const schema = await createTestSchema();
  if (!schema) return [];
  const fake = await startFakeUpstream();
  const env = {
    LOOTSMITH_DATABASE_URL: schema.url,
    LOOTSMITH_REDIS_URL: REDIS_URL,
    LOOTSMITH_REDIS_PREFIX: `lootsmith-bench-${Date.now()}:`,
    LOOTSMITH_UPSTREAM_URL: fake.url,
    LOOTSMITH_UPSTREAM_KEY: 'bench-upstream-key',
    LOOTSMITH_PLAYER_SECRET: SECRET,
    LOOTSMITH_LOG_LEVEL: 'warn',
  };
  const servers: ServerProcess[] = [];
  try {
    servers.push(await startServerProcess({ ...env, LOOTSMITH_LOG_LEVEL: 'info' }));
    const tokens = new Map<string, string>();
    for (let i = 0; i < 50; i++) {
      const player = `scale-${i}`;
      const res = await fetch(`${servers[0]?.url}/api/v1/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ player_id: player }),
      });
      tokens.set(player, ((await res.json()) as { token: string }).token);
    }
    servers.push(await startServerProcess({ ...env, LOOTSMITH_LOG_LEVEL: 'info' }));
    // Interleaved rounds, so a change in the machine's load falls on both figures alike.
    const rounds = { one: [] as number[], two: [] as number[] };
    for (let round = 0; round < ROUNDS; round++) {
      rounds.one.push(await throughput(servers.slice(0, 1), tokens));
      rounds.two.push(await throughput(servers, tokens));
    }
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const one = mean(rounds.one);
    const two = mean(rounds.two);
    const how = `inventory reads, ${CONNECTIONS} connections, mean of ${ROUNDS} interleaved ${DURATION_MS / 1000} s rounds, PostgreSQL + Redis, load generator on the same 2-core machine`;
    return [
      { name: 'throughput, one instance', value: Math.round(one), unit: 'req/s', goal: '', ok: true, how },
      { name: 'throughput, two instances', value: Math.round(two), unit: 'req/s', goal: '', ok: true, how },
      {
        name: 'two instances ÷ one',
        value: Number((two / one).toFixed(2)),
        unit: '×',
        // No goal: on two shared cores the load generator, PostgreSQL, Redis and both instances compete,
        // so this shows what coordination costs here, not how a second machine would scale.
        goal: '',
        ok: true,
        how: 'ratio of the two figures above, measured in one run',
      },
    ];
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    await fake.close();
    await schema.drop();
  }
}
