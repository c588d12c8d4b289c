/** The few words in which the two databases differ. */
interface Dialect {
  serial: string;
  bytes: string;
  bigint: string;
  /** A field of a JSON text column, as text. */
  json: (column: string, field: string) => string;
  /** An index for `LIKE 'prefix%'` where the text key's own order does not serve it (PostgreSQL). */
  prefixIndex: (name: string, table: string, column: string) => string;
  /**
   * `table` rebuilt, rows kept, as `columns` keyed by its primary key alone (SQLite's WITHOUT ROWID:
   * one b-tree where a rowid table keeps two); nothing on PostgreSQL, whose tables are heaps.
   */
  keyedByPrimaryKey: (table: string, columns: string) => string;
}

const DIALECTS = {
  sqlite: {
    serial: 'INTEGER PRIMARY KEY AUTOINCREMENT',
    bytes: 'BLOB',
    bigint: 'INTEGER',
    json: (column, field) => `json_extract(${column}, '$.${field}')`,
    // Text keys compare bytewise: a range of the key's own index serves a prefix.
    prefixIndex: () => '',
    keyedByPrimaryKey: (table, columns) => `
      CREATE TABLE ${table}_keyed (${columns}) WITHOUT ROWID;
      INSERT INTO ${table}_keyed SELECT * FROM ${table};
      DROP TABLE ${table};
      ALTER TABLE ${table}_keyed RENAME TO ${table};`,
  },
  postgres: {
    serial: 'BIGSERIAL PRIMARY KEY',
    bytes: 'BYTEA',
    bigint: 'BIGINT',
    json: (column, field) => `(${column}::json ->> '${field}')`,
    // Under a language's collation only a pattern index serves `LIKE 'prefix%'`.
    prefixIndex: (name, table, column) => `CREATE INDEX ${name} ON ${table} (${column} text_pattern_ops);`,
    keyedByPrimaryKey: () => 'SELECT 1;',
  },
} satisfies Record<string, Dialect>;

/** Schema migrations, in order; each runs once per database. One text serves both stores. */
const MIGRATIONS: Array<(d: Dialect) => string> = [
  (d) => `
    CREATE TABLE players (
      id TEXT PRIMARY KEY,
      crafting_xp INTEGER NOT NULL DEFAULT 0,
      blocked INTEGER NOT NULL DEFAULT 0,
      daily_items INTEGER,
      daily_images INTEGER,
      created_at TEXT NOT NULL
    );
    CREATE TABLE items (id TEXT PRIMARY KEY, owner TEXT, name TEXT NOT NULL, data TEXT NOT NULL, created_at TEXT NOT NULL);
    CREATE INDEX items_owner ON items (owner);
    CREATE TABLE inventory (
      player_id TEXT NOT NULL,
      item_id TEXT NOT NULL,
      quantity INTEGER NOT NULL CHECK (quantity > 0),
      PRIMARY KEY (player_id, item_id)
    );
    CREATE TABLE ledger (
      id ${d.serial},
      player_id TEXT NOT NULL,
      item_id TEXT NOT NULL,
      delta INTEGER NOT NULL,
      reason TEXT NOT NULL,
      created_at TEXT NOT NULL
    );
    CREATE INDEX ledger_player ON ledger (player_id, item_id);
    CREATE TABLE recipes (
      key TEXT PRIMARY KEY,
      template TEXT NOT NULL,
      ingredients TEXT NOT NULL,
      station TEXT,
      tool TEXT,
      created_at TEXT NOT NULL
    );
    CREATE TABLE discoveries (
      player_id TEXT NOT NULL,
      recipe_key TEXT NOT NULL,
      created_at TEXT NOT NULL,
      PRIMARY KEY (player_id, recipe_key)
    );
    CREATE TABLE icons (id TEXT PRIMARY KEY, prompt TEXT NOT NULL, png ${d.bytes} NOT NULL, created_at TEXT NOT NULL);
    CREATE TABLE daily_usage (
      player_id TEXT NOT NULL,
      day TEXT NOT NULL,
      items INTEGER NOT NULL DEFAULT 0,
      images INTEGER NOT NULL DEFAULT 0,
      PRIMARY KEY (player_id, day)
    );
    CREATE TABLE idempotency (scope TEXT PRIMARY KEY, status INTEGER NOT NULL, body TEXT NOT NULL, created_at TEXT NOT NULL);
    CREATE TABLE rate_limits (key TEXT PRIMARY KEY, count INTEGER NOT NULL, reset_at ${d.bigint} NOT NULL);
  `,
  // The game server may record each player's level; drops for players are capped to it.
  () => 'ALTER TABLE players ADD COLUMN level INTEGER;',
  // Loot authority: the level served on a player's own claim, and drop grants already spent.
  (d) => `
    ALTER TABLE players ADD COLUMN claimed_level INTEGER;
    CREATE TABLE drop_grants (id TEXT PRIMARY KEY, player_id TEXT NOT NULL, expires_at ${d.bigint} NOT NULL);
    CREATE INDEX drop_grants_expiry ON drop_grants (expires_at);
  `,
  // Equipment: one owned item per player and slot.
  () => `
    CREATE TABLE equipment (
      player_id TEXT NOT NULL,
      slot TEXT NOT NULL,
      item_id TEXT NOT NULL,
      equipped_at TEXT NOT NULL,
      PRIMARY KEY (player_id, slot)
    );
  `,
  // Rises with every change to what a player's inventory shows, so a copy of it can be checked cheaply.
  () => 'ALTER TABLE players ADD COLUMN inventory_version INTEGER NOT NULL DEFAULT 0;',
  // Loot pools: items generated ahead of drops, owned by no player until a drop claims one. A row
  // without data is a slot being generated; it lapses at lease_until if never filled.
  (d) => `
    CREATE TABLE pool_items (
      id TEXT PRIMARY KEY,
      game TEXT NOT NULL,
      bucket TEXT NOT NULL,
      rarity TEXT NOT NULL,
      level INTEGER NOT NULL,
      name TEXT,
      data TEXT,
      lease_until ${d.bigint},
      created_at ${d.bigint} NOT NULL
    );
    CREATE INDEX pool_items_claim ON pool_items (game, bucket, rarity, level, created_at);
  `,
  // Stacks keep the order they were received in: the ledger entry that made the stack (stacks already
  // stored take the player's first entry for the item). The ledger and the stacks can be read by item
  // alone (the ledger check counts each item's grants and holders).
  (d) => `
    ALTER TABLE inventory ADD COLUMN received ${d.bigint} NOT NULL DEFAULT 0;
    UPDATE inventory SET received = COALESCE((SELECT MIN(l.id) FROM ledger l
      WHERE l.player_id = inventory.player_id AND l.item_id = inventory.item_id), 0);
    CREATE INDEX ledger_item ON ledger (item_id);
    CREATE INDEX inventory_item ON inventory (item_id);
  `,
  // The developer console. Request outcomes and upstream calls, aggregated per minute by each
  // instance and added up in the store (latency in buckets h0…h11, see admin/queries.ts), so every
  // instance's traffic is counted; each player's counters and recent requests; how each item was
  // made; removals; moderation events; console sessions. Earlier items get a provenance row of what
  // their JSON says, so the gallery lists them too.
  (d) => {
    const buckets = Array.from({ length: 12 }, (_, i) => `h${i} INTEGER NOT NULL DEFAULT 0`).join(', ');
    return `
    CREATE TABLE route_stats (
      minute ${d.bigint} NOT NULL, route TEXT NOT NULL, status INTEGER NOT NULL, code TEXT NOT NULL,
      count INTEGER NOT NULL, total_ms ${d.bigint} NOT NULL, ${buckets},
      PRIMARY KEY (minute, route, status, code)
    );
    CREATE TABLE backend_stats (
      minute ${d.bigint} NOT NULL, backend TEXT NOT NULL, kind TEXT NOT NULL, outcome TEXT NOT NULL,
      count INTEGER NOT NULL, total_ms ${d.bigint} NOT NULL, ${buckets},
      prompt_tokens ${d.bigint} NOT NULL DEFAULT 0, completion_tokens ${d.bigint} NOT NULL DEFAULT 0,
      images INTEGER NOT NULL DEFAULT 0,
      PRIMARY KEY (minute, backend, kind, outcome)
    );
    CREATE TABLE activity_counters (
      minute ${d.bigint} NOT NULL, name TEXT NOT NULL, label TEXT NOT NULL, value ${d.bigint} NOT NULL,
      PRIMARY KEY (minute, name, label)
    );
    CREATE TABLE player_stats (
      player_id TEXT PRIMARY KEY,
      requests INTEGER NOT NULL DEFAULT 0, drops INTEGER NOT NULL DEFAULT 0,
      crafts INTEGER NOT NULL DEFAULT 0, refusals INTEGER NOT NULL DEFAULT 0,
      tokens ${d.bigint} NOT NULL DEFAULT 0, images INTEGER NOT NULL DEFAULT 0,
      last_at ${d.bigint} NOT NULL
    );
    CREATE INDEX player_stats_recent ON player_stats (last_at, player_id);
    ${d.prefixIndex('players_id_prefix', 'players', 'id')}
    CREATE TABLE player_requests (
      id ${d.serial}, player_id TEXT NOT NULL, at ${d.bigint} NOT NULL, route TEXT NOT NULL,
      status INTEGER NOT NULL, code TEXT, ms INTEGER NOT NULL
    );
    CREATE INDEX player_requests_player ON player_requests (player_id, at);
    CREATE TABLE item_provenance (
      item_id TEXT PRIMARY KEY, source TEXT NOT NULL, player_id TEXT, rarity TEXT NOT NULL,
      type TEXT NOT NULL, level INTEGER NOT NULL, enemy TEXT, backend TEXT, model TEXT, seed ${d.bigint},
      prompt TEXT, rules TEXT, created_at TEXT NOT NULL
    );
    CREATE INDEX item_provenance_recent ON item_provenance (created_at, item_id);
    CREATE INDEX item_provenance_rarity ON item_provenance (rarity, created_at, item_id);
    CREATE INDEX item_provenance_type ON item_provenance (type, created_at, item_id);
    CREATE INDEX item_provenance_enemy ON item_provenance (enemy, created_at, item_id);
    INSERT INTO item_provenance (item_id, source, player_id, rarity, type, level, created_at)
      SELECT id, 'earlier', owner, ${d.json('data', 'rarity')}, ${d.json('data', 'type')},
        CAST(${d.json('data', 'level')} AS INTEGER), created_at FROM items;
    CREATE TABLE item_removals (
      item_id TEXT PRIMARY KEY, reason TEXT NOT NULL, removed_by TEXT NOT NULL, holders TEXT NOT NULL,
      removed_at TEXT NOT NULL
    );
    CREATE TABLE moderation_events (
      id ${d.serial}, player_id TEXT, at ${d.bigint} NOT NULL, kind TEXT NOT NULL, field TEXT NOT NULL,
      excerpt TEXT NOT NULL, reason TEXT NOT NULL, action TEXT NOT NULL
    );
    CREATE INDEX moderation_events_player ON moderation_events (player_id, id);
    CREATE INDEX moderation_events_kind ON moderation_events (kind, id);
    CREATE INDEX moderation_events_at ON moderation_events (at);
    CREATE TABLE console_sessions (
      id TEXT PRIMARY KEY, csrf TEXT NOT NULL, credential TEXT NOT NULL,
      created_at ${d.bigint} NOT NULL, seen_at ${d.bigint} NOT NULL, expires_at ${d.bigint} NOT NULL
    );
    CREATE INDEX console_sessions_expiry ON console_sessions (expires_at);
  `;
  },
  // Security (issue 24): a recipe is discovered once per ingredients, station and result, however
  // worded; idempotency records carry their owner and time, so they expire and are capped per caller;
  // a block refuses the tokens issued before it; a guest proves it is the same guest with the secret
  // its first session gave it (stored hashed). Refusals of text go to the console's moderation_events.
  (d) => `
    ALTER TABLE discoveries ADD COLUMN discovery_key TEXT;
    CREATE UNIQUE INDEX discoveries_once ON discoveries (player_id, discovery_key);
    ALTER TABLE idempotency ADD COLUMN owner TEXT NOT NULL DEFAULT '';
    ALTER TABLE idempotency ADD COLUMN saved_at ${d.bigint} NOT NULL DEFAULT 0;
    CREATE INDEX idempotency_owner ON idempotency (owner, saved_at);
    CREATE INDEX idempotency_age ON idempotency (saved_at);
    ALTER TABLE players ADD COLUMN tokens_after ${d.bigint};
    ALTER TABLE players ADD COLUMN guest_secret TEXT;
  `,
  // Security (issue 35): a block is kept to the millisecond, so it is exact to the tokens around it.
  () => 'UPDATE players SET tokens_after = tokens_after * 1000 WHERE tokens_after IS NOT NULL;',
  // Issue 35: a player's refusals of one reason within a minute are one row with a count.
  () => `
    ALTER TABLE moderation_events ADD COLUMN count INTEGER NOT NULL DEFAULT 1;
    CREATE INDEX moderation_events_repeat ON moderation_events (player_id, kind, reason, action, at);
  `,
  // Issue 40: the console shows a player's level as the game last reported it, and when.
  (d) => `
    ALTER TABLE player_stats ADD COLUMN level INTEGER;
    ALTER TABLE player_stats ADD COLUMN level_at ${d.bigint};
  `,
  // Issue 40: money. What each backend call cost by the price list (billionths of its currency),
  // added up per day by route and backend and per day by player (and ever, in player_stats); an
  // item's share of the calls that wrote it and an icon's painting. \`unpriced\` counts calls without
  // a price (on an item or icon: 1 unpriced, 0 priced, NULL made before prices were kept).
  (d) => `
    CREATE TABLE spend_stats (
      day TEXT NOT NULL, route TEXT NOT NULL, backend TEXT NOT NULL, calls INTEGER NOT NULL,
      nanos ${d.bigint} NOT NULL, unpriced INTEGER NOT NULL, PRIMARY KEY (day, route, backend)
    );
    CREATE TABLE player_spend (
      player_id TEXT NOT NULL, day TEXT NOT NULL, calls INTEGER NOT NULL, nanos ${d.bigint} NOT NULL,
      unpriced INTEGER NOT NULL, PRIMARY KEY (player_id, day)
    );
    ALTER TABLE player_stats ADD COLUMN spend ${d.bigint} NOT NULL DEFAULT 0;
    ALTER TABLE item_provenance ADD COLUMN cost ${d.bigint};
    ALTER TABLE item_provenance ADD COLUMN unpriced INTEGER;
    ALTER TABLE icons ADD COLUMN cost ${d.bigint};
    ALTER TABLE icons ADD COLUMN unpriced INTEGER;
  `,
  // Issue 40: spend caps. Each cap's spend of its period (\`game\` or \`player:<id>\`; a UTC day
  // \`2025-06-01\` or month \`2025-06\`), reserved at a call's most before it and set to its cost
  // after; and each alert of a cap's threshold, sent once per period by whichever instance wrote it.
  (d) => `
    CREATE TABLE spend_usage (
      scope TEXT NOT NULL, period TEXT NOT NULL, nanos ${d.bigint} NOT NULL, PRIMARY KEY (scope, period)
    );
    CREATE TABLE spend_alerts (
      scope TEXT NOT NULL, period TEXT NOT NULL, threshold INTEGER NOT NULL, at ${d.bigint} NOT NULL,
      PRIMARY KEY (scope, period, threshold)
    );
  `,
  // Issue 40: the request log. Each answered game request (its body as read, secrets left out) and
  // the backend calls it made (prompt and answer, bounded), kept for the newest requests and days
  // the settings say; a player's recent requests and an item's provenance name their request.
  (d) => `
    CREATE TABLE request_log (
      seq ${d.serial}, id TEXT NOT NULL UNIQUE, at ${d.bigint} NOT NULL, method TEXT NOT NULL,
      route TEXT NOT NULL, status INTEGER NOT NULL, kind TEXT NOT NULL, code TEXT, player_id TEXT,
      ms INTEGER NOT NULL, body TEXT, body_truncated INTEGER NOT NULL, result TEXT
    );
    CREATE INDEX request_log_player ON request_log (player_id, seq);
    CREATE INDEX request_log_route ON request_log (route, seq);
    CREATE INDEX request_log_kind ON request_log (kind, seq);
    CREATE INDEX request_log_at ON request_log (at);
    CREATE TABLE request_calls (
      seq ${d.serial}, request_id TEXT NOT NULL, at ${d.bigint} NOT NULL, backend TEXT NOT NULL,
      kind TEXT NOT NULL, model TEXT, outcome TEXT NOT NULL, status INTEGER, ms INTEGER NOT NULL,
      cost ${d.bigint}, unpriced INTEGER, prompt TEXT, answer TEXT, truncated INTEGER NOT NULL
    );
    CREATE INDEX request_calls_request ON request_calls (request_id, seq);
    CREATE INDEX request_calls_at ON request_calls (at);
    ALTER TABLE player_requests ADD COLUMN request_id TEXT;
    ALTER TABLE item_provenance ADD COLUMN request_id TEXT;
    CREATE INDEX item_provenance_request ON item_provenance (request_id);
  `,
  // Issue 36: when a player's own text was last refused, on the player's row, which the reservation
  // reads anyway: a player with no refusal within the restriction window is not read for one again.
  (d) => `
    ALTER TABLE players ADD COLUMN text_refused_at ${d.bigint};
    UPDATE players SET text_refused_at = (
      SELECT MAX(at) FROM moderation_events m WHERE m.player_id = players.id AND m.kind = 'player_text'
    );
  `,
  // Issue 36: the two tables every reservation writes, one b-tree each on SQLite (half the pages a
  // commit writes). Same columns, in the same order, as they were created.
  (d) => `
    ${d.keyedByPrimaryKey(
      'daily_usage',
      `player_id TEXT NOT NULL, day TEXT NOT NULL, items INTEGER NOT NULL DEFAULT 0,
       images INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (player_id, day)`,
    )}
    ${d.keyedByPrimaryKey('rate_limits', `key TEXT PRIMARY KEY, count INTEGER NOT NULL, reset_at ${d.bigint} NOT NULL`)}
  `,
];

export const SCHEMA_VERSION_TABLE = 'CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)';

/**
 * What a database at schema `version` still runs, in one transaction: the migrations it lacks, then
 * its new version. Nothing for a database at this version or a later one (a newer instance migrated it).
 */
export function migrationsFor(dialect: keyof typeof DIALECTS, version: number): string[] {
  if (version >= MIGRATIONS.length) return [];
  return [
    ...MIGRATIONS.slice(version).map((m) => m(DIALECTS[dialect])),
    `DELETE FROM schema_version; INSERT INTO schema_version (version) VALUES (${MIGRATIONS.length})`,
  ];
}
