import { describe, expect, it } from 'vitest';
import { BoundedMap } from '../src/bounded-map.ts';

describe('BoundedMap', () => {
  it('keeps at most its limit, forgetting the oldest entry first', () => {
    const map = new BoundedMap<string, number>(3);
    for (const [i, key] of ['a', 'b', 'c', 'd', 'e'].entries()) map.set(key, i);
    expect([...map]).toEqual([
      ['c', 2],
      ['d', 3],
      ['e', 4],
    ]);
  });

  it('updates a key it holds without forgetting another', () => {
    const map = new BoundedMap<string, number>(2);
    map.set('a', 1).set('b', 2).set('a', 3);
    expect([...map]).toEqual([
      ['a', 3],
      ['b', 2],
    ]);
  });

  it('refuses a limit below one', () => {
    expect(() => new BoundedMap(0)).toThrow(RangeError);
  });
});
