import { randomUUID } from 'node:crypto';
import { answerKind } from '@lootsmith/protocol';
import type { UpstreamCall } from '../upstream/client.ts';
import { failureCode } from './activity.ts';
import type { LoggedCall, LoggedRequest, RequestLogRetention, RequestLogStore } from './request-store.ts';

/** How often an instance writes its log, and after how many requests at the latest. */
const FLUSH_MS = 1000;
const FLUSH_REQUESTS = 100;
/** Requests and calls waiting for a write; past these they are dropped (and counted) until it is done. */
const MAX_PENDING_REQUESTS = 5_000;
const MAX_PENDING_CALLS = 20_000;
const SWEEP_MS = 10 * 60_000;

/** What is kept of a body, a call's prompt and a chat answer, in characters. */
export const BODY_LIMIT = 16_384;
export const PROMPT_LIMIT = 16_384;
export const ANSWER_LIMIT = 8_192;
const CUT = '…[cut]';

/**
 * Fields never kept, whatever route sends them: credentials and anything named like one, and a drop
 * grant (a signed, single-use bearer of a drop).
 */
const SECRET_FIELD =
  /secret|^(.*[-_])?(token|password|passwd|api[-_]?key|apikey|authori[sz]ation|credentials?|cookie|grant|signature)$/i;
export const NOT_KEPT = '[not kept]';

/**
 * A request's id: a UUID of version 7, its first 48 bits the time in milliseconds, so the log's
 * indexes on it grow at one end (a random UUID wrote a page anywhere: twice the insert's cost at
 * 10,000 kept requests), and ids sort by arrival.
 */
export function newRequestId(now = Date.now()): string {
  const time = now.toString(16).padStart(12, '0');
  // randomUUID: xxxxxxxx-xxxx-4xxx-Vxxx-xxxxxxxxxxxx; its random bits and variant are kept.
  const random = randomUUID();
  return `${time.slice(0, 8)}-${time.slice(8)}-7${random.slice(15, 18)}-${random.slice(19)}`;
}

/** One answered request as the hook hands it over: references only, serialised when written. */
export interface RequestEntry {
  id: string;
  /** When it arrived. */
  at: number;
  method: string;
  route: string;
  status: number;
  code?: string;
  ms: number;
  playerId?: string;
  /** The JSON body as parsed (never the headers). */
  body: unknown;
  /** The ids of the items the answer carried, or its error. */
  result: { items: string[] } | { error: { code: string; message: string } } | null;
}

export interface RequestLogSettings {
  /** Newest requests kept (0: the log is off). */
  max: number;
  /** Days a request is kept. */
  days: number;
}

/** `value` as JSON of at most `limit` characters: its longest strings cut first; whether anything was cut. */
export function boundedJson(value: unknown, limit: number): { text: string; truncated: boolean } {
  const whole = JSON.stringify(value, hideSecrets) ?? 'null';
  if (whole.length <= limit) return { text: whole, truncated: false };
  // The longest a string may be so the whole fits: found by halving.
  let low = 0;
  let high = whole.length;
  let best: string | undefined;
  while (low <= high) {
    const most = Math.floor((low + high) / 2);
    const text = JSON.stringify(value, (k, v) => {
      const shown = hideSecrets(k, v);
      return typeof shown === 'string' && shown.length > most ? `${shown.slice(0, most)}${CUT}` : shown;
    });
    if (text.length <= limit) {
      best = text;
      low = most + 1;
    } else high = most - 1;
  }
  // Too many small parts to fit by cutting strings: the first `limit` characters, no longer JSON.
  return { text: best ?? `${whole.slice(0, limit - CUT.length)}${CUT}`, truncated: true };
}

function hideSecrets(key: string, value: unknown) {
  return key && SECRET_FIELD.test(key) && value !== null && value !== undefined ? NOT_KEPT : value;
}

/**
 * The console's request log: each answered game request with its body (as read, secrets left out,
 * capped) and the backend calls it made (prompt and answer, capped). The request path only appends
 * references to two arrays; serialising and the write happen once a second, in one transaction, off
 * the answer's path. Bounded: past the pending limits entries are dropped and counted; the store
 * keeps the newest `max` requests of the last `days` days.
 */
export class RequestLog {
  private requests: RequestEntry[] = [];
  private calls: Array<[call: UpstreamCall, at: number]> = [];
  private writing: Promise<void> = Promise.resolve();
  private readonly timer?: NodeJS.Timeout;
  private readonly sweeper?: NodeJS.Timeout;
  /** Requests and calls dropped because the store fell behind or failed. */
  dropped = 0;

  constructor(
    private readonly store: RequestLogStore,
    readonly settings: RequestLogSettings,
    private readonly options: {
      /** Removes the server's secrets from a text (`Secrets.scrub`). */
      scrub?: (text: string) => string;
      log?: (message: string, err: unknown) => void;
    } = {},
  ) {
    if (!this.enabled) return;
    this.timer = setInterval(() => void this.flush(), FLUSH_MS).unref();
    this.sweeper = setInterval(() => void this.sweep(), SWEEP_MS).unref();
  }

  get enabled() {
    return this.settings.max > 0;
  }

  /** The log's retention now. */
  retention(now = Date.now()): RequestLogRetention {
    return { max: this.settings.max, before: now - this.settings.days * 86_400_000 };
  }

  request(entry: RequestEntry) {
    if (!this.enabled) return;
    if (this.requests.length >= MAX_PENDING_REQUESTS) {
      this.dropped++;
      return;
    }
    this.requests.push(entry);
    if (this.requests.length === FLUSH_REQUESTS) void this.flush();
  }

  /** A backend call; kept only when its request is logged. */
  call(call: UpstreamCall) {
    if (!this.enabled || !call.request) return;
    if (this.calls.length >= MAX_PENDING_CALLS) this.dropped++;
    else this.calls.push([call, Date.now()]);
  }

  /** Writes what was logged since the last write (one write at a time); resolves when it is stored. */
  flush(): Promise<void> {
    this.writing = this.writing.then(async () => {
      if (!this.requests.length && !this.calls.length) return;
      const requests = this.requests.map((r) => this.logged(r));
      const calls = this.calls.map(([c, at]) => this.loggedCall(c, at));
      this.requests = [];
      this.calls = [];
      try {
        await this.store.recordRequests({ requests, calls }, this.retention());
      } catch (err) {
        // Best effort, like the figures: a store that is down loses this second's log, never a request.
        this.dropped += requests.length + calls.length;
        this.options.log?.('the console could not record the request log', err);
      }
    });
    return this.writing;
  }

  private scrub(text: string) {
    return this.options.scrub ? this.options.scrub(text) : text;
  }

  private logged(r: RequestEntry): LoggedRequest {
    const code =
      r.status >= 400
        ? (r.code ?? (r.status === 404 ? 'not_found' : `status_${r.status}`))
        : (r.code ?? null);
    const body = r.body === undefined || r.body === null ? null : boundedJson(r.body, BODY_LIMIT);
    return {
      id: r.id,
      at: r.at,
      method: r.method,
      route: r.route,
      status: r.status,
      kind: answerKind(r.status, code),
      code,
      playerId: r.playerId ?? null,
      ms: r.ms,
      body: body && this.scrub(body.text),
      bodyTruncated: body?.truncated ?? false,
      result: r.result && this.scrub(JSON.stringify(r.result)),
    };
  }

  private loggedCall(c: UpstreamCall, at: number): LoggedCall {
    const trace = c.request as NonNullable<UpstreamCall['request']>;
    const prompt = boundedJson(trace.prompt, PROMPT_LIMIT);
    const answer = boundedJson(trace.answer, ANSWER_LIMIT);
    const ok = c.outcome === 'ok';
    return {
      requestId: trace.id,
      at,
      backend: c.backend,
      kind: c.kind,
      model: trace.model ?? c.model ?? null,
      outcome: failureCode(c),
      status: c.status ?? null,
      ms: c.ms,
      cost: ok && typeof c.cost === 'number' ? c.cost : null,
      unpriced: ok ? (typeof c.cost === 'number' ? 0 : 1) : null,
      prompt: this.scrub(prompt.text),
      answer: this.scrub(answer.text),
      truncated: prompt.truncated || answer.truncated,
    };
  }

  private async sweep() {
    await this.store
      .trimRequests(this.retention())
      .catch((err) => this.options.log?.('the console could not trim the request log', err));
  }

  /** Stops the timers and writes what is left. */
  async close() {
    clearInterval(this.timer);
    clearInterval(this.sweeper);
    await this.flush();
  }
}
