import { Writable } from 'node:stream';
import { type Booted, type BootOptions, bootServer } from '@lootsmith/test-support/boot';
import { unlimitedDrops } from '@lootsmith/test-support/game-file';
import type Database from 'better-sqlite3';
import type { SqliteStore } from 'lootsmith';

/** `npm run test:reliability` sets this; `npm test` runs the bounded form. */
export const FULL = process.env.LOOTSMITH_RELIABILITY === 'full';

export const UPSTREAM_KEY = 'sk_upstream_reliability_0123456789abcdef';
export const FALLBACK_KEY = 'sk_fallback_reliability_0123456789abcdef';
export const SERVER_KEY = 'server-credential-reliability-0123';
export const PLAYER_SECRET = 'player-secret-reliability-0123456789';

export const auth = (token: string) => ({ authorization: `Bearer ${token}` });

/** Collects every log line a server writes, so suites can prove secrets never reach a log. */
export class LogSink extends Writable {
  lines: string[] = [];
  bytes = 0;
  /** Lines beyond this are counted (and scanned) but not kept, so a soak does not hold them all. */
  constructor(private readonly keep = 20_000) {
    super();
  }
  readonly leaks: string[] = [];
  secrets: string[] = [];
  override _write(chunk: Buffer, _enc: BufferEncoding, done: () => void) {
    const text = chunk.toString();
    this.bytes += text.length;
    for (const s of this.secrets) if (text.includes(s)) this.leaks.push(text.slice(0, 500));
    if (this.lines.length < this.keep) this.lines.push(text);
    done();
  }
}

export interface Harness extends Booted {
  logs: LogSink;
  db: Database.Database;
  /** Server credential: give a player materials. */
  grant(playerId: string, items: Record<string, number>): Promise<void>;
}

/** The server over the scripted fake `/v1` service, with a temporary SQLite store and captured logs. */
export async function boot(
  options: Omit<BootOptions, 'logStream' | 'keys' | 'game' | 'signWhenRefused'> & {
    /** Drop limits raised out of reach, for suites that drop far faster than any player. */
    unlimitedDrops?: boolean;
  } = {},
): Promise<Harness> {
  const logs = new LogSink();
  logs.secrets = [UPSTREAM_KEY, FALLBACK_KEY, SERVER_KEY];
  const booted = await bootServer({
    ...options,
    logLevel: options.logLevel ?? 'info',
    logStream: logs,
    keys: { upstream: UPSTREAM_KEY, server: SERVER_KEY, player: PLAYER_SECRET },
    ...(options.unlimitedDrops ? { game: unlimitedDrops } : {}),
    signWhenRefused: false,
  });
  return {
    ...booted,
    logs,
    db: (booted.server.core.deps.store as SqliteStore).db,
    async grant(playerId, items) {
      const res = await booted.server.app.inject({
        method: 'POST',
        url: `/api/v1/player/${playerId}/inventory/grant`,
        headers: auth(SERVER_KEY),
        payload: { items: Object.entries(items).map(([item_id, quantity]) => ({ item_id, quantity })) },
      });
      if (res.statusCode !== 200) throw new Error(`grant ${playerId}: ${res.statusCode} ${res.body}`);
    },
  };
}

const TABLES = [
  'players',
  'items',
  'inventory',
  'ledger',
  'recipes',
  'discoveries',
  'icons',
  'daily_usage',
  'idempotency',
  'rate_limits',
  'drop_grants',
  'equipment',
] as const;
export type Table = (typeof TABLES)[number];

/**
 * Every row of every table as text, each table's rows sorted (some tables have no rowid to order
 * them by): two equal dumps mean an unchanged store.
 */
export function dumpStore(db: Database.Database, tables: readonly Table[] = TABLES): string {
  const out: string[] = [];
  for (const table of tables) {
    out.push(`-- ${table}`);
    const rows = db.prepare(`SELECT * FROM ${table}`).all() as Record<string, unknown>[];
    out.push(
      ...rows
        .map((row) =>
          JSON.stringify(row, (_k, v) =>
            v && typeof v === 'object' && (v as { type?: string }).type === 'Buffer'
              ? Buffer.from((v as { data: number[] }).data).toString('hex')
              : v,
          ),
        )
        .sort(),
    );
  }
  return out.join('\n');
}

/** The tables a failed request must leave alone: what players own and what they are charged. */
export const MATERIAL_TABLES: Table[] = [
  'players',
  'items',
  'inventory',
  'ledger',
  'discoveries',
  'daily_usage',
  'equipment',
];

export interface LedgerReport {
  /** (player, item) pairs whose inventory differs from the sum of their ledger entries. */
  unbalanced: Array<{ player_id: string; item_id: string; ledger: number; inventory: number }>;
  /** Stored items not granted exactly once. */
  duplicated: string[];
  negative: number;
}

/**
 * The ledger check's statements. Each reads the ledger and the stacks by item through an index
 * (`ledger_item`, `inventory_item`), so the check grows with what was served, not with its square.
 */
export const LEDGER_CHECK = {
  /** (player, item) pairs whose stack differs from the sum of their ledger entries. */
  unbalanced: `SELECT l.player_id, l.item_id, l.total AS ledger, COALESCE(i.quantity, 0) AS inventory
    FROM (SELECT player_id, item_id, SUM(delta) AS total FROM ledger GROUP BY player_id, item_id) l
    LEFT JOIN inventory i ON i.player_id = l.player_id AND i.item_id = l.item_id
    WHERE l.total <> COALESCE(i.quantity, 0)
    UNION ALL
    SELECT i.player_id, i.item_id, 0, i.quantity FROM inventory i
    WHERE NOT EXISTS (SELECT 1 FROM ledger l WHERE l.player_id = i.player_id AND l.item_id = i.item_id)`,
  /** Stored items not granted exactly once, or held more than once. */
  duplicated: `SELECT it.id FROM items it
    WHERE (SELECT COUNT(*) FROM ledger l WHERE l.item_id = it.id AND l.delta > 0) <> 1
       OR (SELECT COALESCE(SUM(quantity), 0) FROM inventory v WHERE v.item_id = it.id) > 1`,
  negative: 'SELECT COUNT(*) AS n FROM inventory WHERE quantity <= 0',
};

/** The inventory must equal the ledger's running sum, and every stored item is granted exactly once. */
export function checkLedger(db: Database.Database): LedgerReport {
  return {
    unbalanced: db.prepare(LEDGER_CHECK.unbalanced).all() as LedgerReport['unbalanced'],
    duplicated: (db.prepare(LEDGER_CHECK.duplicated).all() as Array<{ id: string }>).map((r) => r.id),
    negative: (db.prepare(LEDGER_CHECK.negative).get() as { n: number }).n,
  };
}

/** The p-th percentile (0–100) of a list of numbers. */
export function percentile(values: number[], p: number): number {
  if (!values.length) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}
