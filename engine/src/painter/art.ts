import { hex, type Rgb } from './colour.ts';
import type { Raster } from './scene.ts';

/**
 * A game's art as an icon prompt carries it (`readIconPrompt`'s `art`): the painter paints within it
 * from the start, so its icons need nothing changed afterwards.
 */
export interface ArtReading {
  /** Cells across the icon (a pixel grid), or null for smooth art. */
  grid: number | null;
  /** The only colours an opaque pixel may have; empty for any colour. */
  palette: PaletteMap | undefined;
  /** The colour of a one-cell outline round the subject, or null for the style's own outline. */
  outline: Rgb | null;
}

/** OKLab of an sRGB colour: distances in it follow what the eye sees. */
function oklab([r, g, b]: Rgb): [number, number, number] {
  const lin = (c: number) => {
    const x = c / 255;
    return x <= 0.04045 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4;
  };
  const [lr, lg, lb] = [lin(r), lin(g), lin(b)];
  const l = Math.cbrt(0.4122214708 * lr + 0.5363325363 * lg + 0.0514459929 * lb);
  const m = Math.cbrt(0.2119034982 * lr + 0.6806995451 * lg + 0.1073969566 * lb);
  const s = Math.cbrt(0.0883024619 * lr + 0.2817188376 * lg + 0.6299787005 * lb);
  return [
    0.2104542553 * l + 0.793617785 * m - 0.0040720468 * s,
    1.9779984951 * l - 2.428592205 * m + 0.4505937099 * s,
    0.0259040371 * l + 0.7827717662 * m - 0.808675766 * s,
  ];
}

/** A game's palette: the nearest of its colours to any colour, remembered once asked. */
export class PaletteMap {
  readonly colours: readonly Rgb[];
  private readonly lab: Array<[number, number, number]>;
  private readonly memo = new Map<number, Rgb>();

  constructor(colours: readonly string[]) {
    this.colours = colours.map(hex);
    this.lab = this.colours.map(oklab);
  }

  /** The palette colour nearest to `rgb`; lightness weighs a little more, so shading steps stay apart. */
  nearest(rgb: Rgb): Rgb {
    const key = (rgb[0] << 16) | (rgb[1] << 8) | rgb[2];
    const known = this.memo.get(key);
    if (known) return known;
    const [l, a, b] = oklab(rgb);
    let best = 0;
    let bestD = Number.POSITIVE_INFINITY;
    for (let i = 0; i < this.lab.length; i++) {
      const [pl, pa, pb] = this.lab[i] as [number, number, number];
      const d = 1.4 * (l - pl) ** 2 + (a - pa) ** 2 + (b - pb) ** 2;
      if (d < bestD) {
        bestD = d;
        best = i;
      }
    }
    const out = this.colours[best] as Rgb;
    this.memo.set(key, out);
    return out;
  }
}

/** Reads a plan's `art` for the painter: hex colours to RGB, the palette ready to map to. */
export function artReading(art: {
  pixel_size: number | null;
  palette?: readonly string[] | undefined;
  outline: string | null;
}): ArtReading {
  return {
    grid: art.pixel_size,
    palette: art.palette?.length ? new PaletteMap(art.palette) : undefined,
    outline: art.outline ? hex(art.outline) : null,
  };
}

/** Makes every scene pixel fully opaque or fully transparent: a pixel grid has no half-covered cells. */
export function hardenAlpha(raster: Raster): void {
  const { rgba } = raster;
  for (let o = 0; o < rgba.length; o += 4) {
    if ((rgba[o + 3] as number) >= 128) rgba[o + 3] = 255;
    else rgba.fill(0, o, o + 4);
  }
}

/** Draws a one-cell outline in `colour` on every transparent cell beside (not diagonal to) the subject. */
export function outlineCells(raster: Raster, colour: Rgb): void {
  const { width, height, rgba } = raster;
  const opaque = new Uint8Array(width * height);
  for (let i = 0; i < opaque.length; i++) opaque[i] = (rgba[i * 4 + 3] as number) > 0 ? 1 : 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      if (opaque[i]) continue;
      const beside =
        (x > 0 && opaque[i - 1]) ||
        (x < width - 1 && opaque[i + 1]) ||
        (y > 0 && opaque[i - width]) ||
        (y < height - 1 && opaque[i + width]);
      if (beside) rgba.set([colour[0], colour[1], colour[2], 255], i * 4);
    }
  }
}
