/** FNV-1a over UTF-16 code units: stable across runs and platforms, which is all a seed needs. */
export function hashString(text: string, seed = 0x811c9dc5): number {
  let hash = seed >>> 0;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

function mix(a: number, b: number): number {
  let h = Math.imul(a ^ (b + 0x9e3779b9), 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/**
 * A seeded random stream (mulberry32). `fork(name)` gives an independent sub-stream per part,
 * so adding a draw in one part never reshuffles another.
 */
export class Rng {
  private state: number;
  readonly seed: number;

  constructor(seed: number) {
    this.seed = seed >>> 0;
    this.state = this.seed;
  }

  fork(name: string): Rng {
    return new Rng(mix(this.seed, hashString(name)));
  }

  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  range(min: number, max: number): number {
    return min + (max - min) * this.next();
  }

  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)] as T;
  }
}

/**
 * A pick that avoids what this answer has already written (`used`, shared by the items of one
 * completion), while anything else is left: three frost items read three different clauses.
 */
export function fresh<T extends string>(rng: Rng, options: readonly T[], used: Set<string>): T {
  let left = 0;
  for (const option of options) if (!used.has(option)) left++;
  // The same draw as rng.pick over the options not yet used (or over all, once every one is).
  let k = Math.floor(rng.next() * (left || options.length));
  for (const option of options) {
    if (left && used.has(option)) continue;
    if (k-- === 0) {
      used.add(option);
      return option;
    }
  }
  throw new Error('fresh: no options');
}
