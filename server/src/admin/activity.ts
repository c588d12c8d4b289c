import { answerKind, REPLAYED } from '@lootsmith/protocol';
import type { ActivitySink } from '../generation/provenance.ts';
import type { UpstreamCall } from '../upstream/client.ts';
import { currentPayer } from '../upstream/spend.ts';
import {
  type ActivityBatch,
  type AdminStore,
  type BackendMinute,
  type CounterMinute,
  LATENCY_BUCKETS,
  latencyBucket,
  type PlayerActivity,
  type PlayerRequestRow,
  type PlayerSpendDay,
  type ProvenanceRow,
  type RouteMinute,
  type SpendDay,
} from './store.ts';

/** How often an instance adds what it recorded to the store, and after how many requests at the latest. */
const FLUSH_MS = 1000;
/** Keeps one SQLite write (synchronous, on the event loop) to a few milliseconds under heavy traffic. */
const FLUSH_REQUESTS = 1000;
/** Requests kept for the next write; past this they are dropped (and counted) until it is done. */
const MAX_PENDING_REQUESTS = 20_000;
const MAX_PENDING_PROVENANCE = 50_000;
/** Retention: per-minute figures for 8 days, the newest 200,000 player requests, 100,000 moderation events. */
const STATS_DAYS = 8;
/** Spend per day is kept this long: this month's and last month's. */
const SPEND_DAYS = 62;
/** The route of calls made outside any request: the server's own work (pool refills). */
export const BACKGROUND = 'background';
const MAX_REQUESTS = 200_000;
const MAX_MODERATION = 100_000;
const SWEEP_MS = 10 * 60_000;

/** One answered request, as the console counts it. */
export interface RequestOutcome {
  /** `POST /v1/generate/items`: the method and the route's pattern. */
  route: string;
  status: number;
  /** The error code of an answer that is not 2xx; of a 2xx, the refusal its body gives (a combine's verdict). */
  code?: string;
  ms: number;
  /** The player it was for, when known. */
  playerId?: string;
  at: number;
  /** Its id in the request log, when it is logged. */
  requestId?: string;
}

const DROP_ROUTE = /\/v1\/generate\/items$/;
const CRAFT_ROUTE = /\/(crafting\/combine|create-item)$/;

/** A failed attempt's reason as a short code, from its status or the upstream client's words. */
export function failureCode(call: Pick<UpstreamCall, 'outcome' | 'status' | 'detail'>): string {
  if (call.outcome !== 'error') return call.outcome;
  if (call.status) return `status_${call.status}`;
  const detail = call.detail ?? '';
  if (detail.startsWith('no whole answer')) return 'timeout';
  if (/^(network|body read):/.test(detail)) return 'network';
  if (/larger than|over the limit/.test(detail)) return 'too_large';
  if (detail.includes('secret')) return 'secret_echoed';
  if (detail.startsWith('image refused')) return 'image_refused';
  return 'invalid_answer';
}

const zeros = () => new Array<number>(LATENCY_BUCKETS).fill(0);

/**
 * A read answered well (`GET …` under 400): no body, no backend call, nothing the player did. The
 * figures count it; neither the player's recent requests nor the request log keep it.
 */
export const readAnsweredWell = (route: string, status: number) => status < 400 && route.startsWith('GET ');

/**
 * Records request outcomes, upstream calls, counters and item provenance for the console, and adds
 * them to the store once a second: the request path only adds numbers to maps in memory; one
 * transaction a second writes an instance's minute figures, player counters and requests. Bounded:
 * when the store falls behind, requests past the limit are dropped and counted.
 */
export class ActivityRecorder implements ActivitySink {
  private routes = new Map<string, RouteMinute>();
  private backends = new Map<string, BackendMinute>();
  private counters = new Map<string, CounterMinute>();
  private players = new Map<string, PlayerActivity>();
  private spend = new Map<string, SpendDay>();
  private playerSpend = new Map<string, PlayerSpendDay>();
  private requests: PlayerRequestRow[] = [];
  private provenance: ProvenanceRow[] = [];
  private writing: Promise<void> = Promise.resolve();
  private readonly timer: NodeJS.Timeout;
  private readonly sweeper: NodeJS.Timeout;
  /** Requests and provenance rows dropped because the store fell behind. */
  dropped = 0;

  constructor(
    private readonly store: Pick<AdminStore, 'recordActivity' | 'sweep'>,
    private readonly options: { log?: (message: string, err: unknown) => void } = {},
  ) {
    this.timer = setInterval(() => void this.flush(), FLUSH_MS).unref();
    this.sweeper = setInterval(() => void this.sweep(), SWEEP_MS).unref();
  }

  request(r: RequestOutcome) {
    const minute = Math.floor(r.at / 60_000);
    const code =
      r.status >= 400 ? (r.code ?? (r.status === 404 ? 'not_found' : `status_${r.status}`)) : (r.code ?? '');
    const key = `${minute}\u0000${r.route}\u0000${r.status}\u0000${code}`;
    let route = this.routes.get(key);
    if (!route) {
      route = { minute, route: r.route, status: r.status, code, count: 0, totalMs: 0, buckets: zeros() };
      this.routes.set(key, route);
    }
    route.count++;
    route.totalMs += r.ms;
    (route.buckets[latencyBucket(r.ms)] as number)++;
    if (!r.playerId) return;
    const player = this.player(r.playerId, r.at);
    player.requests++;
    const kind = answerKind(r.status, code);
    // A replay answered the first request's result again: that drop or craft is counted already.
    const made = kind === 'ok' && code !== REPLAYED;
    if (made && DROP_ROUTE.test(r.route)) player.drops++;
    if (made && CRAFT_ROUTE.test(r.route)) player.crafts++;
    if (kind === 'game_refusal' || kind === 'content_refusal') player.refusals++;
    // A read answered well is counted, not listed: a game polls its inventory, and a player's recent
    // requests would be those reads rather than what the player did (and the row cost each read a tenth).
    if (readAnsweredWell(r.route, r.status)) return;
    if (this.requests.length >= MAX_PENDING_REQUESTS) this.dropped++;
    else
      this.requests.push({
        playerId: r.playerId,
        at: r.at,
        route: r.route,
        status: r.status,
        code: code || null,
        ms: r.ms,
        requestId: r.requestId ?? null,
      });
    if (this.requests.length === FLUSH_REQUESTS) void this.flush();
  }

  upstreamCall(call: UpstreamCall, at = Date.now()) {
    const minute = Math.floor(at / 60_000);
    const { backend, kind } = call;
    const outcome = failureCode(call);
    const key = `${minute}\u0000${backend}\u0000${kind}\u0000${outcome}`;
    let b = this.backends.get(key);
    if (!b) {
      b = {
        minute,
        backend,
        kind,
        outcome,
        count: 0,
        totalMs: 0,
        buckets: zeros(),
        promptTokens: 0,
        completionTokens: 0,
        images: 0,
      };
      this.backends.set(key, b);
    }
    b.count++;
    b.totalMs += call.ms;
    (b.buckets[latencyBucket(call.ms)] as number)++;
    if (call.outcome !== 'ok') return;
    this.spent(call, at);
    const prompt = call.usage?.prompt_tokens ?? 0;
    const completion = call.usage?.completion_tokens ?? 0;
    const tokens = prompt + completion;
    const images = kind === 'image' ? 1 : 0;
    b.promptTokens += prompt;
    b.completionTokens += completion;
    b.images += images;
    // Spend is the player's whose client_id the call carried (the server's own work has its own ids).
    if (call.clientId && (tokens || images)) {
      const player = this.player(call.clientId, at);
      player.tokens += tokens;
      player.images += images;
    }
  }

  /** A successful call's cost, by day, route and backend, and by day for its request's player. */
  private spent(call: UpstreamCall, at: number) {
    const day = new Date(at).toISOString().slice(0, 10);
    const nanos = call.cost ?? 0;
    const unpriced = call.cost === null || call.cost === undefined ? 1 : 0;
    const route = call.route ?? BACKGROUND;
    const key = `${day}\u0000${route}\u0000${call.backend}`;
    const s = this.spend.get(key) ?? { day, route, backend: call.backend, calls: 0, nanos: 0, unpriced: 0 };
    this.spend.set(key, s);
    s.calls++;
    s.nanos += nanos;
    s.unpriced += unpriced;
    if (!call.player) return;
    this.player(call.player, at).spend += nanos;
    const own = `${call.player}\u0000${day}`;
    const p = this.playerSpend.get(own) ?? { playerId: call.player, day, calls: 0, nanos: 0, unpriced: 0 };
    this.playerSpend.set(own, p);
    p.calls++;
    p.nanos += nanos;
    p.unpriced += unpriced;
  }

  level(playerId: string, level: number, at = Date.now()) {
    const player = this.player(playerId, at);
    if (player.levelAt === null || at >= player.levelAt) {
      player.level = level;
      player.levelAt = at;
    }
  }

  count(name: string, label: string, n: number, at = Date.now()) {
    if (!n) return;
    const minute = Math.floor(at / 60_000);
    const key = `${minute}\u0000${name}\u0000${label}`;
    const c = this.counters.get(key);
    if (c) c.value += n;
    else this.counters.set(key, { minute, name, label, value: n });
  }

  record(rows: ProvenanceRow[]) {
    // Made for a logged request: the item's provenance names it (read where the rows are made).
    const request = currentPayer()?.request;
    if (request) for (const row of rows) row.requestId = request;
    const room = Math.max(0, MAX_PENDING_PROVENANCE - this.provenance.length);
    this.dropped += Math.max(0, rows.length - room);
    this.provenance.push(...rows.slice(0, room));
  }

  private player(id: string, at: number): PlayerActivity {
    let p = this.players.get(id);
    if (!p) {
      p = {
        playerId: id,
        requests: 0,
        drops: 0,
        crafts: 0,
        refusals: 0,
        tokens: 0,
        images: 0,
        spend: 0,
        lastAt: at,
        level: null,
        levelAt: null,
      };
      this.players.set(id, p);
    }
    if (at > p.lastAt) p.lastAt = at;
    return p;
  }

  /** Writes what was recorded since the last write (one write at a time); resolves when it is stored. */
  flush(): Promise<void> {
    this.writing = this.writing.then(async () => {
      const batch = this.take();
      if (!batch) return;
      try {
        await this.store.recordActivity(batch);
      } catch (err) {
        // Figures are best effort: a store that is down loses this second's, never the requests.
        this.dropped += batch.requests.length + batch.provenance.length;
        this.options.log?.('the console could not record activity', err);
      }
    });
    return this.writing;
  }

  private take(): ActivityBatch | undefined {
    if (
      !this.routes.size &&
      !this.backends.size &&
      !this.counters.size &&
      !this.players.size &&
      !this.spend.size &&
      !this.provenance.length
    )
      return undefined;
    const batch: ActivityBatch = {
      routes: [...this.routes.values()],
      backends: [...this.backends.values()],
      counters: [...this.counters.values()],
      players: [...this.players.values()],
      requests: this.requests,
      provenance: this.provenance,
      spend: [...this.spend.values()],
      playerSpend: [...this.playerSpend.values()],
      keepRequests: MAX_REQUESTS,
    };
    this.spend = new Map();
    this.playerSpend = new Map();
    this.routes = new Map();
    this.backends = new Map();
    this.counters = new Map();
    this.players = new Map();
    this.requests = [];
    this.provenance = [];
    return batch;
  }

  private async sweep() {
    const now = Date.now();
    await this.store
      .sweep(
        {
          statsBefore: now - STATS_DAYS * 86_400_000,
          spendBefore: new Date(now - SPEND_DAYS * 86_400_000).toISOString().slice(0, 10),
          maxModeration: MAX_MODERATION,
        },
        now,
      )
      .catch((err) => this.options.log?.('the console could not sweep old figures', err));
  }

  /** Stops the timers and writes what is left. */
  async close() {
    clearInterval(this.timer);
    clearInterval(this.sweeper);
    await this.flush();
  }
}
