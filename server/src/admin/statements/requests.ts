import { filtered, type SqlDialect, sql } from '../../store/statement.ts';

type Count = number | string;

export interface RequestSqlRow {
  seq: Count;
  id: string;
  at: Count;
  method: string;
  route: string;
  status: number;
  kind: string;
  code: string | null;
  player_id: string | null;
  ms: number;
}

export interface RequestCallSqlRow {
  at: Count;
  backend: string;
  kind: string;
  model: string | null;
  outcome: string;
  status: number | null;
  ms: number;
  cost: Count | null;
  unpriced: number | null;
  prompt: string | null;
  answer: string | null;
  truncated: number;
}

const LOGGED = 'seq, id, at, method, route, status, kind, code, player_id, ms';
const REQUEST_COLUMNS = [
  'id',
  'at',
  'method',
  'route',
  'status',
  'kind',
  'code',
  'player_id',
  'ms',
  'body',
  'body_truncated',
  'result',
];
const CALL_COLUMNS = [
  'request_id',
  'at',
  'backend',
  'kind',
  'model',
  'outcome',
  'status',
  'ms',
  'cost',
  'unpriced',
  'prompt',
  'answer',
  'truncated',
];

/** All but the newest `$keep` rows of a table, by its serial `seq`, whatever the clocks said. */
const keepNewest = (table: string) =>
  sql(`DELETE FROM ${table} WHERE seq <= (SELECT MAX(seq) FROM ${table}) - $keep`);

/** The request log: written in batches, listed newest first by position (keyset on `seq`) on an index per filter. */
export function requestStatements(d: SqlDialect) {
  return {
    insertRequestLog: sql(
      `INSERT INTO request_log (${REQUEST_COLUMNS.join(', ')}) ${d.rowsOf('request_log', REQUEST_COLUMNS, '$rows')}`,
    ),
    insertRequestCalls: sql(
      `INSERT INTO request_calls (${CALL_COLUMNS.join(', ')}) ${d.rowsOf('request_calls', CALL_COLUMNS, '$rows')}`,
    ),
    keepRequestLog: keepNewest('request_log'),
    keepRequestCalls: keepNewest('request_calls'),
    /** Requests older than the log's days. */
    expireRequestLog: sql('DELETE FROM request_log WHERE at < $before'),
    /**
     * Calls older than the oldest request kept (less `$margin`, the longest a request may still be
     * answering), or older than the log's days when none is kept: their request is gone.
     */
    expireRequestCalls: sql(
      'DELETE FROM request_calls WHERE at < COALESCE((SELECT MIN(at) FROM request_log) - $margin, $before)',
    ),
    requestList: filtered<RequestSqlRow>(
      `SELECT ${LOGGED} FROM request_log {where} ORDER BY seq DESC LIMIT $limit`,
      {
        player: 'player_id = $player',
        route: 'route = $route',
        kind: 'kind = $kind',
        before: 'seq < $before',
      },
    ),
    requestDetail: sql<
      RequestSqlRow & { body: string | null; body_truncated: number; result: string | null }
    >(`SELECT ${LOGGED}, body, body_truncated, result FROM request_log WHERE id = $id`),
    requestCalls: sql<RequestCallSqlRow>(
      `SELECT at, backend, kind, model, outcome, status, ms, cost, unpriced, prompt, answer, truncated
        FROM request_calls WHERE request_id = $id ORDER BY seq`,
    ),
    /** Items whose provenance names the request (made by it). */
    requestMadeItems: sql<{ item_id: string }>(
      'SELECT item_id FROM item_provenance WHERE request_id = $id ORDER BY item_id',
    ),
    /** Which of these item ids the store holds (an answer may name materials, which are no stored item). */
    knownItems: sql<{ id: string }>(`SELECT id FROM items WHERE id ${d.inList('$ids')}`),
    /** Items made from `$from` up to `$to` (ISO), newest first, with what the provenance knows. */
    itemsExport: sql<{
      id: string;
      data: string;
      owner: string | null;
      player_id: string | null;
      source: string;
      cost: Count | null;
      unpriced: number | null;
      created_at: string;
    }>(
      `SELECT i.id, i.data, i.owner, v.player_id, v.source, v.cost, v.unpriced, v.created_at
        FROM item_provenance v JOIN items i ON i.id = v.item_id
        WHERE v.created_at >= $from AND v.created_at < $to
        ORDER BY v.created_at DESC, v.item_id DESC LIMIT $limit`,
    ),
    /** Each player's spend per day from `$from` to `$to` (days, inclusive). */
    playerSpendExport: sql<{ player_id: string; day: string; calls: Count; nanos: Count; unpriced: Count }>(
      `SELECT player_id, day, calls, nanos, unpriced FROM player_spend
        WHERE day >= $from AND day <= $to ORDER BY day DESC, player_id`,
    ),
  };
}
