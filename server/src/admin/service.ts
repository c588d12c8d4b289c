import {
  type AnswerKind,
  type Answers,
  answerKind,
  type BackendFigures,
  type GameDefinition,
  type Item,
  type ItemDetail,
  type ItemsPage,
  type ItemsQuery,
  type Latency,
  type ModerationEvent,
  type ModerationPage,
  type ModerationQuery,
  type Overview,
  type PlayerDetail,
  type PlayerPatch,
  type PlayerSummary,
  type PlayersPage,
  type PlayersQuery,
  type RouteFigures,
  type SpendFigures,
} from '@lootsmith/protocol';
import { gameKey } from '../game/definition.ts';
import { craftingLevel, knownRarity, knownType } from '../game/rules.ts';
import type { SpendCaps } from '../money/caps.ts';
import { fromNanos, type Nanos } from '../money/pricing.ts';
import { refuse } from '../refusal.ts';
import type { Store } from '../store/store.ts';
import { itemCost, recentSpend, spendDays, spendFigures } from './spend.ts';
import {
  type AdminStore,
  LATENCY_BOUNDS_MS,
  type ModerationRow,
  type PlayerRow,
  type ProvenanceRow,
} from './store.ts';

const iso = (ms: number) => new Date(ms).toISOString();
const today = () => new Date().toISOString().slice(0, 10);

/** The latency at which a share `p` of the counted calls had answered, interpolated within its bucket. */
export function percentile(buckets: number[], p: number): number | null {
  const total = buckets.reduce((a, b) => a + b, 0);
  if (!total) return null;
  const target = p * total;
  let below = 0;
  for (let i = 0; i < buckets.length; i++) {
    const n = buckets[i] as number;
    if (n && below + n >= target) {
      const lower = i ? (LATENCY_BOUNDS_MS[i - 1] as number) : 0;
      // The last bucket has no bound: read it as up to three times the last one.
      const upper = LATENCY_BOUNDS_MS[i] ?? lower * 3;
      return Math.round((lower + ((target - below) / n) * (upper - lower)) * 10) / 10;
    }
    below += n;
  }
  return null;
}

const latencyOf = (buckets: number[]): Latency => ({
  p50_ms: percentile(buckets, 0.5),
  p95_ms: percentile(buckets, 0.95),
  p99_ms: percentile(buckets, 0.99),
});

const COUNTED = {
  game_refusal: 'game_refusals',
  content_refusal: 'content_refusals',
  client_error: 'client_errors',
  error: 'errors',
} as const satisfies Record<Exclude<AnswerKind, 'ok'>, string>;

/** Requests, and their answers but successes counted by kind (`answerKind`) and listed by kind and code. */
class AnswerTally {
  requests = 0;
  readonly counts = { game_refusals: 0, content_refusals: 0, client_errors: 0, errors: 0 };
  private readonly byCode = new Map<string, Answers[number]>();

  add(status: number, code: string, count: number) {
    this.requests += count;
    const kind = answerKind(status, code);
    if (kind === 'ok') return;
    this.counts[COUNTED[kind]] += count;
    const key = `${kind} ${code}`;
    const answer = this.byCode.get(key) ?? { kind, code, count: 0 };
    answer.count += count;
    this.byCode.set(key, answer);
  }

  /** Most first. */
  list(): Answers {
    return [...this.byCode.values()].sort((a, b) => b.count - a.count || a.code.localeCompare(b.code));
  }
}

/** Opaque page positions: what the last row of a page was sorted by. */
const cursor = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
function fromCursor<T>(text: string | undefined, valid: (v: unknown) => v is T): T | undefined {
  if (text === undefined) return undefined;
  try {
    const value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (valid(value)) return value;
  } catch {}
  throw refuse('invalid_request', 'query.after: not a position this list gave out');
}
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

function moderationEvent(row: ModerationRow): ModerationEvent {
  return {
    id: String(row.id),
    player_id: row.playerId,
    at: iso(row.at),
    kind: row.kind,
    field: row.field,
    excerpt: row.excerpt,
    reason: row.reason,
    action: row.action,
    count: row.count,
  };
}

/** The part of the store the console's pages read and change. */
export type ConsoleStore = Pick<
  Store,
  'dailyUsage' | 'equipment' | 'getPlayer' | 'inventory' | 'poolStock' | 'updatePlayer'
> & {
  admin: Pick<
    AdminStore,
    | 'routeStats'
    | 'backendStats'
    | 'counters'
    | 'series'
    | 'generations'
    | 'playerCounts'
    | 'moderationSince'
    | 'players'
    | 'countPlayers'
    | 'player'
    | 'playerRequests'
    | 'items'
    | 'item'
    | 'removeItem'
    | 'moderation'
    | 'spend'
    | 'playerSpend'
    | 'capSpend'
  >;
};

export interface AdminDeps {
  game: GameDefinition;
  store: ConsoleStore;
  /** The game's materials as items (their icons included). */
  materials: Map<string, Item>;
  pools: boolean;
  /** The price list's currency: every amount of money is in it. */
  currency: string;
  /** The spend caps, when any is set. */
  caps?: SpendCaps;
}

/**
 * What the developer console reads and changes: figures of every instance, players, items and
 * moderation events, all from the store.
 */
export class AdminService {
  constructor(private readonly deps: AdminDeps) {}

  /** What a cap holds in its period now; null when the cap is not set. */
  private async capUse(limit: Nanos | undefined, scope: string, period: string) {
    if (limit === undefined) return null;
    const spent = await this.deps.store.admin.capSpend(scope, period);
    return { limit: fromNanos(limit), spent: fromNanos(spent), period };
  }

  /** The game's caps that are set, as they stand. */
  private async gameCaps(now: number): Promise<SpendFigures['caps']> {
    const { today } = spendDays(now);
    const [daily, monthly] = await Promise.all([
      this.capUse(this.deps.caps?.daily, 'game', today),
      this.capUse(this.deps.caps?.monthly, 'game', today.slice(0, 7)),
    ]);
    return [
      ...(daily ? [{ cap: 'game_daily' as const, ...daily }] : []),
      ...(monthly ? [{ cap: 'game_monthly' as const, ...monthly }] : []),
    ];
  }

  async overview(window: 'hour' | 'day'): Promise<Overview> {
    const { store, game } = this.deps;
    const admin = store.admin;
    const now = Date.now();
    const nowMinute = Math.floor(now / 60_000);
    // Whole steps: 60 minutes, or 24 hours (the current one included).
    const step = window === 'hour' ? 1 : 60;
    const slots = window === 'hour' ? 60 : 24;
    const firstSlot = Math.floor(nowMinute / step) - slots + 1;
    const sinceMinute = firstSlot * step;
    const since = sinceMinute * 60_000;
    const [routeRows, backendRows, counters, series, generations, counts, moderation, stock, spend, caps] =
      await Promise.all([
        admin.routeStats(sinceMinute),
        admin.backendStats(sinceMinute),
        admin.counters(sinceMinute),
        admin.series(sinceMinute, step),
        admin.generations(iso(since)),
        admin.playerCounts(since),
        admin.moderationSince(since),
        this.deps.pools ? store.poolStock(gameKey(game), now) : Promise.resolve([]),
        admin.spend(spendDays(now).since),
        this.gameCaps(now),
      ]);

    // Latency buckets summed per route and per backend and kind; percentiles are read from the sums.
    const latencies = new Map<string, number[]>();
    const addLatency = (key: string, buckets: number[]) => {
      const sum = latencies.get(key) ?? buckets.map(() => 0);
      buckets.forEach((n, i) => {
        sum[i] = (sum[i] ?? 0) + n;
      });
      latencies.set(key, sum);
    };
    const routes = new Map<string, AnswerTally>();
    const answers = new AnswerTally();
    for (const r of routeRows) {
      const f = routes.get(r.route) ?? new AnswerTally();
      routes.set(r.route, f);
      addLatency(`route ${r.route}`, r.buckets);
      f.add(r.status, r.code, r.count);
      answers.add(r.status, r.code, r.count);
    }
    const backends = new Map<string, BackendFigures>();
    for (const b of backendRows) {
      const key = `${b.backend} ${b.kind}`;
      const f = backends.get(key) ?? {
        backend: b.backend,
        kind: b.kind,
        calls: 0,
        failures: 0,
        failures_by_code: {},
        latency: latencyOf([]),
        prompt_tokens: 0,
        completion_tokens: 0,
        images: 0,
      };
      backends.set(key, f);
      addLatency(`backend ${key}`, b.buckets);
      f.calls += b.count;
      if (b.outcome !== 'ok') {
        f.failures += b.count;
        f.failures_by_code[b.outcome] = (f.failures_by_code[b.outcome] ?? 0) + b.count;
      }
      f.prompt_tokens += b.promptTokens;
      f.completion_tokens += b.completionTokens;
      f.images += b.images;
    }
    const routeList = [...routes].map(
      ([route, f]): RouteFigures => ({
        route,
        requests: f.requests,
        ...f.counts,
        answers: f.list(),
        latency: latencyOf(latencies.get(`route ${route}`) ?? []),
      }),
    );
    for (const [key, f] of backends) f.latency = latencyOf(latencies.get(`backend ${key}`) ?? []);
    const bySlot = new Map<number, AnswerTally>();
    for (const s of series) {
      const slot = bySlot.get(s.slot) ?? new AnswerTally();
      bySlot.set(s.slot, slot);
      slot.add(s.status, s.code, s.count);
    }
    const counter = (name: string, label: string) =>
      counters.find((c) => c.name === name && c.label === label)?.value ?? 0;
    const hits = counter('pool_draw', 'hit');
    const misses = counter('pool_draw', 'miss');
    const buckets = new Map<string, { bucket: string; ready: number; pending: number }>();
    for (const s of stock) {
      const b = buckets.get(s.bucket) ?? { bucket: s.bucket, ready: 0, pending: 0 };
      b.ready += Number(s.ready);
      b.pending += Number(s.pending);
      buckets.set(s.bucket, b);
    }
    const backendList = [...backends.values()];
    const sum = <T>(list: T[], of: (t: T) => number) => list.reduce((a, t) => a + of(t), 0);
    return {
      window,
      since: iso(since),
      totals: {
        requests: answers.requests,
        ...answers.counts,
        generated_items: sum(generations, (g) => g.items),
        tokens: sum(backendList, (b) => b.prompt_tokens + b.completion_tokens),
        images: sum(backendList, (b) => b.images),
        players: counts.players,
        active_players: counts.active,
        moderation_events: moderation,
      },
      spend: spendFigures(spend, now, this.deps.currency, caps),
      generations,
      answers: answers.list(),
      routes: routeList.sort((a, b) => b.requests - a.requests),
      backends: backendList.sort(
        (a, b) => a.backend.localeCompare(b.backend) || a.kind.localeCompare(b.kind),
      ),
      series: Array.from({ length: slots }, (_, i) => {
        const slot = firstSlot + i;
        const s = bySlot.get(slot);
        const counts = s?.counts;
        return {
          at: iso(slot * step * 60_000),
          requests: s?.requests ?? 0,
          refusals: (counts?.game_refusals ?? 0) + (counts?.content_refusals ?? 0),
          errors: counts?.errors ?? 0,
        };
      }),
      pools: {
        enabled: this.deps.pools,
        hits,
        misses,
        hit_rate: hits + misses ? hits / (hits + misses) : null,
        ready: sum([...buckets.values()], (b) => b.ready),
        pending: sum([...buckets.values()], (b) => b.pending),
        buckets: [...buckets.values()],
      },
    };
  }

  private summary(row: PlayerRow): PlayerSummary {
    return {
      id: row.id,
      level: row.reportedLevel ?? row.level ?? row.claimedLevel,
      level_at: row.reportedAt === null ? null : iso(row.reportedAt),
      blocked: row.blocked,
      crafting_level: craftingLevel(this.deps.game, row.craftingXp),
      items: row.stacks,
      drops: row.drops,
      crafts: row.crafts,
      refusals: row.refusals,
      requests: row.requests,
      tokens: row.tokens,
      images: row.images,
      spend: fromNanos(row.spend),
      last_seen: row.lastAt === null ? null : iso(row.lastAt),
      created_at: row.createdAt,
    };
  }

  async players(q: PlayersQuery): Promise<PlayersPage> {
    const after = fromCursor(
      q.after,
      (v): v is { id: string; lastAt?: number } => isRecord(v) && typeof v.id === 'string',
    );
    const admin = this.deps.store.admin;
    const [rows, total] = await Promise.all([
      admin.players({ prefix: q.q || undefined, sort: q.sort, after, limit: q.limit + 1 }),
      admin.countPlayers(q.q || undefined),
    ]);
    const page = rows.slice(0, q.limit);
    const last = page.at(-1);
    return {
      currency: this.deps.currency,
      players: page.map((r) => this.summary(r)),
      total,
      next: rows.length > q.limit && last ? cursor({ id: last.id, lastAt: last.lastAt ?? 0 }) : null,
    };
  }

  async player(id: string): Promise<PlayerDetail> {
    const { store, materials } = this.deps;
    const row = await store.admin.player(id);
    if (!row) throw refuse('not_found', `No player ${id}`);
    const now = Date.now();
    const { week, today: day } = spendDays(now);
    const [read, equipment, usage, requests, moderation, spend, cap] = await Promise.all([
      store.inventory(id),
      store.equipment(id),
      store.dailyUsage(id, today()),
      store.admin.playerRequests(id, 50),
      store.admin.moderation({ playerId: id, limit: 20 }),
      store.admin.playerSpend(id, week),
      this.capUse(this.deps.caps?.playerDaily, `player:${id}`, day),
    ]);
    const slots = new Map(equipment.map((e) => [e.item_id, e.slot]));
    const inventory = (read?.stacks ?? []).flatMap((s) => {
      const item = s.data ? (JSON.parse(s.data) as Item) : materials.get(s.item_id);
      return item ? [{ item, quantity: s.quantity, slot: slots.get(s.item_id) ?? null }] : [];
    });
    return {
      player: {
        ...this.summary(row),
        daily_items: row.dailyItems,
        daily_images: row.dailyImages,
        crafting_xp: row.craftingXp,
        recipes: read?.recipes.length ?? 0,
      },
      usage_today: usage,
      spend: { currency: this.deps.currency, ...recentSpend(spend, now), cap },
      inventory,
      requests: requests.map((r) => ({
        at: iso(r.at),
        route: r.route,
        status: r.status,
        code: r.code,
        ms: r.ms,
        request_id: r.requestId ?? null,
      })),
      moderation: moderation.map(moderationEvent),
    };
  }

  /** Blocks or unblocks (read inside every reservation, so on every instance at once) and sets budgets. */
  async updatePlayer(id: string, patch: PlayerPatch): Promise<PlayerDetail> {
    if (!(await this.deps.store.getPlayer(id))) throw refuse('not_found', `No player ${id}`);
    await this.deps.store.updatePlayer(id, patch);
    return this.player(id);
  }

  async items(q: ItemsQuery): Promise<ItemsPage> {
    // The filters are the loaded game's: a rarity or type it lacks is a mistake, not an empty page.
    if (q.rarity !== undefined) knownRarity(this.deps.game, q.rarity, 'query.rarity');
    if (q.type !== undefined) knownType(this.deps.game, q.type, 'query.type');
    const after = fromCursor(
      q.after,
      (v): v is { createdAt: string; id: string } =>
        isRecord(v) && typeof v.createdAt === 'string' && typeof v.id === 'string',
    );
    const nextDay = (day: string) => iso(Date.parse(`${day}T00:00:00.000Z`) + 86_400_000);
    const rows = await this.deps.store.admin.items({
      rarity: q.rarity,
      type: q.type,
      enemy: q.enemy,
      source: q.source,
      from: q.from && `${q.from}T00:00:00.000Z`,
      to: q.to && nextDay(q.to),
      after,
      limit: q.limit + 1,
    });
    const page = rows.slice(0, q.limit);
    const last = page.at(-1);
    return {
      items: page.map((r) => {
        const item = JSON.parse(r.data) as Item;
        return {
          id: r.id,
          name: item.name,
          rarity: item.rarity,
          type: item.type,
          level: item.level,
          enemy: r.enemy,
          source: r.source,
          owner: r.owner,
          created_at: r.createdAt,
          icon: item.icon,
          removed: r.removed,
          consumed: r.consumed,
        };
      }),
      next: rows.length > q.limit && last ? cursor({ createdAt: last.createdAt, id: last.id }) : null,
    };
  }

  async item(id: string): Promise<ItemDetail> {
    const found = await this.deps.store.admin.item(id);
    if (!found) throw refuse('not_found', `No item ${id}`);
    const p: ProvenanceRow | null = found.provenance;
    return {
      item: JSON.parse(found.row.data) as Item,
      owner: found.row.owner,
      holders: found.holders,
      provenance: p && {
        source: p.source,
        player_id: p.playerId,
        enemy: p.enemy,
        backend: p.backend,
        model: p.model,
        seed: p.seed,
        prompt: p.prompt,
        rules: p.rules,
        cost: itemCost(p.cost, found.iconCost, this.deps.currency),
        created_at: p.createdAt,
        request_id: p.requestId ?? null,
      },
      removal: found.removal && {
        reason: found.removal.reason,
        removed_by: found.removal.removedBy,
        removed_at: found.removal.removedAt,
        holders: found.removal.holders,
      },
      consumed: found.consumed && {
        how: found.consumed.how,
        player_id: found.consumed.playerId,
        at: found.consumed.at,
      },
    };
  }

  async removeItem(id: string, reason: string, by: string): Promise<ItemDetail> {
    const removal = await this.deps.store.admin.removeItem(id, reason, by, iso(Date.now()));
    if (!removal) throw refuse('not_found', `No item ${id}`);
    return this.item(id);
  }

  async moderation(q: ModerationQuery): Promise<ModerationPage> {
    const beforeId = fromCursor(q.after, (v): v is number => Number.isSafeInteger(v));
    const rows = await this.deps.store.admin.moderation({
      kind: q.kind,
      playerId: q.player,
      beforeId,
      limit: q.limit + 1,
    });
    const page = rows.slice(0, q.limit);
    const last = page.at(-1);
    return {
      events: page.map(moderationEvent),
      next: rows.length > q.limit && last ? cursor(last.id) : null,
    };
  }
}
