import { type SqlDialect, sql } from '../../store/statement.ts';
import { LATENCY_BUCKETS } from '../store.ts';

/** The latency bucket columns h0…h11. */
export const H = Array.from({ length: LATENCY_BUCKETS }, (_, i) => `h${i}`);
const TIMED = ['count', 'total_ms', ...H];
const BACKEND_SUMS = ['prompt_tokens', 'completion_tokens', 'images'];
const PLAYER_COUNTS = ['requests', 'drops', 'crafts', 'refusals', 'tokens', 'images', 'spend'];
const SPEND_SUMS = ['calls', 'nanos', 'unpriced'];

/** A level report newer than the stored one (instances write in any order; a write without one keeps it). */
const NEWER_LEVEL = 'excluded.level_at >= COALESCE(player_stats.level_at, excluded.level_at)';

const addUp = (table: string, columns: string[]) =>
  columns.map((c) => `${c} = ${table}.${c} + excluded.${c}`).join(', ');

/** Inserts the rows of `$rows` (a JSON array of objects keyed by column), then `tail`. */
const insertRows = (d: SqlDialect, table: string, columns: string[], tail = '') =>
  sql(`INSERT INTO ${table} (${columns.join(', ')}) ${d.rowsOf(table, columns, '$rows')} ${tail}`);

/** Deletes all but the newest `$keep` rows, by the serial id (the primary key), whatever their clocks said. */
const keepNewest = (table: string) =>
  sql(`DELETE FROM ${table} WHERE id <= (SELECT MAX(id) FROM ${table}) - $keep`);

/** What each instance's recorder adds up, and what retention drops. */
export function activityStatements(d: SqlDialect) {
  return {
    recordRoutes: insertRows(
      d,
      'route_stats',
      ['minute', 'route', 'status', 'code', ...TIMED],
      `ON CONFLICT (minute, route, status, code) DO UPDATE SET ${addUp('route_stats', TIMED)}`,
    ),
    recordBackends: insertRows(
      d,
      'backend_stats',
      ['minute', 'backend', 'kind', 'outcome', ...TIMED, ...BACKEND_SUMS],
      `ON CONFLICT (minute, backend, kind, outcome) DO UPDATE SET ${addUp('backend_stats', [...TIMED, ...BACKEND_SUMS])}`,
    ),
    recordCounters: insertRows(
      d,
      'activity_counters',
      ['minute', 'name', 'label', 'value'],
      `ON CONFLICT (minute, name, label) DO UPDATE SET ${addUp('activity_counters', ['value'])}`,
    ),
    recordPlayers: insertRows(
      d,
      'player_stats',
      ['player_id', ...PLAYER_COUNTS, 'last_at', 'level', 'level_at'],
      `ON CONFLICT (player_id) DO UPDATE SET ${addUp('player_stats', PLAYER_COUNTS)},
        last_at = CASE WHEN excluded.last_at > player_stats.last_at THEN excluded.last_at ELSE player_stats.last_at END,
        ${['level', 'level_at'].map((c) => `${c} = CASE WHEN ${NEWER_LEVEL} THEN excluded.${c} ELSE player_stats.${c} END`).join(', ')}`,
    ),
    recordSpend: insertRows(
      d,
      'spend_stats',
      ['day', 'route', 'backend', ...SPEND_SUMS],
      `ON CONFLICT (day, route, backend) DO UPDATE SET ${addUp('spend_stats', SPEND_SUMS)}`,
    ),
    recordPlayerSpend: insertRows(
      d,
      'player_spend',
      ['player_id', 'day', ...SPEND_SUMS],
      `ON CONFLICT (player_id, day) DO UPDATE SET ${addUp('player_spend', SPEND_SUMS)}`,
    ),
    recordRequests: insertRows(d, 'player_requests', [
      'player_id',
      'at',
      'route',
      'status',
      'code',
      'ms',
      'request_id',
    ]),
    keepRequests: keepNewest('player_requests'),
    recordProvenance: insertRows(
      d,
      'item_provenance',
      [
        'item_id',
        'source',
        'player_id',
        'rarity',
        'type',
        'level',
        'enemy',
        'backend',
        'model',
        'seed',
        'prompt',
        'rules',
        'cost',
        'unpriced',
        'created_at',
        'request_id',
      ],
      'ON CONFLICT (item_id) DO NOTHING',
    ),
    sweepRoutes: sql('DELETE FROM route_stats WHERE minute < $minute'),
    sweepBackends: sql('DELETE FROM backend_stats WHERE minute < $minute'),
    sweepCounters: sql('DELETE FROM activity_counters WHERE minute < $minute'),
    sweepSpend: sql('DELETE FROM spend_stats WHERE day < $day'),
    sweepPlayerSpend: sql('DELETE FROM player_spend WHERE day < $day'),
    keepModeration: keepNewest('moderation_events'),
    sweepSessions: sql('DELETE FROM console_sessions WHERE expires_at <= $now'),
  };
}
