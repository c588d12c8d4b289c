import { normaliseIcon } from '@lootsmith/test-support/internals';
import { SWEETIE_16, smoothPicture } from '@lootsmith/test-support/png';
import type { BenchRow } from './row.ts';

/** A game's own sixteen colours: the art a pixel-art game file gives. */
const PALETTE = [...SWEETIE_16];

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1] as number;
};

const CASES = [
  { name: 'no art', art: undefined },
  {
    name: 'art: 16-colour palette, 32×32 grid, outline',
    art: { palette: PALETTE, pixel_size: 32, outline: '#1a1c2c' },
  },
  { name: 'art: 16-colour palette, no grid', art: { palette: PALETTE, pixel_size: null, outline: null } },
] as const;

/**
 * What normalising one backend image into a 128² game icon costs (`normaliseIcon`: decode, clear the
 * background, trim, fit, and with art the grid, palette and outline, then encode), in-process: each
 * picture normalised three times and its fastest kept, so a pause of the two shared cores lands on
 * one run, not on the figure.
 */
export async function benchIconNormalise(): Promise<BenchRow[]> {
  const pictures = await Promise.all(Array.from({ length: 12 }, (_, i) => smoothPicture('png', i)));
  const rows: BenchRow[] = [];
  for (const { name, art } of CASES) {
    for (const p of pictures.slice(0, 3)) await normaliseIcon(p, 128, art);
    const times: number[] = [];
    for (const p of pictures) {
      let best = Number.POSITIVE_INFINITY;
      for (let run = 0; run < 3; run++) {
        const start = performance.now();
        await normaliseIcon(p, 128, art);
        best = Math.min(best, performance.now() - start);
      }
      times.push(best);
    }
    const value = Math.round(median(times) * 10) / 10;
    rows.push({
      name: `normalise a 1024² PNG to a 128² icon, ${name} (median)`,
      value,
      unit: 'ms',
      goal: '≤ 30 ms',
      ok: value <= 30,
      how: `in-process normaliseIcon on ${pictures.length} smooth full-colour 1024² PNGs on white (gradient orb and blade), each the fastest of 3 runs, median over the pictures`,
    });
  }
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const row of await benchIconNormalise())
    console.log(`${row.ok ? 'ok ' : 'BAD'} ${row.name}: ${row.value} ${row.unit} ${row.goal} (${row.how})`);
}
