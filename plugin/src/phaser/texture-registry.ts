import * as Phaser from 'phaser';
import { LootsmithError } from '../core/errors.ts';

let gamesSeen = 0;
const registries = new WeakMap<Phaser.Game, TextureRegistry>();

/**
 * The textures Lootsmith added to one game, each with the set of owners (scene plugins) using it.
 * A texture is removed from the game when its last owner releases it.
 */
export class TextureRegistry {
  /** Unique per game on the page, so two games never share a key. */
  readonly prefix = `lootsmith:g${++gamesSeen}:`;
  readonly #textures: Phaser.Textures.TextureManager;
  readonly #owners = new Map<string, Set<object>>();
  readonly #loading = new Map<string, Promise<void>>();

  static of(game: Phaser.Game): TextureRegistry {
    const registry = registries.get(game) ?? new TextureRegistry(game.textures);
    registries.set(game, registry);
    return registry;
  }

  constructor(textures: Phaser.Textures.TextureManager) {
    this.#textures = textures;
  }

  /** Keys in use and how many owners each has. */
  get usage(): Record<string, number> {
    return Object.fromEntries([...this.#owners].map(([key, owners]) => [key, owners.size]));
  }

  /** Resolves with `key` once the texture is in the game, adding it with `add` if nobody has yet. */
  async acquire(owner: object, key: string, add: () => Promise<void>): Promise<string> {
    const owners = this.#owners.get(key) ?? new Set();
    this.#owners.set(key, owners.add(owner));
    let loading = this.#loading.get(key);
    if (!loading && !this.#textures.exists(key)) {
      loading = add().finally(() => this.#loading.delete(key));
      this.#loading.set(key, loading);
    }
    try {
      await loading;
    } catch (e) {
      this.release(owner, key);
      throw e;
    }
    // Everyone may have left while the image decoded.
    if (!this.#owners.has(key)) this.#remove(key);
    return key;
  }

  release(owner: object, key: string): void {
    const owners = this.#owners.get(key);
    if (!owners?.delete(owner) || owners.size) return;
    this.#owners.delete(key);
    if (!this.#loading.has(key)) this.#remove(key);
  }

  releaseAll(owner: object): void {
    for (const key of [...this.#owners.keys()]) this.release(owner, key);
  }

  #remove(key: string) {
    if (this.#textures.exists(key)) this.#textures.remove(key);
  }
}

/** `textures.addBase64`, resolved on `addtexture-<key>` and rejected on that key's `onerror`. */
export function addBase64(
  textures: Phaser.Textures.TextureManager,
  key: string,
  dataUrl: string,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAdd = () => {
      stop();
      resolve();
    };
    const onError = (failed: string) => {
      if (failed !== key) return;
      stop();
      reject(new LootsmithError('texture_failed', `The image for texture ${key} could not be decoded`));
    };
    const stop = () => {
      textures.off(Phaser.Textures.Events.ADD_KEY + key, onAdd);
      textures.off(Phaser.Textures.Events.ERROR, onError);
    };
    textures.once(Phaser.Textures.Events.ADD_KEY + key, onAdd);
    textures.on(Phaser.Textures.Events.ERROR, onError);
    textures.addBase64(key, dataUrl);
  });
}
