import type { Item, Recipe } from '@lootsmith/protocol';
import type { RequestLogStore } from '../admin/request-store.ts';
import type { AdminStore } from '../admin/store.ts';

export interface PlayerRecord {
  id: string;
  crafting_xp: number;
  blocked: boolean;
  daily_items: number | null;
  daily_images: number | null;
  /** The player's level as the game server last set it; null when it never did. */
  level: number | null;
  /** The highest level a drop was served at on the player's own claim; null before the first. */
  claimed_level: number | null;
  /** Tokens issued at or before this time (ms) are refused: set when the player is blocked. */
  tokens_after: number | null;
}

export const PLAYER_SETTINGS = [
  'crafting_xp',
  'blocked',
  'daily_items',
  'daily_images',
  'level',
  'tokens_after',
] as const;

export interface Stack {
  item_id: string;
  quantity: number;
}

/** Sums repeated ids so `[{a,1},{a,1}]` spends two of `a`. */
export function mergeStacks(stacks: Array<{ id: string; quantity: number }>): Stack[] {
  const sums = new Map<string, number>();
  for (const s of stacks) sums.set(s.id, (sums.get(s.id) ?? 0) + s.quantity);
  return [...sums].map(([item_id, quantity]) => ({ item_id, quantity }));
}

export interface CraftInput {
  playerId: string;
  consume: Stack[];
  item: Item;
  /** `discovery` names what counts as one recipe for discovery XP (ingredients, station, result). */
  recipe: {
    key: string;
    discovery?: string;
    ingredients: Stack[];
    station: string | null;
    tool: string | null;
  } | null;
  xp: number;
  discoveryXp: number;
  reason: 'combine' | 'create_item';
  /** Refuse (`WornError`) a craft that would use up an item the player wears. */
  keepWorn?: boolean;
}

export interface CraftResult {
  discovered: boolean;
  xpEarned: number;
}

export interface InventoryRead {
  /** Rises with every change to the stacks, items, recipes or crafting XP of the player. */
  version: number;
  player: PlayerRecord;
  stacks: Array<Stack & { data: string | null }>;
  recipes: Recipe[];
}

/** How long an idempotency record answers a replay (as long as Redis keeps one). */
export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;
/** Most idempotency records one caller keeps; the oldest go first. */
export const IDEMPOTENCY_PER_OWNER = 500;

export interface StoredResponse {
  status: number;
  body: string;
}

/** A fixed-window counter: refused when it already holds `max` in its window. */
export interface LimitWindow {
  key: string;
  windowMs: number;
  max: number;
  /** A limit on calls rather than on results: the count stays when the work fails. */
  kept?: boolean;
  /** What its refusal says it counts: drops (the default) or requests. */
  counts?: 'requests' | 'drops';
}

/** What a grant of loot records besides the loot. */
export interface GrantLootOptions {
  /** The level the drop was served at on the player's own claim (`Store.grantLoot`'s `claimedLevel`). */
  claimedLevel?: number;
}

/** One spend cap a call's money is taken from: a scope's spend in a period, within `cap` (`Nanos`). */
export interface SpendCapTake {
  /** `game`, or `player:<id>`. */
  scope: string;
  /** `2025-06-01` for a day, `2025-06` for a month (UTC). */
  period: string;
  cap: number;
}

/** What one request reserves before it calls a model: all of it, or nothing (`Store.reserve`). */
export interface ReservationRequest {
  /** The player it is for; empty for the server's own work (a pool refill's spend). */
  playerId: string;
  /** The UTC day whose budget is charged. */
  day: string;
  /**
   * Daily budget: refused when `used + n` would pass `limit`; a null limit only counts. `recorded`
   * reads the limit from the player's record inside the same transaction, and refuses a blocked
   * (or unknown) player.
   */
  usage?: {
    kind: 'items' | 'images';
    n: number;
    limit: number | null | 'recorded';
    /** With `recorded`: the limit of a player whose record sets none (production's default budget). */
    fallback?: number | null;
  };
  /** The caller's token was issued at this time (ms): refused when the player was blocked at or after it. */
  issuedAt?: number;
  /** Fixed-window counters (drop limits, call rate limits). */
  windows?: LimitWindow[];
  /** A single-use drop grant: refused when its id was spent before. */
  grant?: { id: string; playerId: string; expiresAt: number };
  /**
   * Money, before a backend call: `nanos` (the call's most) taken from each cap, refused when one
   * would pass it. `Store.settle` sets it to what the call cost.
   */
  spend?: { nanos: number; caps: SpendCapTake[] };
}

/** A granted reservation; `Store.release` gives back exactly what it took. */
export interface Reservation extends ReservationRequest {
  /** Each window as taken: its count with this reservation, and when it resets. */
  windows: Array<LimitWindow & { count: number; resetAt: number }>;
  /**
   * With a `recorded` limit: when the player's own text was last refused (ms), null if never, as
   * read with the limit (`ContentGuard` reads the record for a restriction only after one).
   */
  textRefusedAt?: number | null;
}

export type Refusal =
  | { kind: 'blocked' }
  | { kind: 'revoked' }
  | { kind: 'budget'; used: number; limit: number }
  | { kind: 'spend'; scope: string; period: string; spent: number; cap: number }
  | { kind: 'window'; key: string; max: number; windowMs: number; resetAt: number }
  | { kind: 'grant_used' };

/** Raised by `Store.reserve` when a part of the reservation is not available; nothing was taken. */
export class ReservationRefused extends Error {
  constructor(readonly refusal: Refusal) {
    super(`reservation refused: ${refusal.kind}`);
  }
}

/** One pooled item a drop asks for: its bucket, the rarity rolled and the levels the drop allows. */
export interface PoolClaim {
  bucket: string;
  rarity: string;
  minLevel: number;
  maxLevel: number;
}

/** Slots to generate pool items into, all or some of them, within every limit (`Store.reservePoolSlots`). */
export interface PoolSlotRequest {
  /** The game definition's fingerprint: pools of other games (or older rules) are never touched. */
  game: string;
  bucket: string;
  /** The slots wanted, in order of preference; the id becomes the item's id. */
  wants: PoolSlot[];
  /** Most items (ready or being generated) in this bucket. */
  bucketMax: number;
  /** Most items over every bucket of the game. */
  totalMax: number;
  /** Most items all instances may start generating in the current hour. */
  hourlyMax: number;
  /** How long an unfilled slot holds its place, so a crashed generator's slots lapse. */
  leaseMs: number;
  /** The player whose draw asked for the refill: its share of the hourly budget is charged too. */
  payer?: { id: string; max: number };
}

export interface PoolSlot {
  id: string;
  rarity: string;
  level: number;
}

export type PoolRefusal = 'bucket_full' | 'total_full' | 'budget' | 'player_share';

export interface PoolStock {
  bucket: string;
  rarity: string;
  /** Items ready to claim. */
  ready: number;
  /** Slots being generated. */
  pending: number;
}

/** Raised inside a transaction when a player lacks what it would spend; the transaction rolls back. */
export class InsufficientError extends Error {
  constructor(readonly missing: Array<{ item_id: string; have: number; need: number }>) {
    super('insufficient materials');
  }
}

/** A craft would use up items the player wears, and the request did not allow it. */
export class WornError extends Error {
  constructor(readonly worn: Array<{ slot: string; item_id: string }>) {
    super('item equipped');
  }
}

/** The worn items a spending takes the last of: what it needs of an item is all the player holds. */
export const wornSpent = (
  worn: ReadonlyArray<{ slot: string; item_id: string }>,
  have: ReadonlyMap<string, number>,
  need: ReadonlyMap<string, number>,
) => worn.filter((w) => need.has(w.item_id) && (have.get(w.item_id) ?? 0) <= (need.get(w.item_id) ?? 0));

/**
 * Everything Lootsmith keeps. Every method that changes state is one transaction.
 * SQLite is the default; a PostgreSQL store implements the same interface.
 */
export interface Store {
  /** What the developer console reads and writes (`admin/queries.ts`). */
  readonly admin: AdminStore;
  /** The console's request log (`admin/request-store.ts`). */
  readonly requestLog: RequestLogStore;
  ensurePlayer(id: string, starting: Stack[]): Promise<PlayerRecord>;
  getPlayer(id: string): Promise<PlayerRecord | null>;
  /**
   * Guest login: makes a player never seen with `starting` and the hash of its guest secret; for a
   * player that exists, the hash it has (null when it was not made by a guest session).
   */
  guestSession(
    id: string,
    secretHash: string,
    starting: Stack[],
  ): Promise<{ created: boolean; secretHash: string | null }>;
  /** Changes settings; a player first seen here gets `starting` like any new player. */
  updatePlayer(
    id: string,
    patch: Partial<Omit<PlayerRecord, 'id'>>,
    starting?: Stack[],
  ): Promise<PlayerRecord>;
  /**
   * A player's stacks in the order received: a new stack goes last, a stack that grows or shrinks
   * keeps its place, one used up and received again goes last.
   */
  stacks(playerId: string): Promise<Stack[]>;
  getItems(ids: string[]): Promise<Item[]>;
  /**
   * A player's inventory in one read: the record, each stack (in the order of `stacks`) with its
   * stored item's JSON text (null for items not stored, such as materials) and the recipe book; null
   * for a player never seen.
   */
  inventory(playerId: string): Promise<InventoryRead | null>;
  /** The player's inventory version, whether it is blocked and since when its tokens stand; null for a player never seen. */
  inventoryVersion(
    playerId: string,
  ): Promise<{ version: number; blocked: boolean; tokensAfter: number | null } | null>;
  playerItemNames(playerId: string): Promise<string[]>;
  /**
   * Stores new items and grants one of each, plus stacks of existing ones (materials), in one
   * transaction; with `claimedLevel`, records that level as served on the player's claim (the record only
   * rises), in the same one.
   */
  grantLoot(
    playerId: string,
    items: Item[],
    stacks: Stack[],
    reason: string,
    options?: GrantLootOptions,
  ): Promise<void>;
  /** Adds (positive) or removes (negative) stacks; throws InsufficientError when a removal exceeds what is owned. */
  changeStacks(playerId: string, changes: Stack[], reason: string): Promise<void>;
  craft(input: CraftInput): Promise<CraftResult>;
  recipe(key: string): Promise<Item | null>;
  recipes(playerId: string): Promise<Recipe[]>;
  icon(id: string): Promise<Buffer | null>;
  /** Stores an icon once (the first one written stays), with what painting it cost (`Nanos`, or `unpriced`). */
  putIcon(id: string, prompt: string, png: Buffer, cost?: number | 'unpriced'): Promise<void>;
  dailyUsage(playerId: string, day: string): Promise<{ items: number; images: number }>;
  /**
   * Takes budget, window counts and a grant id in one transaction, before a model is called, so
   * concurrent requests can never pass a limit together; throws ReservationRefused, taking nothing.
   */
  reserve(request: ReservationRequest, now: number): Promise<Reservation>;
  /** Gives a reservation back after the work failed (window counts only while their window lasts). */
  release(reservation: Reservation): Promise<void>;
  /**
   * Sets a reservation's money to what the call cost (`Nanos`, at most or above what it reserved),
   * and answers each cap's spend after it.
   */
  settle(reservation: Reservation, nanos: number): Promise<Array<SpendCapTake & { spent: number }>>;
  /**
   * Claims the alert of a spend cap's threshold in its period: true for the first claim of it on any
   * instance (which sends it), false ever after.
   */
  claimAlert(scope: string, period: string, threshold: number, at: number): Promise<boolean>;
  /** The player's worn items by slot; an item that has left the inventory has left its slot too. */
  equipment(playerId: string): Promise<Array<{ slot: string; item_id: string }>>;
  /**
   * Puts an item the player owns in a slot, replacing what was there, in one transaction with the
   * ownership check; throws InsufficientError when the player owns none.
   */
  equip(playerId: string, slot: string, itemId: string): Promise<void>;
  unequip(playerId: string, slot: string): Promise<void>;
  /**
   * Takes up to `wants.length` pool slots in one transaction, as many as the bucket size, the game's
   * total and the hourly budget leave (the budget is charged for every slot taken); `refused` names
   * the limit that stopped it short.
   */
  reservePoolSlots(
    request: PoolSlotRequest,
    now: number,
  ): Promise<{ slots: PoolSlot[]; refused?: PoolRefusal }>;
  /** Puts a generated item into its slot; false when the slot has lapsed (the item is not pooled). */
  fillPoolSlot(id: string, item: Item): Promise<boolean>;
  /** Gives back slots whose generation failed (the budget they took stays spent). */
  releasePoolSlots(ids: string[]): Promise<void>;
  /**
   * Takes one ready item per claim out of the pool, in one transaction: each row is deleted by the
   * statement that finds it, so concurrent claims (on any instance) never get the same item. Names in
   * `excludeNames` (lower case) and the names taken by earlier claims are skipped; null where none fits.
   */
  claimPoolItems(game: string, claims: PoolClaim[], excludeNames: string[]): Promise<Array<Item | null>>;
  /** Puts claimed items back after the drop that took them failed. */
  returnPoolItems(game: string, items: Array<{ bucket: string; item: Item }>, now: number): Promise<void>;
  /** Ready and pending items per bucket and rarity. */
  poolStock(game: string, now: number): Promise<PoolStock[]>;
  /** The answer stored under a scope within the last `IDEMPOTENCY_TTL_MS`, if any. */
  idempotent(scope: string, now?: number): Promise<StoredResponse | null>;
  /**
   * Stores an answer under a scope for its `owner` (the caller), the first one written staying;
   * records older than `IDEMPOTENCY_TTL_MS` go, and an owner keeps at most `IDEMPOTENCY_PER_OWNER`.
   */
  saveIdempotent(scope: string, response: StoredResponse, owner?: string, now?: number): Promise<void>;
  /** Rate-limit counter for a fixed window; survives restarts. */
  hit(key: string, windowMs: number, now: number): Promise<{ count: number; resetAt: number }>;
  close(): Promise<void>;
}
