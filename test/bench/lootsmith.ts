import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestSchema } from '@lootsmith/test-support/postgres';
import { REDIS_URL, redisAnswers } from '@lootsmith/test-support/redis';
import { type Child, ROOT, startChild } from './processes.ts';

export const PLAYER_SECRET = 'bench-player-secret-0123456789';
export const SERVER_KEY = 'bench-server-credential-0123456789';
export const UPSTREAM_KEY = 'bench-upstream-key-0123456789';

export type StoreKind = 'sqlite' | 'postgres';

/**
 * `lootsmith` as a user runs it (its CLI, info logging to a file), over SQLite in a fresh data
 * directory or over a fresh PostgreSQL schema and Redis prefix. `tree` runs another checkout's server.
 */
export async function startLootsmith(
  upstreamUrl: string,
  store: StoreKind,
  options: { nodeArgs?: string[]; tree?: string } = {},
): Promise<(Child & { store: StoreKind }) | null> {
  const dataDir = mkdtempSync(join(tmpdir(), 'lootsmith-bench-data-'));
  const schema = store === 'postgres' && (await redisAnswers()) ? await createTestSchema() : null;
  if (store === 'postgres' && !schema) return null;
  const env: Record<string, string> = {
    LOOTSMITH_UPSTREAM_URL: upstreamUrl,
    LOOTSMITH_UPSTREAM_KEY: UPSTREAM_KEY,
    LOOTSMITH_SERVER_KEY: SERVER_KEY,
    LOOTSMITH_PLAYER_SECRET: PLAYER_SECRET,
    LOOTSMITH_DATA_DIR: dataDir,
    LOOTSMITH_PORT: '0',
    LOOTSMITH_LOG_LEVEL: 'info',
    ...(schema
      ? {
          LOOTSMITH_DATABASE_URL: schema.url,
          LOOTSMITH_REDIS_URL: REDIS_URL,
          LOOTSMITH_REDIS_PREFIX: `lootsmith-bench-${process.pid}-${Date.now()}:`,
        }
      : {}),
  };
  const child = await startChild(
    join(options.tree ?? ROOT, 'server/src/cli.ts'),
    env,
    options.nodeArgs ?? [],
  ).catch(async (err) => {
    await schema?.drop();
    throw err;
  });
  return {
    ...child,
    store,
    async stop() {
      await child.stop();
      await schema?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
