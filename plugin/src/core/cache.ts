import { createStore, delMany, get, set, type UseStore, update } from 'idb-keyval';

/** Bump when the shape of cached values changes: older databases are deleted, not read. */
export const CACHE_VERSION = 1;

export interface CacheLimits {
  /** Database name prefix; the version is appended. */
  name: string;
  maxEntries: number;
  /** Approximate: string length, or JSON length for objects. */
  maxBytes: number;
}

export const DEFAULT_CACHE_LIMITS: CacheLimits = {
  name: 'lootsmith',
  maxEntries: 500,
  maxBytes: 24 * 1024 * 1024,
};

/** Last use and size of every entry, kept under one key so eviction never reads the values. */
type Index = Record<string, [usedAt: number, bytes: number]>;
const INDEX = '@index';

const sizeOf = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value)).length;

/** A bounded, versioned LRU cache in IndexedDB; a no-op where IndexedDB is missing or refuses. */
export class LootsmithCache {
  readonly #store: UseStore | undefined;
  readonly #limits: CacheLimits;
  #clock = 0;

  constructor(limits: Partial<CacheLimits> = {}) {
    this.#limits = { ...DEFAULT_CACHE_LIMITS, ...limits };
    const { name } = this.#limits;
    if (typeof indexedDB === 'undefined') return;
    this.#store = createStore(`${name}-v${CACHE_VERSION}`, 'kv');
    for (let v = 0; v < CACHE_VERSION; v++) indexedDB.deleteDatabase(`${name}-v${v}`);
  }

  async get<T>(key: string): Promise<T | undefined> {
    if (!this.#store) return undefined;
    try {
      const value = await get<T>(key, this.#store);
      if (value !== undefined) {
        await this.#index((index) => {
          const entry = index[key];
          if (entry) entry[0] = this.#tick();
        });
      }
      return value;
    } catch {
      return undefined;
    }
  }

  async set(key: string, value: unknown): Promise<void> {
    const store = this.#store;
    if (!store) return;
    try {
      await set(key, value, store);
      const evicted: string[] = [];
      await this.#index((index) => {
        index[key] = [this.#tick(), sizeOf(value)];
        evicted.push(...this.#overflow(index));
      });
      if (evicted.length) await delMany(evicted, store);
    } catch {
      // Quota or private mode: the cache is an optimisation, never a failure.
    }
  }

  async keys(): Promise<string[]> {
    if (!this.#store) return [];
    return Object.keys((await get<Index>(INDEX, this.#store)) ?? {});
  }

  /** Removes least recently used entries from `index` until it fits; returns their keys. */
  #overflow(index: Index): string[] {
    const byAge = Object.entries(index).sort((a, b) => a[1][0] - b[1][0]);
    let bytes = byAge.reduce((sum, [, [, size]]) => sum + size, 0);
    const evicted: string[] = [];
    // The newest entry always stays, even when it alone exceeds maxBytes.
    while (byAge.length > 1 && (byAge.length > this.#limits.maxEntries || bytes > this.#limits.maxBytes)) {
      const [key, [, size]] = byAge.shift() as [string, [number, number]];
      bytes -= size;
      delete index[key];
      evicted.push(key);
    }
    return evicted;
  }

  #index(change: (index: Index) => void): Promise<void> {
    return update<Index>(
      INDEX,
      (index = {}) => {
        change(index);
        return index;
      },
      this.#store,
    );
  }

  /** Strictly increasing, so two uses in one millisecond still have an order. */
  #tick() {
    this.#clock = Math.max(Date.now(), this.#clock + 1);
    return this.#clock;
  }
}
