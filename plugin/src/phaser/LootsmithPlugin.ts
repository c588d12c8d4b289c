import type { GameDefinition, ItemIcon } from '@lootsmith/protocol';
import * as Phaser from 'phaser';
import { type CallOptions, LootsmithClient, type LootsmithConfig } from '../core/client.ts';
import { abortedError, LootsmithError, toLootsmithError } from '../core/errors.ts';
import type {
  CombineResponse,
  CreateItemResponse,
  EquipmentResponse,
  InventoryResponse,
  Item,
  SlotName,
  UseItemResponse,
} from '../core/game-types.ts';
import { RARITY_COLORS } from '../core/rarity-colors.ts';
import type {
  CombineParams,
  CreateItemParams,
  DropParams,
  IconPromptOptions,
  ItemRef,
} from '../core/requests.ts';
import { canTint, wholePixel } from './compat.ts';
import type { LootsmithEvents, LootsmithOp } from './events.ts';
import { addGlowTexture, type DropSpriteInfo, LootSprite } from './loot-sprite.ts';
import { addBase64, TextureRegistry } from './texture-registry.ts';

export interface DropOptions<S extends Phaser.GameObjects.GameObject = LootSprite> extends DropParams {
  /** Where to drop: with both, a sprite per item appears in the scene. */
  x?: number;
  y?: number;
  /** Icon size in pixels (default 48). */
  size?: number;
  /** Build your own sprite instead of a {@link LootSprite}; it is added to the scene for you. */
  sprite?: (info: DropSpriteInfo) => S;
  signal?: AbortSignal;
}

export interface LootDrop<S extends Phaser.GameObjects.GameObject = LootSprite> {
  items: Item[];
  /** One per item, in the same order; empty when no `x, y` were given. */
  sprites: S[];
}

export interface IconOptions extends IconPromptOptions {
  signal?: AbortSignal;
}

type Listener<K extends keyof LootsmithEvents> = (payload: LootsmithEvents[K]) => void;

const clients = new WeakMap<Phaser.Game, LootsmithClient>();

/**
 * Lootsmith as a scene plugin: `this.lootsmith` in every scene. Configure once per game, in any scene:
 * `this.lootsmith.configure({ baseUrl, playerId })`.
 */
export class LootsmithPlugin extends Phaser.Plugins.ScenePlugin {
  /** Sets (or replaces, e.g. after a login) the client every scene of `game` uses. */
  static configure(game: Phaser.Game, config: LootsmithConfig): LootsmithClient {
    const client = new LootsmithClient(config);
    clients.set(game, client);
    return client;
  }

  /** The raw emitter; prefer the typed {@link on}. Cleared when the scene shuts down. */
  readonly events = new Phaser.Events.EventEmitter();
  #abort = new AbortController();
  #ops = 0;

  readonly loot = {
    /** Asks the server for loot (already granted to the player) and, given `x, y`, drops sprites there. */
    drop: <S extends Phaser.GameObjects.GameObject = LootSprite>(options: DropOptions<S> = {}) =>
      this.#run('drop', options.signal, async (id, call) => {
        const items = await this.client.generateItems(options, call);
        const sprites =
          options.x === undefined || options.y === undefined
            ? []
            : await this.#dropSprites(id, items, options);
        this.#emit('loot', { id, op: 'drop', items, sprites });
        return { items, sprites } as LootDrop<S>;
      }),
  };

  readonly crafting = {
    /** Combines items into something new; `success: false` comes with `suggestions`. */
    combine: (params: CombineParams, signal?: AbortSignal): Promise<CombineResponse> =>
      this.#run('combine', signal, async (id, call) => {
        const result = await this.client.combine(params, call);
        this.#emit('craft', { id, op: 'combine', result });
        return result;
      }),
    /** Crafts a described item from materials at a station. */
    createItem: (params: CreateItemParams, signal?: AbortSignal): Promise<CreateItemResponse> =>
      this.#run('createItem', signal, async (id, call) => {
        const result = await this.client.createItem(params, call);
        this.#emit('craft', { id, op: 'createItem', result });
        return result;
      }),
  };

  readonly icons = {
    /**
     * A texture key for an item's icon, or for a new icon painted from a prompt, resolved once the
     * texture is loaded. The texture stays while this scene runs, or until {@link release}d.
     */
    texture: (source: Item | ItemIcon | string, options: IconOptions = {}): Promise<string> =>
      this.#run('icon', options.signal, (id, call) => this.#texture(id, source, options, call)),
    /** Gives this scene's hold on a texture back early; it is removed once no scene holds it. */
    release: (key: string) => this.#registry.release(this, key),
  };

  readonly inventory = {
    /** The player's items, crafting level and discovered recipes, fresh from the server. */
    list: (signal?: AbortSignal): Promise<InventoryResponse> =>
      this.#run('inventory', signal, (_id, call) => this.client.inventory(call)),
    /** The last inventory fetched on this device, for an instant first paint; undefined if none. */
    cached: async () => this.client.cachedInventory(),
    /** Uses up one owned consumable; the answer's `effects` are its stats, for the game to apply. */
    use: (item: ItemRef, signal?: AbortSignal): Promise<UseItemResponse> =>
      this.#run('use', signal, async (id, call) => {
        const result = await this.client.useItem(item, call);
        this.#emit('use', { id, op: 'use', result });
        return result;
      }),
  };

  readonly equipment = {
    /** Every slot of the game with what the player wears in it, and the worn stats summed. */
    list: (signal?: AbortSignal): Promise<EquipmentResponse> =>
      this.#run('equipment', signal, (_id, call) => this.client.equipment(call)),
    /** Wears an owned item in the slot of its type, replacing what was there. */
    equip: (item: ItemRef, signal?: AbortSignal): Promise<EquipmentResponse> =>
      this.#run('equip', signal, async (id, call) => {
        const equipment = await this.client.equip(item, call);
        this.#emit('equipment', { id, op: 'equip', equipment });
        return equipment;
      }),
    /** Empties a slot; the item stays in the inventory. */
    unequip: (slot: SlotName, signal?: AbortSignal): Promise<EquipmentResponse> =>
      this.#run('unequip', signal, async (id, call) => {
        const equipment = await this.client.unequip(slot, call);
        this.#emit('equipment', { id, op: 'unequip', equipment });
        return equipment;
      }),
  };

  /** The game's public rules: materials, stations, enemies. */
  gameDefinition(signal?: AbortSignal): Promise<GameDefinition> {
    return this.#run('gameDefinition', signal, (_id, call) => this.client.gameDefinition(call));
  }

  /** Configures Lootsmith for this whole game (every scene); returns the plugin for chaining. */
  configure(config: LootsmithConfig): this {
    LootsmithPlugin.configure(this.game, config);
    return this;
  }

  get configured(): boolean {
    return clients.has(this.game);
  }

  get client(): LootsmithClient {
    const client = clients.get(this.game);
    if (!client) {
      throw new LootsmithError(
        'not_configured',
        'Call this.lootsmith.configure({ baseUrl, playerId }) first',
      );
    }
    return client;
  }

  on<K extends keyof LootsmithEvents>(event: K, listener: Listener<K>, context?: unknown): this {
    this.events.on(event, listener, context);
    return this;
  }

  once<K extends keyof LootsmithEvents>(event: K, listener: Listener<K>, context?: unknown): this {
    this.events.once(event, listener, context);
    return this;
  }

  off<K extends keyof LootsmithEvents>(event: K, listener?: Listener<K>, context?: unknown): this {
    this.events.off(event, listener, context);
    return this;
  }

  override boot(): void {
    const events = this.systems?.events;
    events?.on(Phaser.Scenes.Events.START, this.#start, this);
    events?.on(Phaser.Scenes.Events.SHUTDOWN, this.#shutdown, this);
    events?.once(Phaser.Scenes.Events.DESTROY, this.#destroy, this);
  }

  get #registry() {
    return TextureRegistry.of(this.game);
  }

  #start() {
    if (this.#abort.signal.aborted) this.#abort = new AbortController();
  }

  /** Aborts this scene's calls, forgets its listeners and lets go of its textures. */
  #shutdown() {
    this.#abort.abort();
    this.events.removeAllListeners();
    this.#registry.releaseAll(this);
  }

  // Phaser never calls a scene plugin's destroy(): the scene's destroy event is the only signal.
  #destroy() {
    this.#shutdown();
    this.systems?.events.off(Phaser.Scenes.Events.START, this.#start, this);
    this.systems?.events.off(Phaser.Scenes.Events.SHUTDOWN, this.#shutdown, this);
    this.destroy();
  }

  #emit<K extends keyof LootsmithEvents>(event: K, payload: LootsmithEvents[K]) {
    this.events.emit(event, payload);
  }

  /** Runs one call with request/progress/error events, aborted with the scene or by `signal`. */
  async #run<T>(
    op: LootsmithOp,
    signal: AbortSignal | undefined,
    work: (id: number, call: CallOptions) => Promise<T>,
  ): Promise<T> {
    const id = ++this.#ops;
    const scene = this.#abort.signal;
    const combined = signal ? AbortSignal.any([scene, signal]) : scene;
    this.#emit('request', { id, op });
    try {
      const result = await work(id, {
        signal: combined,
        onProgress: (p) => this.#emit('progress', { id, op, ...p }),
      });
      if (combined.aborted) throw abortedError(combined.reason);
      return result;
    } catch (e) {
      const error = toLootsmithError(e, combined);
      if (error.code !== 'aborted') this.#emit('error', { id, op, error });
      throw error;
    } finally {
      if (!scene.aborted) this.#emit('progress', { id, op, stage: 'done' });
    }
  }

  async #texture(
    id: number,
    source: Item | ItemIcon | string,
    options: IconPromptOptions,
    call: CallOptions,
  ) {
    const icon = typeof source === 'string' || 'url' in source ? source : (source as Item).icon;
    if (!icon) throw new LootsmithError('no_icon', `Item ${(source as Item).name} has no icon`);
    const image = await this.client.icon(icon as ItemIcon | string, options, call);
    const key = this.#registry.prefix + image.id;
    await this.#registry.acquire(this, key, () => addBase64(this.game.textures, key, image.dataUrl));
    if (call.signal?.aborted) {
      this.#registry.release(this, key);
      throw abortedError(call.signal.reason);
    }
    this.#emit('icon', { id, op: 'icon', key, cached: image.cached });
    return key;
  }

  async #dropSprites<S extends Phaser.GameObjects.GameObject>(
    id: number,
    items: Item[],
    options: DropOptions<S>,
  ) {
    const { x = 0, y = 0, size = 48 } = options;
    const scene = this.scene as Phaser.Scene;
    const colors = items.map((item) => RARITY_COLORS[item.rarity] ?? RARITY_COLORS.COMMON);
    const glowTextures = await this.#glowTextures(colors);
    const pending = items.map((item) => item.icon?.status === 'pending');
    // An icon that fails still leaves a glowing drop: the loot itself was granted. A pending icon
    // is not waited for: the sprite shows a placeholder until it arrives.
    const textures = await Promise.all(
      items.map((item, i) =>
        item.icon && !pending[i]
          ? this.icons.texture(item, { signal: options.signal }).catch(() => undefined)
          : undefined,
      ),
    );
    if (this.#abort.signal.aborted) throw abortedError();
    const make = options.sprite ?? ((info: DropSpriteInfo) => new LootSprite(info) as unknown as S);
    return items.map((item, i) => {
      const color = colors[i] as number;
      const info: DropSpriteInfo = {
        scene,
        item,
        texture: textures[i],
        pending: pending[i],
        glowTexture: glowTextures.get(color) as string,
        color,
        x: wholePixel(x + (i - (items.length - 1) / 2) * size * 1.25),
        y: wholePixel(y),
        size,
      };
      const sprite = scene.add.existing(make(info));
      if (pending[i]) void this.#swapWhenPainted(id, item, sprite, options.signal);
      return sprite;
    });
  }

  /**
   * The glow texture of each colour: one white texture tinted per drop, or where the renderer cannot
   * tint, one texture painted in each colour.
   */
  async #glowTextures(colors: number[]): Promise<Map<number, string>> {
    const tint = canTint(this.game);
    const prefix = `${this.#registry.prefix}glow`;
    const keys = new Map(colors.map((color) => [color, tint ? prefix : `${prefix}:${color.toString(16)}`]));
    await Promise.all(
      [...keys].map(([color, key]) =>
        this.#registry.acquire(this, key, () =>
          addGlowTexture(this.game.textures, key, tint ? undefined : color),
        ),
      ),
    );
    return keys;
  }

  /** Loads a pending icon (one request at a time, with back-off) and swaps it into its drop sprite. */
  async #swapWhenPainted(
    id: number,
    item: Item,
    sprite: Phaser.GameObjects.GameObject,
    signal?: AbortSignal,
  ) {
    let key: string;
    try {
      key = await this.icons.texture(item, { signal });
    } catch {
      // Reported as an `error` event by the icon call; the placeholder stays.
      return;
    }
    if (sprite instanceof LootSprite && sprite.scene) sprite.setIconTexture(key);
    this.#emit('iconready', { id, op: 'drop', item, key, sprite });
  }
}
