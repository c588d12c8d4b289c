import { randomBytes } from 'node:crypto';
import { PLAYER_SECRET, SERVER_KEY, UPSTREAM_KEY } from './boot.ts';
import { type FakeUpstream, startFakeUpstream } from './fake-upstream.ts';
import { createTestSchema } from './postgres.ts';
import { type ServerProcess, startServerProcess } from './process.ts';
import { REDIS_URL, redisAnswers } from './redis.ts';

export interface TwoInstances {
  schema: { url: string; drop(): Promise<void> };
  fake: FakeUpstream;
  a: ServerProcess;
  b: ServerProcess;
  close(): Promise<void>;
}

/**
 * Two server processes over one fresh PostgreSQL schema and one Redis (under a prefix of their own),
 * with `env` added; null when PostgreSQL or Redis is not running (the suite then skips).
 */
export async function startTwoInstances(env: Record<string, string> = {}): Promise<TwoInstances | null> {
  const schema = (await redisAnswers()) ? await createTestSchema() : null;
  if (!schema) return null;
  const fake = await startFakeUpstream();
  const all = {
    LOOTSMITH_DATABASE_URL: schema.url,
    LOOTSMITH_REDIS_URL: REDIS_URL,
    LOOTSMITH_REDIS_PREFIX: `lootsmith-test-${randomBytes(4).toString('hex')}:`,
    LOOTSMITH_UPSTREAM_URL: fake.url,
    LOOTSMITH_UPSTREAM_KEY: UPSTREAM_KEY,
    LOOTSMITH_PLAYER_SECRET: PLAYER_SECRET,
    LOOTSMITH_SERVER_KEY: SERVER_KEY,
    ...env,
  };
  const [a, b] = await Promise.all([startServerProcess(all), startServerProcess(all)]);
  return {
    schema,
    fake,
    a,
    b,
    async close() {
      await Promise.all([a.stop(), b.stop()]);
      await fake.close();
      await schema.drop();
    },
  };
}
