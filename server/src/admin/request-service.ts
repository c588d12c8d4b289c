import type {
  ItemsExportQuery,
  RequestCall,
  RequestDetail,
  RequestSummary,
  RequestsExportQuery,
  RequestsPage,
  RequestsQuery,
  SpendExportQuery,
} from '@lootsmith/protocol';
import { fromNanos } from '../money/pricing.ts';
import { refuse } from '../refusal.ts';
import type { Store } from '../store/store.ts';
import { toCsv } from './csv.ts';
import type { CallRow, RequestRow } from './request-store.ts';
import type { RequestLogSettings } from './requests.ts';

/** Most rows one export holds (the newest first). */
export const EXPORT_MAX = 100_000;
const PAGE = 1_000;
const DAY_MS = 86_400_000;

const iso = (ms: number) => new Date(ms).toISOString();
const dayOf = (ms: number) => iso(ms).slice(0, 10);
const cursor = (seq: number) => Buffer.from(JSON.stringify(seq)).toString('base64url');

function fromCursor(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  try {
    const value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (Number.isSafeInteger(value)) return value;
  } catch {}
  throw refuse('invalid_request', 'query.after: not a position this list gave out');
}

/** JSON text as its value, or the text itself when it is not JSON (a body cut at its bound). */
function parsed(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

const summary = (r: RequestRow): RequestSummary => ({
  id: r.id,
  at: iso(r.at),
  method: r.method,
  route: r.route,
  status: r.status,
  kind: r.kind as RequestSummary['kind'],
  code: r.code,
  player_id: r.playerId,
  ms: r.ms,
});

const call = (c: CallRow): RequestCall => ({
  at: iso(c.at),
  backend: c.backend,
  kind: c.kind as RequestCall['kind'],
  model: c.model,
  outcome: c.outcome,
  status: c.status,
  ms: c.ms,
  cost: c.unpriced === 1 ? 'unpriced' : c.cost === null ? null : fromNanos(c.cost),
  prompt: parsed(c.prompt),
  answer: parsed(c.answer),
  truncated: c.truncated,
});

/** Days `from` to `to` (inclusive) of an export, checked: `to` may not come before `from`. */
function days(q: { from?: string; to?: string }, defaultDays: number, now: number) {
  const to = q.to ?? dayOf(now);
  const from = q.from ?? dayOf(Date.parse(`${to}T00:00:00.000Z`) - (defaultDays - 1) * DAY_MS);
  if (from > to) throw refuse('invalid_request', `query.from: ${from} comes after query.to ${to}`);
  return { from, to };
}

/** The request log and the exports, as the console's routes serve them. */
export class RequestService {
  constructor(
    private readonly deps: {
      store: Pick<Store, 'requestLog' | 'admin'>;
      settings: RequestLogSettings;
      currency: string;
    },
  ) {}

  private filters(q: RequestsExportQuery) {
    return { playerId: q.player, route: q.route, kind: q.kind };
  }

  async list(q: RequestsQuery): Promise<RequestsPage> {
    const rows = await this.deps.store.requestLog.requests({
      ...this.filters(q),
      beforeSeq: fromCursor(q.after),
      limit: q.limit + 1,
    });
    const page = rows.slice(0, q.limit);
    const last = page.at(-1);
    return {
      requests: page.map(summary),
      next: rows.length > q.limit && last ? cursor(last.seq) : null,
      retention: { max: this.deps.settings.max, days: this.deps.settings.days },
    };
  }

  async detail(id: string): Promise<RequestDetail> {
    const { requestLog } = this.deps.store;
    const found = await requestLog.request(id);
    if (!found)
      throw refuse(
        'not_found',
        `No request ${id} in the request log: it keeps the newest ${this.deps.settings.max} requests of the last ${this.deps.settings.days} days`,
      );
    const result = parsed(found.result) as {
      items?: string[];
      error?: { code: string; message: string };
    } | null;
    const ids = [...new Set([...(result?.items ?? []), ...found.made])];
    const known = await requestLog.knownItems(ids);
    return {
      request: summary(found.row),
      body: found.body,
      body_truncated: found.bodyTruncated,
      currency: this.deps.currency,
      calls: found.calls.map(call),
      result: {
        items: ids.map((itemId) => ({ id: itemId, known: known.has(itemId) })),
        error: result?.error ?? null,
      },
    };
  }

  /** The requests the filters match, newest first, as CSV. */
  async requestsCsv(q: RequestsExportQuery): Promise<string> {
    const rows: RequestRow[] = [];
    let beforeSeq: number | undefined;
    while (rows.length < EXPORT_MAX) {
      const page = await this.deps.store.requestLog.requests({ ...this.filters(q), beforeSeq, limit: PAGE });
      rows.push(...page);
      if (page.length < PAGE) break;
      beforeSeq = page.at(-1)?.seq;
    }
    return toCsv(
      ['id', 'at', 'method', 'route', 'status', 'kind', 'code', 'player_id', 'ms'],
      rows
        .slice(0, EXPORT_MAX)
        .map((r) => [
          r.id,
          iso(r.at),
          r.method,
          r.route,
          r.status,
          r.kind,
          r.code,
          r.playerId,
          Math.round(r.ms),
        ]),
    );
  }

  /** Spend per day, route and backend (as the overview adds it up), or per day and player, as CSV. */
  async spendCsv(q: SpendExportQuery, now = Date.now()): Promise<string> {
    const { from, to } = days(q, 31, now);
    const { currency } = this.deps;
    const money = (nanos: number) => fromNanos(nanos);
    if (q.by === 'player') {
      const rows = await this.deps.store.requestLog.playerSpendExport(from, to);
      return toCsv(
        ['day', 'player_id', 'calls', 'amount', 'unpriced_calls', 'currency'],
        rows.map((r) => [r.day, r.playerId, r.calls, money(r.nanos), r.unpriced, currency]),
      );
    }
    const rows = (await this.deps.store.admin.spend(from))
      .filter((r) => r.day <= to)
      .sort(
        (a, b) =>
          b.day.localeCompare(a.day) || a.route.localeCompare(b.route) || a.backend.localeCompare(b.backend),
      );
    return toCsv(
      ['day', 'route', 'backend', 'calls', 'amount', 'unpriced_calls', 'currency'],
      rows.map((r) => [r.day, r.route, r.backend, r.calls, money(r.nanos), r.unpriced, currency]),
    );
  }

  /** Items made on the days asked (every day by default), newest first, as CSV. */
  async itemsCsv(q: ItemsExportQuery): Promise<string> {
    if (q.from && q.to && q.from > q.to)
      throw refuse('invalid_request', `query.from: ${q.from} comes after query.to ${q.to}`);
    const from = q.from ? `${q.from}T00:00:00.000Z` : '';
    const to = q.to ? iso(Date.parse(`${q.to}T00:00:00.000Z`) + DAY_MS) : '9999';
    const rows = await this.deps.store.requestLog.itemsExport(from, to, EXPORT_MAX);
    const { currency } = this.deps;
    return toCsv(
      ['id', 'name', 'type', 'rarity', 'player_id', 'created_at', 'cost', 'currency'],
      rows.map((r) => {
        const item = JSON.parse(r.data) as { name?: string; type?: string; rarity?: string };
        const cost = r.unpriced === null ? 'not_recorded' : r.unpriced ? 'unpriced' : fromNanos(r.cost ?? 0);
        return [r.id, item.name, item.type, item.rarity, r.playerId, r.createdAt, cost, currency];
      }),
    );
  }
}
