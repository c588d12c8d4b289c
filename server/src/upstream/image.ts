import { crc32, inflateSync } from 'node:zlib';
import { IMAGE_LIMITS } from '@lootsmith/protocol';
import jpeg from 'jpeg-js';

export interface ImageFacts {
  format: 'png' | 'jpeg';
  width: number;
  height: number;
}

const PNG_SIGNATURE = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]);
const JPEG_SIGNATURE = Buffer.from([0xff, 0xd8, 0xff]);
/** Bit depths allowed for each PNG colour type. */
const PNG_DEPTHS: Record<number, number[]> = {
  0: [1, 2, 4, 8, 16],
  2: [8, 16],
  3: [1, 2, 4, 8],
  4: [8, 16],
  6: [8, 16],
};
const PNG_CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };
/** Adam7 passes: x start, y start, x step, y step. */
const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
] as const;

/** The content type of image bytes, by their signature. */
export function imageType(bytes: Buffer): 'image/png' | 'image/jpeg' | null {
  if (bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return 'image/png';
  if (bytes.subarray(0, 3).equals(JPEG_SIGNATURE)) return 'image/jpeg';
  return null;
}

/**
 * Checks that bytes decode as the image format their signature claims (PNG or JPEG), within the
 * service's size limits; throws an Error saying what is wrong otherwise. Nothing else is an image.
 */
export function checkImage(bytes: Buffer, maxSide: number = IMAGE_LIMITS.maxSize): ImageFacts {
  const type = imageType(bytes);
  if (type === 'image/png') return checkPng(bytes, maxSide);
  if (type === 'image/jpeg') return checkJpeg(bytes, maxSide);
  throw new Error('not a PNG or JPEG image');
}

function checkSize(width: number, height: number, maxSide: number) {
  if (width < 1 || height < 1) throw new Error('the image has no pixels');
  if (width > maxSide || height > maxSide)
    throw new Error(`${width}×${height} is larger than ${maxSide}×${maxSide}`);
}

/** Every chunk's length and CRC, the header, the order of chunks, and image data that inflates to exactly its rows. */
function checkPng(bytes: Buffer, maxSide: number): ImageFacts {
  let offset = 8;
  let header: Buffer | undefined;
  let palette = false;
  let ended = false;
  let last = '';
  const data: Buffer[] = [];
  while (offset < bytes.length) {
    if (ended) throw new Error('bytes after IEND');
    if (offset + 12 > bytes.length) throw new Error('a chunk is cut off');
    const length = bytes.readUInt32BE(offset);
    const end = offset + 8 + length;
    if (end + 4 > bytes.length) throw new Error('a chunk is cut off');
    const type = bytes.toString('latin1', offset + 4, offset + 8);
    if (!/^[A-Za-z]{4}$/.test(type)) throw new Error('a chunk has an invalid type');
    if (crc32(bytes.subarray(offset + 4, end)) !== bytes.readUInt32BE(end))
      throw new Error(`bad CRC in ${type}`);
    const body = bytes.subarray(offset + 8, end);
    if (!header && type !== 'IHDR') throw new Error('IHDR is not the first chunk');
    if (type === 'IHDR') {
      if (header || length !== 13) throw new Error('bad IHDR');
      header = body;
    } else if (type === 'PLTE') palette = length > 0 && length % 3 === 0 && length <= 768;
    else if (type === 'IDAT') {
      if (data.length && last !== 'IDAT') throw new Error('IDAT chunks are not consecutive');
      data.push(body);
    } else if (type === 'IEND') ended = true;
    else if (type.charCodeAt(0) < 97) throw new Error(`unknown critical chunk ${type}`);
    last = type;
    offset = end + 4;
  }
  if (!header || !ended) throw new Error('IHDR or IEND is missing');
  const width = header.readUInt32BE(0);
  const height = header.readUInt32BE(4);
  checkSize(width, height, maxSide);
  const [depth, colour, compression, filter, interlace] = header.subarray(8) as unknown as number[];
  if (!PNG_DEPTHS[colour as number]?.includes(depth as number))
    throw new Error('bad bit depth or colour type');
  if (compression !== 0 || filter !== 0 || (interlace !== 0 && interlace !== 1))
    throw new Error('bad compression, filter or interlace method');
  if (colour === 3 && !palette) throw new Error('an indexed PNG without a valid palette');
  if (!data.length) throw new Error('no image data');
  const bitsPerPixel = (depth as number) * (PNG_CHANNELS[colour as number] as number);
  const passes = interlace
    ? ADAM7.map(([x0, y0, dx, dy]) => [Math.ceil((width - x0) / dx), Math.ceil((height - y0) / dy)] as const)
    : [[width, height] as const];
  /** Bytes of one row `w` pixels wide: its filter byte, then the pixels. */
  const rowBytes = (w: number) => 1 + Math.ceil((w * bitsPerPixel) / 8);
  let expected = 0;
  for (const [w, h] of passes) if (w > 0 && h > 0) expected += h * rowBytes(w);
  let raw: Buffer;
  try {
    // Most PNGs have one IDAT chunk: inflate it where it lies rather than copying it first. A small
    // icon's rows fit one buffer of their own size rather than zlib's 16 KB (a quarter of the garbage
    // collections); larger images keep the 16 KB chunks, whose allocations stay cheap.
    raw = inflateSync(data.length === 1 ? (data[0] as Buffer) : Buffer.concat(data), {
      maxOutputLength: expected + 1,
      chunkSize: Math.max(64, Math.min(expected + 1, 16 * 1024)),
    });
  } catch (err) {
    throw new Error(`image data does not inflate to its ${expected} bytes: ${(err as Error).message}`);
  }
  if (raw.length !== expected) throw new Error('image data is shorter than its header says');
  let at = 0;
  for (const [w, h] of passes) {
    if (w <= 0) continue;
    const size = rowBytes(w);
    for (let row = 0; row < h; row++, at += size)
      if ((raw[at] as number) > 4) throw new Error('a row has an unknown filter');
  }
  return { format: 'png', width, height };
}

function checkJpeg(bytes: Buffer, maxSide: number): ImageFacts {
  let decoded: { width: number; height: number };
  try {
    decoded = jpeg.decode(bytes, {
      useTArray: true,
      maxResolutionInMP: (maxSide * maxSide) / 1_000_000,
      maxMemoryUsageInMB: 64,
    });
  } catch (err) {
    throw new Error(`not a decodable JPEG: ${(err as Error).message}`);
  }
  checkSize(decoded.width, decoded.height, maxSide);
  return { format: 'jpeg', width: decoded.width, height: decoded.height };
}
