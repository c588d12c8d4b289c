import { filtered, sql } from '../../store/statement.ts';
import type { ModerationRecord } from '../store.ts';

type Count = number | string;

/** Refusals of text, newest first (the serial id), on `moderation_events`' indexes. */
export const MODERATION_STATEMENTS = {
  /** The row the same player's refusal of one kind, reason and action counted on within `$since`. */
  repeatModeration: sql<{ id: Count }>(
    `UPDATE moderation_events SET count = count + 1 WHERE id = (
      SELECT id FROM moderation_events
      WHERE player_id = $player AND kind = $kind AND reason = $reason AND action = $action AND at > $since
      ORDER BY id DESC LIMIT 1) RETURNING id`,
  ),
  insertModeration: sql(
    `INSERT INTO moderation_events (player_id, at, kind, field, excerpt, reason, action)
      VALUES ($player, $at, $kind, $field, $excerpt, $reason, $action)`,
  ),
  /** When the player's own text was last refused (the reservation reads it; `ContentGuard`). */
  markTextRefused: sql(
    `UPDATE players SET text_refused_at = $at
      WHERE id = $player AND (text_refused_at IS NULL OR text_refused_at < $at)`,
  ),
  moderationList: filtered<{
    id: Count;
    player_id: string | null;
    at: Count;
    kind: ModerationRecord['kind'];
    field: string;
    excerpt: string;
    reason: string;
    action: string;
    count: Count;
  }>(
    `SELECT id, player_id, at, kind, field, excerpt, reason, action, count FROM moderation_events
      {where} ORDER BY id DESC LIMIT $limit`,
    { kind: 'kind = $kind', player: 'player_id = $player', before: 'id < $before' },
  ),
  moderationSince: sql<{ n: Count }>(
    'SELECT COALESCE(SUM(count), 0) AS n FROM moderation_events WHERE at >= $since',
  ),
};
