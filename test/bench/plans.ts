import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import {
  INVENTORY,
  INVENTORY_VERSION,
  PLAYER,
  PostgresStore,
  TAKE_USAGE,
  TAKE_WINDOW,
} from '../../server/src/store/postgres.ts';
import { SqliteStore } from '../../server/src/store/sqlite.ts';
import { createTestSchema } from '../../server/test/support/postgres.ts';

export interface Plan {
  store: 'SQLite' | 'PostgreSQL';
  statement: string;
  plan: string;
}

const oneLine = (sql: string) => sql.replace(/\s+/g, ' ').trim();

/** `EXPLAIN QUERY PLAN` (SQLite) and `EXPLAIN` (PostgreSQL) of the statements on the hot paths. */
export async function queryPlans(): Promise<Plan[]> {
  const plans: Plan[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'lootsmith-bench-plans-'));
  const sqlite = new SqliteStore(dir);
  try {
    for (const source of Object.values(sqlite.hotStatements())) {
      const params = (source.match(/\?/g) ?? []).map(() => null);
      const rows = sqlite.db.prepare(`EXPLAIN QUERY PLAN ${source}`).all(...params) as Array<{
        detail: string;
      }>;
      plans.push({ store: 'SQLite', statement: oneLine(source), plan: rows.map((r) => r.detail).join('; ') });
    }
  } finally {
    await sqlite.close();
    rmSync(dir, { recursive: true, force: true });
  }
  const schema = await createTestSchema();
  if (!schema) return plans;
  try {
    await (await PostgresStore.connect(schema.url, { max: 1 })).close();
    const client = new pg.Client({ connectionString: schema.url });
    await client.connect();
    try {
      // The plans a table of real size gets: on an empty one the planner prefers a scan.
      await client.query('SET enable_seqscan = off');
      for (const text of [PLAYER, INVENTORY_VERSION, INVENTORY, TAKE_USAGE.images, TAKE_WINDOW]) {
        const params = [...new Set(text.match(/\$\d/g) ?? [])].map(() => '1');
        const { rows } = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${text}`, params);
        const steps = rows.map((r) => r['QUERY PLAN'].replace(/\s+\(cost=.*$/, '').replace(/^[\s->]+/, ''));
        plans.push({ store: 'PostgreSQL', statement: oneLine(text), plan: steps.join('; ') });
      }
    } finally {
      await client.end();
    }
  } finally {
    await schema.drop();
  }
  return plans;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const p of await queryPlans()) console.log(`${p.store}: ${p.statement}\n  → ${p.plan}`);
  process.exit(0);
}
