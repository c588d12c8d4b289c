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
import { materialItems } from './game/materials.ts';
import { craftingLevel } from './game/rules.ts';
import { ApiError, reasonError } from './http/errors.ts';
import type { IconService } from './icons.ts';
import type { Metrics } from './metrics.ts';
import { CombinePlanner, type CraftingDeps, mergeStacks, planCreateItem } from './pipeline/crafting.ts';
import { generateLoot } from './pipeline/loot.ts';
import { InsufficientError, type PlayerRecord, type Stack, type Store } from './store/store.ts';
import type { UpstreamClient } from './upstream/client.ts';

export interface LootsmithDeps {
  game: GameDefinition;
  store: Store;
  coordination: Coordination;
  upstream: UpstreamClient;
  icons: IconService;
  metrics?: Metrics;
  textModel?: string;
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

  constructor(readonly deps: LootsmithDeps) {
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

  private async checkBudget(player: PlayerRecord, kind: 'items' | 'images', wanted: number) {
    const limit = kind === 'items' ? player.daily_items : player.daily_images;
    if (limit === null) return;
    const used = (await this.deps.store.dailyUsage(player.id, today()))[kind];
    if (used + wanted > limit)
      throw reasonError(
        429,
        'budget_exceeded',
        `Player ${player.id} has used ${used} of ${limit} ${kind} today; the budget resets at midnight UTC`,
      );
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
    await this.checkBudget(player, 'items', body.items.length);
    const takenNames = body.constraints?.ensure_uniqueness
      ? await this.deps.store.playerItemNames(player.id)
      : [];
    const loot = await generateLoot(
      { ...this.deps, materials: this.materials },
      { body: this.capLevel(body, player, trusted), trusted, takenNames, signal },
    );
    const stacks = mergeStacks(loot.materials.map((m) => ({ id: m.id, quantity: 1 })));
    await this.deps.store.grantLoot(player.id, loot.items, stacks, 'loot');
    await this.deps.store.countUsage(player.id, today(), 'items', loot.items.length);
    return { items: [...loot.items, ...loot.materials] };
  }

  /** A player's claimed level never exceeds the level the game server recorded for them. */
  private capLevel(body: GenerateItemsRequest, player: PlayerRecord, trusted: boolean): GenerateItemsRequest {
    if (trusted || player.level === null) return body;
    const claimed = body.generation_context?.player_level ?? player.level;
    return {
      ...body,
      generation_context: { ...body.generation_context, player_level: Math.min(claimed, player.level) },
    };
  }

  async combine(principal: Principal, body: CombineRequest, signal?: AbortSignal): Promise<CombineResponse> {
    assertActsFor(principal, body.player_id);
    const player = await this.player(body.player_id);
    await this.checkBudget(player, 'items', 1);
    await this.assertOwns(
      player.id,
      body.ingredients.map((i) => ({ item_id: i.item_id, quantity: i.quantity })),
    );
    const plan = await this.planner.plan(body, player.crafting_xp, signal);
    if (plan.kind === 'refused')
      return {
        success: false,
        message: plan.message,
        suggestions: plan.suggestions,
        consumed_items: [],
        recipe_discovered: false,
        crafting_xp_earned: 0,
      };
    const craft = await this.craftOrRefuse({
      playerId: player.id,
      consume: plan.recipe.ingredients,
      item: plan.item,
      recipe: plan.recipe,
      xp: this.deps.game.combine.xp,
      discoveryXp: this.deps.game.combine.discovery_xp,
      reason: 'combine',
    });
    return {
      success: true,
      result_item: plan.item,
      consumed_items: plan.recipe.ingredients.map((s) => s.item_id),
      message: `You crafted ${plan.item.name}${craft.discovered ? ' and discovered a new recipe' : ''}.`,
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
    await this.checkBudget(player, 'items', 1);
    await this.assertOwns(
      player.id,
      body.materials.map((m) => ({ item_id: m.id, quantity: m.quantity })),
    );
    const { item, stacks } = await planCreateItem(this.crafting, player.id, body, player.crafting_xp, signal);
    const craft = await this.craftOrRefuse({
      playerId: player.id,
      consume: stacks,
      item,
      recipe: null,
      xp: this.deps.game.create_item.xp,
      discoveryXp: 0,
      reason: 'create_item',
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
      const result = await this.deps.store.craft(input);
      await this.deps.store.countUsage(input.playerId, today(), 'items', 1);
      return result;
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

  async countImage(playerId: string) {
    const player = await this.player(playerId);
    await this.checkBudget(player, 'images', 1);
    return () => this.deps.store.countUsage(playerId, today(), 'images', 1);
  }
}
