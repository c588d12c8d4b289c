import { sql } from '../../store/statement.ts';
import { H } from './activity.ts';

type Count = number | string;

/** A count with its latencies, summed over minutes. */
export interface TimedSqlRow {
  count: Count;
  total_ms: Count;
  [bucket: string]: unknown;
}

const sums = (columns: string[]) => columns.map((c) => `SUM(${c}) AS ${c}`).join(', ');

/** The overview's figures: each reads a range of a primary key (`minute`) or an index. */
export const FIGURE_STATEMENTS = {
  routeStats: sql<TimedSqlRow & { route: string; status: number; code: string }>(
    `SELECT route, status, code, SUM(count) AS count, SUM(total_ms) AS total_ms, ${sums(H)}
        FROM route_stats WHERE minute >= $since GROUP BY route, status, code`,
  ),
  backendStats: sql<
    TimedSqlRow & {
      backend: string;
      kind: string;
      outcome: string;
      prompt_tokens: Count;
      completion_tokens: Count;
      images: Count;
    }
  >(
    `SELECT backend, kind, outcome, SUM(count) AS count, SUM(total_ms) AS total_ms, ${sums(H)},
          SUM(prompt_tokens) AS prompt_tokens, SUM(completion_tokens) AS completion_tokens, SUM(images) AS images
        FROM backend_stats WHERE minute >= $since GROUP BY backend, kind, outcome`,
  ),
  counters: sql<{ name: string; label: string; value: Count }>(
    'SELECT name, label, SUM(value) AS value FROM activity_counters WHERE minute >= $since GROUP BY name, label',
  ),
  /** Requests per `$step` minutes by status and code (what each was, `answerKind` says). */
  series: sql<{ slot: Count; status: number; code: string; count: Count }>(
    `SELECT slot, status, code, SUM(count) AS count
        FROM (SELECT minute / $step AS slot, count, status, code FROM route_stats WHERE minute >= $since) m
        GROUP BY slot, status, code`,
  ),
  generations: sql<{ source: string; backend: string | null; items: Count }>(
    `SELECT source, backend, COUNT(*) AS items FROM item_provenance
        WHERE created_at >= $since AND source <> 'earlier' GROUP BY source, backend`,
  ),
  /** Spend per day, route and backend (a range of the primary key). */
  spend: sql<{ day: string; route: string; backend: string; calls: Count; nanos: Count; unpriced: Count }>(
    'SELECT day, route, backend, calls, nanos, unpriced FROM spend_stats WHERE day >= $since',
  ),
  playerSpend: sql<{ player_id: string; day: string; calls: Count; nanos: Count; unpriced: Count }>(
    'SELECT player_id, day, calls, nanos, unpriced FROM player_spend WHERE player_id = $id AND day >= $since',
  ),
  /** What a spend cap holds in a period (on its primary key). */
  capSpend: sql<{ nanos: Count }>('SELECT nanos FROM spend_usage WHERE scope = $scope AND period = $period'),
  playerCounts: sql<{ players: Count; active: Count }>(
    `SELECT (SELECT COUNT(*) FROM players) AS players,
        (SELECT COUNT(*) FROM player_stats s JOIN players p ON p.id = s.player_id WHERE s.last_at >= $since) AS active`,
  ),
};
