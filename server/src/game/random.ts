import { createHash } from 'node:crypto';

export interface Random {
  /** A number in [0, 1). */
  next(): number;
}

/** mulberry32 seeded from a string: the server's rolls are reproducible in tests. */
export function seededRandom(seed: string): Random {
  let a = createHash('sha256').update(seed).digest().readUInt32LE(0);
  return {
    next() {
      a = (a + 0x6d2b79f5) | 0;
      let t = Math.imul(a ^ (a >>> 15), 1 | a);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    },
  };
}

/** Index of a weighted choice; weights need not sum to 1. */
export function pickWeighted(weights: number[], random: Random): number {
  let pick = random.next() * weights.reduce((a, b) => a + b, 0);
  for (let i = 0; i < weights.length; i++) {
    pick -= weights[i] ?? 0;
    if (pick < 0) return i;
  }
  return weights.length - 1;
}
