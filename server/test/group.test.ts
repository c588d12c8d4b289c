import { describe, expect, it } from 'vitest';
import { groupCall, groupRead } from '../src/store/group.ts';

describe('groupRead', () => {
  it('answers the keys asked for during one turn with one read, and each key once', async () => {
    const reads: string[][] = [];
    const read = groupRead((keys) => {
      reads.push(keys);
      return new Map(keys.filter((k) => k !== 'missing').map((k) => [k, `v:${k}`]));
    });
    const answers = await Promise.all([read('a'), read('b'), read('a'), read('c')]);
    expect(answers).toEqual(['v:a', 'v:b', 'v:a', 'v:c']);
    expect(reads).toEqual([['a', 'b', 'c']]);
    expect(await read('missing')).toBeUndefined();
  });

  it('starts every read after the calls it answers: calls made while a read runs wait for the next', async () => {
    let value = 1;
    let release: () => void = () => {};
    const started: number[] = [];
    const read = groupRead(async (keys) => {
      started.push(value);
      const seen = value;
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      return new Map(keys.map((k) => [k, seen]));
    });
    const first = read('k');
    await new Promise((r) => setImmediate(r));
    expect(started).toEqual([1]);
    // A write lands while the first read runs; a call made after it must see it.
    value = 2;
    const second = read('k');
    release();
    expect(await first).toBe(1);
    while (started.length < 2) await new Promise((r) => setImmediate(r));
    release();
    expect(await second).toBe(2);
    expect(started).toEqual([1, 2]);
  });

  it('fails every call of a failed read, and the next read runs afresh', async () => {
    let fail = true;
    const read = groupRead((keys) => {
      if (fail) throw new Error('store down');
      return new Map(keys.map((k) => [k, k]));
    });
    await expect(Promise.all([read('a'), read('b')])).rejects.toThrow('store down');
    fail = false;
    expect(await read('a')).toBe('a');
  });
});

describe('groupCall', () => {
  it('answers each call by its position, takes at most `max` a run, and leaves the rest for the next run', async () => {
    const runs: number[][] = [];
    const call = groupCall((items: number[]) => {
      runs.push(items);
      return items.map((n) => n * 10);
    }, 2);
    expect(await Promise.all([call(1), call(2), call(3)])).toEqual([10, 20, 30]);
    expect(runs).toEqual([[1, 2], [3]]);
  });

  it('runs one group at a time: calls made while a run is out wait for the next run', async () => {
    const runs: string[][] = [];
    let release: () => void = () => {};
    const call = groupCall(async (items: string[]) => {
      runs.push(items);
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      return items;
    });
    const first = call('a');
    await new Promise((r) => setImmediate(r));
    const later = [call('b'), call('c')];
    await new Promise((r) => setImmediate(r));
    expect(runs).toEqual([['a']]);
    release();
    expect(await first).toBe('a');
    while (runs.length < 2) await new Promise((r) => setImmediate(r));
    release();
    expect(await Promise.all(later)).toEqual(['b', 'c']);
    expect(runs).toEqual([['a'], ['b', 'c']]);
  });
});
