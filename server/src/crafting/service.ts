import type {
  CombineRequest,
  CombineResponse,
  CreateItemRequest,
  CreateItemResponse,
  ItemEquippedDetails,
} from '@lootsmith/protocol';
import { issuedAt, type Principal } from '../auth.ts';
import { craftingXp } from '../game/rules.ts';
import { type PlayerService, spending } from '../players/service.ts';
import { refuse } from '../refusal.ts';
import type { CoreDeps } from '../service/deps.ts';
import { type Reserved, reserve, withReservation } from '../service/reservations.ts';
import { type CraftInput, mergeStacks, type Stack, WornError, wornSpent } from '../store/store.ts';
import {
  CombinePlanner,
  type CraftingDeps,
  combineTexts,
  crafterOf,
  createItemTexts,
  planCreateItem,
} from './generate.ts';

/** The verdict of a combine the judge found senseless (`success: false`), as the console counts it. */
export const COMBINE_REFUSED = 'not_sensible';

/**
 * Crafting: combining items and creating one from materials. Ownership is checked and a daily
 * budget reserved before the model is asked; the craft spends, grants and records in one transaction.
 */
export class CraftingService {
  private readonly planner: CombinePlanner;
  private readonly crafting: CraftingDeps;

  constructor(
    private readonly deps: CoreDeps,
    private readonly players: PlayerService,
  ) {
    this.crafting = { ...deps, materials: players.materials, resolve: (ids) => players.resolve(ids) };
    this.planner = new CombinePlanner({
      ...this.crafting,
      coordination: deps.coordination,
      recipe: (key) => deps.store.recipe(key),
    });
  }

  async combine(principal: Principal, body: CombineRequest, signal?: AbortSignal): Promise<CombineResponse> {
    const { game } = this.deps;
    const player = await this.players.forCaller(principal, body.player_id);
    await this.players.assertOwns(
      player.id,
      body.ingredients.map((i) => ({ item_id: i.item_id, quantity: i.quantity })),
    );
    // Every rule that can refuse without the model is settled before anything is reserved.
    const setup = await this.planner.setup(body, crafterOf(player));
    const keepWorn = body.consume_equipped !== true;
    if (keepWorn) await this.assertKeepsWorn(player.id, setup.recipe.ingredients);
    const { per_minute, per_hour } = game.combine;
    const release = await reserve(this.deps.store, player.id, 'items', 1, {
      windows: [
        { key: `combine:m:${player.id}`, windowMs: 60_000, max: per_minute, counts: 'requests' },
        { key: `combine:h:${player.id}`, windowMs: 3_600_000, max: per_hour, counts: 'requests' },
      ],
      budgets: this.deps.budgets,
      issuedAt: issuedAt(principal),
    });
    // A verdict the model gave costs what any answer costs: only one that never reached it is free.
    const crafted = await withReservation(
      release,
      async () => {
        // Screened once the limits let the craft through (a moderation call costs); a refusal is given back.
        await this.deps.content?.screenPlayer(player.id, combineTexts(body), release.textRefusedAt);
        const plan = await this.planner.plan(setup, signal);
        if (plan.kind === 'refused') return plan;
        // Asked again inside the craft's transaction: the item may have been put on while the model worked.
        const craft = await this.craft({
          playerId: player.id,
          consume: plan.recipe.ingredients,
          item: plan.item,
          recipe: plan.recipe,
          xp: craftingXp(game, game.combine.xp, plan.item.rarity),
          discoveryXp: game.combine.discovery_xp,
          reason: 'combine',
          keepWorn,
        }).catch(async (err: unknown) => {
          throw err instanceof WornError ? await this.wornRefusal(err.worn) : err;
        });
        return { ...plan, craft };
      },
      (result) => result.kind === 'refused',
    );
    if (crafted.kind === 'refused') {
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

  /**
   * Creates an item from materials. The hourly limit (docs/SPEC.md 4.3.1) is a window of the
   * reservation, so a request refused before the model (bad materials, skill, words) uses no slot.
   */
  async createItem(
    principal: Principal,
    playerId: string,
    body: CreateItemRequest,
    signal?: AbortSignal,
  ): Promise<{ created: CreateItemResponse; window: Reserved['windows'][number] }> {
    const { game } = this.deps;
    const player = await this.players.forCaller(principal, playerId);
    await this.players.assertOwns(
      player.id,
      body.materials.map((m) => ({ item_id: m.id, quantity: m.quantity })),
    );
    // Any owned item may go in as a material: what the player wears only with its say-so, as in a combine.
    const keepWorn = body.consume_equipped !== true;
    if (keepWorn) await this.assertKeepsWorn(player.id, mergeStacks(body.materials));
    const release = await reserve(this.deps.store, player.id, 'items', 1, {
      windows: [
        {
          key: `create-item:${player.id}`,
          windowMs: 3_600_000,
          max: game.create_item.per_hour,
          counts: 'requests',
        },
      ],
      budgets: this.deps.budgets,
      issuedAt: issuedAt(principal),
    });
    const [window] = release.windows as [Reserved['windows'][number]];
    const { item, stacks, notes, craft } = await withReservation(release, async () => {
      await this.deps.content?.screenPlayer(player.id, createItemTexts(body), release.textRefusedAt);
      const { item, stacks, notes } = await planCreateItem(
        this.crafting,
        player.id,
        body,
        crafterOf(player),
        signal,
      );
      const craft = await this.craft({
        playerId: player.id,
        consume: stacks,
        item,
        recipe: null,
        xp: craftingXp(game, game.create_item.xp, item.rarity),
        discoveryXp: 0,
        reason: 'create_item',
        keepWorn,
      }).catch(async (err: unknown) => {
        throw err instanceof WornError ? await this.wornRefusal(err.worn) : err;
      });
      return { item, stacks, notes, craft };
    });
    const created = {
      item,
      consumed_materials: stacks.map((s) => ({ id: s.item_id, quantity: s.quantity })),
      crafting_xp: craft.xpEarned,
      cooldown_until: new Date(window.resetAt).toISOString(),
      ...(notes.length ? { notes } : {}),
    };
    return { created, window };
  }

  /** A combine that would use up what the player wears is refused before anything is reserved or asked. */
  private async assertKeepsWorn(playerId: string, spent: Stack[]) {
    const { store } = this.deps;
    const [worn, held] = await Promise.all([store.equipment(playerId), store.stacks(playerId)]);
    const quantities = (stacks: Stack[]) => new Map(stacks.map((s) => [s.item_id, s.quantity]));
    const taken = wornSpent(worn, quantities(held), quantities(spent));
    if (taken.length) throw await this.wornRefusal(taken);
  }

  private async wornRefusal(worn: Array<{ slot: string; item_id: string }>) {
    const items = await this.players.resolve(worn.map((w) => w.item_id));
    const named: ItemEquippedDetails['items'] = worn.map((w) => ({
      ...w,
      name: items.get(w.item_id)?.name ?? w.item_id,
    }));
    const list = named.map((w) => `${w.name} (${w.slot} slot)`).join(', ');
    return refuse(
      'item_equipped',
      `${list} ${named.length === 1 ? 'is' : 'are'} equipped: unequip ${named.length === 1 ? 'it' : 'them'} first, or send consume_equipped: true to use ${named.length === 1 ? 'it' : 'them'} up.`,
      { items: named } satisfies ItemEquippedDetails,
    );
  }

  private craft(input: CraftInput) {
    return spending(this.deps.store.craft(input));
  }
}
