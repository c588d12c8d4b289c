import { crc32, inflateSync } from 'node:zlib';

export interface DecodedPng {
  width: number;
  height: number;
  /** RGBA, 4 bytes per pixel. */
  rgba: Uint8Array;
}

/** Decodes an 8-bit indexed PNG as the engine writes them (filters None and Up), checking signature and CRCs. */
export function decodePng(bytes: Buffer): DecodedPng {
  if (bytes.subarray(0, 8).toString('hex') !== '89504e470d0a1a0a') throw new Error('not a PNG');
  let offset = 8;
  let width = 0;
  let height = 0;
  let colourType = -1;
  let palette: Uint8Array = new Uint8Array(0);
  let alpha: Uint8Array = new Uint8Array(0);
  const idat: Buffer[] = [];
  while (offset < bytes.length) {
    const length = bytes.readUInt32BE(offset);
    const type = bytes.toString('latin1', offset + 4, offset + 8);
    const data = bytes.subarray(offset + 8, offset + 8 + length);
    if (crc32(bytes.subarray(offset + 4, offset + 8 + length)) !== bytes.readUInt32BE(offset + 8 + length)) {
      throw new Error(`bad CRC in ${type} chunk`);
    }
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      colourType = data[9] as number;
    } else if (type === 'PLTE') palette = data;
    else if (type === 'tRNS') alpha = data;
    else if (type === 'IDAT') idat.push(data);
    offset += length + 12;
  }
  if (colourType !== 3) throw new Error(`unexpected colour type ${colourType}`);
  const raw = inflateSync(Buffer.concat(idat));
  if (raw.length !== (width + 1) * height) throw new Error('bad image data length');
  const rgba = new Uint8Array(width * height * 4);
  const previous = new Uint8Array(width);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (width + 1)] as number;
    if (filter !== 0 && filter !== 2) throw new Error(`unexpected filter ${filter}`);
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
