import type { Item, Recipe } from '@lootsmith/protocol';
import { POOL_BUDGET_WINDOW_MS, poolBudgetKey, poolRoom, poolShareKey } from './pool-limits.ts';
import type { PlayerRow, RecipeRow, RowOf, StatementName } from './sql.ts';
import {
  type CraftInput,
  type CraftResult,
  IDEMPOTENCY_PER_OWNER,
  IDEMPOTENCY_TTL_MS,
  InsufficientError,
  type InventoryRead,
  PLAYER_SETTINGS,
  type PlayerRecord,
  type PoolClaim,
  type PoolSlotRequest,
  type Reservation,
  type SpendCapTake,
  type Stack,
  WornError,
  wornSpent,
} from './store.ts';

// The store's rules, written once for both databases: generators that yield each statement they need
// and get its result back. SQLite runs a rule synchronously inside its transaction (better-sqlite3
// cannot wait), PostgreSQL awaits each statement on the transaction's client.

export type Params = Record<string, unknown>;
export type Op =
  | { kind: 'get' | 'all' | 'run' | 'explain'; statement: StatementName; params: Params }
  /** Held to the end of the transaction (PostgreSQL); SQLite's write transaction already holds the file. */
  | { kind: 'lock'; key: string };
export type Rule<T> = Generator<Op, T, unknown>;

/** How a store runs rules: in one write transaction (all or nothing), or statement by statement. */
export interface RuleRunner {
  transaction<T>(rule: Rule<T>): Promise<T>;
  autocommit<T>(rule: Rule<T>): Promise<T>;
}

/** The first row, or undefined. */
export function* get<K extends StatementName>(statement: K, params: Params): Rule<RowOf<K> | undefined> {
  return (yield { kind: 'get', statement, params }) as RowOf<K> | undefined;
}

export function* all<K extends StatementName>(statement: K, params: Params): Rule<Array<RowOf<K>>> {
  return (yield { kind: 'all', statement, params }) as Array<RowOf<K>>;
}

/** The number of rows the statement changed. */
export function* run(statement: StatementName, params: Params): Rule<number> {
  return (yield { kind: 'run', statement, params }) as number;
}

/** The database's plan of the statement, as text. */
export function* explain(statement: StatementName, params: Params): Rule<string> {
  return (yield { kind: 'explain', statement, params }) as string;
}

function* lock(key: string): Rule<void> {
  yield { kind: 'lock', key };
}

/** Drives a rule to its end, answering each statement it yields with `execute`. */
export function drive<T>(rule: Rule<T>, execute: (op: Op) => unknown): T {
  for (let step = rule.next(); ; step = rule.next(execute(step.value))) if (step.done) return step.value;
}

export async function driveAsync<T>(rule: Rule<T>, execute: (op: Op) => Promise<unknown>): Promise<T> {
  for (let step = rule.next(); ; step = rule.next(await execute(step.value)))
    if (step.done) return step.value;
}

const now = () => new Date().toISOString();

const toPlayer = (row: PlayerRow): PlayerRecord => ({
  id: row.id,
  crafting_xp: row.crafting_xp,
  blocked: row.blocked === 1,
  daily_items: row.daily_items,
  daily_images: row.daily_images,
  level: row.level,
  claimed_level: row.claimed_level,
  tokens_after: row.tokens_after,
});

const toRecipe = (r: RecipeRow): Recipe => ({
  key: r.key,
  ingredients: JSON.parse(r.ingredients),
  crafting_station: r.station,
  crafting_tool: r.tool,
  result_name: (JSON.parse(r.template) as Item).name,
  discovered_at: r.created_at,
});

/** A row the rule itself just wrote or found. */
function must<T>(row: T | null | undefined, what: string): T {
  if (row === undefined || row === null) throw new Error(`${what} was not found`);
  return row;
}

// Players

export function* player(id: string): Rule<PlayerRecord | null> {
  const row = yield* get('player', { id });
  return row ? toPlayer(row) : null;
}

/** The player, made with the starting stacks when first seen. */
export function* ensurePlayer(id: string, starting: Stack[]): Rule<PlayerRecord> {
  if ((yield* run('insertPlayer', { id, now: now() })) === 1)
    for (const s of starting) yield* receive(id, s.item_id, s.quantity, 'starting');
  return must(yield* player(id), `player ${id}`);
}

/** Changes a player's settings; a player first seen here is made with the starting stacks all the same. */
/**
 * A guest session: a player first seen here is made with the starting stacks and the guest secret's
 * hash; for one that exists, the hash it was made with (null when no guest session made it).
 */
export function* guestSession(
  id: string,
  hash: string,
  starting: Stack[],
): Rule<{ created: boolean; secretHash: string | null }> {
  if ((yield* run('insertPlayer', { id, now: now() })) === 1) {
    for (const s of starting) yield* receive(id, s.item_id, s.quantity, 'starting');
    yield* run('setGuestSecret', { id, hash });
    return { created: true, secretHash: hash };
  }
  return { created: false, secretHash: (yield* get('guestSecret', { id }))?.guest_secret ?? null };
}

export function* updatePlayer(
  id: string,
  patch: Partial<Omit<PlayerRecord, 'id'>>,
  starting: Stack[],
): Rule<PlayerRecord> {
  yield* ensurePlayer(id, starting);
  yield* run('bumpVersion', { id });
  for (const column of PLAYER_SETTINGS) {
    const value = patch[column];
    if (value !== undefined)
      yield* run(`set_${column}`, { id, value: typeof value === 'boolean' ? Number(value) : value });
  }
  return must(yield* player(id), `player ${id}`);
}

export function* inventoryVersions(ids: string[]) {
  const rows = yield* all('inventoryVersions', { ids });
  return new Map(
    rows.map((r) => [
      r.id,
      { version: r.inventory_version, blocked: r.blocked === 1, tokensAfter: r.tokens_after },
    ]),
  );
}

export function* inventory(playerId: string): Rule<InventoryRead | null> {
  const row = yield* get('inventory', { player: playerId });
  if (!row) return null;
  return {
    version: row.inventory_version,
    player: toPlayer(row),
    stacks: JSON.parse(row.stacks),
    recipes: (JSON.parse(row.recipes) as RecipeRow[]).map(toRecipe),
  };
}

export function* recordClaimedLevel(playerId: string, level: number): Rule<void> {
  yield* run('raiseClaimedLevel', { id: playerId, level });
}

// Stacks: every change is written to the ledger in the same transaction

export function* stacks(playerId: string): Rule<Stack[]> {
  return yield* all('stacks', { player: playerId });
}

/** Adds to a stack; a new stack takes its place in the order received from its ledger entry. */
function* receive(player: string, item: string, n: number, reason: string): Rule<void> {
  const entry = must(yield* get('ledger', { player, item, delta: n, reason, now: now() }), 'ledger entry');
  yield* run('addStack', { player, item, n, received: entry.id });
}

/**
 * Checks every removal first, so the error lists all that is missing (or, with `keepWorn`, every worn
 * item it would use up), then applies them.
 */
function* spend(player: string, removals: Stack[], reason: string, keepWorn = false): Rule<void> {
  if (!removals.length) return;
  const rows = yield* all('lockStacks', { player, items: removals.map((s) => s.item_id) });
  const have = new Map(rows.map((r) => [r.item_id, r.quantity]));
  const need = new Map<string, number>();
  for (const s of removals) need.set(s.item_id, (need.get(s.item_id) ?? 0) + s.quantity);
  const missing = [...need]
    .map(([item_id, n]) => ({ item_id, have: have.get(item_id) ?? 0, need: n }))
    .filter((m) => m.have < m.need);
  if (missing.length) throw new InsufficientError(missing);
  if (keepWorn) {
    const worn = wornSpent(yield* all('equipment', { player }), have, need);
    if (worn.length) throw new WornError(worn);
  }
  for (const { item_id: item, quantity } of removals) {
    const left = (have.get(item) ?? 0) - quantity;
    have.set(item, left);
    yield* run(left === 0 ? 'deleteStack' : 'setStack', { player, item, n: left });
    yield* run('ledger', { player, item, delta: -quantity, reason, now: now() });
  }
}

function* createItem(player: string, item: Item, reason: string): Rule<void> {
  const { id, name, created_at } = item;
  yield* run('insertItem', { id, player, name, data: JSON.stringify(item), created_at });
  yield* receive(player, id, 1, reason);
}

export function* grantLoot(
  player: string,
  items: Item[],
  stacks: Stack[],
  reason: string,
  claimedLevel: number | undefined,
): Rule<void> {
  for (const item of items) yield* createItem(player, item, reason);
  for (const s of stacks) yield* receive(player, s.item_id, s.quantity, reason);
  yield* run('bumpVersion', { id: player });
  if (claimedLevel !== undefined) yield* recordClaimedLevel(player, claimedLevel);
}

export function* changeStacks(player: string, changes: Stack[], reason: string): Rule<void> {
  yield* spend(
    player,
    changes.filter((c) => c.quantity < 0).map((c) => ({ item_id: c.item_id, quantity: -c.quantity })),
    reason,
  );
  for (const c of changes) if (c.quantity > 0) yield* receive(player, c.item_id, c.quantity, reason);
  yield* run('bumpVersion', { id: player });
}

export function* craft(input: CraftInput): Rule<CraftResult> {
  const { playerId: player, item, recipe } = input;
  yield* spend(player, input.consume, input.reason, input.keepWorn);
  yield* createItem(player, item, input.reason);
  let discovered = false;
  if (recipe) {
    const { key, station, tool } = recipe;
    const at = now();
    const ingredients = JSON.stringify(recipe.ingredients);
    yield* run('insertRecipe', { key, template: JSON.stringify(item), ingredients, station, tool, now: at });
    const discovery = recipe.discovery ?? key;
    discovered = (yield* run('discover', { player, key, discovery, now: at })) === 1;
  }
  const xpEarned = input.xp + (discovered ? input.discoveryXp : 0);
  yield* run('addXp', { id: player, xp: xpEarned });
  return { discovered, xpEarned };
}

// Items and recipes

export function* items(ids: string[]): Rule<Item[]> {
  if (!ids.length) return [];
  return (yield* all('items', { ids })).map((r) => JSON.parse(r.data) as Item);
}

export function* recipe(key: string): Rule<Item | null> {
  const row = yield* get('recipe', { key });
  return row ? (JSON.parse(row.template) as Item) : null;
}

export function* recipes(playerId: string): Rule<Recipe[]> {
  return (yield* all('recipes', { player: playerId })).map(toRecipe);
}

// Equipment

/** The stack row stays locked until commit, so the item cannot be spent while it is put on. */
export function* equip(player: string, slot: string, item: string): Rule<void> {
  if (!(yield* all('lockStacks', { player, items: [item] })).length)
    throw new InsufficientError([{ item_id: item, have: 0, need: 1 }]);
  yield* run('unwearElsewhere', { player, item, slot });
  yield* run('wear', { player, slot, item, now: now() });
}

// Releasing a reservation

/** Gives back exactly what a reservation took (window counts only while their window lasts). */
export function* release(r: Reservation): Rule<void> {
  const { playerId: player, day } = r;
  if (r.usage) {
    yield* run(r.usage.kind === 'items' ? 'giveItems' : 'giveImages', { player, day, n: r.usage.n });
    // Rows that only this reservation made go, so a failed request leaves the store as it found it.
    yield* run('dropEmptyUsage', { player, day });
  }
  for (const cap of r.spend?.caps ?? []) {
    yield* settleSpend(cap, -(r.spend?.nanos ?? 0));
    yield* run('dropEmptySpend', { scope: cap.scope, period: cap.period });
  }
  for (const w of [...r.windows].sort(byKey)) {
    if (w.kept) continue;
    yield* run('uncountWindow', { key: w.key, reset: w.resetAt });
    yield* run('dropEmptyWindow', { key: w.key });
  }
  if (r.grant) yield* run('returnGrant', { grant: r.grant.id });
}

/** A spend cap's row moved by `delta` (`Nanos`); its spend after. */
function* settleSpend(cap: SpendCapTake, delta: number): Rule<number> {
  const row = yield* get('settleSpend', { scope: cap.scope, period: cap.period, delta });
  return Number(row?.spent ?? 0);
}

/** Each cap's row of a reservation set to what the call cost instead of its most; each cap's spend after. */
export function* settle(r: Reservation, nanos: number) {
  const settled: Array<SpendCapTake & { spent: number }> = [];
  for (const cap of r.spend?.caps ?? [])
    settled.push({ ...cap, spent: yield* settleSpend(cap, nanos - (r.spend?.nanos ?? 0)) });
  return settled;
}

export const byKey = (a: { key: string }, b: { key: string }) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

/** Counts `hits` in a fixed window; refused (undefined) when that would pass `max`, unless max is null. */
export function* hitWindow(key: string, windowMs: number, at: number, hits = 1, max: number | null = null) {
  return yield* get('hitWindow', { key, hits, reset: at + windowMs, at, max });
}

// Loot pools

export function* reservePoolSlots(request: PoolSlotRequest, at: number) {
  const { game, bucket } = request;
  // One game's reservations take turns, so counts and inserts cannot interleave.
  yield* lock(`lootsmith-pool:${game}`);
  yield* run('expireSlots', { game, at });
  const counts = must(yield* get('poolCounts', { game, bucket, at }), 'pool counts');
  const key = poolBudgetKey(game);
  const budget = yield* get('window', { key });
  const shareKey = request.payer && poolShareKey(game, request.payer.id);
  const share = shareKey ? yield* get('window', { key: shareKey }) : undefined;
  const inWindow = (w: { count: number; reset_at: number } | undefined) =>
    w && w.reset_at > at ? w.count : 0;
  const { n, refused } = poolRoom(request, {
    bucket: counts.bucket,
    total: counts.total,
    spent: inWindow(budget),
    share: inWindow(share),
  });
  const slots = request.wants.slice(0, n);
  if (!n) return { slots, refused };
  yield* hitWindow(key, POOL_BUDGET_WINDOW_MS, at, n);
  if (shareKey) yield* hitWindow(shareKey, POOL_BUDGET_WINDOW_MS, at, n);
  for (const { id, rarity, level } of slots)
    yield* run('insertSlot', { id, game, bucket, rarity, level, lease_until: at + request.leaseMs, at });
  return { slots, refused };
}

/** Each claim deletes the row it finds; names already dropped, or taken by an earlier claim, are skipped. */
export function* claimPoolItems(game: string, claims: PoolClaim[], excludeNames: string[]) {
  const names = [...excludeNames];
  const taken: Array<Item | null> = [];
  for (const c of claims) {
    const row = yield* get('claimPoolItem', {
      game,
      bucket: c.bucket,
      rarity: c.rarity,
      min: c.minLevel,
      max: c.maxLevel,
      names,
    });
    const item = row ? (JSON.parse(row.data) as Item) : null;
    if (item) names.push(item.name.toLowerCase());
    taken.push(item);
  }
  return taken;
}

export function* returnPoolItems(game: string, items: Array<{ bucket: string; item: Item }>, at: number) {
  for (const { bucket, item } of items) {
    const { id, rarity, level } = item;
    const name = item.name.toLowerCase();
    yield* run('returnPoolItem', { id, game, bucket, rarity, level, name, data: JSON.stringify(item), at });
  }
}

export function* fillPoolSlot(id: string, item: Item): Rule<boolean> {
  return (yield* run('fillSlot', { id, data: JSON.stringify(item), name: item.name.toLowerCase() })) === 1;
}

// Icons, usage and idempotency records

export function* icon(id: string): Rule<Buffer | null> {
  return (yield* get('icon', { id }))?.png ?? null;
}

export function* putIcon(id: string, prompt: string, png: Buffer, cost?: number | 'unpriced'): Rule<void> {
  const priced = typeof cost === 'number';
  yield* run('putIcon', {
    id,
    prompt,
    png,
    cost: priced ? cost : null,
    unpriced: cost === undefined ? null : Number(!priced),
    now: now(),
  });
}

export function* dailyUsage(player: string, day: string) {
  return (yield* get('usage', { player, day })) ?? { items: 0, images: 0 };
}

export function* idempotent(scope: string, at: number) {
  return (yield* get('idempotent', { scope, expired: at - IDEMPOTENCY_TTL_MS })) ?? null;
}

/** Stores a record; expired ones go, and the owner's beyond its cap (the oldest first). */
export function* saveIdempotent(
  scope: string,
  owner: string,
  status: number,
  body: string,
  at: number,
): Rule<void> {
  yield* run('expireIdempotent', { expired: at - IDEMPOTENCY_TTL_MS });
  yield* run('saveIdempotent', { scope, owner, status, body, now: new Date(at).toISOString(), at });
  yield* run('capIdempotent', { owner, cap: IDEMPOTENCY_PER_OWNER });
}
