import type {
  CombineRequest,
  CombineResponse,
  CreateItemRequest,
  CreateItemResponse,
  GameDefinition,
  GenerateItemsRequest,
  InventoryResponse,
  Item,
} from '@lootsmith/protocol';
import { assertActsFor, type Principal } from './auth.ts';
import type { Coordination } from './coordination/coordination.ts';
import { DropGrantVerifier } from './drop-grants.ts';
import { planDrop } from './game/loot-authority.ts';
import { materialItems } from './game/materials.ts';
import { craftingLevel, craftingXp } from './game/rules.ts';
import { ApiError, reasonError } from './http/errors.ts';
import type { IconService } from './icons.ts';
import type { Metrics } from './metrics.ts';
import {
  CombinePlanner,
  type CraftingDeps,
  crafterOf,
  mergeStacks,
  planCreateItem,
} from './pipeline/crafting.ts';
import { generateLoot, type LootSupply } from './pipeline/loot.ts';
import {
  InsufficientError,
  type InventoryRead,
  type PlayerRecord,
  type Reservation,
  ReservationRefused,
  type ReservationRequest,
  type Stack,
  type Store,
} from './store/store.ts';
import type { UpstreamClient } from './upstream/client.ts';

/** A per-player limit on forwarded calls, e.g. 30 images a minute. */
export interface ForwardLimit {
  name: string;
  max: number;
  windowMs: number;
}

export interface LootsmithDeps {
  game: GameDefinition;
  store: Store;
  coordination: Coordination;
  upstream: UpstreamClient;
  icons: IconService;
  metrics?: Metrics;
  textModel?: string;
  /** The server credential: it signs drop grants. */
  serverKey?: string;
  /** Loot pools (`LOOTSMITH_POOLS`): drops take ready items from them before asking the model. */
  pools?: LootSupply;
  /** Drops answer before their icons are painted (`icon.status: "pending"`). */
  iconsAfterItem?: boolean;
}

export const CREATE_ITEM_LIMIT = { max: 5, timeWindow: 3_600_000 };
/** Players known to exist, so a forward needs no read to create them (players are never deleted). */
const KNOWN_PLAYERS = 100_000;
const KEPT_INVENTORIES = 10_000;
const today = () => new Date().toISOString().slice(0, 10);

const blocked = (id: string) => new ApiError(403, 'player_blocked', `Player ${id} is blocked by the game`);

function insufficient(err: InsufficientError): ApiError {
  const list = err.missing.map((m) => `${m.item_id} (have ${m.have}, need ${m.need})`).join(', ');
  return reasonError(400, 'insufficient_materials', `Not enough materials: ${list}`, {
    missing: err.missing,
  });
}

/** The item endpoints as plain methods: the Fastify routes only authenticate, validate and serialise. */
export class Lootsmith {
  readonly materials: Map<string, Item>;
  /** Each material's JSON, written once: inventories are assembled from JSON text, never re-serialised. */
  private readonly materialJson: Map<string, string>;
  private readonly known = new Set<string>();
  /** Assembled inventories by player, with the version each was made from (oldest dropped first). */
  private readonly inventories = new Map<string, { version: number; json: string }>();
  private readonly planner: CombinePlanner;
  private readonly crafting: CraftingDeps;
  private readonly grants: DropGrantVerifier;

  constructor(readonly deps: LootsmithDeps) {
    this.grants = new DropGrantVerifier(deps.serverKey, deps.game.loot_authority.grant_max_ttl_seconds);
    this.materials = materialItems(deps.game, deps.icons);
    this.materialJson = new Map([...this.materials].map(([id, item]) => [id, JSON.stringify(item)]));
    this.crafting = { ...deps, materials: this.materials, resolve: (ids) => this.resolve(ids) };
    this.planner = new CombinePlanner({
      ...this.crafting,
      coordination: deps.coordination,
      recipe: (key) => deps.store.recipe(key),
    });
  }

  /** Registers the materials' icons so any instance can paint them when first asked. */
  async init() {
    await Promise.all(
      [...this.materials.values()].map((m) => m.icon && this.deps.icons.register(m.icon.prompt)),
    );
  }

  /** The player, created with the game's starting materials on first sight; 403 when blocked. */
  async player(id: string): Promise<PlayerRecord> {
    const starting = this.deps.game.starting_materials.map((m) => ({ item_id: m.id, quantity: m.quantity }));
    const player = await this.deps.store.ensurePlayer(id, starting);
    if (this.known.size >= KNOWN_PLAYERS) this.known.clear();
    this.known.add(id);
    if (player.blocked) throw blocked(id);
    return player;
  }

  async resolve(ids: string[]): Promise<Map<string, Item>> {
    const found = new Map<string, Item>();
    const rest: string[] = [];
    for (const id of ids) {
      const material = this.materials.get(id);
      if (material) found.set(id, material);
      else rest.push(id);
    }
    for (const item of await this.deps.store.getItems(rest)) found.set(item.id, item);
    return found;
  }

  async inventory(playerId: string): Promise<InventoryResponse> {
    return JSON.parse(await this.inventoryJson(playerId));
  }

  /**
   * The inventory as the JSON the route sends. The JSON is kept per player with the store's inventory
   * version it was made from; each call reads that version (one indexed read), so a change made on any
   * instance is seen at once, and only a changed inventory is read and assembled again.
   */
  async inventoryJson(playerId: string): Promise<string> {
    const { store } = this.deps;
    const current = await store.inventoryVersion(playerId);
    if (current?.blocked) throw blocked(playerId);
    const kept = this.inventories.get(playerId);
    if (kept && current && kept.version === current.version) return kept.json;
    let read = await store.inventory(playerId);
    // First sight: the player is made with the starting materials, then read.
    if (!read) {
      await this.player(playerId);
      read = await store.inventory(playerId);
    }
    if (!read) throw new Error(`player ${playerId} was not stored`);
    if (read.player.blocked) throw blocked(playerId);
    const json = this.assemble(playerId, read);
    if (this.inventories.size >= KEPT_INVENTORIES)
      this.inventories.delete(this.inventories.keys().next().value as string);
    this.inventories.set(playerId, { version: read.version, json });
    return json;
  }

  /** The response from the items' stored JSON text: nothing parsed and written again. */
  private assemble(playerId: string, read: InventoryRead): string {
    const items: string[] = [];
    for (const s of read.stacks) {
      const item = s.data ?? this.materialJson.get(s.item_id);
      if (item) items.push(`{"item":${item},"quantity":${s.quantity}}`);
    }
    const xp = read.player.crafting_xp;
    return `{"player_id":${JSON.stringify(playerId)},"items":[${items.join(',')}],"crafting_level":${craftingLevel(this.deps.game, xp)},"crafting_xp":${xp},"recipes":${JSON.stringify(read.recipes)}}`;
  }

  /**
   * Reserves the player's daily budget (and drop windows, a grant) before any model call; 429 or 409
   * when something is used up. The result releases it all: call it when the work fails.
   */
  private async reserve(
    playerId: string,
    kind: 'items' | 'images',
    n: number,
    extra: Pick<ReservationRequest, 'windows' | 'grant'> = {},
  ): Promise<() => Promise<void>> {
    let reservation: Reservation;
    try {
      // The limit is read from the player's record inside the reservation, so a change to it is never missed.
      reservation = await this.deps.store.reserve(
        { playerId, day: today(), usage: { kind, n, limit: 'recorded' }, ...extra },
        Date.now(),
      );
    } catch (err) {
      if (!(err instanceof ReservationRefused)) throw err;
      const r = err.refusal;
      if (r.kind === 'blocked') throw blocked(playerId);
      if (r.kind === 'budget')
        throw reasonError(
          429,
          'budget_exceeded',
          `Player ${playerId} has used ${r.used} of ${r.limit} ${kind} today; the budget resets at midnight UTC`,
        );
      if (r.kind === 'grant_used')
        throw new ApiError(409, 'grant_used', 'This drop grant has been spent; each grant gives one drop');
      const retryAfter = Math.max(1, Math.ceil((r.resetAt - Date.now()) / 1000));
      const per = r.windowMs === 60_000 ? 'minute' : 'hour';
      const kept = extra.windows?.find((w) => w.key === r.key)?.kept;
      throw new ApiError(
        429,
        'rate_limit_exceeded',
        kept
          ? `Rate limit reached: ${r.max} requests allowed here per ${per}; try again in ${retryAfter} s`
          : `Drop limit reached: ${r.max} drops of this enemy tier per ${per}; try again in ${retryAfter} s`,
        {
          reason: 'rate_limit_exceeded',
          details: { retry_after: retryAfter },
          headers: { 'retry-after': String(retryAfter) },
        },
      );
    }
    return () => this.deps.store.release(reservation);
  }

  /** Runs `work` under a reservation; when it fails, the reservation is given back. */
  private async withReservation<T>(release: () => Promise<void>, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      await release();
      throw err;
    }
  }

  async generateItems(principal: Principal, body: GenerateItemsRequest, signal?: AbortSignal) {
    assertActsFor(principal, body.client_id);
    const trusted = principal.kind === 'server';
    if (!trusted && body.items.some((i) => i.rarity))
      throw new ApiError(
        403,
        'forbidden',
        'Only the game server may choose rarities; players get rolled ones',
      );
    const player = await this.player(body.client_id);
    const grant = body.grant === undefined ? undefined : this.grants.check(body.grant);
    const plan = planDrop(this.deps.game, player, body, { trusted, grant });
    const windows = trusted
      ? []
      : [
          { key: `drop:m:${plan.tier}:${player.id}`, windowMs: 60_000, max: plan.limits.drops_per_minute },
          { key: `drop:h:${plan.tier}:${player.id}`, windowMs: 3_600_000, max: plan.limits.drops_per_hour },
        ];
    // Every item of a drop counts, materials too, though they need no model call.
    const release = await this.reserve(player.id, 'items', body.items.length, {
      windows,
      grant: grant && { id: grant.id, playerId: player.id, expiresAt: grant.expiresAt },
    });
    const loot = await this.withReservation(release, async () => {
      const takenNames = body.constraints?.ensure_uniqueness
        ? await this.deps.store.playerItemNames(player.id)
        : [];
      const loot = await generateLoot(
        { ...this.deps, materials: this.materials },
        { body: plan.body, trusted, takenNames, signal, supply: this.deps.pools },
      );
      const stacks = mergeStacks(loot.materials.map((m) => ({ id: m.id, quantity: 1 })));
      await this.deps.store.grantLoot(player.id, loot.items, stacks, 'loot').catch(async (err) => {
        await loot.giveBack();
        throw err;
      });
      return loot;
    });
    if (plan.recordLevel !== undefined) await this.deps.store.recordClaimedLevel(player.id, plan.recordLevel);
    const pending = new Set(loot.pendingIcons);
    const items = [...loot.items, ...loot.materials].map((i) =>
      i.icon && pending.has(i.icon.id) ? { ...i, icon: { ...i.icon, status: 'pending' as const } } : i,
    );
    return { items };
  }

  async combine(principal: Principal, body: CombineRequest, signal?: AbortSignal): Promise<CombineResponse> {
    assertActsFor(principal, body.player_id);
    const player = await this.player(body.player_id);
    await this.assertOwns(
      player.id,
      body.ingredients.map((i) => ({ item_id: i.item_id, quantity: i.quantity })),
    );
    const release = await this.reserve(player.id, 'items', 1);
    const crafted = await this.withReservation(release, async () => {
      const plan = await this.planner.plan(body, crafterOf(player), signal);
      if (plan.kind === 'refused') return plan;
      const craft = await this.craftOrRefuse({
        playerId: player.id,
        consume: plan.recipe.ingredients,
        item: plan.item,
        recipe: plan.recipe,
        xp: craftingXp(this.deps.game, this.deps.game.combine.xp, plan.item.rarity),
        discoveryXp: this.deps.game.combine.discovery_xp,
        reason: 'combine',
      });
      return { ...plan, craft };
    });
    if (crafted.kind === 'refused') {
      // Nothing was made: the budget goes back.
      await release();
      return {
        success: false,
        message: crafted.message,
        suggestions: crafted.suggestions,
        consumed_items: [],
        recipe_discovered: false,
        crafting_xp_earned: 0,
      };
    }
    const { item, recipe, craft } = crafted;
    return {
      success: true,
      result_item: item,
      consumed_items: recipe.ingredients.map((s) => s.item_id),
      message: `You crafted ${item.name}${craft.discovered ? ' and discovered a new recipe' : ''}.`,
      recipe_discovered: craft.discovered,
      crafting_xp_earned: craft.xpEarned,
    };
  }

  async createItem(
    principal: Principal,
    playerId: string,
    body: CreateItemRequest,
    cooldownUntil: Date,
    signal?: AbortSignal,
  ): Promise<CreateItemResponse> {
    assertActsFor(principal, playerId);
    const player = await this.player(playerId);
    await this.assertOwns(
      player.id,
      body.materials.map((m) => ({ item_id: m.id, quantity: m.quantity })),
    );
    const release = await this.reserve(player.id, 'items', 1);
    const { item, stacks, craft } = await this.withReservation(release, async () => {
      const { item, stacks } = await planCreateItem(
        this.crafting,
        player.id,
        body,
        crafterOf(player),
        signal,
      );
      const craft = await this.craftOrRefuse({
        playerId: player.id,
        consume: stacks,
        item,
        recipe: null,
        xp: craftingXp(this.deps.game, this.deps.game.create_item.xp, item.rarity),
        discoveryXp: 0,
        reason: 'create_item',
      });
      return { item, stacks, craft };
    });
    return {
      item,
      consumed_materials: stacks.map((s) => ({ id: s.item_id, quantity: s.quantity })),
      crafting_xp: craft.xpEarned,
      cooldown_until: cooldownUntil.toISOString(),
    };
  }

  private async craftOrRefuse(input: Parameters<Store['craft']>[0]) {
    try {
      return await this.deps.store.craft(input);
    } catch (err) {
      throw err instanceof InsufficientError ? insufficient(err) : err;
    }
  }

  /** Fails before any generation when the player lacks the stacks; the transaction checks again. */
  private async assertOwns(playerId: string, wanted: Stack[]) {
    const owned = new Map((await this.deps.store.stacks(playerId)).map((s) => [s.item_id, s.quantity]));
    const missing = mergeStacks(wanted.map((w) => ({ id: w.item_id, quantity: w.quantity })))
      .map((s) => ({ item_id: s.item_id, have: owned.get(s.item_id) ?? 0, need: s.quantity }))
      .filter((m) => m.have < m.need);
    if (missing.length) throw insufficient(new InsufficientError(missing));
  }

  /** Server credential: add or remove stacks (materials by id, or existing items). */
  async changeInventory(playerId: string, changes: Stack[], reason: string) {
    await this.player(playerId);
    const known = await this.resolve(changes.map((c) => c.item_id));
    const unknown = changes.filter((c) => !known.has(c.item_id)).map((c) => c.item_id);
    if (unknown.length) throw new ApiError(400, 'unknown_item', `Unknown item ids: ${unknown.join(', ')}`);
    try {
      await this.deps.store.changeStacks(playerId, changes, reason);
    } catch (err) {
      throw err instanceof InsufficientError ? insufficient(err) : err;
    }
    return this.inventory(playerId);
  }

  /**
   * Reserves one of the player's daily budget of `kind` for a forwarded call (an image, a raw chat),
   * and counts the call against the per-player `limit`; 429 when either is used up. Call the result
   * if the forward fails: the budget is given back (the call still counts against the limit).
   */
  async reserveForward(playerId: string, kind: 'items' | 'images', limit: ForwardLimit) {
    if (!this.known.has(playerId)) await this.player(playerId);
    return this.reserve(playerId, kind, 1, {
      windows: [{ key: `${limit.name}:${playerId}`, windowMs: limit.windowMs, max: limit.max, kept: true }],
    });
  }
}
