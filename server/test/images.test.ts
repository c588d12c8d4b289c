import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { ImageRefused, normaliseIcon, normaliseImage } from '../src/images/normalise.ts';

/** A `size`² picture: a red disc on a flat background (white unless given), as a model paints an item. */
async function disc(size: number, format: 'png' | 'jpeg' | 'webp', background = '#ffffff') {
  const r = size / 4;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}"><rect width="100%" height="100%" fill="${background}"/><circle cx="${size / 2}" cy="${size / 2}" r="${r}" fill="#c02020"/></svg>`;
  return sharp(Buffer.from(svg)).toFormat(format).toBuffer();
}

const pixel = async (png: Buffer, x: number, y: number) => {
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * 4;
  return [...data.subarray(at, at + 4)];
};

describe('icons from whatever a backend paints', () => {
  it('a 1024² JPEG on white becomes a small 128² PNG with transparent corners and the subject kept', async () => {
    const jpeg = await disc(1024, 'jpeg');
    const icon = await normaliseIcon(jpeg, 128);
    const meta = await sharp(icon).metadata();
    expect([meta.format, meta.width, meta.height, meta.hasAlpha]).toEqual(['png', 128, 128, true]);
    expect(icon.length).toBeLessThan(jpeg.length / 4);
    expect(icon.length).toBeLessThan(12_000);
    for (const [x, y] of [
      [0, 0],
      [127, 0],
      [0, 127],
      [127, 127],
    ])
      expect((await pixel(icon, x as number, y as number))[3]).toBe(0);
    // Trimmed to its subject: the disc (half the painting wide) now fills the icon up to its margin.
    const centre = await pixel(icon, 64, 64);
    expect(centre[0]).toBeGreaterThan(150);
    expect(centre[3]).toBe(255);
    expect((await pixel(icon, 12, 64))[3]).toBeGreaterThan(0);
  });

  it('keeps a painted (not flat) background, and writes no metadata', async () => {
    const noisy = await sharp({
      create: {
        width: 256,
        height: 256,
        channels: 3,
        background: '#336699',
        noise: { type: 'gaussian', mean: 128, sigma: 90 },
      },
    })
      .withMetadata({ exif: { IFD0: { ImageDescription: 'painted by a model' } } })
      .png()
      .toBuffer();
    const icon = await normaliseIcon(noisy, 64);
    expect((await pixel(icon, 10, 10))[3]).toBe(255);
    const meta = await sharp(icon).metadata();
    expect(meta.exif).toBeUndefined();
    expect(icon.includes(Buffer.from('painted by a model'))).toBe(false);
    // Only the chunks that draw it: no text, no EXIF, no density.
    const chunks: string[] = [];
    for (let at = 8; at < icon.length; at += 12 + icon.readUInt32BE(at))
      chunks.push(icon.toString('latin1', at + 4, at + 8));
    expect(new Set(chunks)).toEqual(new Set(['IHDR', 'PLTE', 'tRNS', 'IDAT', 'IEND']));
  });

  it('reads WebP and a grey background too', async () => {
    const icon = await normaliseIcon(await disc(512, 'webp', '#808080'), 96);
    expect((await sharp(icon).metadata()).width).toBe(96);
    expect((await pixel(icon, 0, 0))[3]).toBe(0);
  });

  it('refuses what is not a PNG, JPEG or WebP, a broken one, an oversized one and an empty one', async () => {
    const png = await disc(64, 'png');
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9"/>');
    const gif = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } })
      .gif()
      .toBuffer();
    const huge = await sharp({ create: { width: 4096, height: 16, channels: 3, background: '#000' } })
      .png()
      .toBuffer();
    const empty = await sharp({
      create: { width: 32, height: 32, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
    })
      .png()
      .toBuffer();
    for (const bad of [Buffer.from('<html></html>'), svg, gif, png.subarray(0, png.length - 30), huge, empty])
      await expect(normaliseIcon(bad, 64)).rejects.toBeInstanceOf(ImageRefused);
  });
});

describe('images for the /v1 forward', () => {
  it('are re-encoded at the size asked', async () => {
    const out = await normaliseImage(await disc(1024, 'jpeg'), 64, 48);
    const meta = await sharp(out).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 64, 48]);
  });
});
