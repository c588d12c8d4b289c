import sharp, { type Metadata, type Sharp } from 'sharp';

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

/**
 * A game icon from whatever a backend painted: the background made transparent when it is flat (a
 * "game item icon" prompt's usual white or grey), trimmed to its subject, fitted into `size`² with a
 * small transparent margin, and re-encoded as a small palette PNG without metadata.
 */
export async function normaliseIcon(bytes: Buffer, size: number): Promise<Buffer> {
  const image = await open(bytes);
  // Cleared and trimmed at twice the icon's size: enough detail, and the final shrink smooths the edge.
  const work = Math.min(1024, size * 2);
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
  clearFlatBackground(data, width, height);
  // One flat colour all over is its own subject (a swatch), not a background around nothing.
  const pixels = subjectBox(data, width, height) ? data : painted;
  const box = subjectBox(pixels, width, height);
  if (!box) throw new ImageRefused('the image is empty (fully transparent)');
  const margin = Math.max(1, Math.round(size / 16));
  const png = await decoded(() =>
    sharp(pixels, { raw: { width, height, channels: 4 } })
      .extract(box)
      .resize(size - 2 * margin, size - 2 * margin, { fit: 'contain', background: TRANSPARENT })
      .extend({ top: margin, bottom: margin, left: margin, right: margin, background: TRANSPARENT })
      .png({ palette: true, compressionLevel: 9, effort: 8 })
      .toBuffer(),
  );
  return onlyDrawnChunks(png);
}

/**
 * Makes a flat background transparent: when most of the border is one colour (within a tolerance
 * that covers JPEG noise and a soft vignette) and opaque, every pixel of that colour reachable from
 * the border is cleared. A painted scene, or a background already transparent, is left as it is.
 */
export function clearFlatBackground(rgba: Buffer, width: number, height: number): void {
  const border: number[] = [];
  for (let x = 0; x < width; x++) border.push(x, (height - 1) * width + x);
  for (let y = 1; y < height - 1; y++) border.push(y * width, y * width + width - 1);
  const opaque = border.filter((p) => (rgba[p * 4 + 3] as number) >= 128);
  if (opaque.length < border.length / 2) return;
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
  if (seeds.length < border.length * FLAT_BORDER) return;
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
