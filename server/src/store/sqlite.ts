import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { migrationsFor, SCHEMA_VERSION_TABLE } from './migrations.ts';
import { expireBefore, type Plan, take } from './reservation.ts';
import { drive, type Op, type Params, type Rule, run } from './rules.ts';
import { type Compiled, compiler, type StatementName, statements } from './sql.ts';
import { SqlStore } from './sql-store.ts';
import type { SqlDialect } from './statement.ts';
import { ReservationRefused } from './store.ts';

// Checkpoints the WAL from a second connection in a worker thread, so no request's commit pays for
// copying the log back into the database (SQLite's default does it inside whichever commit crosses
// 1,000 pages). PASSIVE never blocks writers. Any message stops it: it closes its connection and ends.
const CHECKPOINTER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 1000');
const timer = setInterval(() => {
  try { db.pragma('wal_checkpoint(PASSIVE)'); } catch {}
}, workerData.intervalMs);
parentPort.once('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;
const CHECKPOINT_INTERVAL_MS = 200;

const SQLITE: SqlDialect = {
  forUpdate: '',
  skipLocked: '',
  inList: (param) => `IN (SELECT value FROM json_each(${param}))`,
  notInList: (param) => `NOT IN (SELECT value FROM json_each(${param}))`,
  jsonObject: 'json_object',
  jsonArray: (value, order) => `json_group_array(${value} ORDER BY ${order})`,
  startsWith: (column) => `${column} >= $prefix AND ${column} < $prefix_end`,
  contains: (text, param) => `instr(${text}, ${param}) > 0`,
  // WHERE: an upsert after INSERT … SELECT needs one, to tell its ON from a join's.
  rowsOf: (_table, columns, param) =>
    `SELECT ${columns.map((c) => `value ->> '${c}'`).join(', ')} FROM json_each(${param}) WHERE true`,
};
const compiled = compiler(statements(SQLITE), false);

/** A list travels as JSON text. */
const bound = (params: Params, name: string) => {
  const value = params[name];
  return Array.isArray(value) ? JSON.stringify(value) : value;
};

/** A refusal answered in place of the reservation; anything else is thrown. */
function refusedOr(work: () => Params[]): Params[] | ReservationRefused {
  try {
    return work();
  } catch (err) {
    if (err instanceof ReservationRefused) return err;
    throw err;
  }
}

/**
 * The default store: one SQLite file in WAL mode. better-sqlite3 is synchronous, so a rule runs
 * whole inside its transaction, and every statement is compiled once.
 */
export class SqliteStore extends SqlStore {
  readonly db: Database.Database;
  private readonly checkpointer?: Worker;
  /** Settles once the checkpointer has ended, whether asked to or not. */
  private readonly checkpointerExit?: Promise<unknown>;
  /** Prepared on first use, by compiled key. */
  private readonly prepared = new Map<string, Database.Statement>();
  /** IMMEDIATE: the write lock is taken before the first read, so instances sharing the file queue. */
  private readonly writeTx: Database.Transaction<(rule: Rule<unknown>) => unknown>;
  private readonly aloneTx: Database.Transaction<(plan: Plan) => Params[]>;
  private readonly groupTx: Database.Transaction<(plans: Plan[]) => Array<Params[] | ReservationRefused>>;

  constructor(dataDir: string | ':memory:') {
    super(Number.POSITIVE_INFINITY);
    if (dataDir !== ':memory:') mkdirSync(dataDir, { recursive: true });
    this.db = new Database(dataDir === ':memory:' ? ':memory:' : join(dataDir, 'lootsmith.db'));
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('foreign_keys = ON');
    this.db.pragma('busy_timeout = 5000');
    if (dataDir !== ':memory:') {
      this.db.pragma('wal_autocheckpoint = 0');
      this.db.pragma('journal_size_limit = 8388608');
      this.checkpointer = new Worker(CHECKPOINTER, {
        eval: true,
        workerData: {
          file: this.db.name,
          driver: createRequire(import.meta.url).resolve('better-sqlite3'),
          intervalMs: CHECKPOINT_INTERVAL_MS,
        },
      });
      // A checkpointer that cannot open the file (the store closed, or its folder removed, while the
      // worker started) must not take the process down: the connection checkpoints for itself then.
      this.checkpointer.on('error', () => {
        if (this.db.open) this.db.pragma('wal_autocheckpoint = 1000');
      });
      const checkpointer = this.checkpointer;
      this.checkpointerExit = new Promise((ended) => checkpointer.once('exit', ended));
      this.checkpointer.unref();
    }
    this.migrate();
    this.writeTx = this.db.transaction((rule: Rule<unknown>) => this.drive(rule));
    const expire = (plans: Plan[]) => {
      const before = expireBefore(plans);
      if (before !== null) this.drive(run('expireGrants', { at: before }));
    };
    // Alone, a reservation needs no savepoint: its refusal rolls back the whole transaction.
    this.aloneTx = this.db.transaction((p: Plan) => {
      expire([p]);
      return this.drive(take(p));
    });
    // Together, each is a savepoint of the group's transaction: a refused one takes nothing, the others stand.
    const savepoint = this.db.transaction((p: Plan) => this.drive(take(p)));
    this.groupTx = this.db.transaction((plans: Plan[]) => {
      expire(plans);
      return plans.map((p) => refusedOr(() => savepoint(p)));
    });
  }

  private migrate() {
    this.db.exec(SCHEMA_VERSION_TABLE);
    this.db
      .transaction(() => {
        const row = this.db.prepare('SELECT version FROM schema_version').get() as
          | { version: number }
          | undefined;
        for (const sql of migrationsFor('sqlite', row?.version ?? 0)) this.db.exec(sql);
      })
      .immediate();
  }

  private readonly execute = (op: Op): unknown => {
    if (op.kind === 'lock') return undefined;
    const c = compiled(op.statement, op.params);
    const values = c.names.map((name) => bound(op.params, name));
    if (op.kind === 'explain')
      return (this.db.prepare(`EXPLAIN QUERY PLAN ${c.text}`).all(values) as Array<{ detail: string }>)
        .map((r) => r.detail)
        .join('\n');
    const statement = this.statement(c);
    if (op.kind === 'get') return statement.get(values);
    if (op.kind === 'all') return statement.all(values);
    return statement.run(values).changes;
  };

  private statement(c: Compiled) {
    let s = this.prepared.get(c.key);
    if (!s) {
      s = this.db.prepare(c.text);
      this.prepared.set(c.key, s);
    }
    return s;
  }

  private drive<T>(rule: Rule<T>): T {
    return drive(rule, this.execute);
  }

  protected async transaction<T>(rule: Rule<T>) {
    return this.writeTx.immediate(rule) as T;
  }

  protected async autocommit<T>(rule: Rule<T>) {
    return this.drive(rule);
  }

  /** The reservations made while the event loop was busy, in one transaction at its next turn. */
  protected async takeGroup(plans: Plan[]) {
    const [only] = plans;
    if (plans.length === 1 && only) return [refusedOr(() => this.aloneTx.immediate(only))];
    return this.groupTx.immediate(plans);
  }

  /** The SQL of the statements on the request paths, by name, with `?` parameters (the benchmark EXPLAINs them). */
  hotStatements(): Record<string, string> {
    const names: StatementName[] = [
      'player',
      'inventoryVersions',
      'inventory',
      'playerLimit',
      'takeImages',
      'hitWindow',
    ];
    return Object.fromEntries(names.map((name) => [name, compiled(name).text]));
  }

  /**
   * Asks the checkpointer to stop rather than terminating it: a worker terminated while it loads
   * better-sqlite3 (a store closed as soon as it opened) aborts the whole process, in node-addon-api's
   * fatal error `Error::New napi_get_last_error_info`. A message waits until it has loaded.
   */
  async close() {
    if (this.checkpointer) {
      // Held until it has ended: nothing else may keep the process alive for the rest of close.
      this.checkpointer.ref();
      this.checkpointer.postMessage('stop');
      await this.checkpointerExit;
      this.db.pragma('wal_checkpoint(TRUNCATE)');
    }
    this.db.close();
  }
}
