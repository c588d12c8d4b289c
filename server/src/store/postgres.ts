import pg from 'pg';
import { migrationsFor, SCHEMA_VERSION_TABLE } from './migrations.ts';
import { expireBefore, type Plan, refusal, TAKES, type TakeKind } from './reservation.ts';
import { driveAsync, type Op, type Params, type Rule } from './rules.ts';
import { compiler, statements } from './sql.ts';
import { SqlStore } from './sql-store.ts';
import type { SqlDialect } from './statement.ts';
import type { ReservationRefused } from './store.ts';

const POSTGRES: SqlDialect = {
  forUpdate: ' FOR UPDATE',
  skipLocked: ' FOR UPDATE SKIP LOCKED',
  inList: (param) => `= ANY(${param})`,
  notInList: (param) => `<> ALL(${param})`,
  jsonObject: 'json_build_object',
  jsonArray: (value, order) => `COALESCE(json_agg(${value} ORDER BY ${order}), '[]')::text`,
  startsWith: (column) => `${column} LIKE $prefix_pattern ESCAPE '!'`,
  contains: (text, param) => `strpos(${text}, ${param}) > 0`,
  rowsOf: (table, columns, param) =>
    `SELECT ${columns.join(', ')} FROM json_populate_recordset(NULL::${table}, ${param}::json)`,
};
const SQL = statements(POSTGRES);

/** Prepared once per connection, under its compiled key. */
const compiled = compiler(SQL, true);
export const PLAYER = compiled('player').text;
export const INVENTORY_VERSIONS = compiled('inventoryVersions').text;
export const INVENTORY = compiled('inventory').text;

const REFUSED = 'lootsmith: reservation refused';
/** PostgreSQL's error code for a deadlock it broke by failing one side. */
const DEADLOCK = '40P01';
/** The takes' parameters that are not text, as the function reads them from a plan's JSON. */
const TYPES: Record<string, string> = {
  n: 'integer',
  lim: 'integer',
  dflt: 'integer',
  iat: 'bigint',
  hits: 'integer',
  max: 'integer',
  reset: 'bigint',
  at: 'bigint',
  expires: 'bigint',
  cap: 'bigint',
  nanos: 'bigint',
};
const fromPlan = (text: string) =>
  text.replace(/\$([a-z_]+)/g, (_, name: string) =>
    TYPES[name] ? `(v->>'${name}')::${TYPES[name]}` : `(v->>'${name}')`,
  );

/** Each kind of take: its statement and, when it finds no row, its `why` read. */
const BRANCHES = (Object.entries(TAKES) as Array<[string, TakeKind]>)
  .map(
    ([take, kind]) => `
          WHEN '${take}' THEN
            ${fromPlan(SQL[kind.statement].text)} INTO found_row;
            took := FOUND;${
              kind.why
                ? `
            IF NOT took THEN
              ${fromPlan(SQL[kind.why].text)} INTO found_row;
              why := to_jsonb(found_row);
            END IF;`
                : ''
            }`,
  )
  .join('');

/**
 * Group commit of `Store.reserve`: the plans in `p_batch` (each the list of its takes, `reservation.ts`;
 * players in lock order) are taken by one call, in one transaction, each in its own subtransaction. A
 * plan's takes run in order, each the same statement SQLite runs, a take's row laid over the
 * parameters of the takes after it; the first that finds no row raises, rolling back that plan alone,
 * and is answered with its index and what its `why` read found. Spent grants that have
 * expired are cleared first, before any player's rows are locked. Answers a JSON array in the batch's
 * order: `{took: [row…]}` or `{refused: {at, why}}`.
 */
const RESERVE_GROUP = `CREATE OR REPLACE FUNCTION lootsmith_reserve_group(p_batch jsonb, p_expire_before bigint)
RETURNS jsonb LANGUAGE plpgsql AS $fn$
DECLARE
  reservation jsonb;
  step jsonb;
  v jsonb;
  carried jsonb;
  found_row record;
  took boolean;
  why jsonb;
  taken jsonb;
  detail text;
  results jsonb := '[]';
BEGIN
  IF p_expire_before IS NOT NULL THEN
    ${SQL.expireGrants.text.replace('$at', 'p_expire_before')};
  END IF;
  FOR reservation IN SELECT value FROM jsonb_array_elements(p_batch) LOOP
    BEGIN
      carried := '{}';
      taken := '[]';
      FOR step IN SELECT value FROM jsonb_array_elements(reservation) LOOP
        v := step || carried;
        why := NULL;
        CASE step->>'take'${BRANCHES}
        END CASE;
        IF NOT took THEN
          RAISE EXCEPTION '${REFUSED}' USING DETAIL = jsonb_build_object('at', jsonb_array_length(taken), 'why', why)::text;
        END IF;
        carried := carried || to_jsonb(found_row);
        taken := taken || to_jsonb(found_row);
      END LOOP;
      results := results || jsonb_build_object('took', taken);
    EXCEPTION WHEN raise_exception THEN
      GET STACKED DIAGNOSTICS detail = PG_EXCEPTION_DETAIL;
      IF SQLERRM <> '${REFUSED}' THEN RAISE; END IF;
      results := results || jsonb_build_object('refused', detail::jsonb);
    END;
  END LOOP;
  RETURN results;
END
$fn$`;
/** The function of earlier versions that took one reservation; the group function now holds the takes. */
const DROP_RESERVE_ONE = `DROP FUNCTION IF EXISTS lootsmith_reserve(text, text, text, int, boolean, int, text[],
  bigint[], int[], bigint, text, text, bigint)`;

/** The call of `lootsmith_reserve_group` for plans given in lock order (the benchmark explains one). */
export function reserveGroupQuery(plans: Plan[]) {
  return {
    name: 'lootsmith_reserve_group',
    text: 'SELECT lootsmith_reserve_group($1, $2) AS results',
    values: [JSON.stringify(plans.map((p) => p.steps)), expireBefore(plans)],
  };
}

/**
 * Most reservations one group call takes: each is a subtransaction, and a transaction with more than
 * 64 of them slows every other session's snapshot checks.
 */
const GROUP_MAX = 32;
const MIGRATION_LOCK = 74_211_009;
const INT8 = 20;

/**
 * The store for several instances: PostgreSQL with the same rules and guarantees as SQLite. Spending
 * locks the player's stack rows (`FOR UPDATE`), so concurrent crafts serialise per row.
 */
export class PostgresStore extends SqlStore {
  private constructor(private readonly pool: pg.Pool) {
    super(GROUP_MAX);
  }

  static async connect(url: string, options: { max?: number } = {}): Promise<PostgresStore> {
    const pool = new pg.Pool({
      connectionString: url,
      max: options.max ?? 20,
      // Counts, times in ms and ledger ids all fit a JavaScript number.
      types: {
        getTypeParser: ((oid: number, format?: 'text') =>
          oid === INT8 ? Number : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
      },
    });
    pool.on('error', () => {});
    const store = new PostgresStore(pool);
    await store.migrate();
    return store;
  }

  private async migrate() {
    await this.tx(async (c) => {
      // Instances starting together take turns; the second sees the first one's version.
      await c.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
      await c.query(SCHEMA_VERSION_TABLE);
      const { rows } = await c.query<{ version: number }>('SELECT version FROM schema_version');
      for (const sql of migrationsFor('postgres', rows[0]?.version ?? 0)) await c.query(sql);
      await c.query(DROP_RESERVE_ONE);
      await c.query(RESERVE_GROUP);
    });
  }

  private async tx<T>(work: (c: pg.PoolClient) => Promise<T>): Promise<T> {
    const c = await this.pool.connect();
    try {
      await c.query('BEGIN');
      const result = await work(c);
      await c.query('COMMIT');
      return result;
    } catch (err) {
      await c.query('ROLLBACK').catch(() => {});
      throw err;
    } finally {
      c.release();
    }
  }

  private async execute(on: pg.Pool | pg.PoolClient, op: Op): Promise<unknown> {
    if (op.kind === 'lock') return on.query('SELECT pg_advisory_xact_lock(hashtext($1))', [op.key]);
    const { key, text, names } = compiled(op.statement, op.params);
    const values = names.map((n) => {
      const value = op.params[n];
      if (value === undefined) throw new Error(`statement ${op.statement} lacks $${n}`);
      return value;
    });
    if (op.kind === 'explain')
      return (await on.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${text}`, values)).rows
        .map((r) => r['QUERY PLAN'])
        .join('\n');
    const result = await on.query({ name: `lootsmith_${key}`, text, values });
    if (op.kind === 'get') return result.rows[0];
    if (op.kind === 'all') return result.rows;
    return result.rowCount;
  }

  protected transaction<T>(rule: Rule<T>) {
    return this.tx((c) => driveAsync(rule, (op) => this.execute(c, op)));
  }

  protected autocommit<T>(rule: Rule<T>) {
    return driveAsync(rule, (op) => this.execute(this.pool, op));
  }

  /** The group in one round trip: one call of `lootsmith_reserve_group`. */
  protected async takeGroup(plans: Plan[]): Promise<Array<Params[] | ReservationRefused>> {
    let results: Array<{ took?: Params[]; refused?: { at: number; why: Params | null } }>;
    try {
      const { rows } = await this.pool.query<{ results: typeof results }>(reserveGroupQuery(plans));
      results = rows[0]?.results ?? [];
    } catch (err) {
      // A deadlock with another kind of transaction fails the whole group: each is taken again alone.
      if ((err as { code?: string }).code === DEADLOCK && plans.length > 1)
        return Promise.all(
          plans.map(async (p) => (await this.takeGroup([p]))[0] as Params[] | ReservationRefused),
        );
      throw err;
    }
    return plans.map((p, i) => {
      const { took, refused } = results[i] ?? {};
      if (refused) return refusal(p, refused.at, refused.why ?? undefined);
      if (!took) throw new Error('lootsmith_reserve_group answered fewer reservations than it was given');
      return took;
    });
  }

  async close() {
    await this.pool.end();
  }
}
