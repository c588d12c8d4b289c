import type Database from 'better-sqlite3';
import type pg from 'pg';
import {
  type ActivityBatch,
  type AdminStore,
  type BackendMinute,
  type ConsoleSessionRow,
  type Holding,
  type ItemListQuery,
  type ItemRow,
  LATENCY_BUCKETS,
  type ModerationRecord,
  type ModerationRow,
  type PlayerListQuery,
  type PlayerRequestRow,
  type PlayerRow,
  type ProvenanceFacts,
  type ProvenanceRow,
  type RemovalRow,
  type Retention,
  type RouteMinute,
} from './store.ts';

// The console's SQL, one text for SQLite and PostgreSQL (`?` placeholders; PostgreSQL gets `$n`),
// run through a small adapter per database so this file stays apart from the stores themselves.

type Dialect = 'sqlite' | 'postgres';

/** One statement, or one insert run for many rows (`insert … VALUES` + the rows + `tail`). */
type Step = { sql: string; params?: unknown[] } | { insert: string; rows: unknown[][]; tail?: string };

interface Db {
  dialect: Dialect;
  all<T>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Every step in one transaction. */
  batch(steps: Step[]): Promise<void>;
  explain(sql: string, params: unknown[]): Promise<string>;
}

interface Query {
  sql: string;
  params: unknown[];
}

/** Refusals of one player, kind, reason and action within this long of the row's first count on it. */
const REPEAT_WINDOW_MS = 60_000;

const placeholders = (n: number) => `(${Array(n).fill('?').join(', ')})`;

/** `?` → `$1`, `$2`, … (no `?` appears inside a literal in this file's SQL). */
function numbered(sql: string, offset = 0): string {
  let n = offset;
  return sql.replace(/\?/g, () => `$${++n}`);
}

/** The SQLite adapter: statements compiled once; a batch is one synchronous transaction. */
export function sqliteDb(db: Database.Database): Db {
  const compiled = new Map<string, Database.Statement>();
  const statement = (sql: string) => {
    let s = compiled.get(sql);
    if (!s) {
      s = db.prepare(sql);
      compiled.set(sql, s);
    }
    return s;
  };
  const run = db.transaction((steps: Step[]) => {
    for (const step of steps) {
      if ('sql' in step) statement(step.sql).run(...(step.params ?? []));
      else if (step.rows.length) {
        const s = statement(
          `${step.insert} ${placeholders((step.rows[0] as unknown[]).length)} ${step.tail ?? ''}`,
        );
        for (const row of step.rows) s.run(...row);
      }
    }
  });
  return {
    dialect: 'sqlite',
    all: async <T>(sql: string, params: unknown[] = []) => statement(sql).all(...params) as T[],
    batch: async (steps) => run.immediate(steps),
    explain: async (sql, params) =>
      (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as Array<{ detail: string }>)
        .map((r) => r.detail)
        .join('\n'),
  };
}

/** Rows per multi-row insert on PostgreSQL (its limit is 65,535 parameters a statement). */
const PG_CHUNK = 1000;

/** The PostgreSQL adapter: a batch is one transaction; a many-row step, multi-row inserts. */
export function postgresDb(pool: pg.Pool): Db {
  return {
    dialect: 'postgres',
    all: async <T>(sql: string, params: unknown[] = []) =>
      (await pool.query(numbered(sql), params)).rows as T[],
    async batch(steps) {
      const c = await pool.connect();
      try {
        await c.query('BEGIN');
        for (const step of steps) {
          if ('sql' in step) await c.query(numbered(step.sql), step.params ?? []);
          else
            for (let i = 0; i < step.rows.length; i += PG_CHUNK) {
              const rows = step.rows.slice(i, i + PG_CHUNK);
              const width = (rows[0] as unknown[]).length;
              const values = rows.map((_, r) => numbered(placeholders(width), r * width)).join(', ');
              await c.query(`${step.insert} ${values} ${step.tail ?? ''}`, rows.flat());
            }
        }
        await c.query('COMMIT');
      } catch (err) {
        await c.query('ROLLBACK').catch(() => {});
        throw err;
      } finally {
        c.release();
      }
    },
    explain: async (sql, params) =>
      (await pool.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${numbered(sql)}`, params)).rows
        .map((r) => r['QUERY PLAN'])
        .join('\n'),
  };
}

/** The conditions of a WHERE clause and their parameters, in order. */
class Where {
  private readonly parts: string[] = [];
  readonly params: unknown[] = [];

  add(sql: string, ...params: unknown[]) {
    this.parts.push(sql);
    this.params.push(...params);
  }

  toString() {
    return this.parts.length ? `WHERE ${this.parts.join(' AND ')}` : '';
  }
}

const H = Array.from({ length: LATENCY_BUCKETS }, (_, i) => `h${i}`);
const addUp = (table: string, columns: string[]) =>
  columns.map((c) => `${c} = ${table}.${c} + excluded.${c}`).join(', ');
const sums = (columns: string[]) => columns.map((c) => `SUM(${c}) AS ${c}`).join(', ');
const num = (v: unknown) => Number(v ?? 0);
const numOrNull = (v: unknown) => (v === null || v === undefined ? null : Number(v));

const PLAYER_COLUMNS = `p.id, p.level, p.claimed_level, p.blocked, p.crafting_xp, p.daily_items, p.daily_images,
  p.created_at, (SELECT COUNT(*) FROM inventory i WHERE i.player_id = p.id) AS stacks,
  s.requests, s.drops, s.crafts, s.refusals, s.tokens, s.images, s.last_at`;

interface PlayerSqlRow {
  id: string;
  level: number | null;
  claimed_level: number | null;
  blocked: number;
  crafting_xp: number;
  daily_items: number | null;
  daily_images: number | null;
  created_at: string;
  stacks: number | string;
  requests: number | null;
  drops: number | null;
  crafts: number | null;
  refusals: number | null;
  tokens: number | string | null;
  images: number | null;
  last_at: number | string | null;
}

const toPlayerRow = (r: PlayerSqlRow): PlayerRow => ({
  id: r.id,
  level: r.level,
  claimedLevel: r.claimed_level,
  blocked: Number(r.blocked) === 1,
  craftingXp: num(r.crafting_xp),
  dailyItems: r.daily_items,
  dailyImages: r.daily_images,
  createdAt: r.created_at,
  stacks: num(r.stacks),
  requests: num(r.requests),
  drops: num(r.drops),
  crafts: num(r.crafts),
  refusals: num(r.refusals),
  tokens: num(r.tokens),
  images: num(r.images),
  lastAt: numOrNull(r.last_at),
});

interface TimedSqlRow {
  count: number | string;
  total_ms: number | string;
  [bucket: string]: unknown;
}
const timed = (r: TimedSqlRow) => ({
  count: num(r.count),
  totalMs: num(r.total_ms),
  buckets: H.map((h) => num(r[h])),
});

interface ItemSqlRow {
  id: string;
  owner: string | null;
  data: string;
  source: string | null;
  enemy: string | null;
  created_at: string;
  removed: number | string;
}
const toItemRow = (r: ItemSqlRow): ItemRow => ({
  id: r.id,
  owner: r.owner,
  data: r.data,
  source: r.source ?? 'earlier',
  enemy: r.enemy,
  createdAt: r.created_at,
  removed: Number(r.removed) === 1,
});

interface ProvenanceSqlRow extends ProvenanceFacts {
  item_id: string;
  /** A `ProvenanceRow` source, or `earlier` for an item listed from its JSON alone. */
  source: string;
  player_id: string | null;
  seed: number | string | null;
  prompt: string | null;
  rules: string | null;
  created_at: string;
}

interface ModerationSqlRow {
  id: number | string;
  player_id: string | null;
  at: number | string;
  kind: ModerationRecord['kind'];
  field: string;
  excerpt: string;
  reason: string;
  action: string;
  count: number | string;
}

interface SessionSqlRow {
  id: string;
  csrf: string;
  credential: string;
  created_at: number | string;
  seen_at: number | string;
  expires_at: number | string;
}

/** Deletes all but the newest `max` rows, by the serial id (the primary key), whatever their clocks said. */
const keepNewest = (table: string, max: number): Step => ({
  sql: `DELETE FROM ${table} WHERE id <= (SELECT MAX(id) FROM ${table}) - ?`,
  params: [max],
});

/** The developer console's queries over one database (`Store.admin`). */
export class AdminQueries implements AdminStore {
  constructor(private readonly db: Db) {}

  async recordActivity(b: ActivityBatch) {
    const steps: Step[] = [];
    if (b.routes.length)
      steps.push({
        insert: `INSERT INTO route_stats (minute, route, status, code, count, total_ms, ${H.join(', ')}) VALUES`,
        rows: b.routes.map((r) => [
          r.minute,
          r.route,
          r.status,
          r.code,
          r.count,
          Math.round(r.totalMs),
          ...r.buckets,
        ]),
        tail: `ON CONFLICT (minute, route, status, code) DO UPDATE SET ${addUp('route_stats', ['count', 'total_ms', ...H])}`,
      });
    if (b.backends.length) {
      const extra = ['prompt_tokens', 'completion_tokens', 'images'];
      steps.push({
        insert: `INSERT INTO backend_stats (minute, backend, kind, outcome, count, total_ms, ${H.join(', ')}, ${extra.join(', ')}) VALUES`,
        rows: b.backends.map((r) => [
          r.minute,
          r.backend,
          r.kind,
          r.outcome,
          r.count,
          Math.round(r.totalMs),
          ...r.buckets,
          r.promptTokens,
          r.completionTokens,
          r.images,
        ]),
        tail: `ON CONFLICT (minute, backend, kind, outcome) DO UPDATE SET ${addUp('backend_stats', ['count', 'total_ms', ...H, ...extra])}`,
      });
    }
    if (b.counters.length)
      steps.push({
        insert: 'INSERT INTO activity_counters (minute, name, label, value) VALUES',
        rows: b.counters.map((c) => [c.minute, c.name, c.label, c.value]),
        tail: `ON CONFLICT (minute, name, label) DO UPDATE SET ${addUp('activity_counters', ['value'])}`,
      });
    if (b.players.length) {
      const counts = ['requests', 'drops', 'crafts', 'refusals', 'tokens', 'images'];
      steps.push({
        insert: `INSERT INTO player_stats (player_id, ${counts.join(', ')}, last_at) VALUES`,
        rows: b.players.map((p) => [
          p.playerId,
          p.requests,
          p.drops,
          p.crafts,
          p.refusals,
          p.tokens,
          p.images,
          p.lastAt,
        ]),
        tail: `ON CONFLICT (player_id) DO UPDATE SET ${addUp('player_stats', counts)},
          last_at = CASE WHEN excluded.last_at > player_stats.last_at THEN excluded.last_at ELSE player_stats.last_at END`,
      });
    }
    if (b.requests.length) {
      steps.push({
        insert: 'INSERT INTO player_requests (player_id, at, route, status, code, ms) VALUES',
        rows: b.requests.map((r) => [r.playerId, r.at, r.route, r.status, r.code, Math.round(r.ms)]),
      });
      steps.push(keepNewest('player_requests', b.keepRequests));
    }
    if (b.provenance.length)
      steps.push({
        insert: `INSERT INTO item_provenance (item_id, source, player_id, rarity, type, level, enemy, backend,
          model, seed, prompt, rules, created_at) VALUES`,
        rows: b.provenance.map((p) => [
          p.itemId,
          p.source,
          p.playerId,
          p.rarity,
          p.type,
          p.level,
          p.enemy,
          p.backend,
          p.model,
          p.seed,
          p.prompt,
          p.rules && JSON.stringify(p.rules),
          p.createdAt,
        ]),
        tail: 'ON CONFLICT (item_id) DO NOTHING',
      });
    if (steps.length) await this.db.batch(steps);
  }

  async sweep(retention: Retention, now: number) {
    const minute = Math.floor(retention.statsBefore / 60_000);
    await this.db.batch([
      { sql: 'DELETE FROM route_stats WHERE minute < ?', params: [minute] },
      { sql: 'DELETE FROM backend_stats WHERE minute < ?', params: [minute] },
      { sql: 'DELETE FROM activity_counters WHERE minute < ?', params: [minute] },
      keepNewest('moderation_events', retention.maxModeration),
      { sql: 'DELETE FROM console_sessions WHERE expires_at <= ?', params: [now] },
    ]);
  }

  async recordModeration(e: ModerationRecord) {
    const at = e.at ?? Date.now();
    // A flood of one token's refusals fills one row a minute, not the whole record.
    const [repeat] = await this.db.all<{ id: number | string }>(
      `UPDATE moderation_events SET count = count + 1 WHERE id = (
        SELECT id FROM moderation_events
        WHERE player_id = ? AND kind = ? AND reason = ? AND action = ? AND at > ?
        ORDER BY id DESC LIMIT 1) RETURNING id`,
      [e.playerId, e.kind, e.reason.slice(0, 200), e.action.slice(0, 64), at - REPEAT_WINDOW_MS],
    );
    if (repeat) return;
    await this.db.batch([
      {
        sql: `INSERT INTO moderation_events (player_id, at, kind, field, excerpt, reason, action)
          VALUES (?, ?, ?, ?, ?, ?, ?)`,
        params: [
          e.playerId,
          at,
          e.kind,
          e.field.slice(0, 200),
          e.excerpt.slice(0, 200),
          e.reason.slice(0, 200),
          e.action.slice(0, 64),
        ],
      },
    ]);
  }

  private moderationQuery(q: { kind?: string; playerId?: string; beforeId?: number; limit: number }): Query {
    const where = new Where();
    if (q.kind) where.add('kind = ?', q.kind);
    if (q.playerId) where.add('player_id = ?', q.playerId);
    if (q.beforeId !== undefined) where.add('id < ?', q.beforeId);
    return {
      sql: `SELECT id, player_id, at, kind, field, excerpt, reason, action, count FROM moderation_events
        ${where} ORDER BY id DESC LIMIT ?`,
      params: [...where.params, q.limit],
    };
  }

  async moderation(q: { kind?: string; playerId?: string; beforeId?: number; limit: number }) {
    const { sql, params } = this.moderationQuery(q);
    const rows = await this.db.all<ModerationSqlRow>(sql, params);
    return rows.map(
      (r): ModerationRow => ({
        id: num(r.id),
        playerId: r.player_id,
        at: num(r.at),
        kind: r.kind,
        field: r.field,
        excerpt: r.excerpt,
        reason: r.reason,
        action: r.action,
        count: num(r.count),
      }),
    );
  }

  async moderationSince(at: number) {
    const [row] = await this.db.all<{ n: number | string }>(
      'SELECT COALESCE(SUM(count), 0) AS n FROM moderation_events WHERE at >= ?',
      [at],
    );
    return num(row?.n);
  }

  private routeStatsQuery(since: number): Query {
    return {
      sql: `SELECT route, status, code, SUM(count) AS count, SUM(total_ms) AS total_ms, ${sums(H)}
        FROM route_stats WHERE minute >= ? GROUP BY route, status, code`,
      params: [since],
    };
  }

  async routeStats(since: number): Promise<RouteMinute[]> {
    const { sql, params } = this.routeStatsQuery(since);
    const rows = await this.db.all<TimedSqlRow & { route: string; status: number; code: string }>(
      sql,
      params,
    );
    return rows.map((r) => ({
      minute: since,
      route: r.route,
      status: Number(r.status),
      code: r.code,
      ...timed(r),
    }));
  }

  private backendStatsQuery(since: number): Query {
    return {
      sql: `SELECT backend, kind, outcome, SUM(count) AS count, SUM(total_ms) AS total_ms, ${sums(H)},
          SUM(prompt_tokens) AS prompt_tokens, SUM(completion_tokens) AS completion_tokens, SUM(images) AS images
        FROM backend_stats WHERE minute >= ? GROUP BY backend, kind, outcome`,
      params: [since],
    };
  }

  async backendStats(since: number): Promise<BackendMinute[]> {
    const { sql, params } = this.backendStatsQuery(since);
    const rows = await this.db.all<
      TimedSqlRow & { backend: string; kind: string; outcome: string; [k: string]: unknown }
    >(sql, params);
    return rows.map((r) => ({
      minute: since,
      backend: r.backend,
      kind: r.kind,
      outcome: r.outcome,
      ...timed(r),
      promptTokens: num(r.prompt_tokens),
      completionTokens: num(r.completion_tokens),
      images: num(r.images),
    }));
  }

  async counters(since: number) {
    const rows = await this.db.all<{ name: string; label: string; value: number | string }>(
      'SELECT name, label, SUM(value) AS value FROM activity_counters WHERE minute >= ? GROUP BY name, label',
      [since],
    );
    return rows.map((r) => ({ name: r.name, label: r.label, value: num(r.value) }));
  }

  private seriesQuery(since: number, step: number): Query {
    return {
      sql: `SELECT slot, SUM(count) AS requests, SUM(CASE WHEN status >= 400 THEN count ELSE 0 END) AS errors
        FROM (SELECT minute / ? AS slot, count, status FROM route_stats WHERE minute >= ?) m
        GROUP BY slot ORDER BY slot`,
      params: [step, since],
    };
  }

  async series(since: number, step: number) {
    const { sql, params } = this.seriesQuery(since, step);
    const rows = await this.db.all<{
      slot: number | string;
      requests: number | string;
      errors: number | string;
    }>(sql, params);
    return rows.map((r) => ({ slot: num(r.slot), requests: num(r.requests), errors: num(r.errors) }));
  }

  private generationsQuery(since: string): Query {
    return {
      sql: `SELECT source, backend, COUNT(*) AS items FROM item_provenance
        WHERE created_at >= ? AND source <> 'earlier' GROUP BY source, backend`,
      params: [since],
    };
  }

  async generations(since: string) {
    const { sql, params } = this.generationsQuery(since);
    const rows = await this.db.all<{ source: string; backend: string | null; items: number | string }>(
      sql,
      params,
    );
    return rows.map((r) => ({ source: r.source, backend: r.backend, items: num(r.items) }));
  }

  async playerCounts(activeSince: number) {
    const [row] = await this.db.all<{ players: number | string; active: number | string }>(
      `SELECT (SELECT COUNT(*) FROM players) AS players,
        (SELECT COUNT(*) FROM player_stats s JOIN players p ON p.id = s.player_id WHERE s.last_at >= ?) AS active`,
      [activeSince],
    );
    return { players: num(row?.players), active: num(row?.active) };
  }

  /**
   * Ids starting with `prefix`: a range of the primary key on SQLite (bytewise), a `LIKE` the pattern
   * index serves on PostgreSQL (whose collation may not order a prefix's ids together).
   */
  private prefixed(column: string, prefix: string): Query {
    return this.db.dialect === 'sqlite'
      ? { sql: `${column} >= ? AND ${column} < ?`, params: [prefix, `${prefix}\uffff`] }
      : { sql: `${column} LIKE ? ESCAPE '!'`, params: [`${prefix.replace(/[!%_]/g, '!$&')}%`] };
  }

  private playersQuery(q: PlayerListQuery): Query {
    const where = new Where();
    if (q.sort === 'recent') {
      if (q.prefix) {
        const p = this.prefixed('s.player_id', q.prefix);
        where.add(p.sql, ...p.params);
      }
      if (q.after) where.add('(s.last_at, s.player_id) < (?, ?)', q.after.lastAt ?? 0, q.after.id);
      return {
        sql: `SELECT ${PLAYER_COLUMNS} FROM player_stats s JOIN players p ON p.id = s.player_id
          ${where}
          ORDER BY s.last_at DESC, s.player_id DESC LIMIT ?`,
        params: [...where.params, q.limit],
      };
    }
    if (q.prefix) {
      const p = this.prefixed('p.id', q.prefix);
      where.add(p.sql, ...p.params);
    }
    if (q.after) where.add('p.id > ?', q.after.id);
    return {
      sql: `SELECT ${PLAYER_COLUMNS} FROM players p LEFT JOIN player_stats s ON s.player_id = p.id
        ${where} ORDER BY p.id LIMIT ?`,
      params: [...where.params, q.limit],
    };
  }

  async players(q: PlayerListQuery) {
    const { sql, params } = this.playersQuery(q);
    return (await this.db.all<PlayerSqlRow>(sql, params)).map(toPlayerRow);
  }

  async countPlayers(prefix?: string) {
    const p = prefix ? this.prefixed('id', prefix) : { sql: '', params: [] };
    const [row] = await this.db.all<{ n: number | string }>(
      `SELECT COUNT(*) AS n FROM players ${p.sql ? `WHERE ${p.sql}` : ''}`,
      p.params,
    );
    return num(row?.n);
  }

  async player(id: string) {
    const [row] = await this.db.all<PlayerSqlRow>(
      `SELECT ${PLAYER_COLUMNS} FROM players p LEFT JOIN player_stats s ON s.player_id = p.id WHERE p.id = ?`,
      [id],
    );
    return row ? toPlayerRow(row) : null;
  }

  private playerRequestsQuery(id: string, limit: number): Query {
    return {
      sql: `SELECT player_id, at, route, status, code, ms FROM player_requests
        WHERE player_id = ? ORDER BY at DESC LIMIT ?`,
      params: [id, limit],
    };
  }

  async playerRequests(id: string, limit: number): Promise<PlayerRequestRow[]> {
    const { sql, params } = this.playerRequestsQuery(id, limit);
    const rows = await this.db.all<{
      player_id: string;
      at: number | string;
      route: string;
      status: number;
      code: string | null;
      ms: number;
    }>(sql, params);
    return rows.map((r) => ({
      playerId: r.player_id,
      at: num(r.at),
      route: r.route,
      status: Number(r.status),
      code: r.code,
      ms: Number(r.ms),
    }));
  }

  private itemsQuery(q: ItemListQuery): Query {
    const where = new Where();
    const equal = (column: string, value: string | undefined) => {
      if (value !== undefined) where.add(`v.${column} = ?`, value);
    };
    equal('rarity', q.rarity);
    equal('type', q.type);
    equal('enemy', q.enemy);
    equal('source', q.source);
    if (q.from) where.add('v.created_at >= ?', q.from);
    if (q.to) where.add('v.created_at < ?', q.to);
    if (q.after) where.add('(v.created_at, v.item_id) < (?, ?)', q.after.createdAt, q.after.id);
    return {
      sql: `SELECT v.item_id AS id, i.owner, i.data, v.source, v.enemy, v.created_at,
          CASE WHEN r.item_id IS NULL THEN 0 ELSE 1 END AS removed
        FROM item_provenance v JOIN items i ON i.id = v.item_id LEFT JOIN item_removals r ON r.item_id = v.item_id
        ${where}
        ORDER BY v.created_at DESC, v.item_id DESC LIMIT ?`,
      params: [...where.params, q.limit],
    };
  }

  async items(q: ItemListQuery) {
    const { sql, params } = this.itemsQuery(q);
    return (await this.db.all<ItemSqlRow>(sql, params)).map(toItemRow);
  }

  async item(id: string) {
    const [row] = await this.db.all<
      ItemSqlRow & Omit<ProvenanceSqlRow, 'created_at'> & { made_at: string | null }
    >(
      `SELECT i.id, i.owner, i.data, i.created_at, v.item_id, v.source, v.player_id, v.rarity, v.type, v.level,
          v.enemy, v.backend, v.model, v.seed, v.prompt, v.rules, v.created_at AS made_at,
          CASE WHEN r.item_id IS NULL THEN 0 ELSE 1 END AS removed
        FROM items i LEFT JOIN item_provenance v ON v.item_id = i.id LEFT JOIN item_removals r ON r.item_id = i.id
        WHERE i.id = ?`,
      [id],
    );
    if (!row) return null;
    const provenance: ProvenanceRow | null =
      row.item_id && row.source !== 'earlier'
        ? {
            itemId: row.id,
            source: row.source as ProvenanceRow['source'],
            playerId: row.player_id,
            rarity: row.rarity,
            type: row.type,
            level: Number(row.level),
            enemy: row.enemy,
            backend: row.backend,
            model: row.model,
            seed: numOrNull(row.seed),
            prompt: row.prompt,
            rules: row.rules ? JSON.parse(row.rules) : null,
            createdAt: row.made_at ?? row.created_at,
          }
        : null;
    const [removal] = await this.db.all<{
      reason: string;
      removed_by: string;
      holders: string;
      removed_at: string;
    }>('SELECT reason, removed_by, holders, removed_at FROM item_removals WHERE item_id = ?', [id]);
    return {
      row: toItemRow(row),
      provenance,
      removal: removal
        ? {
            reason: removal.reason,
            removedBy: removal.removed_by,
            removedAt: removal.removed_at,
            holders: JSON.parse(removal.holders) as Holding[],
          }
        : null,
      holders: await this.holders(id),
    };
  }

  private async holders(id: string): Promise<Holding[]> {
    const rows = await this.db.all<{ player_id: string; quantity: number }>(
      'SELECT player_id, quantity FROM inventory WHERE item_id = ? ORDER BY player_id',
      [id],
    );
    return rows.map((r) => ({ player_id: r.player_id, quantity: Number(r.quantity) }));
  }

  async removeItem(id: string, reason: string, by: string, at: string): Promise<RemovalRow | null> {
    const [found] = await this.db.all<{ id: string }>('SELECT id FROM items WHERE id = ?', [id]);
    if (!found) return null;
    const holders = await this.holders(id);
    const inTemplate = this.db.dialect === 'sqlite' ? 'instr(template, ?) > 0' : 'strpos(template, ?) > 0';
    await this.db.batch([
      {
        sql: `INSERT INTO ledger (player_id, item_id, delta, reason, created_at)
          SELECT player_id, item_id, -quantity, 'removed', ? FROM inventory WHERE item_id = ?`,
        params: [at, id],
      },
      // Cached inventories of every instance are checked against this version: they see it at once.
      {
        sql: `UPDATE players SET inventory_version = inventory_version + 1
          WHERE id IN (SELECT player_id FROM inventory WHERE item_id = ?)`,
        params: [id],
      },
      { sql: 'DELETE FROM equipment WHERE item_id = ?', params: [id] },
      { sql: 'DELETE FROM inventory WHERE item_id = ?', params: [id] },
      // A recipe that makes it would make it again; the next such combine asks the model afresh.
      { sql: `DELETE FROM recipes WHERE ${inTemplate}`, params: [`"id":${JSON.stringify(id)}`] },
      {
        sql: `INSERT INTO item_removals (item_id, reason, removed_by, holders, removed_at) VALUES (?, ?, ?, ?, ?)
          ON CONFLICT (item_id) DO UPDATE SET reason = excluded.reason, removed_by = excluded.removed_by,
            removed_at = excluded.removed_at,
            holders = CASE WHEN excluded.holders = '[]' THEN item_removals.holders ELSE excluded.holders END`,
        params: [id, reason, by, JSON.stringify(holders), at],
      },
    ]);
    return (await this.item(id))?.removal ?? null;
  }

  async createSession(s: ConsoleSessionRow) {
    await this.db.batch([
      {
        sql: `INSERT INTO console_sessions (id, csrf, credential, created_at, seen_at, expires_at)
          VALUES (?, ?, ?, ?, ?, ?)`,
        params: [s.id, s.csrf, s.credential, s.createdAt, s.seenAt, s.expiresAt],
      },
    ]);
  }

  async session(id: string): Promise<ConsoleSessionRow | null> {
    const [r] = await this.db.all<SessionSqlRow>(
      'SELECT id, csrf, credential, created_at, seen_at, expires_at FROM console_sessions WHERE id = ?',
      [id],
    );
    return r
      ? {
          id: r.id,
          csrf: r.csrf,
          credential: r.credential,
          createdAt: num(r.created_at),
          seenAt: num(r.seen_at),
          expiresAt: num(r.expires_at),
        }
      : null;
  }

  async touchSession(id: string, seenAt: number) {
    await this.db.batch([
      { sql: 'UPDATE console_sessions SET seen_at = ? WHERE id = ?', params: [seenAt, id] },
    ]);
  }

  async deleteSession(id: string) {
    await this.db.batch([{ sql: 'DELETE FROM console_sessions WHERE id = ?', params: [id] }]);
  }

  async plans() {
    const minute = Math.floor(Date.now() / 60_000) - 60;
    const queries: Record<string, Query> = {
      players_by_id: this.playersQuery({ sort: 'id', after: { id: 'm' }, limit: 50 }),
      players_by_id_prefix: this.playersQuery({ sort: 'id', prefix: 'player-1', limit: 50 }),
      players_recent: this.playersQuery({
        sort: 'recent',
        after: { id: 'm', lastAt: Date.now() },
        limit: 50,
      }),
      player_requests: this.playerRequestsQuery('player-1', 50),
      items_recent: this.itemsQuery({ after: { createdAt: '2100-01-01', id: 'z' }, limit: 60 }),
      items_by_rarity: this.itemsQuery({ rarity: 'EPIC', limit: 60 }),
      items_by_type: this.itemsQuery({ type: 'WEAPON', from: '2000-01-01', limit: 60 }),
      items_by_enemy: this.itemsQuery({ enemy: 'slime', limit: 60 }),
      moderation: this.moderationQuery({ limit: 50 }),
      moderation_by_player: this.moderationQuery({ playerId: 'player-1', limit: 50 }),
      route_stats: this.routeStatsQuery(minute),
      backend_stats: this.backendStatsQuery(minute),
      series: this.seriesQuery(minute, 1),
      generations: this.generationsQuery(new Date(Date.now() - 3_600_000).toISOString()),
    };
    const plans: Record<string, string> = {};
    for (const [name, q] of Object.entries(queries)) plans[name] = await this.db.explain(q.sql, q.params);
    return plans;
  }
}
