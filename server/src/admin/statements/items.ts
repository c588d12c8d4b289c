import { filtered, type SqlDialect, sql } from '../../store/statement.ts';
import type { ProvenanceFacts } from '../store.ts';

export interface ItemSqlRow {
  id: string;
  owner: string | null;
  data: string;
  source: string | null;
  enemy: string | null;
  created_at: string;
  removed: number | string;
  consumed: string | null;
}

/** The last spend of an item in the ledger (on `ledger_item`). */
const lastSpend = (item: string) =>
  `FROM ledger l WHERE l.item_id = ${item} AND l.delta < 0 ORDER BY l.id DESC LIMIT 1`;

/**
 * What used up an item (`i`) that is neither removed (`r`) nor held by anyone: its last spend's
 * reason. A holder is looked up by `inventory_item` (as `NOT EXISTS`, PostgreSQL would hash all of
 * `inventory` for it).
 */
const CONSUMED = `CASE WHEN r.item_id IS NULL
    AND (SELECT h.item_id FROM inventory h WHERE h.item_id = i.id LIMIT 1) IS NULL
  THEN (SELECT l.reason ${lastSpend('i.id')}) END AS consumed`;

export interface ProvenanceSqlRow extends ProvenanceFacts {
  item_id: string;
  /** A `ProvenanceRow` source, or `earlier` for an item listed from its JSON alone. */
  source: string;
  player_id: string | null;
  seed: number | string | null;
  prompt: string | null;
  rules: string | null;
  cost: number | string | null;
  unpriced: number | null;
  created_at: string;
}

/** The gallery (newest first, on `item_provenance`'s indexes), one item, and an item's removal. */
export function itemStatements(d: SqlDialect) {
  return {
    itemList: filtered<ItemSqlRow>(
      `SELECT v.item_id AS id, i.owner, i.data, v.source, v.enemy, v.created_at,
          CASE WHEN r.item_id IS NULL THEN 0 ELSE 1 END AS removed, ${CONSUMED}
        FROM item_provenance v JOIN items i ON i.id = v.item_id LEFT JOIN item_removals r ON r.item_id = v.item_id
        {where}
        ORDER BY v.created_at DESC, v.item_id DESC LIMIT $limit`,
      {
        rarity: 'v.rarity = $rarity',
        type: 'v.type = $type',
        enemy: 'v.enemy = $enemy',
        source: 'v.source = $source',
        from: 'v.created_at >= $from',
        to: 'v.created_at < $to',
        after_id: '(v.created_at, v.item_id) < ($after_at, $after_id)',
      },
    ),
    itemDetail: sql<
      ItemSqlRow &
        Omit<ProvenanceSqlRow, 'created_at'> & { made_at: string | null; request_id: string | null }
    >(
      `SELECT i.id, i.owner, i.data, i.created_at, v.item_id, v.source, v.player_id, v.rarity, v.type, v.level,
          v.enemy, v.backend, v.model, v.seed, v.prompt, v.rules, v.cost, v.unpriced, v.created_at AS made_at, v.request_id,
          CASE WHEN r.item_id IS NULL THEN 0 ELSE 1 END AS removed, ${CONSUMED}
        FROM items i LEFT JOIN item_provenance v ON v.item_id = i.id LEFT JOIN item_removals r ON r.item_id = i.id
        WHERE i.id = $id`,
    ),
    /** The last spend of an item: who used it up, how and when. */
    itemSpent: sql<{ player_id: string; reason: string; created_at: string }>(
      `SELECT l.player_id, l.reason, l.created_at ${lastSpend('$id')}`,
    ),
    /** What painting an icon cost (no row: not painted yet). */
    iconCost: sql<{ cost: number | string | null; unpriced: number | null }>(
      'SELECT cost, unpriced FROM icons WHERE id = $id',
    ),
    itemRemoval: sql<{ reason: string; removed_by: string; holders: string; removed_at: string }>(
      'SELECT reason, removed_by, holders, removed_at FROM item_removals WHERE item_id = $id',
    ),
    itemHolders: sql<{ player_id: string; quantity: number }>(
      'SELECT player_id, quantity FROM inventory WHERE item_id = $id ORDER BY player_id',
    ),
    itemExists: sql<{ id: string }>('SELECT id FROM items WHERE id = $id'),
    // A removal: out of every inventory and slot, through the ledger.
    ledgerRemoved: sql(
      `INSERT INTO ledger (player_id, item_id, delta, reason, created_at)
        SELECT player_id, item_id, -quantity, 'removed', $at FROM inventory WHERE item_id = $id`,
    ),
    /** Cached inventories of every instance are checked against this version: they see it at once. */
    bumpHolders: sql(
      `UPDATE players SET inventory_version = inventory_version + 1
        WHERE id IN (SELECT player_id FROM inventory WHERE item_id = $id)`,
    ),
    unwearItem: sql('DELETE FROM equipment WHERE item_id = $id'),
    dropItemStacks: sql('DELETE FROM inventory WHERE item_id = $id'),
    /** A recipe that makes it would make it again; the next such combine asks the model afresh. */
    forgetRecipes: sql(`DELETE FROM recipes WHERE ${d.contains('template', '$needle')}`),
    recordRemoval: sql(
      `INSERT INTO item_removals (item_id, reason, removed_by, holders, removed_at)
        VALUES ($id, $reason, $by, $holders, $at)
        ON CONFLICT (item_id) DO UPDATE SET reason = excluded.reason, removed_by = excluded.removed_by,
          removed_at = excluded.removed_at,
          holders = CASE WHEN excluded.holders = '[]' THEN item_removals.holders ELSE excluded.holders END`,
    ),
  };
}
