import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  INVENTORY,
  INVENTORY_VERSIONS,
  PLAYER,
  PostgresStore,
  plan,
  reserveGroupQuery,
} from '@lootsmith/test-support/internals';
import { createTestSchema } from '@lootsmith/test-support/postgres';
import { SqliteStore } from 'lootsmith';
import pg from 'pg';

export interface Plan {
  store: 'SQLite' | 'PostgreSQL';
  statement: string;
  plan: string;
}

const oneLine = (sql: string) => sql.replace(/\s+/g, ' ').trim();
interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Conflict Arbiter Indexes'?: string[];
  Plans?: PlanNode[];
}

/** A JSON plan as its nodes, outermost first: `Index Scan using players_pkey on players`. */
function nodes(plan: PlanNode): string[] {
  const index = plan['Index Name'] ? ` using ${plan['Index Name']}` : '';
  const on = plan['Relation Name'] ? ` on ${plan['Relation Name']}` : '';
  const arbiter = plan['Conflict Arbiter Indexes']
    ? ` (conflict arbiter ${plan['Conflict Arbiter Indexes'].join(', ')})`
    : '';
  return [`${plan['Node Type']}${index}${on}${arbiter}`, ...(plan.Plans ?? []).flatMap(nodes)];
}

const steps = (lines: string[]) =>
  lines
    .map((l) => l.replace(/\s+\(cost=.*$/, '').replace(/^[\s->]+/, ''))
    .filter(Boolean)
    .join('; ');

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
      for (const text of [PLAYER, INVENTORY_VERSIONS, INVENTORY]) {
        // Every parameter is a player id, or a list of them.
        const params = [...new Set(text.match(/\$\d/g) ?? [])].map(() =>
          text.includes('ANY(') ? '{1}' : '1',
        );
        const { rows } = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${text}`, params);
        plans.push({
          store: 'PostgreSQL',
          statement: oneLine(text),
          plan: steps(rows.map((r) => r['QUERY PLAN'])),
        });
      }
      // The reservation's takes run inside lootsmith_reserve_group: auto_explain reports each one's plan.
      const explained: string[] = [];
      client.on('notice', (notice) => explained.push(notice.message ?? ''));
      await client.query("LOAD 'auto_explain'");
      await client.query('SET auto_explain.log_min_duration = 0');
      await client.query('SET auto_explain.log_nested_statements = on');
      await client.query("SET auto_explain.log_format = 'json'");
      await client.query('SET client_min_messages = log');
      await client.query('BEGIN');
      await client.query("INSERT INTO players (id, created_at) VALUES ('plan', 'now')");
      const { text, values } = reserveGroupQuery([
        plan(
          {
            playerId: 'plan',
            day: 'day',
            usage: { kind: 'images', n: 1, limit: 'recorded' },
            windows: [{ key: 'image:plan', windowMs: 60_000, max: 30 }],
            grant: { id: 'grant', playerId: 'plan', expiresAt: 1 },
          },
          0,
        ),
      ]);
      await client.query(text, values);
      await client.query('ROLLBACK');
      await client.query('SET client_min_messages = notice');
      for (const message of explained) {
        const json = message.slice(message.indexOf('{'));
        const { 'Query Text': text, Plan: plan } = JSON.parse(json) as {
          'Query Text': string;
          Plan: PlanNode;
        };
        // Left out: the calls themselves, the setup, and the unpacking of the group's JSON.
        if (/lootsmith_reserve|INSERT INTO players|jsonb_array_elements/.test(text)) continue;
        plans.push({
          store: 'PostgreSQL',
          statement: `lootsmith_reserve_group: ${oneLine(text)}`,
          plan: nodes(plan).join('; '),
        });
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
