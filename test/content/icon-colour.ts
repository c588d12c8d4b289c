import { type Colour, colourOfPixel } from '@lootsmith/protocol';

/** An icon's pixels, as a PNG decoder gives them: RGBA, row by row. */
export interface IconPixels {
  width: number;
  height: number;
  rgba: Uint8Array;
}

/** How far in from the icon's edge a pixel must be to count: its outline is no colour of the item. */
const INSET = 2;

/**
 * The share of an icon's surface that reads as each colour family: its opaque pixels (alpha ≥ 128)
 * at least `INSET` pixels in from transparency, so the dark outline every icon has is not counted
 * as black.
 */
export function colourShares(icon: IconPixels): Map<Colour, number> {
  const counts = new Map<Colour, number>();
  let opaque = 0;
  const { rgba, width, height } = icon;
  const solid = (x: number, y: number) =>
    x >= 0 && y >= 0 && x < width && y < height && (rgba[(y * width + x) * 4 + 3] as number) >= 128;
  const inside = (x: number, y: number) => {
    for (let d = 1; d <= INSET; d++)
      if (!solid(x - d, y) || !solid(x + d, y) || !solid(x, y - d) || !solid(x, y + d)) return false;
    return true;
  };
  for (let i = 0; i < rgba.length; i += 4) {
    const x = (i / 4) % width;
    const y = Math.floor(i / 4 / width);
    if (!solid(x, y) || !inside(x, y)) continue;
    opaque++;
    const colour = colourOfPixel([rgba[i] as number, rgba[i + 1] as number, rgba[i + 2] as number]);
    counts.set(colour, (counts.get(colour) ?? 0) + 1);
  }
  return new Map([...counts].map(([c, n]) => [c, n / opaque]));
}

/** The share of an icon a colour must cover to be painted on it: a gem or a trim, not a stray pixel. */
export const PAINTED_SHARE = 0.06;

/** Whether an icon carries a colour family: at least `PAINTED_SHARE` of its opaque pixels read as it. */
export function paintsColour(icon: IconPixels, colour: Colour): boolean {
  return (colourShares(icon).get(colour) ?? 0) >= PAINTED_SHARE;
}
