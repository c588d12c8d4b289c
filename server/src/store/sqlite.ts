import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Item, Recipe } from '@lootsmith/protocol';
import Database from 'better-sqlite3';
import { AdminQueries, sqliteDb } from './admin-queries.ts';
import type { AdminStore } from './admin-store.ts';
import { groupCall, groupRead } from './group.ts';
import { migrationsFor } from './migrations.ts';
import { POOL_BUDGET_WINDOW_MS, poolBudgetKey, poolRoom } from './pool-limits.ts';
import {
  EQUIPMENT_OF_PLAYER,
  now,
  type PlayerRow,
  RECIPES_OF_PLAYER,
  type RecipeRow,
  toPlayer,
  toRecipe,
} from './rows.ts';
import {
  type CraftInput,
  type CraftResult,
  InsufficientError,
  type InventoryRead,
  PLAYER_SETTINGS,
  type PlayerRecord,
  type PoolClaim,
  type PoolSlotRequest,
  type PoolStock,
  type Reservation,
  ReservationRefused,
  type ReservationRequest,
  type Stack,
  type Store,
  type StoredResponse,
} from './store.ts';

// Checkpoints the WAL from a second connection in a worker thread, so no request's commit pays for
// copying the log back into the database (SQLite's default does it inside whichever commit crosses
// 1,000 pages). PASSIVE never blocks writers.
const CHECKPOINTER = `
const { workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 1000');
setInterval(() => {
  try { db.pragma('wal_checkpoint(PASSIVE)'); } catch {}
}, workerData.intervalMs);
`;
const CHECKPOINT_INTERVAL_MS = 200;

type UsageKind = ReservationRequest['usage']['kind'];
const usageStatements = (db: Database.Database, k: UsageKind) => ({
  // One statement: the day's row made or counted up, unless that would pass the limit (no row back).
  take: db.prepare<[string, string, number, number | null, number | null], { used: number }>(
    `INSERT INTO daily_usage (player_id, day, ${k}) VALUES (?, ?, ?)
     ON CONFLICT (player_id, day) DO UPDATE SET ${k} = ${k} + excluded.${k}
     WHERE ? IS NULL OR ${k} + excluded.${k} <= ? RETURNING ${k} AS used`,
  ),
  give: db.prepare(`UPDATE daily_usage SET ${k} = ${k} - ? WHERE player_id = ? AND day = ? AND ${k} >= ?`),
});

// Every statement of the request paths is compiled once: compiling SQL costs more than running it.
function prepareStatements(db: Database.Database) {
  return {
    player: db.prepare<[string], PlayerRow>('SELECT * FROM players WHERE id = ?'),
    insertPlayer: db.prepare('INSERT INTO players (id, created_at) VALUES (?, ?)'),
    inventoryVersions: db.prepare<[string], { id: string; inventory_version: number; blocked: number }>(
      'SELECT p.id, p.inventory_version, p.blocked FROM json_each(?) j JOIN players p ON p.id = j.value',
    ),
    bumpVersion: db.prepare('UPDATE players SET inventory_version = inventory_version + 1 WHERE id = ?'),
    stacks: db.prepare<[string], Stack & { data: string | null }>(
      `SELECT s.item_id, s.quantity, i.data FROM inventory s LEFT JOIN items i ON i.id = s.item_id
       WHERE s.player_id = ? ORDER BY s.rowid`,
    ),
    recipes: db.prepare<[string], RecipeRow>(RECIPES_OF_PLAYER.replace('$1', '?')),
    limits: db.prepare<
      [string],
      { blocked: number; daily_items: number | null; daily_images: number | null }
    >('SELECT blocked, daily_items, daily_images FROM players WHERE id = ?'),
    usage: db.prepare<[string, string], { items: number; images: number }>(
      'SELECT items, images FROM daily_usage WHERE player_id = ? AND day = ?',
    ),
    dropEmptyUsage: db.prepare(
      'DELETE FROM daily_usage WHERE player_id = ? AND day = ? AND items = 0 AND images = 0',
    ),
    items: usageStatements(db, 'items'),
    images: usageStatements(db, 'images'),
    window: db.prepare<[string], { count: number; reset_at: number }>(
      'SELECT count, reset_at FROM rate_limits WHERE key = ?',
    ),
    // One statement for every fixed window: opened, reopened when it has run out, or counted up below
    // its max (no row back when it is full).
    hitWindow: db.prepare<
      [string, number, number, number, number, number],
      { count: number; reset_at: number }
    >(
      `INSERT INTO rate_limits (key, count, reset_at) VALUES (?, 1, ?)
       ON CONFLICT (key) DO UPDATE SET
         count = CASE WHEN reset_at <= ? THEN 1 ELSE count + 1 END,
         reset_at = CASE WHEN reset_at <= ? THEN excluded.reset_at ELSE reset_at END
       WHERE reset_at <= ? OR count < ? RETURNING count, reset_at`,
    ),
    uncountWindow: db.prepare(
      'UPDATE rate_limits SET count = count - 1 WHERE key = ? AND reset_at = ? AND count > 0',
    ),
    dropEmptyWindow: db.prepare('DELETE FROM rate_limits WHERE key = ? AND count = 0'),
    expireGrants: db.prepare('DELETE FROM drop_grants WHERE expires_at <= ?'),
    spendGrant: db.prepare('INSERT OR IGNORE INTO drop_grants (id, player_id, expires_at) VALUES (?, ?, ?)'),
    returnGrant: db.prepare('DELETE FROM drop_grants WHERE id = ?'),
    stack: db.prepare<[string, string], { quantity: number }>(
      'SELECT quantity FROM inventory WHERE player_id = ? AND item_id = ?',
    ),
    upsertStack: db.prepare(
      `INSERT INTO inventory (player_id, item_id, quantity) VALUES (?, ?, ?)
       ON CONFLICT (player_id, item_id) DO UPDATE SET quantity = quantity + excluded.quantity`,
    ),
    setStack: db.prepare('UPDATE inventory SET quantity = ? WHERE player_id = ? AND item_id = ?'),
    deleteStack: db.prepare('DELETE FROM inventory WHERE player_id = ? AND item_id = ?'),
    ledger: db.prepare(
      'INSERT INTO ledger (player_id, item_id, delta, reason, created_at) VALUES (?, ?, ?, ?, ?)',
    ),
    insertItem: db.prepare('INSERT INTO items (id, owner, name, data, created_at) VALUES (?, ?, ?, ?, ?)'),
  };
}

interface PendingReservation {
  request: ReservationRequest;
  at: number;
}

/** The default store: one SQLite file in WAL mode; better-sqlite3 transactions are synchronous, so atomic. */
export class SqliteStore implements Store {
  readonly db: Database.Database;
  readonly admin: AdminStore;
  private readonly checkpointer?: Worker;
  private readonly statements: ReturnType<typeof prepareStatements>;
  /** Reservations made while the event loop is busy, taken by one transaction at its next turn. */
  private readonly reserveInGroup: (pending: PendingReservation) => Promise<Reservation | ReservationRefused>;
  private readonly releaseTx: (reservation: Reservation) => void;

  constructor(dataDir: string | ':memory:') {
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
      this.checkpointer.unref();
    }
    this.migrate();
    this.admin = new AdminQueries(sqliteDb(this.db));
    this.statements = prepareStatements(this.db);
    // Each reservation in a savepoint of its own, so a refused one takes nothing and the others stand.
    const reserveOne = this.db.transaction((request: ReservationRequest, at: number) =>
      this.take(request, at),
    );
    // IMMEDIATE: the write lock is taken before the first read, so instances sharing the file queue.
    const reserveAll = this.db.transaction((batch: PendingReservation[]) => {
      // Alone, a reservation needs no savepoint: its refusal rolls back the whole transaction.
      const [only] = batch;
      if (batch.length === 1 && only) return [this.take(only.request, only.at)];
      return batch.map(({ request, at }) => {
        try {
          return reserveOne(request, at);
        } catch (err) {
          if (err instanceof ReservationRefused) return err;
          throw err;
        }
      });
    });
    this.reserveInGroup = groupCall((batch: PendingReservation[]) => reserveAll.immediate(batch));
    this.releaseTx = this.db.transaction((reservation: Reservation) => this.giveBack(reservation));
  }

  /** The SQL of the statements on the request paths, by name (the benchmark EXPLAINs them). */
  hotStatements(): Record<string, string> {
    const { player, inventoryVersions, stacks, recipes, limits, images, hitWindow } = this.statements;
    return {
      player: player.source,
      inventoryVersions: inventoryVersions.source,
      stacks: stacks.source,
      recipes: recipes.source,
      limits: limits.source,
      takeImages: images.take.source,
      hitWindow: hitWindow.source,
    };
  }

  private migrate() {
    this.db.exec('CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)');
    const row = this.db.prepare('SELECT version FROM schema_version').get() as
      | { version: number }
      | undefined;
    const current = row?.version ?? 0;
    this.db.transaction(() => {
      const migrations = migrationsFor('sqlite');
      for (const sql of migrations.slice(current)) this.db.exec(sql);
      if (!row) this.db.prepare('INSERT INTO schema_version (version) VALUES (?)').run(migrations.length);
      else this.db.prepare('UPDATE schema_version SET version = ?').run(migrations.length);
    })();
  }

  private applyStack(playerId: string, itemId: string, delta: number, reason: string) {
    if (delta > 0) this.statements.upsertStack.run(playerId, itemId, delta);
    else {
      const have = this.statements.stack.get(playerId, itemId)?.quantity ?? 0;
      if (have < -delta) throw new InsufficientError([{ item_id: itemId, have, need: -delta }]);
      if (have === -delta) this.statements.deleteStack.run(playerId, itemId);
      else this.statements.setStack.run(have + delta, playerId, itemId);
    }
    this.statements.ledger.run(playerId, itemId, delta, reason, now());
  }

  /** Checks every removal first so the error lists all that is missing, then applies. */
  private spend(playerId: string, stacks: Stack[], reason: string) {
    const missing = stacks
      .map((s) => ({
        item_id: s.item_id,
        have: this.statements.stack.get(playerId, s.item_id)?.quantity ?? 0,
        need: s.quantity,
      }))
      .filter((m) => m.have < m.need);
    if (missing.length) throw new InsufficientError(missing);
    for (const s of stacks) this.applyStack(playerId, s.item_id, -s.quantity, reason);
  }

  async ensurePlayer(id: string, starting: Stack[]): Promise<PlayerRecord> {
    // Players are never deleted: one found needs no write transaction.
    const known = this.statements.player.get(id);
    if (known) return toPlayer(known);
    return this.db.transaction(() => {
      const found = this.statements.player.get(id);
      if (found) return toPlayer(found);
      this.statements.insertPlayer.run(id, now());
      for (const s of starting) this.applyStack(id, s.item_id, s.quantity, 'starting');
      return toPlayer(this.statements.player.get(id) as PlayerRow);
    })();
  }

  /** Read in groups: the players asked for during one turn of the event loop in one statement. */
  private readonly versionOf = groupRead((ids) => {
    const rows = this.statements.inventoryVersions.all(JSON.stringify(ids));
    return new Map(rows.map((r) => [r.id, { version: r.inventory_version, blocked: r.blocked === 1 }]));
  });

  async inventoryVersion(playerId: string) {
    return (await this.versionOf(playerId)) ?? null;
  }

  async getPlayer(id: string) {
    const row = this.statements.player.get(id);
    return row ? toPlayer(row) : null;
  }

  async updatePlayer(id: string, patch: Partial<Omit<PlayerRecord, 'id'>>) {
    return this.db.transaction(() => {
      if (!this.statements.player.get(id)) this.statements.insertPlayer.run(id, now());
      this.statements.bumpVersion.run(id);
      for (const col of PLAYER_SETTINGS) {
        const value = patch[col];
        if (value === undefined) continue;
        this.db
          .prepare(`UPDATE players SET ${col} = ? WHERE id = ?`)
          .run(typeof value === 'boolean' ? Number(value) : value, id);
      }
      return toPlayer(this.statements.player.get(id) as PlayerRow);
    })();
  }

  async stacks(playerId: string): Promise<Stack[]> {
    return this.statements.stacks.all(playerId).map(({ item_id, quantity }) => ({ item_id, quantity }));
  }

  async inventory(playerId: string): Promise<InventoryRead | null> {
    // Three reads without a transaction: a write between them (another instance) changes nothing they promise.
    const row = this.statements.player.get(playerId);
    if (!row) return null;
    return {
      version: row.inventory_version,
      player: toPlayer(row),
      stacks: this.statements.stacks.all(playerId),
      recipes: this.statements.recipes.all(playerId).map(toRecipe),
    };
  }

  async getItems(ids: string[]): Promise<Item[]> {
    if (!ids.length) return [];
    const rows = this.db
      .prepare<string[], { data: string }>(
        `SELECT data FROM items WHERE id IN (${ids.map(() => '?').join(',')})`,
      )
      .all(...ids);
    return rows.map((r) => JSON.parse(r.data) as Item);
  }

  async playerItemNames(playerId: string): Promise<string[]> {
    return this.db
      .prepare<[string], { name: string }>('SELECT name FROM items WHERE owner = ?')
      .all(playerId)
      .map((r) => r.name);
  }

  async grantLoot(playerId: string, items: Item[], stacks: Stack[], reason: string) {
    this.db.transaction(() => {
      for (const item of items) {
        this.statements.insertItem.run(item.id, playerId, item.name, JSON.stringify(item), item.created_at);
        this.applyStack(playerId, item.id, 1, reason);
      }
      for (const s of stacks) this.applyStack(playerId, s.item_id, s.quantity, reason);
      this.statements.bumpVersion.run(playerId);
    })();
  }

  async changeStacks(playerId: string, changes: Stack[], reason: string) {
    this.db.transaction(() => {
      this.spend(
        playerId,
        changes.filter((c) => c.quantity < 0).map((c) => ({ item_id: c.item_id, quantity: -c.quantity })),
        reason,
      );
      for (const c of changes) if (c.quantity > 0) this.applyStack(playerId, c.item_id, c.quantity, reason);
      this.statements.bumpVersion.run(playerId);
    })();
  }

  async craft(input: CraftInput): Promise<CraftResult> {
    return this.db.transaction(() => {
      const { playerId, item, recipe } = input;
      this.spend(playerId, input.consume, input.reason);
      this.statements.insertItem.run(item.id, playerId, item.name, JSON.stringify(item), item.created_at);
      this.applyStack(playerId, item.id, 1, input.reason);
      let discovered = false;
      if (recipe) {
        this.db
          .prepare(
            'INSERT OR IGNORE INTO recipes (key, template, ingredients, station, tool, created_at) VALUES (?, ?, ?, ?, ?, ?)',
          )
          .run(
            recipe.key,
            JSON.stringify(item),
            JSON.stringify(recipe.ingredients),
            recipe.station,
            recipe.tool,
            now(),
          );
        discovered =
          this.db
            .prepare('INSERT OR IGNORE INTO discoveries (player_id, recipe_key, created_at) VALUES (?, ?, ?)')
            .run(playerId, recipe.key, now()).changes === 1;
      }
      const xpEarned = input.xp + (discovered ? input.discoveryXp : 0);
      this.db
        .prepare(
          'UPDATE players SET crafting_xp = crafting_xp + ?, inventory_version = inventory_version + 1 WHERE id = ?',
        )
        .run(xpEarned, playerId);
      return { discovered, xpEarned };
    })();
  }

  async recipe(key: string): Promise<Item | null> {
    const row = this.db
      .prepare<[string], { template: string }>('SELECT template FROM recipes WHERE key = ?')
      .get(key);
    return row ? (JSON.parse(row.template) as Item) : null;
  }

  async recipes(playerId: string): Promise<Recipe[]> {
    return this.statements.recipes.all(playerId).map(toRecipe);
  }

  async icon(id: string) {
    const row = this.db.prepare<[string], { png: Buffer }>('SELECT png FROM icons WHERE id = ?').get(id);
    return row?.png ?? null;
  }

  async putIcon(id: string, prompt: string, png: Buffer) {
    this.db
      .prepare('INSERT OR IGNORE INTO icons (id, prompt, png, created_at) VALUES (?, ?, ?, ?)')
      .run(id, prompt, png, now());
  }

  async dailyUsage(playerId: string, day: string) {
    return this.statements.usage.get(playerId, day) ?? { items: 0, images: 0 };
  }

  /**
   * Group commit: the reservations made while the event loop is busy are taken in one transaction at
   * its next turn, each as exactly as alone (in order, each in its savepoint), and none is answered
   * before that transaction has committed. One commit serves many concurrent requests.
   */
  async reserve(request: ReservationRequest, at: number): Promise<Reservation> {
    const outcome = await this.reserveInGroup({ request, at });
    if (outcome instanceof ReservationRefused) throw outcome;
    return outcome;
  }

  /** The body of `reserve`, inside its transaction: a refusal throws and rolls everything back. */
  private take(request: ReservationRequest, at: number): Reservation {
    const { playerId, day, usage, grant } = request;
    let limit = usage.limit;
    if (limit === 'recorded') {
      const player = this.statements.limits.get(playerId);
      if (!player || player.blocked) throw new ReservationRefused({ kind: 'blocked' });
      limit = usage.kind === 'items' ? player.daily_items : player.daily_images;
    }
    const taken =
      (limit === null || usage.n <= limit) &&
      this.statements[usage.kind].take.get(playerId, day, usage.n, limit, limit);
    if (!taken)
      throw new ReservationRefused({
        kind: 'budget',
        used: this.statements.usage.get(playerId, day)?.[usage.kind] ?? 0,
        limit: limit ?? 0,
      });
    const windows = (request.windows ?? []).map((w) => {
      const end = at + w.windowMs;
      const row = this.statements.hitWindow.get(w.key, end, at, at, at, w.max);
      if (!row)
        throw new ReservationRefused({
          kind: 'window',
          key: w.key,
          max: w.max,
          windowMs: w.windowMs,
          resetAt: this.statements.window.get(w.key)?.reset_at ?? end,
        });
      return { ...w, resetAt: row.reset_at };
    });
    if (grant) {
      this.statements.expireGrants.run(at);
      if (this.statements.spendGrant.run(grant.id, grant.playerId, grant.expiresAt).changes === 0)
        throw new ReservationRefused({ kind: 'grant_used' });
    }
    return { ...request, windows };
  }

  async release(r: Reservation) {
    this.releaseTx(r);
  }

  private giveBack(r: Reservation) {
    const { kind, n } = r.usage;
    this.statements[kind].give.run(n, r.playerId, r.day, n);
    // Rows that only this reservation made go, so a failed request leaves the store as it found it.
    this.statements.dropEmptyUsage.run(r.playerId, r.day);
    for (const w of r.windows) {
      if (w.kept) continue;
      this.statements.uncountWindow.run(w.key, w.resetAt);
      this.statements.dropEmptyWindow.run(w.key);
    }
    if (r.grant) this.statements.returnGrant.run(r.grant.id);
  }

  async recordClaimedLevel(playerId: string, level: number) {
    this.db
      .prepare('UPDATE players SET claimed_level = MAX(COALESCE(claimed_level, 0), ?) WHERE id = ?')
      .run(level, playerId);
  }

  async equipment(playerId: string) {
    return this.db
      .prepare<[string], { slot: string; item_id: string }>(EQUIPMENT_OF_PLAYER.replace('$1', '?'))
      .all(playerId);
  }

  async equip(playerId: string, slot: string, itemId: string) {
    this.db.transaction(() => {
      if (!this.statements.stack.get(playerId, itemId))
        throw new InsufficientError([{ item_id: itemId, have: 0, need: 1 }]);
      this.db
        .prepare('DELETE FROM equipment WHERE player_id = ? AND item_id = ? AND slot <> ?')
        .run(playerId, itemId, slot);
      this.db
        .prepare(
          `INSERT INTO equipment (player_id, slot, item_id, equipped_at) VALUES (?, ?, ?, ?)
           ON CONFLICT (player_id, slot) DO UPDATE SET item_id = excluded.item_id, equipped_at = excluded.equipped_at`,
        )
        .run(playerId, slot, itemId, now());
    })();
  }

  async unequip(playerId: string, slot: string) {
    this.db.prepare('DELETE FROM equipment WHERE player_id = ? AND slot = ?').run(playerId, slot);
  }

  async reservePoolSlots(request: PoolSlotRequest, at: number) {
    return this.db
      .transaction(() => {
        const { game, bucket } = request;
        this.db
          .prepare('DELETE FROM pool_items WHERE game = ? AND data IS NULL AND lease_until <= ?')
          .run(game, at);
        const live = 'game = ? AND (data IS NOT NULL OR lease_until > ?)';
        const count = (sql: string, ...args: unknown[]) =>
          (this.db.prepare(sql).get(...args) as { n: number }).n;
        const key = poolBudgetKey(game);
        const budget = this.db
          .prepare<[string], { count: number; reset_at: number }>(
            'SELECT count, reset_at FROM rate_limits WHERE key = ?',
          )
          .get(key);
        const current = budget && budget.reset_at > at;
        const { n, refused } = poolRoom(request, {
          bucket: count(
            `SELECT count(*) AS n FROM pool_items WHERE ${live} AND bucket = ?`,
            game,
            at,
            bucket,
          ),
          total: count(`SELECT count(*) AS n FROM pool_items WHERE ${live}`, game, at),
          spent: current ? budget.count : 0,
        });
        const slots = request.wants.slice(0, n);
        if (!n) return { slots, refused };
        if (current) this.db.prepare('UPDATE rate_limits SET count = count + ? WHERE key = ?').run(n, key);
        else
          this.db
            .prepare('INSERT OR REPLACE INTO rate_limits (key, count, reset_at) VALUES (?, ?, ?)')
            .run(key, n, at + POOL_BUDGET_WINDOW_MS);
        const insert = this.db.prepare(
          'INSERT INTO pool_items (id, game, bucket, rarity, level, lease_until, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
        );
        for (const s of slots) insert.run(s.id, game, bucket, s.rarity, s.level, at + request.leaseMs, at);
        return { slots, refused };
      })
      .immediate();
  }

  async fillPoolSlot(id: string, item: Item) {
    return (
      this.db
        .prepare('UPDATE pool_items SET data = ?, name = ?, lease_until = NULL WHERE id = ? AND data IS NULL')
        .run(JSON.stringify(item), item.name.toLowerCase(), id).changes === 1
    );
  }

  async releasePoolSlots(ids: string[]) {
    const drop = this.db.prepare('DELETE FROM pool_items WHERE id = ? AND data IS NULL');
    this.db.transaction(() => {
      for (const id of ids) drop.run(id);
    })();
  }

  async claimPoolItems(game: string, claims: PoolClaim[], excludeNames: string[]) {
    const take = this.db.prepare<unknown[], { data: string }>(
      `DELETE FROM pool_items WHERE id = (
         SELECT id FROM pool_items
         WHERE game = ? AND bucket = ? AND rarity = ? AND level BETWEEN ? AND ? AND data IS NOT NULL
           AND name NOT IN (SELECT value FROM json_each(?))
         ORDER BY created_at, id LIMIT 1)
       RETURNING data`,
    );
    return this.db
      .transaction(() => {
        const names = [...excludeNames];
        return claims.map((c) => {
          const row = take.get(game, c.bucket, c.rarity, c.minLevel, c.maxLevel, JSON.stringify(names));
          if (!row) return null;
          const item = JSON.parse(row.data) as Item;
          names.push(item.name.toLowerCase());
          return item;
        });
      })
      .immediate();
  }

  async returnPoolItems(game: string, items: Array<{ bucket: string; item: Item }>, at: number) {
    const put = this.db.prepare(
      'INSERT OR IGNORE INTO pool_items (id, game, bucket, rarity, level, name, data, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    );
    this.db.transaction(() => {
      for (const { bucket, item } of items)
        put.run(
          item.id,
          game,
          bucket,
          item.rarity,
          item.level,
          item.name.toLowerCase(),
          JSON.stringify(item),
          at,
        );
    })();
  }

  async poolStock(game: string, at: number): Promise<PoolStock[]> {
    return this.db
      .prepare<[number, string], PoolStock>(
        `SELECT bucket, rarity, SUM(data IS NOT NULL) AS ready, SUM(data IS NULL AND lease_until > ?) AS pending
         FROM pool_items WHERE game = ? GROUP BY bucket, rarity ORDER BY bucket, rarity`,
      )
      .all(at, game);
  }

  async idempotent(scope: string): Promise<StoredResponse | null> {
    return (
      this.db
        .prepare<[string], StoredResponse>('SELECT status, body FROM idempotency WHERE scope = ?')
        .get(scope) ?? null
    );
  }

  async saveIdempotent(scope: string, response: StoredResponse) {
    this.db
      .prepare('INSERT OR IGNORE INTO idempotency (scope, status, body, created_at) VALUES (?, ?, ?, ?)')
      .run(scope, response.status, response.body, now());
  }

  /** Counts a hit in its window with no max (the rate-limit plugin compares the count itself). */
  async hit(key: string, windowMs: number, at: number) {
    const row = this.statements.hitWindow.get(key, at + windowMs, at, at, at, Number.MAX_SAFE_INTEGER);
    if (!row) throw new Error(`window ${key} was not counted`);
    return { count: row.count, resetAt: row.reset_at };
  }

  async close() {
    if (this.checkpointer) {
      await this.checkpointer.terminate();
      this.db.pragma('wal_checkpoint(TRUNCATE)');
    }
    this.db.close();
  }
}
