import { createHash } from 'node:crypto';
import type { GameDefinition, InventoryResponse, Item, PlayerSettingsRequest } from '@lootsmith/protocol';
import { BoundedMap } from '@lootsmith/protocol';
import { assertActsFor, assertTokenCurrent, type Principal, safeEqual } from '../auth.ts';
import type { LootSupply } from '../drops/generate.ts';
import { materialItems } from '../game/materials.ts';
import { craftingLevel } from '../game/rules.ts';
import type { ActivitySink } from '../generation/provenance.ts';
import type { IconService } from '../icons.ts';
import { insufficientMaterials, playerBlocked, refuse } from '../refusal.ts';
import {
  InsufficientError,
  type InventoryRead,
  mergeStacks,
  type PlayerRecord,
  type Stack,
  type Store,
} from '../store/store.ts';

const KNOWN_PLAYERS = 100_000;
const KEPT_INVENTORIES = 10_000;

/** Players and their inventories: first sight, blocking, the inventory read and the server's changes to it. */
export class PlayerService {
  /** The game's materials as items, by their game-definition id. */
  readonly materials: Map<string, Item>;
  /** Each material's JSON, written once: inventories are assembled from JSON text, never re-serialised. */
  private readonly materialJson: Map<string, string>;
  /** Players known to exist, so a forward needs no read to create them (players are never deleted). */
  private readonly known = new BoundedMap<string, true>(KNOWN_PLAYERS);
  /** Assembled inventories by player, with the version each was made from (oldest dropped first). */
  private readonly inventories = new BoundedMap<string, { version: number; json: string }>(KEPT_INVENTORIES);

  constructor(
    private readonly deps: {
      game: GameDefinition;
      store: Pick<
        Store,
        | 'changeStacks'
        | 'ensurePlayer'
        | 'getItems'
        | 'guestSession'
        | 'inventory'
        | 'inventoryVersion'
        | 'stacks'
        | 'updatePlayer'
      >;
      icons: IconService;
      pools?: LootSupply;
      activity?: ActivitySink;
    },
  ) {
    this.materials = materialItems(deps.game, deps.icons);
    this.materialJson = new Map([...this.materials].map(([id, item]) => [id, JSON.stringify(item)]));
  }

  /** Registers the materials' icons so any instance can paint them when first asked. */
  async init() {
    await Promise.all(
      [...this.materials.values()].map((m) => m.icon && this.deps.icons.register(m.icon.prompt)),
    );
  }

  /** What a new player starts with: the game's starting materials. */
  private get starting(): Stack[] {
    return this.deps.game.starting_materials.map((m) => ({ item_id: m.id, quantity: m.quantity }));
  }

  /** The player, created with the game's starting materials on first sight; refused when blocked. */
  async player(id: string): Promise<PlayerRecord> {
    const player = await this.deps.store.ensurePlayer(id, this.starting);
    this.known.set(id, true);
    if (player.blocked) throw playerBlocked(id);
    return player;
  }

  /**
   * The player a caller acts for: refused when the caller may not act for it, when it is blocked, or
   * when the caller's token was issued before the player's tokens were revoked (a block).
   */
  async forCaller(principal: Principal, id: string): Promise<PlayerRecord> {
    assertActsFor(principal, id);
    const player = await this.player(id);
    assertTokenCurrent(principal, player.tokens_after);
    return player;
  }

  /**
   * A guest session for `id`: a new player is made with its starting materials and the guest secret
   * (kept as a hash); a player that exists needs the secret its first session gave, so guest login
   * never takes over a player. Returns whether the player was made.
   */
  async guestSession(id: string, secret: string, given: boolean): Promise<{ created: boolean }> {
    const hash = createHash('sha256').update(secret).digest('hex');
    const found = await this.deps.store.guestSession(id, hash, this.starting);
    if (!found.created && !(given && found.secretHash && safeEqual(hash, found.secretHash)))
      throw refuse(
        'guest_secret_required',
        `Player ${id} exists: a guest session for it needs the guest_secret its first session gave`,
      );
    const player = await this.player(id);
    if (player.blocked) throw playerBlocked(id);
    return { created: found.created };
  }

  /** Makes sure the player exists, reading the store only for a player this instance has not seen. */
  async ensureKnown(id: string) {
    if (!this.known.has(id)) await this.player(id);
  }

  /**
   * Server credential: block a player (every token issued before the block is refused from then on,
   * even after an unblock), set its level, crafting level or daily budgets; a player first seen here
   * keeps its starting materials.
   */
  async update(id: string, settings: PlayerSettingsRequest): Promise<PlayerRecord> {
    const player = await this.deps.store.updatePlayer(
      id,
      {
        blocked: settings.blocked,
        tokens_after: settings.blocked ? Date.now() : undefined,
        crafting_xp:
          settings.crafting_level === undefined
            ? undefined
            : settings.crafting_level * this.deps.game.xp_per_level,
        daily_items: settings.daily_items,
        daily_images: settings.daily_images,
        level: settings.level,
      },
      this.starting,
    );
    if (typeof settings.level === 'number') this.deps.activity?.level(id, settings.level);
    return player;
  }

  /** Items by id: materials from the game definition, the rest from the store; unknown ids are left out. */
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
    return JSON.parse(await this.inventoryJson({ kind: 'server' }, playerId));
  }

  /**
   * The inventory as the JSON the route sends. The JSON is kept per player with the store's inventory
   * version it was made from; each call reads that version (one indexed read), so a change made on any
   * instance is seen at once, and only a changed inventory is read and assembled again.
   */
  async inventoryJson(principal: Principal, playerId: string): Promise<string> {
    assertActsFor(principal, playerId);
    const { store } = this.deps;
    const current = await store.inventoryVersion(playerId);
    if (current?.blocked) throw playerBlocked(playerId);
    if (current) assertTokenCurrent(principal, current.tokensAfter);
    // A player loading its inventory is a live one: a fresh game's pools warm what it starts with.
    if (principal.kind === 'player') this.deps.pools?.arrived(playerId);
    const kept = this.inventories.get(playerId);
    if (kept && current && kept.version === current.version) return kept.json;
    let read = await store.inventory(playerId);
    // First sight: the player is made with the starting materials, then read.
    if (!read) {
      await this.player(playerId);
      read = await store.inventory(playerId);
    }
    if (!read) throw new Error(`player ${playerId} was not stored`);
    if (read.player.blocked) throw playerBlocked(playerId);
    const json = this.assemble(playerId, read);
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

  /** Refused before any generation when the player lacks the stacks; the transaction checks again. */
  async assertOwns(playerId: string, wanted: Stack[]) {
    const owned = new Map((await this.deps.store.stacks(playerId)).map((s) => [s.item_id, s.quantity]));
    const missing = mergeStacks(wanted.map((w) => ({ id: w.item_id, quantity: w.quantity })))
      .map((s) => ({ item_id: s.item_id, have: owned.get(s.item_id) ?? 0, need: s.quantity }))
      .filter((m) => m.have < m.need);
    if (missing.length) throw insufficientMaterials(missing);
  }

  /** Server credential: add or remove stacks (materials by id, or existing items). */
  async changeInventory(playerId: string, changes: Stack[], reason: string): Promise<InventoryResponse> {
    await this.player(playerId);
    const known = await this.resolve(changes.map((c) => c.item_id));
    const unknown = changes.filter((c) => !known.has(c.item_id)).map((c) => c.item_id);
    if (unknown.length) throw refuse('unknown_item', `Unknown item ids: ${unknown.join(', ')}`);
    await spending(this.deps.store.changeStacks(playerId, changes, reason));
    return this.inventory(playerId);
  }
}

/** A store write that spends stacks, with the store's shortfall as the refusal it is. */
export function spending<T>(write: Promise<T>): Promise<T> {
  return write.catch((err: unknown) => {
    throw err instanceof InsufficientError ? insufficientMaterials(err.missing) : err;
  });
}
