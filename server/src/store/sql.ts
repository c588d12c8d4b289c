import { activityStatements } from '../admin/statements/activity.ts';
import { FIGURE_STATEMENTS } from '../admin/statements/figures.ts';
import { itemStatements } from '../admin/statements/items.ts';
import { MODERATION_STATEMENTS } from '../admin/statements/moderation.ts';
import { playerStatements } from '../admin/statements/players.ts';
import { requestStatements } from '../admin/statements/requests.ts';
import { SESSION_STATEMENTS } from '../admin/statements/sessions.ts';
import { type SqlDialect, type Statement, sql } from './statement.ts';
import { PLAYER_SETTINGS } from './store.ts';

// Every statement of the stores, by name, in the dialect's words: the game's here, the developer
// console's by topic in `admin/statements/`. Rules (`rules.ts`) name the statements they run.

/** A JSON array (as text) of one object of `fields` per row. */
const jsonRows = (d: SqlDialect, fields: Record<string, string>, order: string) =>
  d.jsonArray(
    `${d.jsonObject}(${Object.entries(fields)
      .map(([k, v]) => `'${k}', ${v}`)
      .join(', ')})`,
    order,
  );

type PlayerColumn = (typeof PLAYER_SETTINGS)[number];
type Kind = 'items' | 'images';

const usage = (k: Kind) => ({
  /** The day's row made or counted up, unless that would pass the limit `$lim` (no row back). */
  take: sql<{ used: number }>(
    `INSERT INTO daily_usage AS u (player_id, day, ${k}) SELECT $player, $day, $n WHERE $lim IS NULL OR $n <= $lim
     ON CONFLICT (player_id, day) DO UPDATE SET ${k} = u.${k} + excluded.${k}
     WHERE $lim IS NULL OR u.${k} + excluded.${k} <= $lim RETURNING ${k} AS used`,
  ),
  give: sql(
    `UPDATE daily_usage SET ${k} = ${k} - $n WHERE player_id = $player AND day = $day AND ${k} >= $n`,
  ),
  /** Why a take found no row: what is used, against which limit. */
  used: sql<{ used: number; lim: number | null }>(
    `SELECT COALESCE(SUM(${k}), 0) AS used, $lim AS lim FROM daily_usage WHERE player_id = $player AND day = $day`,
  ),
});

export interface PlayerRow {
  id: string;
  crafting_xp: number;
  blocked: number;
  daily_items: number | null;
  daily_images: number | null;
  level: number | null;
  claimed_level: number | null;
  tokens_after: number | null;
  inventory_version: number;
}

export interface RecipeRow {
  key: string;
  template: string;
  ingredients: string;
  station: string | null;
  tool: string | null;
  created_at: string;
}

export interface PoolItemRow {
  data: string;
}

/** The statements, in the dialect's words. */
export function statements(d: SqlDialect) {
  return { ...gameStatements(d), ...consoleStatements(d) };
}

function consoleStatements(d: SqlDialect) {
  return {
    ...activityStatements(d),
    ...FIGURE_STATEMENTS,
    ...playerStatements(d),
    ...requestStatements(d),
    ...itemStatements(d),
    ...MODERATION_STATEMENTS,
    ...SESSION_STATEMENTS,
  };
}

function gameStatements(d: SqlDialect) {
  const items = usage('items');
  const images = usage('images');
  return {
    // Players
    player: sql<PlayerRow>('SELECT * FROM players WHERE id = $id'),
    insertPlayer: sql('INSERT INTO players (id, created_at) VALUES ($id, $now) ON CONFLICT DO NOTHING'),
    inventoryVersions: sql<{
      id: string;
      inventory_version: number;
      blocked: number;
      tokens_after: number | null;
    }>(`SELECT id, inventory_version, blocked, tokens_after FROM players WHERE id ${d.inList('$ids')}`),
    setGuestSecret: sql('UPDATE players SET guest_secret = $hash WHERE id = $id'),
    guestSecret: sql<{ guest_secret: string | null }>('SELECT guest_secret FROM players WHERE id = $id'),
    bumpVersion: sql('UPDATE players SET inventory_version = inventory_version + 1 WHERE id = $id'),
    ...(Object.fromEntries(
      PLAYER_SETTINGS.map((c) => [`set_${c}`, sql(`UPDATE players SET ${c} = $value WHERE id = $id`)]),
    ) as Record<`set_${PlayerColumn}`, Statement>),
    addXp: sql(
      'UPDATE players SET crafting_xp = crafting_xp + $xp, inventory_version = inventory_version + 1 WHERE id = $id',
    ),
    raiseClaimedLevel: sql(
      `UPDATE players SET claimed_level = CASE WHEN COALESCE(claimed_level, 0) < $level THEN $level
       ELSE COALESCE(claimed_level, 0) END WHERE id = $id`,
    ),

    // Stacks, kept in the order the player received them
    stacks: sql<{ item_id: string; quantity: number }>(
      'SELECT item_id, quantity FROM inventory WHERE player_id = $player ORDER BY received, item_id',
    ),
    /** A player's record, stacks with their items' JSON text and recipe book, in one read. */
    inventory: sql<PlayerRow & { stacks: string; recipes: string }>(
      `SELECT p.*,
        (SELECT ${jsonRows(d, { item_id: 's.item_id', quantity: 's.quantity', data: 'i.data' }, 's.received, s.item_id')}
         FROM inventory s LEFT JOIN items i ON i.id = s.item_id WHERE s.player_id = p.id) AS stacks,
        (SELECT ${jsonRows(
          d,
          {
            key: 'r.key',
            template: 'r.template',
            ingredients: 'r.ingredients',
            station: 'r.station',
            tool: 'r.tool',
            created_at: 'd.created_at',
          },
          'd.created_at, r.key',
        )}
         FROM discoveries d JOIN recipes r ON r.key = d.recipe_key WHERE d.player_id = p.id) AS recipes
       FROM players p WHERE p.id = $player`,
    ),
    /** The stacks a spend changes, locked in item order so two spends never wait on each other in a circle. */
    lockStacks: sql<{ item_id: string; quantity: number }>(
      `SELECT item_id, quantity FROM inventory WHERE player_id = $player AND item_id ${d.inList('$items')}
       ORDER BY item_id${d.forUpdate}`,
    ),
    addStack: sql(
      `INSERT INTO inventory AS s (player_id, item_id, quantity, received) VALUES ($player, $item, $n, $received)
       ON CONFLICT (player_id, item_id) DO UPDATE SET quantity = s.quantity + excluded.quantity`,
    ),
    setStack: sql('UPDATE inventory SET quantity = $n WHERE player_id = $player AND item_id = $item'),
    deleteStack: sql('DELETE FROM inventory WHERE player_id = $player AND item_id = $item'),
    ledger: sql<{ id: number }>(
      `INSERT INTO ledger (player_id, item_id, delta, reason, created_at) VALUES ($player, $item, $delta, $reason, $now)
       RETURNING id`,
    ),

    // Items and recipes
    items: sql<{ data: string }>(`SELECT data FROM items WHERE id ${d.inList('$ids')}`),
    itemNames: sql<{ name: string }>('SELECT name FROM items WHERE owner = $player'),
    insertItem: sql(
      'INSERT INTO items (id, owner, name, data, created_at) VALUES ($id, $player, $name, $data, $created_at)',
    ),
    recipe: sql<{ template: string }>('SELECT template FROM recipes WHERE key = $key'),
    recipes: sql<RecipeRow>(
      `SELECT r.key, r.template, r.ingredients, r.station, r.tool, d.created_at
       FROM discoveries d JOIN recipes r ON r.key = d.recipe_key WHERE d.player_id = $player ORDER BY d.created_at, r.key`,
    ),
    insertRecipe: sql(
      `INSERT INTO recipes (key, template, ingredients, station, tool, created_at)
       VALUES ($key, $template, $ingredients, $station, $tool, $now) ON CONFLICT DO NOTHING`,
    ),
    /** A player discovers a recipe once per discovery key: another wording of it is no discovery. */
    discover: sql(
      `INSERT INTO discoveries (player_id, recipe_key, discovery_key, created_at) VALUES ($player, $key, $discovery, $now)
       ON CONFLICT DO NOTHING`,
    ),

    // Icons and idempotency records: the first one written stays
    icon: sql<{ png: Buffer }>('SELECT png FROM icons WHERE id = $id'),
    putIcon: sql(
      `INSERT INTO icons (id, prompt, png, cost, unpriced, created_at) VALUES ($id, $prompt, $png, $cost, $unpriced, $now)
       ON CONFLICT DO NOTHING`,
    ),
    idempotent: sql<{ status: number; body: string }>(
      'SELECT status, body FROM idempotency WHERE scope = $scope AND saved_at > $expired',
    ),
    saveIdempotent: sql(
      `INSERT INTO idempotency (scope, owner, status, body, created_at, saved_at)
       VALUES ($scope, $owner, $status, $body, $now, $at) ON CONFLICT DO NOTHING`,
    ),
    expireIdempotent: sql('DELETE FROM idempotency WHERE saved_at <= $expired'),
    /** An owner's records past the newest `$cap` go. */
    capIdempotent: sql(
      `DELETE FROM idempotency WHERE owner = $owner AND scope NOT IN
       (SELECT scope FROM idempotency WHERE owner = $owner ORDER BY saved_at DESC, scope LIMIT $cap)`,
    ),

    // Reservations: daily budgets, fixed windows, drop grants
    usage: sql<{ items: number; images: number }>(
      'SELECT items, images FROM daily_usage WHERE player_id = $player AND day = $day',
    ),
    takeItems: items.take,
    takeImages: images.take,
    giveItems: items.give,
    giveImages: images.give,
    usedItems: items.used,
    usedImages: images.used,
    dropEmptyUsage: sql(
      'DELETE FROM daily_usage WHERE player_id = $player AND day = $day AND items = 0 AND images = 0',
    ),
    /**
     * The limit of a player who is not blocked and whose tokens issued at `$iat` still stand, or
     * `$dflt` when the record sets none (no row for a blocked, revoked or unknown player).
     */
    playerLimit: sql<{ lim: number | null; text_refused_at: number | null }>(
      `SELECT COALESCE(CASE WHEN $kind = 'items' THEN daily_items ELSE daily_images END, $dflt) AS lim,
         text_refused_at
       FROM players WHERE id = $player AND blocked = 0 AND ($iat IS NULL OR COALESCE(tokens_after, 0) < $iat)`,
    ),
    playerState: sql<{ blocked: number }>('SELECT blocked FROM players WHERE id = $player'),
    /**
     * Every fixed window: opened, reopened when it has run out, or counted up by `$hits` within its
     * `$max` (no row back when that would pass it; a null max only counts).
     */
    hitWindow: sql<{ count: number; reset_at: number }>(
      `INSERT INTO rate_limits AS w (key, count, reset_at) VALUES ($key, $hits, $reset)
       ON CONFLICT (key) DO UPDATE SET
         count = CASE WHEN w.reset_at <= $at THEN $hits ELSE w.count + $hits END,
         reset_at = CASE WHEN w.reset_at <= $at THEN excluded.reset_at ELSE w.reset_at END
       WHERE w.reset_at <= $at OR w.count + $hits <= $max OR $max IS NULL RETURNING count, reset_at`,
    ),
    window: sql<{ count: number; reset_at: number }>(
      'SELECT count, reset_at FROM rate_limits WHERE key = $key',
    ),
    uncountWindow: sql(
      'UPDATE rate_limits SET count = count - 1 WHERE key = $key AND reset_at = $reset AND count > 0',
    ),
    dropEmptyWindow: sql('DELETE FROM rate_limits WHERE key = $key AND count = 0'),
    expireGrants: sql('DELETE FROM drop_grants WHERE expires_at <= $at'),
    spendGrant: sql<{ id: string }>(
      `INSERT INTO drop_grants (id, player_id, expires_at) VALUES ($grant, $grant_player, $expires)
       ON CONFLICT DO NOTHING RETURNING id`,
    ),
    returnGrant: sql('DELETE FROM drop_grants WHERE id = $grant'),
    /** A spend cap's row of its period counted up by `$nanos`, unless that would pass `$cap` (no row back). */
    takeSpend: sql<{ spent: number }>(
      `INSERT INTO spend_usage AS s (scope, period, nanos) SELECT $scope, $period, $nanos WHERE $nanos <= $cap
       ON CONFLICT (scope, period) DO UPDATE SET nanos = s.nanos + excluded.nanos
       WHERE s.nanos + excluded.nanos <= $cap RETURNING nanos AS spent`,
    ),
    spentSoFar: sql<{ spent: number }>(
      'SELECT COALESCE(SUM(nanos), 0) AS spent FROM spend_usage WHERE scope = $scope AND period = $period',
    ),
    /** What a call cost in place of what it reserved (`$delta` = cost − reserved); the spend after it. */
    settleSpend: sql<{ spent: number }>(
      `UPDATE spend_usage SET nanos = nanos + $delta WHERE scope = $scope AND period = $period
       RETURNING nanos AS spent`,
    ),
    claimAlert: sql(
      `INSERT INTO spend_alerts (scope, period, threshold, at) VALUES ($scope, $period, $threshold, $at)
       ON CONFLICT DO NOTHING`,
    ),
    dropEmptySpend: sql('DELETE FROM spend_usage WHERE scope = $scope AND period = $period AND nanos = 0'),

    // Equipment
    /** Worn items the player still owns. */
    equipment: sql<{ slot: string; item_id: string }>(
      `SELECT e.slot, e.item_id FROM equipment e
       JOIN inventory i ON i.player_id = e.player_id AND i.item_id = e.item_id
       WHERE e.player_id = $player ORDER BY e.slot`,
    ),
    unwearElsewhere: sql(
      'DELETE FROM equipment WHERE player_id = $player AND item_id = $item AND slot <> $slot',
    ),
    wear: sql(
      `INSERT INTO equipment (player_id, slot, item_id, equipped_at) VALUES ($player, $slot, $item, $now)
       ON CONFLICT (player_id, slot) DO UPDATE SET item_id = excluded.item_id, equipped_at = excluded.equipped_at`,
    ),
    unequip: sql('DELETE FROM equipment WHERE player_id = $player AND slot = $slot'),

    // Loot pools
    expireSlots: sql('DELETE FROM pool_items WHERE game = $game AND data IS NULL AND lease_until <= $at'),
    poolCounts: sql<{ bucket: number; total: number }>(
      `SELECT COALESCE(SUM(CASE WHEN bucket = $bucket THEN 1 ELSE 0 END), 0) AS bucket, COUNT(*) AS total
       FROM pool_items WHERE game = $game AND (data IS NOT NULL OR lease_until > $at)`,
    ),
    insertSlot: sql(
      `INSERT INTO pool_items (id, game, bucket, rarity, level, lease_until, created_at)
       VALUES ($id, $game, $bucket, $rarity, $level, $lease_until, $at)`,
    ),
    fillSlot: sql(
      'UPDATE pool_items SET data = $data, name = $name, lease_until = NULL WHERE id = $id AND data IS NULL',
    ),
    releaseSlots: sql(`DELETE FROM pool_items WHERE id ${d.inList('$ids')} AND data IS NULL`),
    /** Finds and deletes one ready item in one statement, so two claims never get the same one. */
    claimPoolItem: sql<PoolItemRow>(
      `DELETE FROM pool_items WHERE id = (
         SELECT id FROM pool_items
         WHERE game = $game AND bucket = $bucket AND rarity = $rarity AND level BETWEEN $min AND $max
           AND data IS NOT NULL AND name ${d.notInList('$names')}
         ORDER BY created_at, id LIMIT 1${d.skipLocked})
       RETURNING data`,
    ),
    returnPoolItem: sql(
      `INSERT INTO pool_items (id, game, bucket, rarity, level, name, data, created_at)
       VALUES ($id, $game, $bucket, $rarity, $level, $name, $data, $at) ON CONFLICT DO NOTHING`,
    ),
    poolStock: sql<{ bucket: string; rarity: string; ready: number; pending: number }>(
      `SELECT bucket, rarity, SUM(CASE WHEN data IS NOT NULL THEN 1 ELSE 0 END) AS ready,
         SUM(CASE WHEN data IS NULL AND lease_until > $at THEN 1 ELSE 0 END) AS pending
       FROM pool_items WHERE game = $game GROUP BY bucket, rarity ORDER BY bucket, rarity`,
    ),
  };
}

export type Statements = ReturnType<typeof statements>;
export type StatementName = keyof Statements;
export type RowOf<K extends StatementName> = Statements[K] extends Statement<infer R> ? R : never;

export interface Compiled {
  /** The statement's name, and the filters it holds: one prepared statement each. */
  key: string;
  text: string;
  /** The parameter each position binds. */
  names: string[];
}

/**
 * The statements with positional parameters, compiled on first use: `$1…$n`, one per name
 * (`numbered`, PostgreSQL), or a `?` per use (SQLite, whose driver takes `?NNN` for a name). A
 * statement with filters compiles once per set of them that its parameters give.
 */
export function compiler(all: Statements, numbered: boolean) {
  const compiled = new Map<string, Compiled>();
  const compile = (key: string, { text, filters }: Statement, on: string[]): Compiled => {
    const names: string[] = [];
    const where = on.length ? `WHERE ${on.map((p) => filters?.[p]).join(' AND ')}` : '';
    const positional = (filters ? text.replace('{where}', where) : text).replace(
      /\$([a-z_]+)/g,
      (_, name: string) => {
        if (!numbered) {
          names.push(name);
          return '?';
        }
        if (!names.includes(name)) names.push(name);
        return `$${names.indexOf(name) + 1}`;
      },
    );
    return { key, text: positional, names };
  };
  return (name: StatementName, params: Record<string, unknown> = {}): Compiled => {
    const statement: Statement = all[name];
    const on = statement.filters
      ? Object.keys(statement.filters).filter((p) => params[p] !== null && params[p] !== undefined)
      : [];
    const key = on.length ? `${name}:${on.join('+')}` : name;
    let c = compiled.get(key);
    if (!c) {
      c = compile(key, statement, on);
      compiled.set(key, c);
    }
    return c;
  };
}
