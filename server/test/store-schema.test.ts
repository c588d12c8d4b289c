import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestSchema } from '@lootsmith/test-support/postgres';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { migrationsFor } from '../src/store/migrations.ts';
import { PostgresStore } from '../src/store/postgres.ts';
import { SqliteStore } from '../src/store/sqlite.ts';
import type { Store } from '../src/store/store.ts';

/** The schema users' databases have before stacks kept their order: the first six migrations. */
const BEFORE_ORDER = 6;

/**
 * A player whose stacks were stored in one order (a, c, b) and received in another (b, a, c): the
 * ledger says which came first.
 */
const OLD_ROWS = `
  INSERT INTO players (id, created_at) VALUES ('old', 'then');
  INSERT INTO ledger (player_id, item_id, delta, reason, created_at) VALUES
    ('old', 'b', 2, 'starting', 'then'), ('old', 'a', 1, 'loot', 'then'), ('old', 'c', 5, 'loot', 'then'),
    ('old', 'a', 1, 'loot', 'then');
  INSERT INTO inventory (player_id, item_id, quantity) VALUES ('old', 'a', 2), ('old', 'c', 5), ('old', 'b', 2);
`;

/** Queries by item alone, as the ledger check makes them; each must find its rows through an index. */
const BY_ITEM = [
  ['ledger', "SELECT COUNT(*) FROM ledger WHERE item_id = 'a' AND delta > 0"],
  ['inventory', "SELECT SUM(quantity) FROM inventory WHERE item_id = 'a'"],
] as const;

interface Backend {
  name: string;
  /**
   * A database at the schema of the first `version` migrations (before stack order unless given),
   * holding `rows` (OLD_ROWS unless given); null when it cannot run here.
   */
  old(
    version?: number,
    rows?: string,
  ): Promise<{
    open(): Promise<Store>;
    explain(sql: string): Promise<string>;
    drop(): Promise<void>;
  } | null>;
}

const backends: Backend[] = [
  {
    name: 'SQLite',
    async old(version = BEFORE_ORDER, rows = OLD_ROWS) {
      const dir = mkdtempSync(join(tmpdir(), 'lootsmith-schema-'));
      const file = new Database(join(dir, 'lootsmith.db'));
      file.exec('CREATE TABLE schema_version (version INTEGER NOT NULL)');
      for (const sql of migrationsFor('sqlite', 0).slice(0, version)) file.exec(sql);
      file.exec(`INSERT INTO schema_version (version) VALUES (${version}); ${rows}`);
      file.close();
      let store: SqliteStore | undefined;
      return {
        async open() {
          store = new SqliteStore(dir);
          return store;
        },
        async explain(sql) {
          const rows = store?.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as Array<{ detail: string }>;
          return rows.map((r) => r.detail).join('; ');
        },
        async drop() {
          rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  },
  {
    name: 'PostgreSQL',
    async old(version = BEFORE_ORDER, rows = OLD_ROWS) {
      const schema = await createTestSchema();
      if (!schema) return null;
      const client = new pg.Client({ connectionString: schema.url });
      await client.connect();
      await client.query('CREATE TABLE schema_version (version INTEGER NOT NULL)');
      for (const sql of migrationsFor('postgres', 0).slice(0, version)) await client.query(sql);
      await client.query(`INSERT INTO schema_version (version) VALUES (${version}); ${rows}`);
      return {
        open: () => PostgresStore.connect(schema.url, { max: 2 }),
        async explain(sql) {
          // The plan a table of real size gets: on a table this small the planner prefers a scan.
          await client.query('SET enable_seqscan = off');
          const { rows } = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`);
          return rows.map((r) => r['QUERY PLAN'].trim()).join('; ');
        },
        async drop() {
          await client.end();
          await schema.drop();
        },
      };
    },
  },
];

describe.each(backends)('$name schema', (backend) => {
  const opened: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const close of opened.splice(0).reverse()) await close();
  });

  it('upgrades a stored database: stacks take the order their items were first received', async ({
    skip,
  }) => {
    const old = await backend.old();
    if (!old) return skip();
    opened.push(() => old.drop());
    const store = await old.open();
    opened.push(() => store.close());
    expect(await store.stacks('old')).toEqual([
      { item_id: 'b', quantity: 2 },
      { item_id: 'a', quantity: 2 },
      { item_id: 'c', quantity: 5 },
    ]);
    // Stacks received after the upgrade come after them; a change keeps a stack's place.
    await store.changeStacks(
      'old',
      [
        { item_id: 'd', quantity: 1 },
        { item_id: 'b', quantity: -1 },
      ],
      'test',
    );
    expect((await store.stacks('old')).map((s) => s.item_id)).toEqual(['b', 'a', 'c', 'd']);
    // Opened again, nothing runs twice.
    const again = await old.open();
    opened.push(() => again.close());
    expect((await again.stacks('old')).map((s) => s.item_id)).toEqual(['b', 'a', 'c', 'd']);
  });

  it('upgrades a stored database: refusals of a player’s text, the day’s budget and the windows are kept', async ({
    skip,
  }) => {
    const reset = Date.now() + 60_000;
    // The migrations before the one that keeps the last refusal on the player.
    const old = await backend.old(
      migrationsFor('sqlite', 0).findIndex((m) => m.includes('ADD COLUMN text_refused_at')),
      `INSERT INTO players (id, created_at, daily_images) VALUES ('rude', 'then', 3), ('kind', 'then', 3);
       INSERT INTO moderation_events (player_id, at, kind, field, excerpt, reason, action)
       VALUES ('rude', 1000, 'player_text', 'prompt', 'x', 'profanity', 'refused'),
              ('rude', 2000, 'player_text', 'prompt', 'x', 'profanity', 'refused'),
              ('kind', 3000, 'generated_text', 'name', 'x', 'profanity', 'regenerated');
       INSERT INTO daily_usage (player_id, day, items, images) VALUES ('rude', '2026-01-01', 0, 2);
       INSERT INTO rate_limits (key, count, reset_at) VALUES ('image:kind', 1, ${reset});`,
    );
    if (!old) return skip();
    opened.push(() => old.drop());
    const store = await old.open();
    opened.push(() => store.close());
    const reserved = (playerId: string) =>
      store.reserve(
        {
          playerId,
          day: '2026-01-01',
          usage: { kind: 'images', n: 1, limit: 'recorded' },
          windows: [{ key: `image:${playerId}`, windowMs: 60_000, max: 2 }],
        },
        Date.now(),
      );
    expect((await reserved('rude')).textRefusedAt).toBe(2000);
    const kind = await reserved('kind');
    expect(kind.textRefusedAt).toBeNull();
    expect(kind.windows[0]).toMatchObject({ count: 2, resetAt: reset });
    // The day's images kept: two before, one now, and the fourth is over the budget of three.
    await expect(reserved('rude')).rejects.toMatchObject({ refusal: { kind: 'budget', used: 3, limit: 3 } });
    // A refusal recorded now is what the next reservation reads.
    await store.admin.recordModeration({
      playerId: 'kind',
      at: 5000,
      kind: 'player_text',
      field: 'prompt',
      excerpt: 'x',
      reason: 'profanity',
      action: 'refused',
    });
    await store.release(kind);
    expect((await reserved('kind')).textRefusedAt).toBe(5000);
  });

  it('reads the ledger and the stacks by item alone through an index', async ({ skip }) => {
    const old = await backend.old();
    if (!old) return skip();
    opened.push(() => old.drop());
    const store = await old.open();
    opened.push(() => store.close());
    for (const [table, sql] of BY_ITEM) {
      const plan = await old.explain(sql);
      expect(plan).toMatch(new RegExp(`${table}_item`));
      expect(plan).not.toMatch(/SCAN (ledger|inventory)\b(?! USING)|Seq Scan/);
    }
  });
});
