import type { Item, Recipe } from '@lootsmith/protocol';
import pg from 'pg';
import { AdminQueries, postgresDb } from './admin-queries.ts';
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
  type Refusal,
  type Reservation,
  ReservationRefused,
  type ReservationRequest,
  type Stack,
  type Store,
  type StoredResponse,
} from './store.ts';

type Client = pg.PoolClient;

export const PLAYER = 'SELECT * FROM players WHERE id = $1';
export const INVENTORY_VERSIONS = 'SELECT id, inventory_version, blocked FROM players WHERE id = ANY($1)';
const REFUSED = 'lootsmith: reservation refused';
/** PostgreSQL's error code for a deadlock it broke by failing one side. */
const DEADLOCK = '40P01';

/**
 * One reservation (`lootsmith_reserve_group` calls it for each of a group): all of it or none. Each
 * step is a conditional statement on a locked row (the upserts check their limit against the row's
 * latest value), so concurrent reservations queue on it; a refusal raises with its reason, rolling
 * the reservation back. Returns the reset time of each window, in the order given.
 */
const RESERVE_FUNCTION = `CREATE OR REPLACE FUNCTION lootsmith_reserve(
  p_player text, p_day text, p_kind text, p_n int, p_recorded boolean, p_limit int,
  p_keys text[], p_window_ms bigint[], p_max int[], p_at bigint,
  p_grant text, p_grant_player text, p_grant_expires bigint
) RETURNS bigint[] LANGUAGE plpgsql AS $fn$
DECLARE
  lim int := p_limit;
  is_blocked int;
  used int;
  reset bigint;
  resets bigint[] := '{}';
BEGIN
  IF p_recorded THEN
    SELECT blocked, CASE WHEN p_kind = 'items' THEN daily_items ELSE daily_images END
      INTO is_blocked, lim FROM players WHERE id = p_player;
    IF NOT FOUND OR is_blocked <> 0 THEN
      RAISE EXCEPTION '${REFUSED}' USING DETAIL = '{"kind":"blocked"}';
    END IF;
  END IF;
  IF p_kind = 'items' THEN
    INSERT INTO daily_usage AS u (player_id, day, items) SELECT p_player, p_day, p_n WHERE lim IS NULL OR p_n <= lim
    ON CONFLICT (player_id, day) DO UPDATE SET items = u.items + excluded.items
      WHERE lim IS NULL OR u.items + excluded.items <= lim
    RETURNING u.items INTO used;
  ELSE
    INSERT INTO daily_usage AS u (player_id, day, images) SELECT p_player, p_day, p_n WHERE lim IS NULL OR p_n <= lim
    ON CONFLICT (player_id, day) DO UPDATE SET images = u.images + excluded.images
      WHERE lim IS NULL OR u.images + excluded.images <= lim
    RETURNING u.images INTO used;
  END IF;
  IF used IS NULL THEN
    SELECT CASE WHEN p_kind = 'items' THEN items ELSE images END INTO used
      FROM daily_usage WHERE player_id = p_player AND day = p_day;
    RAISE EXCEPTION '${REFUSED}' USING DETAIL =
      json_build_object('kind', 'budget', 'used', COALESCE(used, 0), 'limit', COALESCE(lim, 0))::text;
  END IF;
  FOR i IN 1 .. COALESCE(array_length(p_keys, 1), 0) LOOP
    reset := NULL;
    INSERT INTO rate_limits AS w (key, count, reset_at) VALUES (p_keys[i], 1, p_at + p_window_ms[i])
    ON CONFLICT (key) DO UPDATE SET
      count = CASE WHEN w.reset_at <= p_at THEN 1 ELSE w.count + 1 END,
      reset_at = CASE WHEN w.reset_at <= p_at THEN excluded.reset_at ELSE w.reset_at END
      WHERE w.reset_at <= p_at OR w.count < p_max[i]
    RETURNING w.reset_at INTO reset;
    IF reset IS NULL THEN
      SELECT w.reset_at INTO reset FROM rate_limits w WHERE w.key = p_keys[i];
      RAISE EXCEPTION '${REFUSED}' USING DETAIL = json_build_object('kind', 'window', 'key', p_keys[i],
        'max', p_max[i], 'windowMs', p_window_ms[i], 'resetAt', COALESCE(reset, p_at + p_window_ms[i]))::text;
    END IF;
    resets := resets || reset;
  END LOOP;
  IF p_grant IS NOT NULL THEN
    INSERT INTO drop_grants (id, player_id, expires_at) VALUES (p_grant, p_grant_player, p_grant_expires)
      ON CONFLICT DO NOTHING;
    IF NOT FOUND THEN
      RAISE EXCEPTION '${REFUSED}' USING DETAIL = '{"kind":"grant_used"}';
    END IF;
  END IF;
  RETURN resets;
END
$fn$`;
/**
 * Group commit of `Store.reserve`: the reservations in `p_batch` (a JSON array, players in one order)
 * are taken by one call, in one transaction, each in its own subtransaction (a refusal rolls back that
 * one alone and is answered with its reason). Spent grants that have expired are cleared first, before
 * any player's rows are locked. Answers a JSON array in the batch's order: `{resets}` or `{refused}`.
 */
const RESERVE_GROUP_FUNCTION = `CREATE OR REPLACE FUNCTION lootsmith_reserve_group(p_batch jsonb, p_expire_before bigint)
RETURNS jsonb LANGUAGE plpgsql AS $fn$
DECLARE
  r jsonb;
  detail text;
  results jsonb := '[]';
BEGIN
  IF p_expire_before IS NOT NULL THEN
    DELETE FROM drop_grants WHERE expires_at <= p_expire_before;
  END IF;
  FOR r IN SELECT value FROM jsonb_array_elements(p_batch) LOOP
    BEGIN
      results := results || jsonb_build_object('resets', to_jsonb(lootsmith_reserve(
        r->>'player', r->>'day', r->>'kind', (r->>'n')::int, (r->>'recorded')::boolean, (r->>'limit')::int,
        (SELECT array_agg(x ORDER BY i) FROM jsonb_array_elements_text(r->'keys') WITH ORDINALITY t(x, i)),
        (SELECT array_agg(x::bigint ORDER BY i) FROM jsonb_array_elements_text(r->'windowMs') WITH ORDINALITY t(x, i)),
        (SELECT array_agg(x::int ORDER BY i) FROM jsonb_array_elements_text(r->'max') WITH ORDINALITY t(x, i)),
        (r->>'at')::bigint, r->>'grant', r->>'grantPlayer', (r->>'grantExpires')::bigint)));
    EXCEPTION WHEN raise_exception THEN
      GET STACKED DIAGNOSTICS detail = PG_EXCEPTION_DETAIL;
      IF SQLERRM <> '${REFUSED}' THEN RAISE; END IF;
      results := results || jsonb_build_object('refused', detail::jsonb);
    END;
  END LOOP;
  RETURN results;
END
$fn$`;
/**
 * Most reservations one group call takes: each is a subtransaction, and a transaction with more than
 * 64 of them slows every other session's snapshot checks.
 */
const GROUP_MAX = 32;
const BUMP_VERSION = 'UPDATE players SET inventory_version = inventory_version + 1 WHERE id = $1';

/** A player's record, stacks with their items' JSON text and recipe book, in one round trip. */
export const INVENTORY = `SELECT p.*,
  (SELECT COALESCE(json_agg(json_build_object('item_id', s.item_id, 'quantity', s.quantity, 'data', i.data)
     ORDER BY s.ctid), '[]') FROM inventory s LEFT JOIN items i ON i.id = s.item_id WHERE s.player_id = p.id) AS stacks,
  (SELECT COALESCE(json_agg(r ORDER BY r.created_at), '[]') FROM (${RECIPES_OF_PLAYER.replace('$1', 'p.id')}) r) AS recipes
  FROM players p WHERE p.id = $1`;

const MIGRATION_LOCK = 74_211_009;

/**
 * The store for several instances: PostgreSQL with the same migrations and guarantees as SQLite.
 * Spending locks the player's inventory rows (`FOR UPDATE`), so concurrent crafts serialise per row.
 */
export class PostgresStore implements Store {
  readonly admin: AdminStore;

  private constructor(private readonly pool: pg.Pool) {
    this.admin = new AdminQueries(postgresDb(pool));
  }

  static async connect(url: string, options: { max?: number } = {}): Promise<PostgresStore> {
    const pool = new pg.Pool({ connectionString: url, max: options.max ?? 20 });
    pool.on('error', () => {});
    const store = new PostgresStore(pool);
    await store.migrate();
    return store;
  }

  private async migrate() {
    await this.tx(async (c) => {
      // Instances starting together take turns; the second sees the first one's version.
      await c.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
      await c.query('CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)');
      const { rows } = await c.query<{ version: number }>('SELECT version FROM schema_version');
      const current = rows[0]?.version ?? 0;
      const migrations = migrationsFor('postgres');
      for (const sql of migrations.slice(current)) await c.query(sql);
      if (!rows.length)
        await c.query('INSERT INTO schema_version (version) VALUES ($1)', [migrations.length]);
      else await c.query('UPDATE schema_version SET version = $1', [migrations.length]);
      await c.query(RESERVE_FUNCTION);
      await c.query(RESERVE_GROUP_FUNCTION);
    });
  }

  private async tx<T>(work: (c: Client) => Promise<T>): Promise<T> {
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

  private async applyStack(c: Client, playerId: string, itemId: string, delta: number, reason: string) {
    if (delta > 0)
      await c.query(
        `INSERT INTO inventory (player_id, item_id, quantity) VALUES ($1, $2, $3)
         ON CONFLICT (player_id, item_id) DO UPDATE SET quantity = inventory.quantity + excluded.quantity`,
        [playerId, itemId, delta],
      );
    else {
      const { rows } = await c.query<{ quantity: number }>(
        'SELECT quantity FROM inventory WHERE player_id = $1 AND item_id = $2 FOR UPDATE',
        [playerId, itemId],
      );
      const have = rows[0]?.quantity ?? 0;
      if (have < -delta) throw new InsufficientError([{ item_id: itemId, have, need: -delta }]);
      if (have === -delta)
        await c.query('DELETE FROM inventory WHERE player_id = $1 AND item_id = $2', [playerId, itemId]);
      else
        await c.query('UPDATE inventory SET quantity = $1 WHERE player_id = $2 AND item_id = $3', [
          have + delta,
          playerId,
          itemId,
        ]);
    }
    await c.query(
      'INSERT INTO ledger (player_id, item_id, delta, reason, created_at) VALUES ($1, $2, $3, $4, $5)',
      [playerId, itemId, delta, reason, now()],
    );
  }

  /** Locks and checks every row first (in id order, so two crafts never deadlock), then applies. */
  private async spend(c: Client, playerId: string, stacks: Stack[], reason: string) {
    const sorted = [...stacks].sort((a, b) => (a.item_id < b.item_id ? -1 : 1));
    const { rows } = await c.query<{ item_id: string; quantity: number }>(
      'SELECT item_id, quantity FROM inventory WHERE player_id = $1 AND item_id = ANY($2) ORDER BY item_id FOR UPDATE',
      [playerId, sorted.map((s) => s.item_id)],
    );
    const owned = new Map(rows.map((r) => [r.item_id, r.quantity]));
    const missing = sorted
      .map((s) => ({ item_id: s.item_id, have: owned.get(s.item_id) ?? 0, need: s.quantity }))
      .filter((m) => m.have < m.need);
    if (missing.length) throw new InsufficientError(missing);
    for (const s of sorted) await this.applyStack(c, playerId, s.item_id, -s.quantity, reason);
  }

  private async insertItem(c: Client, playerId: string, item: Item) {
    await c.query('INSERT INTO items (id, owner, name, data, created_at) VALUES ($1, $2, $3, $4, $5)', [
      item.id,
      playerId,
      item.name,
      JSON.stringify(item),
      item.created_at,
    ]);
  }

  async ensurePlayer(id: string, starting: Stack[]) {
    const found = await this.getPlayer(id);
    if (found) return found;
    return this.tx(async (c) => {
      const inserted = await c.query(
        'INSERT INTO players (id, created_at) VALUES ($1, $2) ON CONFLICT DO NOTHING',
        [id, now()],
      );
      if (inserted.rowCount === 1)
        for (const s of starting) await this.applyStack(c, id, s.item_id, s.quantity, 'starting');
      const { rows } = await c.query<PlayerRow>('SELECT * FROM players WHERE id = $1', [id]);
      return toPlayer(rows[0] as PlayerRow);
    });
  }

  async getPlayer(id: string) {
    const { rows } = await this.pool.query<PlayerRow>({ name: 'player', text: PLAYER, values: [id] });
    return rows[0] ? toPlayer(rows[0]) : null;
  }

  async updatePlayer(id: string, patch: Partial<Omit<PlayerRecord, 'id'>>) {
    return this.tx(async (c) => {
      await c.query('INSERT INTO players (id, created_at) VALUES ($1, $2) ON CONFLICT DO NOTHING', [
        id,
        now(),
      ]);
      await c.query(BUMP_VERSION, [id]);
      for (const col of PLAYER_SETTINGS) {
        const value = patch[col];
        if (value === undefined) continue;
        await c.query(`UPDATE players SET ${col} = $1 WHERE id = $2`, [
          typeof value === 'boolean' ? Number(value) : value,
          id,
        ]);
      }
      const { rows } = await c.query<PlayerRow>('SELECT * FROM players WHERE id = $1', [id]);
      return toPlayer(rows[0] as PlayerRow);
    });
  }

  async stacks(playerId: string): Promise<Stack[]> {
    const { rows } = await this.pool.query<Stack>(
      'SELECT item_id, quantity FROM inventory WHERE player_id = $1 ORDER BY ctid',
      [playerId],
    );
    return rows;
  }

  async inventory(playerId: string): Promise<InventoryRead | null> {
    const { rows } = await this.pool.query<
      PlayerRow & { stacks: InventoryRead['stacks']; recipes: RecipeRow[] }
    >({
      name: 'inventory',
      text: INVENTORY,
      values: [playerId],
    });
    const row = rows[0];
    if (!row) return null;
    return {
      version: row.inventory_version,
      player: toPlayer(row),
      stacks: row.stacks,
      recipes: row.recipes.map(toRecipe),
    };
  }

  /** Read in groups: the players asked for while a read waits or runs share the next round trip. */
  private readonly versionOf = groupRead(async (ids) => {
    const { rows } = await this.pool.query<{ id: string; inventory_version: number; blocked: number }>({
      name: 'inventory-versions',
      text: INVENTORY_VERSIONS,
      values: [ids],
    });
    return new Map(rows.map((r) => [r.id, { version: r.inventory_version, blocked: r.blocked === 1 }]));
  });

  async inventoryVersion(playerId: string) {
    return (await this.versionOf(playerId)) ?? null;
  }

  async getItems(ids: string[]): Promise<Item[]> {
    if (!ids.length) return [];
    const { rows } = await this.pool.query<{ data: string }>('SELECT data FROM items WHERE id = ANY($1)', [
      ids,
    ]);
    return rows.map((r) => JSON.parse(r.data) as Item);
  }

  async playerItemNames(playerId: string) {
    const { rows } = await this.pool.query<{ name: string }>('SELECT name FROM items WHERE owner = $1', [
      playerId,
    ]);
    return rows.map((r) => r.name);
  }

  async grantLoot(playerId: string, items: Item[], stacks: Stack[], reason: string) {
    await this.tx(async (c) => {
      for (const item of items) {
        await this.insertItem(c, playerId, item);
        await this.applyStack(c, playerId, item.id, 1, reason);
      }
      for (const s of stacks) await this.applyStack(c, playerId, s.item_id, s.quantity, reason);
      await c.query(BUMP_VERSION, [playerId]);
    });
  }

  async changeStacks(playerId: string, changes: Stack[], reason: string) {
    await this.tx(async (c) => {
      const removals = changes
        .filter((s) => s.quantity < 0)
        .map((s) => ({ item_id: s.item_id, quantity: -s.quantity }));
      await this.spend(c, playerId, removals, reason);
      for (const s of changes)
        if (s.quantity > 0) await this.applyStack(c, playerId, s.item_id, s.quantity, reason);
      await c.query(BUMP_VERSION, [playerId]);
    });
  }

  async craft(input: CraftInput): Promise<CraftResult> {
    return this.tx(async (c) => {
      const { playerId, item, recipe } = input;
      await this.spend(c, playerId, input.consume, input.reason);
      await this.insertItem(c, playerId, item);
      await this.applyStack(c, playerId, item.id, 1, input.reason);
      let discovered = false;
      if (recipe) {
        await c.query(
          `INSERT INTO recipes (key, template, ingredients, station, tool, created_at) VALUES ($1, $2, $3, $4, $5, $6)
           ON CONFLICT DO NOTHING`,
          [
            recipe.key,
            JSON.stringify(item),
            JSON.stringify(recipe.ingredients),
            recipe.station,
            recipe.tool,
            now(),
          ],
        );
        const found = await c.query(
          'INSERT INTO discoveries (player_id, recipe_key, created_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
          [playerId, recipe.key, now()],
        );
        discovered = found.rowCount === 1;
      }
      const xpEarned = input.xp + (discovered ? input.discoveryXp : 0);
      await c.query(
        'UPDATE players SET crafting_xp = crafting_xp + $1, inventory_version = inventory_version + 1 WHERE id = $2',
        [xpEarned, playerId],
      );
      return { discovered, xpEarned };
    });
  }

  async recipe(key: string) {
    const { rows } = await this.pool.query<{ template: string }>(
      'SELECT template FROM recipes WHERE key = $1',
      [key],
    );
    return rows[0] ? (JSON.parse(rows[0].template) as Item) : null;
  }

  async recipes(playerId: string): Promise<Recipe[]> {
    const { rows } = await this.pool.query<RecipeRow>(RECIPES_OF_PLAYER, [playerId]);
    return rows.map(toRecipe);
  }

  async icon(id: string) {
    const { rows } = await this.pool.query<{ png: Buffer }>('SELECT png FROM icons WHERE id = $1', [id]);
    return rows[0]?.png ?? null;
  }

  async putIcon(id: string, prompt: string, png: Buffer) {
    await this.pool.query(
      'INSERT INTO icons (id, prompt, png, created_at) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING',
      [id, prompt, png, now()],
    );
  }

  async dailyUsage(playerId: string, day: string) {
    const { rows } = await this.pool.query<{ items: number; images: number }>(
      'SELECT items, images FROM daily_usage WHERE player_id = $1 AND day = $2',
      [playerId, day],
    );
    return rows[0] ?? { items: 0, images: 0 };
  }

  /**
   * Group commit: the reservations asked for while a group call is out are taken together by the
   * next one (one round trip, one commit), each as exactly as alone; none is answered before its
   * group has committed.
   */
  async reserve(request: ReservationRequest, at: number): Promise<Reservation> {
    const outcome = await this.reserveInGroup({ request, at });
    if (outcome instanceof ReservationRefused) throw outcome;
    return outcome;
  }

  private readonly reserveInGroup = groupCall(
    (batch: Array<{ request: ReservationRequest; at: number }>) => this.reserveGroup(batch),
    GROUP_MAX,
  );

  private async reserveGroup(
    batch: Array<{ request: ReservationRequest; at: number }>,
  ): Promise<Array<Reservation | ReservationRefused>> {
    // Rows are taken in one order (players by id; a player's usage, windows by key, grant), so two
    // groups never wait on each other in a circle.
    const byKey = (a: { key: string }, b: { key: string }) => (a.key < b.key ? -1 : 1);
    const members = batch.map(({ request, at }, i) => ({
      request,
      at,
      i,
      windows: [...(request.windows ?? [])].sort(byKey),
    }));
    members.sort((a, b) =>
      a.request.playerId === b.request.playerId
        ? a.i - b.i
        : a.request.playerId < b.request.playerId
          ? -1
          : 1,
    );
    const granted = members.filter((m) => m.request.grant).map((m) => m.at);
    let results: Array<{ resets?: number[]; refused?: Refusal }>;
    try {
      const { rows } = await this.pool.query<{ results: typeof results }>({
        name: 'reserve-group',
        text: 'SELECT lootsmith_reserve_group($1, $2) AS results',
        values: [
          JSON.stringify(
            members.map(({ request: { playerId, day, usage, grant }, at, windows }) => ({
              player: playerId,
              day,
              kind: usage.kind,
              n: usage.n,
              recorded: usage.limit === 'recorded',
              limit: usage.limit === 'recorded' ? null : usage.limit,
              keys: windows.map((w) => w.key),
              windowMs: windows.map((w) => w.windowMs),
              max: windows.map((w) => w.max),
              at,
              grant: grant?.id ?? null,
              grantPlayer: grant?.playerId ?? null,
              grantExpires: grant?.expiresAt ?? null,
            })),
          ),
          granted.length ? Math.min(...granted) : null,
        ],
      });
      results = rows[0]?.results ?? [];
    } catch (err) {
      // A deadlock with another kind of transaction fails the whole group: each is taken again alone.
      if ((err as { code?: string }).code === DEADLOCK && batch.length > 1)
        return Promise.all(
          batch.map(async (one) => (await this.reserveGroup([one]))[0] as Reservation | ReservationRefused),
        );
      throw err;
    }
    const outcomes: Array<Reservation | ReservationRefused> = [];
    members.forEach(({ request, i, windows }, j) => {
      const { resets, refused } = results[j] ?? {};
      outcomes[i] = refused
        ? new ReservationRefused(refused)
        : { ...request, windows: windows.map((w, k) => ({ ...w, resetAt: Number(resets?.[k]) })) };
    });
    return outcomes;
  }

  async release(r: Reservation) {
    await this.tx(async (c) => {
      const { kind, n } = r.usage;
      await c.query(
        `UPDATE daily_usage SET ${kind} = ${kind} - $3 WHERE player_id = $1 AND day = $2 AND ${kind} >= $3`,
        [r.playerId, r.day, n],
      );
      // Rows that only this reservation made go, so a failed request leaves the store as it found it.
      await c.query(
        'DELETE FROM daily_usage WHERE player_id = $1 AND day = $2 AND items = 0 AND images = 0',
        [r.playerId, r.day],
      );
      for (const w of [...r.windows].sort((a, b) => (a.key < b.key ? -1 : 1))) {
        if (w.kept) continue;
        await c.query(
          'UPDATE rate_limits SET count = count - 1 WHERE key = $1 AND reset_at = $2 AND count > 0',
          [w.key, w.resetAt],
        );
        await c.query('DELETE FROM rate_limits WHERE key = $1 AND count = 0', [w.key]);
      }
      if (r.grant) await c.query('DELETE FROM drop_grants WHERE id = $1', [r.grant.id]);
    });
  }

  async recordClaimedLevel(playerId: string, level: number) {
    await this.pool.query(
      'UPDATE players SET claimed_level = GREATEST(COALESCE(claimed_level, 0), $2) WHERE id = $1',
      [playerId, level],
    );
  }

  async equipment(playerId: string) {
    const { rows } = await this.pool.query<{ slot: string; item_id: string }>(EQUIPMENT_OF_PLAYER, [
      playerId,
    ]);
    return rows;
  }

  async equip(playerId: string, slot: string, itemId: string) {
    await this.tx(async (c) => {
      // The stack row stays locked until commit, so the item cannot be spent while it is put on.
      const owned = await c.query(
        'SELECT quantity FROM inventory WHERE player_id = $1 AND item_id = $2 FOR UPDATE',
        [playerId, itemId],
      );
      if (!owned.rowCount) throw new InsufficientError([{ item_id: itemId, have: 0, need: 1 }]);
      await c.query('DELETE FROM equipment WHERE player_id = $1 AND item_id = $2 AND slot <> $3', [
        playerId,
        itemId,
        slot,
      ]);
      await c.query(
        `INSERT INTO equipment (player_id, slot, item_id, equipped_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (player_id, slot) DO UPDATE SET item_id = excluded.item_id, equipped_at = excluded.equipped_at`,
        [playerId, slot, itemId, now()],
      );
    });
  }

  async unequip(playerId: string, slot: string) {
    await this.pool.query('DELETE FROM equipment WHERE player_id = $1 AND slot = $2', [playerId, slot]);
  }

  async reservePoolSlots(request: PoolSlotRequest, at: number) {
    // One game's reservations take turns on an advisory lock, so counts and inserts cannot interleave.
    return this.tx(async (c) => {
      const { game, bucket } = request;
      await c.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`lootsmith-pool:${game}`]);
      await c.query('DELETE FROM pool_items WHERE game = $1 AND data IS NULL AND lease_until <= $2', [
        game,
        at,
      ]);
      const { rows } = await c.query<{ bucket: string; total: string }>(
        `SELECT count(*) FILTER (WHERE bucket = $3) AS bucket, count(*) AS total FROM pool_items
         WHERE game = $1 AND (data IS NOT NULL OR lease_until > $2)`,
        [game, at, bucket],
      );
      const key = poolBudgetKey(game);
      const budget = await c.query<{ count: number; reset_at: string }>(
        'SELECT count, reset_at FROM rate_limits WHERE key = $1',
        [key],
      );
      const row = budget.rows[0];
      const current = row !== undefined && Number(row.reset_at) > at;
      const { n, refused } = poolRoom(request, {
        bucket: Number(rows[0]?.bucket ?? 0),
        total: Number(rows[0]?.total ?? 0),
        spent: current ? row.count : 0,
      });
      const slots = request.wants.slice(0, n);
      if (!n) return { slots, refused };
      await c.query(
        `INSERT INTO rate_limits (key, count, reset_at) VALUES ($1, $2, $3)
         ON CONFLICT (key) DO UPDATE SET
           count = CASE WHEN rate_limits.reset_at <= $4 THEN $2 ELSE rate_limits.count + $2 END,
           reset_at = CASE WHEN rate_limits.reset_at <= $4 THEN $3 ELSE rate_limits.reset_at END`,
        [key, n, at + POOL_BUDGET_WINDOW_MS, at],
      );
      await c.query(
        `INSERT INTO pool_items (id, game, bucket, rarity, level, lease_until, created_at)
         SELECT unnest($1::text[]), $2, $3, unnest($4::text[]), unnest($5::int[]), $6, $7`,
        [
          slots.map((s) => s.id),
          game,
          bucket,
          slots.map((s) => s.rarity),
          slots.map((s) => s.level),
          at + request.leaseMs,
          at,
        ],
      );
      return { slots, refused };
    });
  }

  async fillPoolSlot(id: string, item: Item) {
    const res = await this.pool.query(
      'UPDATE pool_items SET data = $2, name = $3, lease_until = NULL WHERE id = $1 AND data IS NULL',
      [id, JSON.stringify(item), item.name.toLowerCase()],
    );
    return res.rowCount === 1;
  }

  async releasePoolSlots(ids: string[]) {
    await this.pool.query('DELETE FROM pool_items WHERE id = ANY($1) AND data IS NULL', [ids]);
  }

  async claimPoolItems(game: string, claims: PoolClaim[], excludeNames: string[]) {
    // SKIP LOCKED: a claim passes over a row another transaction is taking instead of waiting for it.
    return this.tx(async (c) => {
      const names = [...excludeNames];
      const items: Array<Item | null> = [];
      for (const claim of claims) {
        const { rows } = await c.query<{ data: string }>(
          `DELETE FROM pool_items WHERE id = (
             SELECT id FROM pool_items
             WHERE game = $1 AND bucket = $2 AND rarity = $3 AND level BETWEEN $4 AND $5
               AND data IS NOT NULL AND name <> ALL($6::text[])
             ORDER BY created_at, id LIMIT 1 FOR UPDATE SKIP LOCKED)
           RETURNING data`,
          [game, claim.bucket, claim.rarity, claim.minLevel, claim.maxLevel, names],
        );
        const item = rows[0] ? (JSON.parse(rows[0].data) as Item) : null;
        if (item) names.push(item.name.toLowerCase());
        items.push(item);
      }
      return items;
    });
  }

  async returnPoolItems(game: string, items: Array<{ bucket: string; item: Item }>, at: number) {
    await this.tx(async (c) => {
      for (const { bucket, item } of items)
        await c.query(
          `INSERT INTO pool_items (id, game, bucket, rarity, level, name, data, created_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING`,
          [item.id, game, bucket, item.rarity, item.level, item.name.toLowerCase(), JSON.stringify(item), at],
        );
    });
  }

  async poolStock(game: string, at: number): Promise<PoolStock[]> {
    const { rows } = await this.pool.query<{
      bucket: string;
      rarity: string;
      ready: string;
      pending: string;
    }>(
      `SELECT bucket, rarity, count(*) FILTER (WHERE data IS NOT NULL) AS ready,
              count(*) FILTER (WHERE data IS NULL AND lease_until > $2) AS pending
       FROM pool_items WHERE game = $1 GROUP BY bucket, rarity ORDER BY bucket, rarity`,
      [game, at],
    );
    return rows.map((r) => ({ ...r, ready: Number(r.ready), pending: Number(r.pending) }));
  }

  async idempotent(scope: string): Promise<StoredResponse | null> {
    const { rows } = await this.pool.query<StoredResponse>(
      'SELECT status, body FROM idempotency WHERE scope = $1',
      [scope],
    );
    return rows[0] ?? null;
  }

  async saveIdempotent(scope: string, response: StoredResponse) {
    await this.pool.query(
      'INSERT INTO idempotency (scope, status, body, created_at) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING',
      [scope, response.status, response.body, now()],
    );
  }

  async hit(key: string, windowMs: number, at: number) {
    const { rows } = await this.pool.query<{ count: number; reset_at: string }>(
      `INSERT INTO rate_limits (key, count, reset_at) VALUES ($1, 1, $2)
       ON CONFLICT (key) DO UPDATE SET
         count = CASE WHEN rate_limits.reset_at <= $3 THEN 1 ELSE rate_limits.count + 1 END,
         reset_at = CASE WHEN rate_limits.reset_at <= $3 THEN $2 ELSE rate_limits.reset_at END
       RETURNING count, reset_at`,
      [key, at + windowMs, at],
    );
    const row = rows[0] as { count: number; reset_at: string };
    return { count: row.count, resetAt: Number(row.reset_at) };
  }

  async close() {
    await this.pool.end();
  }
}
