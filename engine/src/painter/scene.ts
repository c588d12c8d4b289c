import type { Rgb } from './colour.ts';
import type { Sdf } from './sdf.ts';

/** How a surface takes light: it picks the shading model of a part. */
export type Finish = 'metal' | 'matte' | 'cloth' | 'gem' | 'glass' | 'glow';

export interface Material {
  base: Rgb;
  finish: Finish;
  /** A fixed ramp (shadow → highlight) instead of one derived from `base`, e.g. for flames. */
  ramp?: readonly Rgb[];
  /** Degrees the shadows and highlights drift in hue, when not the style's (skin drifts little). */
  hueShift?: number;
}

export interface Part {
  sdf: Sdf;
  material: Material;
  /** Width of the bevelled rim in scene units; with `round`, the radius of a cylinder or dome. */
  bevel: number;
  round?: boolean;
  /** Opacity of the part (glass, smoke); 1 when omitted. */
  alpha?: number;
  /** No contour line where this part overlaps the parts below it. */
  lineless?: boolean;
  /** Whether the scene's glow surrounds this part (particles opt out, so they do not glow as blobs). */
  halo?: boolean;
}

export interface Glow {
  colour: Rgb;
  /** Reach outside the silhouette, scene units. */
  radius: number;
  strength: number;
}

/** Everything a painter decided; the renderer turns it into pixels. */
export interface Scene {
  /** Bottom to top. */
  parts: Part[];
  glow?: Glow;
  /** Opaque backdrop (portraits, skill icons); transparent when absent. */
  background?: (u: number, v: number) => Rgb;
  /** Scene units across the shorter side of the image; above 1 leaves room for glow and particles. */
  extent?: number;
}

export interface Style {
  name: 'fantasy' | 'realistic' | 'cartoon';
  /** Scene pixels across the icon before the nearest-neighbour upscale. */
  grid: number;
  levels: number;
  hueShift: number;
  contrast: number;
  saturation: number;
  outline: 'dark' | 'black' | 'soft' | 'none';
  /** Outline thickness in scene pixels. */
  outlineWidth: number;
  innerLines: boolean;
}

export const STYLES: Record<Style['name'], Style> = {
  fantasy: {
    name: 'fantasy',
    grid: 48,
    levels: 5,
    hueShift: 28,
    contrast: 1,
    saturation: 1.05,
    outline: 'dark',
    outlineWidth: 1,
    innerLines: true,
  },
  cartoon: {
    name: 'cartoon',
    grid: 32,
    levels: 3,
    hueShift: 10,
    contrast: 0.8,
    saturation: 1.3,
    outline: 'black',
    outlineWidth: 1.25,
    innerLines: true,
  },
  realistic: {
    name: 'realistic',
    grid: 96,
    levels: 9,
    hueShift: 14,
    contrast: 1.15,
    saturation: 0.8,
    outline: 'soft',
    outlineWidth: 0.8,
    innerLines: false,
  },
};

/** A scene rasterised: its pixels, and how many output pixels one scene pixel covers. */
export interface Raster {
  width: number;
  height: number;
  /** Size of one scene pixel in output pixels. */
  cell: number;
  /** The scene pixels are a game's grid stretched over the whole image (cells of uneven size when it does not divide). */
  stretched?: boolean;
  rgba: Uint8Array;
}
