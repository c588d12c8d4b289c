import { normaliseIcon } from '@lootsmith/test-support/internals';
import { SWEETIE_16 } from '@lootsmith/test-support/png';
import sharp from 'sharp';
import type { BenchRow } from './row.ts';

/** A game's own sixteen colours: the art a pixel-art game file gives. */
const PALETTE = [...SWEETIE_16];

/**
 * What an image model answers for an item: a smooth, full-colour 1024² PNG on white (a gradient orb
 * and a gradient blade), each picture a little different so no cache helps.
 */
async function picture(i: number): Promise<Buffer> {
  const hue = (i * 47) % 360;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1024" height="1024">
<defs><radialGradient id="orb" cx="40%" cy="35%" r="65%"><stop offset="0" stop-color="hsl(${hue},90%,85%)"/><stop offset="0.45" stop-color="hsl(${(hue + 20) % 360},70%,50%)"/><stop offset="1" stop-color="hsl(${(hue + 200) % 360},60%,20%)"/></radialGradient>
<linearGradient id="steel" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#e8f7ff"/><stop offset="1" stop-color="#3d6e99"/></linearGradient></defs>
<rect width="100%" height="100%" fill="#ffffff"/>
<circle cx="${400 + i * 7}" cy="560" r="${260 + i * 5}" fill="url(#orb)"/>
<polygon points="600,120 680,120 700,620 580,620" fill="url(#steel)"/>
<rect x="520" y="620" width="240" height="40" rx="12" fill="#d4af37"/>
<rect x="620" y="660" width="40" height="160" fill="#6b4a2f"/>
</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

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
  const pictures = await Promise.all(Array.from({ length: 12 }, (_, i) => picture(i)));
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
