import { inflateSync } from 'node:zlib';

/** Decodes the engine's own indexed PNGs (8-bit palette, filters None and Up). */
export function decodeIndexedPng(png: Buffer): { width: number; height: number; rgba: Uint8Array } {
  let offset = 8;
  let width = 0;
  let height = 0;
  let palette = new Uint8Array(0);
  let alpha = new Uint8Array(0);
  const idat: Buffer[] = [];
  while (offset < png.length) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('latin1', offset + 4, offset + 8);
    const data = png.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
    } else if (type === 'PLTE') palette = new Uint8Array(data);
    else if (type === 'tRNS') alpha = new Uint8Array(data);
    else if (type === 'IDAT') idat.push(data);
    offset += length + 12;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const rgba = new Uint8Array(width * height * 4);
  const previous = new Uint8Array(width);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (width + 1)];
    for (let x = 0; x < width; x++) {
      let index = raw[y * (width + 1) + 1 + x] as number;
      if (filter === 2) index = (index + (previous[x] as number)) & 255;
      previous[x] = index;
      const o = (y * width + x) * 4;
      rgba[o] = palette[index * 3] as number;
      rgba[o + 1] = palette[index * 3 + 1] as number;
      rgba[o + 2] = palette[index * 3 + 2] as number;
      rgba[o + 3] = index < alpha.length ? (alpha[index] as number) : 255;
    }
  }
  return { width, height, rgba };
}
