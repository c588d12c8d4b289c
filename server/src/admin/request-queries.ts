import { all, explain, get, type Params, type RuleRunner, run } from '../store/rules.ts';
import type {
  CallRow,
  LoggedCall,
  LoggedRequest,
  RequestListQuery,
  RequestLogRetention,
  RequestLogStore,
  RequestRow,
} from './request-store.ts';
import type { RequestCallSqlRow, RequestSqlRow } from './statements/requests.ts';

// The request log's queries over the statements of `statements/requests.ts` (`Store.requestLog`).

/** Calls kept at most per request kept: a hard bound on the calls table whatever a request made. */
export const CALLS_PER_REQUEST = 16;
/** The longest a request may still be answering: calls this much older than the oldest request kept stay. */
const ANSWERING_MS = 10 * 60_000;

const num = (v: unknown) => Number(v ?? 0);
const numOrNull = (v: unknown) => (v === null || v === undefined ? null : Number(v));

const toRow = (r: RequestSqlRow): RequestRow => ({
  seq: num(r.seq),
  id: r.id,
  at: num(r.at),
  method: r.method,
  route: r.route,
  status: Number(r.status),
  kind: r.kind,
  code: r.code,
  playerId: r.player_id,
  ms: Number(r.ms),
});

const toCall = (r: RequestCallSqlRow): CallRow => ({
  at: num(r.at),
  backend: r.backend,
  kind: r.kind,
  model: r.model,
  outcome: r.outcome,
  status: numOrNull(r.status),
  ms: Number(r.ms),
  cost: numOrNull(r.cost),
  unpriced: numOrNull(r.unpriced),
  prompt: r.prompt,
  answer: r.answer,
  truncated: Number(r.truncated) === 1,
});

const listParams = (q: RequestListQuery): Params => ({
  player: q.playerId ?? null,
  route: q.route ?? null,
  kind: q.kind ?? null,
  before: q.beforeSeq ?? null,
  limit: q.limit,
});

function* trim(retention: RequestLogRetention) {
  yield* run('keepRequestLog', { keep: retention.max });
  yield* run('expireRequestLog', { before: retention.before });
  yield* run('expireRequestCalls', { before: retention.before, margin: ANSWERING_MS });
  yield* run('keepRequestCalls', { keep: retention.max * CALLS_PER_REQUEST });
}

export class RequestLogQueries implements RequestLogStore {
  constructor(private readonly db: RuleRunner) {}

  async recordRequests(
    b: { requests: LoggedRequest[]; calls: LoggedCall[] },
    retention: RequestLogRetention,
  ) {
    if (!b.requests.length && !b.calls.length) return;
    const requests = b.requests.map((r) => ({
      id: r.id,
      // Whole milliseconds: PostgreSQL's BIGINT takes no fraction (an arrival is now less a latency).
      at: Math.round(r.at),
      method: r.method,
      route: r.route,
      status: r.status,
      kind: r.kind,
      code: r.code,
      player_id: r.playerId,
      ms: Math.round(r.ms),
      body: r.body,
      body_truncated: r.bodyTruncated ? 1 : 0,
      result: r.result,
    }));
    const calls = b.calls.map((c) => ({
      request_id: c.requestId,
      at: Math.round(c.at),
      backend: c.backend,
      kind: c.kind,
      model: c.model,
      outcome: c.outcome,
      status: c.status,
      ms: Math.round(c.ms),
      cost: c.cost,
      unpriced: c.unpriced,
      prompt: c.prompt,
      answer: c.answer,
      truncated: c.truncated ? 1 : 0,
    }));
    await this.db.transaction(
      (function* () {
        if (requests.length) yield* run('insertRequestLog', { rows: JSON.stringify(requests) });
        if (calls.length) yield* run('insertRequestCalls', { rows: JSON.stringify(calls) });
        yield* trim(retention);
      })(),
    );
  }

  async trimRequests(retention: RequestLogRetention) {
    await this.db.transaction(trim(retention));
  }

  async requests(q: RequestListQuery) {
    return (await this.db.autocommit(all('requestList', listParams(q)))).map(toRow);
  }

  request(id: string) {
    return this.db.autocommit(
      (function* () {
        const found = yield* get('requestDetail', { id });
        if (!found) return null;
        const calls = (yield* all('requestCalls', { id })).map(toCall);
        const made = (yield* all('requestMadeItems', { id })).map((r) => r.item_id);
        return {
          row: toRow(found),
          body: found.body,
          bodyTruncated: Number(found.body_truncated) === 1,
          result: found.result,
          calls,
          made,
        };
      })(),
    );
  }

  async knownItems(ids: string[]) {
    if (!ids.length) return new Set<string>();
    const rows = await this.db.autocommit(all('knownItems', { ids }));
    return new Set(rows.map((r) => r.id));
  }

  async itemsExport(from: string, to: string, limit: number) {
    return (await this.db.autocommit(all('itemsExport', { from, to, limit }))).map((r) => ({
      id: r.id,
      data: r.data,
      playerId: r.player_id ?? r.owner,
      cost: numOrNull(r.cost),
      unpriced: numOrNull(r.unpriced),
      createdAt: r.created_at,
    }));
  }

  async playerSpendExport(from: string, to: string) {
    return (await this.db.autocommit(all('playerSpendExport', { from, to }))).map((r) => ({
      playerId: r.player_id,
      day: r.day,
      calls: num(r.calls),
      nanos: num(r.nanos),
      unpriced: num(r.unpriced),
    }));
  }

  plans() {
    return this.db.autocommit(
      (function* () {
        const queries = {
          requests_recent: listParams({ beforeSeq: 1_000_000, limit: 50 }),
          requests_by_player: listParams({ playerId: 'player-1', limit: 50 }),
          requests_by_route: listParams({ route: 'POST /v1/generate/items', limit: 50 }),
          requests_by_kind: listParams({ kind: 'error', limit: 50 }),
        };
        const plans: Record<string, string> = {};
        for (const [name, params] of Object.entries(queries))
          plans[name] = yield* explain('requestList', params);
        return plans;
      })(),
    );
  }
}
