import type { Rgb } from './colour.ts';
import { encodeIndexedPng } from './png.ts';
import type { Raster } from './scene.ts';

/**
 * Scene pixels → indexed PNG at the requested size. The palette is built from the few hundred
 * scene pixels (not the upscaled image), and `recolour` runs once per palette entry.
 */
export function rasterToPng(
  raster: Raster,
  width: number,
  height: number,
  recolour?: (rgb: Rgb) => Rgb,
): Buffer {
  const { rgba, cell } = raster;
  const count = raster.width * raster.height;
  let shift = 0;
  let palette: Array<[number, number, number, number]> = [];
  const gridIndex = new Uint8Array(count);
  for (;;) {
    const seen = new Map<number, number>();
    palette = [[0, 0, 0, 0]];
    let overflow = false;
    for (let i = 0; i < count && !overflow; i++) {
      const o = i * 4;
      const a = rgba[o + 3] as number;
      if (a === 0) {
        gridIndex[i] = 0;
        continue;
      }
      const mask = (0xff << shift) & 0xff;
      const r = (rgba[o] as number) & mask;
      const g = (rgba[o + 1] as number) & mask;
      const b = (rgba[o + 2] as number) & mask;
      const aq = a & mask;
      const key = ((r << 24) | (g << 16) | (b << 8) | aq) >>> 0;
      let index = seen.get(key);
      if (index === undefined) {
        if (palette.length === 256) {
          overflow = true;
          break;
        }
        index = palette.length;
        seen.set(key, index);
        palette.push([r, g, b, a === 255 ? 255 : aq]);
      }
      gridIndex[i] = index;
    }
    if (!overflow) break;
    shift++;
  }
  if (recolour) {
    for (let i = 1; i < palette.length; i++) {
      const [r, g, b, a] = palette[i] as [number, number, number, number];
      const [nr, ng, nb] = recolour([r, g, b]);
      palette[i] = [nr, ng, nb, a];
    }
  }
  const indices = new Uint8Array(width * height);
  const row = new Uint8Array(width);
  let lastGridRow = -1;
  for (let y = 0; y < height; y++) {
    const gy = raster.stretched
      ? Math.floor((y * raster.height) / height)
      : Math.min(raster.height - 1, Math.floor(y / cell));
    if (gy !== lastGridRow) {
      const base = gy * raster.width;
      for (let x = 0; x < width; x++) {
        const gx = raster.stretched
          ? Math.floor((x * raster.width) / width)
          : Math.min(raster.width - 1, Math.floor(x / cell));
        row[x] = gridIndex[base + gx] as number;
      }
      lastGridRow = gy;
    }
    indices.set(row, y * width);
  }
  return encodeIndexedPng(width, height, indices, palette);
}
