import { crc32, deflateSync } from 'node:zlib';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, body: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(body.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body, crc32(head.subarray(4))));
  return Buffer.concat([head, body, crc]);
}

/**
 * An RGBA image of opaque and clear pixels only (alpha 0 or 255), as a PNG holding exactly its
 * colours: indexed when it has at most 255 (index 0 clear), else RGBA. A quantiser (libimagequant)
 * may move a colour by a step, which a game's palette cannot allow. Only the chunks that draw it.
 */
export function exactPng(rgba: Buffer, width: number, height: number): Buffer {
  const index = new Map<number, number>();
  const rows = Buffer.alloc((width + 1) * height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const at = (y * width + x) * 4;
      if (rgba[at + 3] === 0) continue;
      if (rgba[at + 3] !== 255) throw new Error('an exact icon has hard alpha only');
      const colour =
        ((rgba[at] as number) << 16) | ((rgba[at + 1] as number) << 8) | (rgba[at + 2] as number);
      let i = index.get(colour);
      if (i === undefined) {
        i = index.size + 1;
        if (i > 255) return rgbaPng(rgba, width, height);
        index.set(colour, i);
      }
      rows[y * (width + 1) + 1 + x] = i;
    }
  const palette = Buffer.alloc(3 * (index.size + 1));
  for (const [colour, i] of index) palette.set([colour >> 16, (colour >> 8) & 0xff, colour & 0xff], 3 * i);
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 3, 0, 0, 0], 8);
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', header),
    chunk('PLTE', palette),
    // Only index 0 is clear: a tRNS shorter than the palette leaves the rest opaque.
    chunk('tRNS', Buffer.from([0])),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** An RGBA PNG of the pixels as they are (each row unfiltered). */
function rgbaPng(rgba: Buffer, width: number, height: number): Buffer {
  const rows = Buffer.alloc((4 * width + 1) * height);
  for (let y = 0; y < height; y++)
    rgba.copy(rows, y * (4 * width + 1) + 1, y * 4 * width, (y + 1) * 4 * width);
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 6, 0, 0, 0], 8);
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
