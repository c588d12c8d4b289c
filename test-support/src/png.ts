// The one PNG writer of the suites: real, decodable files (the CRC and zlib framing the PNG
// specification requires), so what reads them (browsers, sharp, the server's checks) is exercised.
import { deflateSync } from 'node:zlib';
import sharp from 'sharp';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = (CRC_TABLE[(c ^ byte) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A real, decodable RGBA PNG of one colour (8-bit, no interlace), for fakes that answer with an image. */
export function solidPng(size: number, [r, g, b]: [number, number, number]): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8);
  const row = Buffer.alloc(1 + size * 4);
  for (let x = 0; x < size; x++) row.set([r, g, b, 255], 1 + x * 4);
  const pixels = Buffer.concat(Array.from({ length: size }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(pixels)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A 1×1 PNG, the smallest icon a fake sends that still decodes. */
export const TINY_PNG = solidPng(1, [200, 80, 40]);

/** Sweetie 16, a common pixel-art palette (its darkest colour makes a good outline): a game file's `art.palette` for the suites and benches. */
export const SWEETIE_16: readonly string[] = [
  '#1a1c2c',
  '#5d275d',
  '#b13e53',
  '#ef7d57',
  '#ffcd75',
  '#a7f070',
  '#38b764',
  '#257179',
  '#29366f',
  '#3b5dc9',
  '#41a6f6',
  '#73eff7',
  '#f4f4f4',
  '#94b0c2',
  '#566c86',
  '#333c57',
];

/**
 * What an image model paints when asked for an item: a smooth, full-colour 1024² picture on white (a
 * radial-gradient orb and a gradient sword, anti-aliased, in colours no palette has). `variant` moves
 * and sizes the orb, so a bench's pictures differ and no cache helps.
 */
export function smoothPicture(format: 'png' | 'jpeg' | 'webp' = 'png', variant = 0): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1024" height="1024">
<defs><radialGradient id="orb" cx="40%" cy="35%" r="65%"><stop offset="0" stop-color="#fff6a0"/><stop offset="0.45" stop-color="#d2452b"/><stop offset="1" stop-color="#3b1f5c"/></radialGradient>
<linearGradient id="steel" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#e8f7ff"/><stop offset="1" stop-color="#3d6e99"/></linearGradient></defs>
<rect width="100%" height="100%" fill="#ffffff"/>
<circle cx="${430 + variant * 7}" cy="560" r="${300 - variant * 5}" fill="url(#orb)"/>
<polygon points="600,120 680,120 700,620 580,620" fill="url(#steel)"/>
<rect x="520" y="620" width="240" height="40" rx="12" fill="#d4af37"/>
<rect x="620" y="660" width="40" height="160" fill="#6b4a2f"/>
</svg>`;
  return sharp(Buffer.from(svg)).toFormat(format).toBuffer();
}
