import type { IconArt } from '@lootsmith/protocol';
import sharp, { type Metadata, type Sharp } from 'sharp';
import { exactPng } from './exact-png.ts';

/** Largest image Lootsmith decodes from a backend: a side, and pixels in all (2048², as the issue asks). */
export const DECODE_LIMITS = { maxSide: 2048, maxPixels: 2048 * 2048 } as const;

/** An image a backend sent that Lootsmith will not use: not PNG, JPEG or WebP, too large, broken or empty. */
export class ImageRefused extends Error {}

const TRANSPARENT = { r: 0, g: 0, b: 0, alpha: 0 };
/** A pixel this close to the background colour (largest channel difference) is background. */
const BACKGROUND_TOLERANCE = 40;
/** Share of the border that must be one colour for the background to count as flat. */
const FLAT_BORDER = 0.6;

/** The format of image bytes by their signature; only these three reach the decoder (no SVG, TIFF, HEIF…). */
export function imageFormat(bytes: Buffer): 'png' | 'jpeg' | 'webp' | null {
  if (bytes.length >= 8 && bytes.readUInt32BE(0) === 0x89504e47 && bytes.readUInt32BE(4) === 0x0d0a1a0a)
    return 'png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (
    bytes.length >= 12 &&
    bytes.toString('latin1', 0, 4) === 'RIFF' &&
    bytes.toString('latin1', 8, 12) === 'WEBP'
  )
    return 'webp';
  return null;
}

/** A decoder for bytes that were checked to be PNG, JPEG or WebP within the limits; any damage fails it. */
async function open(bytes: Buffer): Promise<Sharp> {
  const format = imageFormat(bytes);
  if (!format) throw new ImageRefused('not a PNG, JPEG or WebP image');
  const image = sharp(bytes, { limitInputPixels: DECODE_LIMITS.maxPixels, failOn: 'warning' });
  let meta: Metadata;
  try {
    meta = await image.metadata();
  } catch (err) {
    throw new ImageRefused(`not a decodable ${format}: ${(err as Error).message}`);
  }
  const { width = 0, height = 0 } = meta;
  if (meta.format !== format) throw new ImageRefused(`a ${meta.format} image signed as ${format}`);
  if (width < 1 || height < 1) throw new ImageRefused('the image has no pixels');
  if (width > DECODE_LIMITS.maxSide || height > DECODE_LIMITS.maxSide)
    throw new ImageRefused(
      `${width}×${height} is larger than ${DECODE_LIMITS.maxSide}×${DECODE_LIMITS.maxSide}`,
    );
  return image;
}

/** The chunks a PNG needs to be drawn; libvips adds others (pHYs) that say nothing a game uses. */
const DRAWN = new Set(['IHDR', 'PLTE', 'tRNS', 'IDAT', 'IEND']);

/** A PNG Lootsmith encoded, with only the chunks that draw it: no metadata of any kind. */
export function onlyDrawnChunks(png: Buffer): Buffer {
  const kept: Buffer[] = [png.subarray(0, 8)];
  for (let at = 8; at + 12 <= png.length; ) {
    const end = at + 12 + png.readUInt32BE(at);
    if (DRAWN.has(png.toString('latin1', at + 4, at + 8))) kept.push(png.subarray(at, end));
    at = end;
  }
  return Buffer.concat(kept);
}

/** Runs a sharp pipeline; what libvips refuses (a truncated or corrupt image) is an `ImageRefused`. */
async function decoded<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof ImageRefused) throw err;
    throw new ImageRefused(`the image does not decode: ${(err as Error).message}`);
  }
}

/**
 * An image for the `/v1/image/generations` forward: decoded, covering `width`×`height` (centre
 * kept), re-encoded as a PNG without metadata.
 */
export async function normaliseImage(bytes: Buffer, width: number, height: number): Promise<Buffer> {
  const image = await open(bytes);
  return onlyDrawnChunks(
    await decoded(() =>
      image.rotate().resize(width, height, { fit: 'cover' }).png({ compressionLevel: 9 }).toBuffer(),
    ),
  );
}

/** What of a game's `art` is enforced on every icon: its palette, its pixel grid, its outline. */
export type IconRules = Pick<IconArt, 'palette' | 'pixel_size' | 'outline'>;

/** The margin around an icon's subject, in pixels of `size` (or cells of a grid of `size`). */
const marginOf = (size: number) => Math.max(1, Math.round(size / 16));

/**
 * A game icon from whatever a backend painted: the background made transparent when it is flat (a
 * "game item icon" prompt's usual white or grey), trimmed to its subject, fitted into `size`² with a
 * small transparent margin, and re-encoded as a small palette PNG without metadata. With the game's
 * `art` (a palette, a pixel grid or an outline) that art is enforced on it: see `onGrid` and `smooth`.
 */
export async function normaliseIcon(bytes: Buffer, size: number, art?: IconRules): Promise<Buffer> {
  const image = await open(bytes);
  const grid = art?.pixel_size ?? null;
  const enforced = grid !== null || Boolean(art?.palette?.length) || Boolean(art?.outline);
  // Cleared and trimmed at twice the icon's size: enough detail, and the final shrink smooths the
  // edge; a grid's cells get eight pixels each at least, for an average that reads true.
  const work = Math.min(1024, Math.max(size * 2, (grid ?? 0) * 8));
  const { data, info } = await decoded(() =>
    image
      .rotate()
      .resize(work, work, { fit: 'inside', withoutEnlargement: true })
      .toColourspace('srgb')
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true }),
  );
  const { width, height } = info;
  const painted = Buffer.from(data);
  const background = clearFlatBackground(data, width, height);
  // The anti-aliased rim a painting keeps against its background would become a ring of pale
  // pixels once alpha is hard: with the art enforced, it goes with the background.
  if (enforced && background && subjectBox(data, width, height)) clearFringe(data, width, height, background);
  // One flat colour all over is its own subject (a swatch), not a background around nothing.
  const pixels = subjectBox(data, width, height) ? data : painted;
  const box = subjectBox(pixels, width, height);
  if (!box) throw new ImageRefused('the image is empty (fully transparent)');
  const margin = marginOf(size);
  const fitted = () =>
    sharp(pixels, { raw: { width, height, channels: 4 } })
      .extract(box)
      .resize(size - 2 * margin, size - 2 * margin, { fit: 'contain', background: TRANSPARENT })
      .extend({ top: margin, bottom: margin, left: margin, right: margin, background: TRANSPARENT });
  // The quantiser's least effort: a third of effort 8's time (22 against 62 ms for a 1024² picture,
  // test/bench/icons.ts), a file about 15% larger, no difference to the eye at icon size.
  if (!enforced)
    return onlyDrawnChunks(
      await decoded(() => fitted().png({ palette: true, compressionLevel: 9, effort: 1 }).toBuffer()),
    );
  const colours = artColours(art as IconRules);
  const rgba = grid
    ? onGrid(pixels, width, box, size, grid, colours)
    : smooth(await decoded(() => fitted().raw().toBuffer()), size, colours);
  return exactPng(rgba, size, size);
}

/** The art's colours as numbers (`0xrrggbb`): the palette (empty for any colour), the outline's (or null). */
interface ArtColours {
  palette: number[];
  outline: number | null;
}

const colourOf = (hex: string) => Number.parseInt(hex.slice(1), 16);

function artColours(art: IconRules): ArtColours {
  return { palette: (art.palette ?? []).map(colourOf), outline: art.outline ? colourOf(art.outline) : null };
}

/**
 * The nearest colour of a palette to each colour asked, by a distance weighted as the eye weighs
 * red, green and blue ("redmean"); each colour worked out once. No palette: every colour as it is.
 */
function nearestIn(palette: readonly number[]): (rgb: number) => number {
  if (!palette.length) return (rgb) => rgb;
  const known = new Map<number, number>();
  return (rgb) => {
    let best = known.get(rgb);
    if (best !== undefined) return best;
    const r = rgb >> 16;
    const g = (rgb >> 8) & 0xff;
    const b = rgb & 0xff;
    let bestDistance = Number.POSITIVE_INFINITY;
    best = palette[0] as number;
    for (const p of palette) {
      const pr = p >> 16;
      const mean = (r + pr) / 2;
      const dr = r - pr;
      const dg = g - ((p >> 8) & 0xff);
      const db = b - (p & 0xff);
      const d = (2 + mean / 256) * dr * dr + 4 * dg * dg + (2 + (255 - mean) / 256) * db * db;
      if (d < bestDistance) {
        bestDistance = d;
        best = p;
      }
    }
    known.set(rgb, best);
    return best;
  };
}

/** A cell whose pixels cover at least this share of it (alpha summed) is part of the subject. */
const CELL_COVERAGE = 0.4;

/**
 * The subject on an `n`×`n` grid, as a `size`² RGBA image: fitted and centred inside a margin of
 * cells (one cell at least, so the outline fits and the corners stay clear), each cell the average
 * of the pixels under it (weighted by their alpha) mapped to the nearest palette colour, opaque when
 * they cover enough of it and else clear, the outline drawn, then each cell scaled up to a square
 * block by nearest neighbour. When `size` is not a multiple of `n` the blocks are floor(size / n)
 * pixels and the grid is centred in a transparent margin: every cell stays one colour.
 */
function onGrid(
  rgba: Buffer,
  width: number,
  box: { left: number; top: number; width: number; height: number },
  size: number,
  n: number,
  colours: ArtColours,
): Buffer {
  const nearest = nearestIn(colours.palette);
  const margin = marginOf(n);
  const inner = n - 2 * margin;
  const scale = inner / Math.max(box.width, box.height);
  const across = Math.max(1, Math.min(inner, Math.round(box.width * scale)));
  const down = Math.max(1, Math.min(inner, Math.round(box.height * scale)));
  const left = margin + ((inner - across) >> 1);
  const top = margin + ((inner - down) >> 1);
  // Each cell's colour (0xrrggbb), or -1 for a clear one.
  const cells = new Int32Array(n * n).fill(-1);
  for (let cy = 0; cy < down; cy++) {
    const y0 = box.top + Math.floor((cy * box.height) / down);
    const y1 = Math.max(y0 + 1, box.top + Math.floor(((cy + 1) * box.height) / down));
    for (let cx = 0; cx < across; cx++) {
      const x0 = box.left + Math.floor((cx * box.width) / across);
      const x1 = Math.max(x0 + 1, box.left + Math.floor(((cx + 1) * box.width) / across));
      let alpha = 0;
      let r = 0;
      let g = 0;
      let b = 0;
      for (let y = y0; y < y1; y++)
        for (let x = x0, at = (y * width + x0) * 4; x < x1; x++, at += 4) {
          const a = rgba[at + 3] as number;
          alpha += a;
          r += a * (rgba[at] as number);
          g += a * (rgba[at + 1] as number);
          b += a * (rgba[at + 2] as number);
        }
      if (alpha < CELL_COVERAGE * 255 * (y1 - y0) * (x1 - x0)) continue;
      const average = (Math.round(r / alpha) << 16) | (Math.round(g / alpha) << 8) | Math.round(b / alpha);
      cells[(top + cy) * n + left + cx] = nearest(average);
    }
  }
  if (colours.outline !== null) outline(cells, n, n, colours.outline);
  const block = Math.floor(size / n);
  const offset = (size - block * n) >> 1;
  const out = Buffer.alloc(size * size * 4);
  for (let y = 0; y < block * n; y++)
    for (let x = 0; x < block * n; x++) {
      const cell = cells[Math.floor(y / block) * n + Math.floor(x / block)] as number;
      if (cell < 0) continue;
      const at = ((offset + y) * size + offset + x) * 4;
      out[at] = cell >> 16;
      out[at + 1] = (cell >> 8) & 0xff;
      out[at + 2] = cell & 0xff;
      out[at + 3] = 255;
    }
  return out;
}

/**
 * Smooth art with a palette or an outline: each pixel of the fitted `size`² icon made opaque (alpha
 * 128 or more) or clear, since a half-clear pixel over the game's background shows a colour outside
 * the palette; each opaque one mapped to the nearest palette colour; the outline one pixel wide.
 */
function smooth(rgba: Buffer, size: number, colours: ArtColours): Buffer {
  const nearest = nearestIn(colours.palette);
  const cells = new Int32Array(size * size).fill(-1);
  for (let p = 0; p < size * size; p++) {
    const at = p * 4;
    if ((rgba[at + 3] as number) < 128) continue;
    cells[p] = nearest(
      ((rgba[at] as number) << 16) | ((rgba[at + 1] as number) << 8) | (rgba[at + 2] as number),
    );
  }
  if (colours.outline !== null) outline(cells, size, size, colours.outline);
  const out = Buffer.alloc(size * size * 4);
  for (let p = 0; p < size * size; p++) {
    const cell = cells[p] as number;
    if (cell < 0) continue;
    out[p * 4] = cell >> 16;
    out[p * 4 + 1] = (cell >> 8) & 0xff;
    out[p * 4 + 2] = cell & 0xff;
    out[p * 4 + 3] = 255;
  }
  return out;
}

/**
 * Draws a one-cell outline in `colour` around the subject: every clear cell beside (not diagonally)
 * a cell of the subject; as the demo's sprites are outlined, and never in a corner the margin keeps.
 */
function outline(cells: Int32Array, width: number, height: number, colour: number): void {
  const subject = cells.map((c) => (c >= 0 ? 1 : 0));
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const p = y * width + x;
      if (subject[p]) continue;
      if (
        (x > 0 && subject[p - 1]) ||
        (x < width - 1 && subject[p + 1]) ||
        (y > 0 && subject[p - width]) ||
        (y < height - 1 && subject[p + width])
      )
        cells[p] = colour;
    }
}

/**
 * Makes a flat background transparent: when most of the border is one colour (within a tolerance
 * that covers JPEG noise and a soft vignette) and opaque, every pixel of that colour reachable from
 * the border is cleared. A painted scene, or a background already transparent, is left as it is.
 * Returns the background's colour when one was cleared.
 */
export function clearFlatBackground(
  rgba: Buffer,
  width: number,
  height: number,
): readonly [number, number, number] | undefined {
  const border: number[] = [];
  for (let x = 0; x < width; x++) border.push(x, (height - 1) * width + x);
  for (let y = 1; y < height - 1; y++) border.push(y * width, y * width + width - 1);
  const opaque = border.filter((p) => (rgba[p * 4 + 3] as number) >= 128);
  if (opaque.length < border.length / 2) return undefined;
  const median = (channel: number) => {
    const values = opaque.map((p) => rgba[p * 4 + channel] as number).sort((a, b) => a - b);
    return values[values.length >> 1] as number;
  };
  const ref = [median(0), median(1), median(2)] as const;
  const isBackground = (p: number) =>
    (rgba[p * 4 + 3] as number) >= 128 &&
    Math.abs((rgba[p * 4] as number) - ref[0]) <= BACKGROUND_TOLERANCE &&
    Math.abs((rgba[p * 4 + 1] as number) - ref[1]) <= BACKGROUND_TOLERANCE &&
    Math.abs((rgba[p * 4 + 2] as number) - ref[2]) <= BACKGROUND_TOLERANCE;
  const seeds = border.filter(isBackground);
  if (seeds.length < border.length * FLAT_BORDER) return undefined;
  // Breadth-first from the border over 4-neighbours; a typed stack, each pixel visited once.
  const seen = new Uint8Array(width * height);
  const stack = new Int32Array(width * height);
  let top = 0;
  for (const p of seeds)
    if (!seen[p]) {
      seen[p] = 1;
      stack[top++] = p;
    }
  while (top > 0) {
    const p = stack[--top] as number;
    rgba[p * 4 + 3] = 0;
    const x = p % width;
    const next = [x > 0 ? p - 1 : -1, x < width - 1 ? p + 1 : -1, p - width, p + width];
    for (const q of next)
      if (q >= 0 && q < width * height && !seen[q] && isBackground(q)) {
        seen[q] = 1;
        stack[top++] = q;
      }
  }
  return ref;
}

/** A pixel beside the cleared background and this close to its colour is the painting's rim. */
const FRINGE_TOLERANCE = 2 * BACKGROUND_TOLERANCE;

/**
 * Clears the rim a painting's anti-aliasing leaves on its subject: each opaque pixel beside a clear
 * one whose colour is still near the background's (one pass, so a pale subject keeps its body).
 */
function clearFringe(rgba: Buffer, width: number, height: number, ref: readonly [number, number, number]) {
  const clear = (p: number) => (rgba[p * 4 + 3] as number) < 128;
  const rim: number[] = [];
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const p = y * width + x;
      if (clear(p)) continue;
      const beside =
        (x > 0 && clear(p - 1)) ||
        (x < width - 1 && clear(p + 1)) ||
        (y > 0 && clear(p - width)) ||
        (y < height - 1 && clear(p + width));
      if (
        beside &&
        Math.abs((rgba[p * 4] as number) - ref[0]) <= FRINGE_TOLERANCE &&
        Math.abs((rgba[p * 4 + 1] as number) - ref[1]) <= FRINGE_TOLERANCE &&
        Math.abs((rgba[p * 4 + 2] as number) - ref[2]) <= FRINGE_TOLERANCE
      )
        rim.push(p);
    }
  for (const p of rim) rgba[p * 4 + 3] = 0;
}

/** The bounds of the pixels that are not (nearly) transparent, or null when there are none. */
export function subjectBox(
  rgba: Buffer,
  width: number,
  height: number,
): { left: number; top: number; width: number; height: number } | null {
  let left = width;
  let right = -1;
  let top = height;
  let bottom = -1;
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++)
      if ((rgba[(y * width + x) * 4 + 3] as number) > 8) {
        if (x < left) left = x;
        if (x > right) right = x;
        if (y < top) top = y;
        if (y > bottom) bottom = y;
      }
  if (right < 0) return null;
  return { left, top, width: right - left + 1, height: bottom - top + 1 };
}
