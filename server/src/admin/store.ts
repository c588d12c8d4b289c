/** Upper bounds (ms) of the latency buckets h0…h10; h11 holds the rest. */
export const LATENCY_BOUNDS_MS = [5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10_000] as const;
export const LATENCY_BUCKETS = LATENCY_BOUNDS_MS.length + 1;

/** The bucket of a latency. */
export function latencyBucket(ms: number): number {
  let b = 0;
  while (b < LATENCY_BOUNDS_MS.length && ms > (LATENCY_BOUNDS_MS[b] as number)) b++;
  return b;
}

/** A count with its latencies: total and per bucket. */
export interface Timed {
  count: number;
  totalMs: number;
  buckets: number[];
}

/** Answered requests of one minute, route, status and error code ('' for none). */
export interface RouteMinute extends Timed {
  minute: number;
  route: string;
  status: number;
  code: string;
}

/** Calls of one kind (`chat`, `image`) to one backend in one minute, by outcome (`ok` or a failure code). */
export interface BackendMinute extends Timed {
  minute: number;
  backend: string;
  kind: string;
  outcome: string;
  promptTokens: number;
  completionTokens: number;
  images: number;
}

export interface CounterMinute {
  minute: number;
  name: string;
  label: string;
  value: number;
}

/** A player's requests and upstream calls, counted. */
export interface ActivityCounts {
  requests: number;
  drops: number;
  crafts: number;
  refusals: number;
  tokens: number;
  images: number;
  /** What the player's calls cost by the price list (`Nanos`; unpriced calls add nothing). */
  spend: number;
}

/** Successful backend calls of one UTC day, route and backend, and what they cost (`Nanos`). */
export interface SpendDay {
  /** `2025-06-01`. */
  day: string;
  /** The request's route (`POST /v1/generate/items`), or `background` for the server's own work. */
  route: string;
  backend: string;
  calls: number;
  nanos: number;
  /** Calls of them that had no price. */
  unpriced: number;
}

/** One player's successful backend calls of one UTC day, and what they cost. */
export interface PlayerSpendDay {
  playerId: string;
  day: string;
  calls: number;
  nanos: number;
  unpriced: number;
}

/** What something cost (`Nanos`), `unpriced` when a call of it had no price, null when made before prices were kept. */
export type RecordedCost = number | 'unpriced' | null;

/** What a player's requests and upstream calls added up to since the last write. */
export interface PlayerActivity extends ActivityCounts {
  playerId: string;
  lastAt: number;
  /** The level the game last reported for the player, and when; null when it reported none. */
  level: number | null;
  levelAt: number | null;
}

export interface PlayerRequestRow {
  playerId: string;
  at: number;
  route: string;
  status: number;
  code: string | null;
  ms: number;
  /** The request in the request log (none when the log is off). */
  requestId?: string | null;
}

/** The game's bounds on a generated item and what its rules changed or refused on the way. */
export interface ItemRules {
  rarity: string;
  level: number;
  stat_budget: number;
  value_cap: number;
  /** What the server capped before asking. */
  clamps: string[];
  /** The problems of each answer refused before the accepted one. */
  rejected: string[][];
}

/** What an item was asked as and which backend and model made it. */
export interface ProvenanceFacts {
  rarity: string;
  type: string;
  level: number;
  enemy: string | null;
  backend: string | null;
  model: string | null;
}

/** How one item was made; kept apart from the item, so what players receive stays as it is. */
export interface ProvenanceRow extends ProvenanceFacts {
  itemId: string;
  source: 'loot' | 'pool' | 'combine' | 'create_item' | 'recipe';
  playerId: string | null;
  seed: number | null;
  prompt: string | null;
  rules: ItemRules | null;
  /** Its share of the model calls that wrote it (a batch's calls split between its items, re-asks included). */
  cost: RecordedCost;
  createdAt: string;
  /** The request in the request log that made it; none for the server's own work. */
  requestId?: string | null;
}

/** One write of everything an instance recorded since the last one. */
export interface ActivityBatch {
  routes: RouteMinute[];
  backends: BackendMinute[];
  counters: CounterMinute[];
  players: PlayerActivity[];
  requests: PlayerRequestRow[];
  provenance: ProvenanceRow[];
  spend: SpendDay[];
  playerSpend: PlayerSpendDay[];
  /** The newest player requests kept: older ones go in the same transaction. */
  keepRequests: number;
}

/**
 * A refusal of text, for the developer: a player's text (refused) or a model's (regenerated, fallen
 * back). Recorded by the content-safety checks through `Store.admin.recordModeration`.
 */
export interface ModerationRecord {
  /** Whose request it was; null for the server's own work (a pool refill). */
  playerId: string | null;
  /** Milliseconds since the epoch; now when absent. */
  at?: number;
  kind: 'player_text' | 'generated_text';
  /** Where the text was: `description`, `visual_preferences.look`, `items.0.name`, … */
  field: string;
  /** The offending text (kept to its first 200 characters). */
  excerpt: string;
  /** The rule or category: `profanity`, `slur`, `deny_list`, `moderation:violence`, … */
  reason: string;
  /** What was done: `refused`, `regenerated`, `fallback`, `restricted`, … */
  action: string;
}

export interface ModerationRow extends Required<Omit<ModerationRecord, 'playerId'>> {
  id: number;
  playerId: string | null;
  /** How many times the player's text was refused for this reason within the row's minute. */
  count: number;
}

export interface PlayerRow extends ActivityCounts {
  id: string;
  level: number | null;
  claimedLevel: number | null;
  /** The level the game last reported (`PlayerActivity.level`), and when. */
  reportedLevel: number | null;
  reportedAt: number | null;
  blocked: boolean;
  craftingXp: number;
  dailyItems: number | null;
  dailyImages: number | null;
  createdAt: string;
  stacks: number;
  lastAt: number | null;
}

export interface PlayerListQuery {
  prefix?: string;
  sort: 'id' | 'recent';
  /** The last row of the page before: its id, and for `recent` its last activity. */
  after?: { id: string; lastAt?: number };
  limit: number;
}

export interface ItemListQuery {
  rarity?: string;
  type?: string;
  enemy?: string;
  source?: string;
  /** ISO bounds of `created_at`: from inclusive, to exclusive. */
  from?: string;
  to?: string;
  after?: { createdAt: string; id: string };
  limit: number;
}

export interface ItemRow {
  id: string;
  owner: string | null;
  data: string;
  source: string;
  enemy: string | null;
  createdAt: string;
  removed: boolean;
  /** The ledger's reason for the last spend of an item no one holds (`combine`, `use`, …); null while held. */
  consumed: string | null;
}

/** The last spend of an item no one holds now. */
export interface Consumption {
  how: string;
  playerId: string;
  at: string;
}

export interface Holding {
  player_id: string;
  quantity: number;
}

export interface RemovalRow {
  reason: string;
  removedBy: string;
  removedAt: string;
  holders: Holding[];
}

export interface ConsoleSessionRow {
  /** SHA-256 of the session token: the token itself is never stored. */
  id: string;
  csrf: string;
  /** Fingerprint of the credential it was opened with: rotating the credential ends it. */
  credential: string;
  createdAt: number;
  seenAt: number;
  expiresAt: number;
}

export interface Retention {
  /** Per-minute figures older than this (ms since the epoch) go. */
  statsBefore: number;
  /** Spend per day of days before this one (`2025-06-01`) goes. */
  spendBefore: string;
  /** Most moderation events kept. */
  maxModeration: number;
}

/**
 * What the developer console reads and writes, beside the game's own tables (`Store.admin`). The
 * SQL of both databases lives in `queries.ts`.
 */
export interface AdminStore {
  /** Adds up one instance's recorded activity in one transaction. */
  recordActivity(batch: ActivityBatch): Promise<void>;
  /** Drops figures, requests, events and sessions past their retention. */
  sweep(retention: Retention, now: number): Promise<void>;
  /** Records a refusal; the same player's of the same kind, reason and action within a minute count on one row. */
  recordModeration(event: ModerationRecord): Promise<void>;
  moderation(query: {
    kind?: string;
    playerId?: string;
    beforeId?: number;
    limit: number;
  }): Promise<ModerationRow[]>;
  moderationSince(at: number): Promise<number>;
  routeStats(sinceMinute: number): Promise<RouteMinute[]>;
  backendStats(sinceMinute: number): Promise<BackendMinute[]>;
  counters(sinceMinute: number): Promise<Array<{ name: string; label: string; value: number }>>;
  /** Requests per `step` minutes since `sinceMinute`, by status and code. */
  series(
    sinceMinute: number,
    step: number,
  ): Promise<Array<{ slot: number; status: number; code: string; count: number }>>;
  generations(since: string): Promise<Array<{ source: string; backend: string | null; items: number }>>;
  playerCounts(activeSince: number): Promise<{ players: number; active: number }>;
  players(query: PlayerListQuery): Promise<PlayerRow[]>;
  countPlayers(prefix?: string): Promise<number>;
  player(id: string): Promise<PlayerRow | null>;
  playerRequests(id: string, limit: number): Promise<PlayerRequestRow[]>;
  items(query: ItemListQuery): Promise<ItemRow[]>;
  item(id: string): Promise<{
    row: ItemRow;
    provenance: ProvenanceRow | null;
    removal: RemovalRow | null;
    holders: Holding[];
    consumed: Consumption | null;
    /** What painting its icon cost, or that it is not painted yet (or the item has no icon). */
    iconCost: RecordedCost | 'not_painted';
  } | null>;
  /** Spend per day, route and backend on and after `sinceDay`. */
  spend(sinceDay: string): Promise<SpendDay[]>;
  /** A player's spend per day on and after `sinceDay`. */
  playerSpend(id: string, sinceDay: string): Promise<PlayerSpendDay[]>;
  /** What a spend cap's scope (`game`, `player:<id>`) holds in a period (`Nanos`, calls in flight at their most). */
  capSpend(scope: string, period: string): Promise<number>;
  /**
   * Takes an item out of every inventory and slot (ledger rows `removed`, inventories' versions
   * bumped), forgets recipes that make it, and records why; null when there is no such item.
   */
  removeItem(id: string, reason: string, by: string, at: string): Promise<RemovalRow | null>;
  createSession(session: ConsoleSessionRow): Promise<void>;
  session(id: string): Promise<ConsoleSessionRow | null>;
  touchSession(id: string, seenAt: number): Promise<void>;
  deleteSession(id: string): Promise<void>;
  /** The query plan of each list and overview query, by name (tests and docs/CONSOLE.md check them). */
  plans(): Promise<Record<string, string>>;
}
