/** The few words in which the two databases differ. */
interface Dialect {
  serial: string;
  bytes: string;
  bigint: string;
}

const DIALECTS = {
  sqlite: { serial: 'INTEGER PRIMARY KEY AUTOINCREMENT', bytes: 'BLOB', bigint: 'INTEGER' },
  postgres: { serial: 'BIGSERIAL PRIMARY KEY', bytes: 'BYTEA', bigint: 'BIGINT' },
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
  // Security (issue 24): a recipe is discovered once per ingredients, station and result, however
  // worded; idempotency records carry their owner and time, so they expire and are capped per caller;
  // refusals of text are recorded for the developer; a block refuses the tokens issued before it; a
  // guest proves it is the same guest with the secret its first session gave it (stored hashed).
  (d) => `
    ALTER TABLE discoveries ADD COLUMN discovery_key TEXT;
    CREATE UNIQUE INDEX discoveries_once ON discoveries (player_id, discovery_key);
    ALTER TABLE idempotency ADD COLUMN owner TEXT NOT NULL DEFAULT '';
    ALTER TABLE idempotency ADD COLUMN saved_at ${d.bigint} NOT NULL DEFAULT 0;
    CREATE INDEX idempotency_owner ON idempotency (owner, saved_at);
    CREATE INDEX idempotency_age ON idempotency (saved_at);
    ALTER TABLE players ADD COLUMN tokens_after ${d.bigint};
    ALTER TABLE players ADD COLUMN guest_secret TEXT;
    CREATE TABLE moderation_events (
      id ${d.serial},
      player_id TEXT NOT NULL,
      at ${d.bigint} NOT NULL,
      source TEXT NOT NULL,
      field TEXT NOT NULL,
      reason TEXT NOT NULL,
      excerpt TEXT NOT NULL
    );
    CREATE INDEX moderation_events_player ON moderation_events (player_id, at);
    CREATE INDEX moderation_events_at ON moderation_events (at);
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
