import { deflateSync } from 'node:zlib';

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(bytes: Uint8Array, start: number, end: number): number {
  let c = 0xffffffff;
  for (let i = start; i < end; i++) c = (CRC_TABLE[(c ^ (bytes[i] as number)) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  out.set(data, 8);
  out.writeUInt32BE(crc32(out, 4, 8 + data.length), 8 + data.length);
  return out;
}

const SIGNATURE = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]);

/**
 * An 8-bit indexed PNG: one byte per pixel and a palette of at most 256 RGBA colours.
 * Rows that repeat the previous row (the nearest-neighbour upscale makes many) use the Up
 * filter, which turns them into zeros that zlib compresses almost for free.
 */
export function encodeIndexedPng(
  width: number,
  height: number,
  indices: Uint8Array,
  palette: ReadonlyArray<readonly [number, number, number, number]>,
): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8;
  header[9] = 3;
  const rgb = new Uint8Array(palette.length * 3);
  const alpha = new Uint8Array(palette.length);
  palette.forEach(([r, g, b, a], i) => {
    rgb[i * 3] = r;
    rgb[i * 3 + 1] = g;
    rgb[i * 3 + 2] = b;
    alpha[i] = a;
  });
  const stride = width + 1;
  const raw = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    const row = indices.subarray(y * width, (y + 1) * width);
    const out = y * stride;
    if (y > 0 && sameRow(indices, y, width)) {
      raw[out] = 2;
      continue;
    }
    raw[out] = 0;
    raw.set(row, out + 1);
  }
  const chunks = [SIGNATURE, chunk('IHDR', header), chunk('PLTE', rgb)];
  if (alpha.some((a) => a !== 255)) chunks.push(chunk('tRNS', alpha));
  chunks.push(chunk('IDAT', deflateSync(raw, { level: 6 })), chunk('IEND', new Uint8Array(0)));
  return Buffer.concat(chunks);
}

function sameRow(indices: Uint8Array, y: number, width: number): boolean {
  const a = y * width;
  const b = a - width;
  for (let x = 0; x < width; x++) if (indices[a + x] !== indices[b + x]) return false;
  return true;
}

/** A truecolour RGBA PNG, for images with too many colours for a palette (e.g. the contact sheet). */
export function encodeRgbaPng(width: number, height: number, rgba: Uint8Array): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8;
  header[9] = 6;
  const stride = width * 4 + 1;
  const raw = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) raw.set(rgba.subarray(y * width * 4, (y + 1) * width * 4), y * stride + 1);
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 6 })),
    chunk('IEND', new Uint8Array(0)),
  ]);
}
