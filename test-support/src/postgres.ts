import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const TEST_DATABASE_URL =
  process.env.LOOTSMITH_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** A fresh schema in the test database, so suites never see each other's rows. */
export async function createTestSchema(): Promise<{ url: string; drop(): Promise<void> } | null> {
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL, connectionTimeoutMillis: 3000 });
  try {
    await admin.connect();
  } catch (err) {
    // CI starts PostgreSQL (.ci/run); elsewhere a missing server skips these suites visibly.
    if (process.env.CI)
      throw new Error(`PostgreSQL is not reachable at ${TEST_DATABASE_URL}: ${(err as Error).message}`);
    return null;
  }
  const schema = `lootsmith_test_${randomBytes(6).toString('hex')}`;
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const url = new URL(TEST_DATABASE_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await c.connect();
      await c.query(`DROP SCHEMA ${schema} CASCADE`);
      await c.end();
    },
  };
}
