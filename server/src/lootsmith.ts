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
  type PlayerRecord,
  type Reservation,
  ReservationRefused,
  type ReservationRequest,
  type Stack,
  type Store,
} from './store/store.ts';
import type { UpstreamClient } from './upstream/client.ts';

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
const today = () => new Date().toISOString().slice(0, 10);

function insufficient(err: InsufficientError): ApiError {
  const list = err.missing.map((m) => `${m.item_id} (have ${m.have}, need ${m.need})`).join(', ');
  return reasonError(400, 'insufficient_materials', `Not enough materials: ${list}`, {
    missing: err.missing,
  });
}

/** The item endpoints as plain methods: the Fastify routes only authenticate, validate and serialise. */
export class Lootsmith {
  readonly materials: Map<string, Item>;
  private readonly planner: CombinePlanner;
  private readonly crafting: CraftingDeps;
  private readonly grants: DropGrantVerifier;

  constructor(readonly deps: LootsmithDeps) {
    this.grants = new DropGrantVerifier(deps.serverKey, deps.game.loot_authority.grant_max_ttl_seconds);
    this.materials = materialItems(deps.game, deps.icons);
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
    if (player.blocked) throw new ApiError(403, 'player_blocked', `Player ${id} is blocked by the game`);
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
    const player = await this.player(playerId);
    const { store } = this.deps;
    const [stacks, recipes] = await Promise.all([store.stacks(playerId), store.recipes(playerId)]);
    const items = await this.resolve(stacks.map((s) => s.item_id));
    return {
      player_id: playerId,
      items: stacks.flatMap((s) => {
        const item = items.get(s.item_id);
        return item ? [{ item, quantity: s.quantity }] : [];
      }),
      crafting_level: craftingLevel(this.deps.game, player.crafting_xp),
      crafting_xp: player.crafting_xp,
      recipes,
    };
  }

  /**
   * Reserves the player's daily budget (and drop windows, a grant) before any model call; 429 or 409
   * when something is used up. The result releases it all: call it when the work fails.
   */
  private async reserve(
    player: PlayerRecord,
    kind: 'items' | 'images',
    n: number,
    extra: Pick<ReservationRequest, 'windows' | 'grant'> = {},
  ): Promise<() => Promise<void>> {
    const limit = kind === 'items' ? player.daily_items : player.daily_images;
    let reservation: Reservation;
    try {
      reservation = await this.deps.store.reserve(
        { playerId: player.id, day: today(), usage: { kind, n, limit }, ...extra },
        Date.now(),
      );
    } catch (err) {
      if (!(err instanceof ReservationRefused)) throw err;
      const r = err.refusal;
      if (r.kind === 'budget')
        throw reasonError(
          429,
          'budget_exceeded',
          `Player ${player.id} has used ${r.used} of ${r.limit} ${kind} today; the budget resets at midnight UTC`,
        );
      if (r.kind === 'grant_used')
        throw new ApiError(409, 'grant_used', 'This drop grant has been spent; each grant gives one drop');
      const retryAfter = Math.max(1, Math.ceil((r.resetAt - Date.now()) / 1000));
      throw new ApiError(
        429,
        'rate_limit_exceeded',
        `Drop limit reached: ${r.max} drops of this enemy tier per ${r.windowMs === 60_000 ? 'minute' : 'hour'}; try again in ${retryAfter} s`,
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
    const release = await this.reserve(player, 'items', body.items.length, {
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
    const release = await this.reserve(player, 'items', 1);
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
    const release = await this.reserve(player, 'items', 1);
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
   * Reserves `n` of the player's daily budget of `kind` for a forwarded call (an image, a raw chat);
   * 429 when it is used up. Call the result if the forward fails, and the player is charged nothing.
   */
  async reserveForward(playerId: string, kind: 'items' | 'images', n = 1) {
    return this.reserve(await this.player(playerId), kind, n);
  }
}
