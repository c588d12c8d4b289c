// The request log's rows and what its store does (`request-queries.ts` runs it over the statements).

/** One answered request as the log keeps it: its body already screened, capped and serialised. */
export interface LoggedRequest {
  id: string;
  /** When it arrived (ms since the epoch). */
  at: number;
  method: string;
  route: string;
  status: number;
  kind: string;
  code: string | null;
  playerId: string | null;
  ms: number;
  body: string | null;
  bodyTruncated: boolean;
  /** JSON: `{ items: string[] }` or `{ error: { code, message } }`. */
  result: string | null;
}

/** One backend call of a logged request, its prompt and answer serialised and capped. */
export interface LoggedCall {
  requestId: string;
  /** When it ended. */
  at: number;
  backend: string;
  kind: string;
  model: string | null;
  outcome: string;
  status: number | null;
  ms: number;
  /** Nanos; null with `unpriced` 1 for a call without a price, and for a failed call (nothing known). */
  cost: number | null;
  unpriced: number | null;
  prompt: string | null;
  answer: string | null;
  truncated: boolean;
}

export interface RequestLogRetention {
  /** Newest requests kept. */
  max: number;
  /** Requests that arrived before this (ms since the epoch) go. */
  before: number;
}

export interface RequestListQuery {
  playerId?: string;
  route?: string;
  kind?: string;
  /** The `seq` of the last row of the page before. */
  beforeSeq?: number;
  limit: number;
}

export interface RequestRow extends Omit<LoggedRequest, 'body' | 'bodyTruncated' | 'result'> {
  seq: number;
}

export type CallRow = Omit<LoggedCall, 'requestId'>;

/** What the request log reads and writes (`Store.requestLog`). */
export interface RequestLogStore {
  /** Writes a batch in one transaction, then trims the log to its retention. */
  recordRequests(
    batch: { requests: LoggedRequest[]; calls: LoggedCall[] },
    retention: RequestLogRetention,
  ): Promise<void>;
  /** Trims the log to its retention (what a write does too, for a quiet server). */
  trimRequests(retention: RequestLogRetention): Promise<void>;
  requests(q: RequestListQuery): Promise<RequestRow[]>;
  request(id: string): Promise<{
    row: RequestRow;
    body: string | null;
    bodyTruncated: boolean;
    result: string | null;
    calls: CallRow[];
    /** Items whose provenance names this request. */
    made: string[];
  } | null>;
  /** Which of these item ids are stored items. */
  knownItems(ids: string[]): Promise<Set<string>>;
  /** Items made in [from, to) (ISO), newest first. */
  itemsExport(
    from: string,
    to: string,
    limit: number,
  ): Promise<
    Array<{
      id: string;
      data: string;
      playerId: string | null;
      cost: number | null;
      unpriced: number | null;
      createdAt: string;
    }>
  >;
  /** Each player's spend per day, days `from` to `to` inclusive. */
  playerSpendExport(
    from: string,
    to: string,
  ): Promise<Array<{ playerId: string; day: string; calls: number; nanos: number; unpriced: number }>>;
  /** The query plan of each of the log's list queries, by name. */
  plans(): Promise<Record<string, string>>;
}
