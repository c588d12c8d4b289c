import 'fake-indexeddb/auto';
import { createStore, get } from 'idb-keyval';
import { describe, expect, it } from 'vitest';
import { CACHE_VERSION, LootsmithCache } from '../src/core/cache.ts';

let caches = 0;
const name = () => `cache-test-${++caches}`;

describe('LootsmithCache', () => {
  it('keeps values across instances, as across page reloads', async () => {
    const db = name();
    await new LootsmithCache({ name: db }).set('icon:a', 'data:a');
    expect(await new LootsmithCache({ name: db }).get('icon:a')).toBe('data:a');
    expect(await new LootsmithCache({ name: db }).get('icon:missing')).toBeUndefined();
  });

  it('evicts the least recently used entries beyond maxEntries', async () => {
    const cache = new LootsmithCache({ name: name(), maxEntries: 3 });
    await cache.set('a', 'A');
    await cache.set('b', 'B');
    await cache.set('c', 'C');
    await cache.get('a');
    await cache.set('d', 'D');
    expect(await cache.get('b')).toBeUndefined();
    expect(await cache.get('a')).toBe('A');
    expect((await cache.keys()).sort()).toEqual(['a', 'c', 'd']);
  });

  it('evicts by size, keeping the newest entry even when it alone is too big', async () => {
    const cache = new LootsmithCache({ name: name(), maxBytes: 10 });
    await cache.set('a', '12345');
    await cache.set('b', '12345');
    expect((await cache.keys()).sort()).toEqual(['a', 'b']);
    await cache.set('c', '1');
    expect((await cache.keys()).sort()).toEqual(['b', 'c']);
    await cache.set('huge', 'x'.repeat(50));
    expect(await cache.keys()).toEqual(['huge']);
    expect(await cache.get('huge')).toHaveLength(50);
  });

  it('stores under a versioned database name', async () => {
    const db = name();
    await new LootsmithCache({ name: db }).set('k', { items: [1] });
    expect(await get('k', createStore(`${db}-v${CACHE_VERSION}`, 'kv'))).toEqual({ items: [1] });
  });

  it('is a harmless no-op when IndexedDB is missing', async () => {
    const saved = globalThis.indexedDB;
    // @ts-expect-error simulating a browser without IndexedDB
    delete globalThis.indexedDB;
    try {
      const cache = new LootsmithCache({ name: name() });
      await cache.set('k', 'v');
      expect(await cache.get('k')).toBeUndefined();
    } finally {
      globalThis.indexedDB = saved;
    }
  });
});
