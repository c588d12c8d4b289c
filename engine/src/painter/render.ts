import type { PaletteMap } from './art.ts';
import { hslToRgb, mixRgb, type Rgb, rgbToHsl, shadeRamp } from './colour.ts';
import type { Material, Part, Raster, Scene, Style } from './scene.ts';

/** What the step count buys: more shading and anti-aliasing passes, at a cost in time. */
export interface Quality {
  /** Sub-samples per axis per scene pixel. */
  samples: number;
  shading: boolean;
  highlights: boolean;
  occlusion: boolean;
}

export function qualityFor(steps: number): Quality {
  return {
    samples: steps >= 30 ? 3 : steps >= 15 ? 2 : 1,
    shading: steps >= 3,
    highlights: steps >= 4,
    occlusion: steps >= 8,
  };
}

const LIGHT = (() => {
  const l = [-0.55, 0.65, 0.6];
  const n = Math.hypot(l[0] as number, l[1] as number, l[2] as number);
  return l.map((c) => c / n) as [number, number, number];
})();
const FLAT_LAMBERT = LIGHT[2];
const TILE = 6;

interface Flags {
  outline: boolean;
  glow: boolean;
  shading: boolean;
  /** A game's art to paint within: its palette, its outline colour, its pixel grid. */
  art?: ArtFlags | undefined;
}

export interface ArtFlags {
  /** Every colour painted is the nearest of the palette's (ramps, lines and glow alike). */
  palette?: PaletteMap | undefined;
  /** Lines are this colour; with `cells`, the outer outline is left to a one-cell outline drawn afterwards. */
  outline?: Rgb | null;
  /** Scene pixels across the shorter side, exactly: the game's pixel grid. */
  cells?: number | null;
}

export function sceneGeometry(
  width: number,
  height: number,
  style: Style,
  extent = 1,
  cells?: number | null,
) {
  if (cells) {
    const short = Math.min(width, height);
    const gw = Math.round((cells * width) / short);
    const gh = Math.round((cells * height) / short);
    return { cell: short / cells, gw, gh, pixelsPerUnit: Math.min(gw, gh) / extent };
  }
  const cell = Math.max(1, Math.floor(Math.min(width, height) / style.grid));
  const gw = Math.ceil(width / cell);
  const gh = Math.ceil(height / cell);
  return { cell, gw, gh, pixelsPerUnit: Math.min(gw, gh) / extent };
}

/** Rasterises a scene into scene pixels: hit-test parts top-down, shade by a bevel normal, outline, glow. */
export function renderScene(
  scene: Scene,
  style: Style,
  quality: Quality,
  width: number,
  height: number,
  flags: Flags,
): Raster {
  const art = flags.art;
  const { cell, gw, gh, pixelsPerUnit } = sceneGeometry(width, height, style, scene.extent, art?.cells);
  // On a game's grid each cell is one decision, not an average of several colours.
  const ss = art?.cells ? 1 : quality.samples;
  const palette = art?.palette;
  const px = 1 / pixelsPerUnit;
  const levels = quality.shading ? style.levels : 2;
  const ramps = new Map<Material, readonly Rgb[]>();
  const rampOf = (m: Material) => {
    let r = ramps.get(m);
    if (!r) {
      r =
        m.ramp ??
        shadeRamp(saturate(m.base, style.saturation), levels, m.hueShift ?? style.hueShift, style.contrast);
      // The shading steps are the palette's colours nearest to the ramp's.
      if (palette) r = r.map((c) => palette.nearest(c));
      ramps.set(m, r);
    }
    return r;
  };
  const parts = scene.parts;
  const lines = flags.outline && style.outline !== 'none' ? style.outlineWidth * px : 0;
  // A one-cell outline in the art's colour is drawn on the grid afterwards; inner lines stay.
  const ow = art?.cells && art.outline ? 0 : lines;
  const innerWidth = Math.min(lines, px) * 0.8;
  const lineColour = (ramp: readonly Rgb[]): Rgb => {
    if (art?.outline) return art.outline;
    const colour = outlineColour(ramp, style);
    return palette ? palette.nearest(colour) : colour;
  };
  const sceneGlow = flags.glow ? scene.glow : undefined;
  const glow = sceneGlow && palette ? { ...sceneGlow, colour: palette.nearest(sceneGlow.colour) } : sceneGlow;
  const bands = style.name === 'realistic' ? 8 : 3;
  const e = px * 0.3;
  const rgba = new Uint8Array(gw * gh * 4);
  const sample = [0, 0, 0, 0];

  let active: number[] = [];
  const shadeSample = (u: number, v: number) => {
    let hit = -1;
    let dHit = 0;
    let dMin = Number.POSITIVE_INFINITY;
    let dHalo = Number.POSITIVE_INFINITY;
    let nearest = -1;
    let dUpper = Number.POSITIVE_INFINITY;
    let upper = -1;
    for (let n = active.length - 1; n >= 0; n--) {
      const k = active[n] as number;
      const d = (parts[k] as Part).sdf(u, v);
      if (d < 0) {
        hit = k;
        dHit = d;
        break;
      }
      if (d < dMin) {
        dMin = d;
        nearest = k;
      }
      if (d < dHalo && (parts[k] as Part).halo !== false) dHalo = d;
      if (d < dUpper && !(parts[k] as Part).lineless) {
        dUpper = d;
        upper = k;
      }
    }
    let colour: Rgb | undefined;
    let alpha = 0;
    if (hit < 0) {
      if (nearest >= 0 && dMin < ow) {
        colour = lineColour(rampOf((parts[nearest] as Part).material));
        alpha = style.outline === 'soft' ? 0.75 : 1;
      } else if (glow && dHalo < glow.radius + ow) {
        const x = 1 - (dHalo - ow) / glow.radius;
        const a = glow.strength * x * x;
        alpha = Math.ceil(a * bands) / bands;
        colour = glow.colour;
      }
    } else {
      const part = parts[hit] as Part;
      const ramp = rampOf(part.material);
      if (style.innerLines && upper >= 0 && dUpper < innerWidth) {
        colour = lineColour(rampOf((parts[upper] as Part).material));
      } else {
        let index = shadeIndex(part, u, v, dHit, e, ramp.length, quality, flags.shading);
        if (quality.occlusion && upper >= 0 && dUpper < lines + px * 1.5 && part.material.finish !== 'glow') {
          index = Math.max(0, index - 1);
        }
        colour = ramp[index] as Rgb;
      }
      alpha = part.alpha ?? 1;
    }
    if (scene.background) {
      const bg = scene.background(u, v);
      colour = colour ? mixRgb(bg, colour, alpha) : bg;
      alpha = 1;
    }
    sample[0] = colour ? colour[0] : 0;
    sample[1] = colour ? colour[1] : 0;
    sample[2] = colour ? colour[2] : 0;
    sample[3] = alpha;
  };

  // Parts are culled per tile: an SDF is a lower bound of the distance, so a part whose distance
  // from the tile centre exceeds the tile radius plus every reach (outline, glow, shading) cannot touch it.
  const reach = Math.max(lines, (glow?.radius ?? 0) + lines) + px * 3;
  for (let tj = 0; tj < gh; tj += TILE) {
    for (let ti = 0; ti < gw; ti += TILE) {
      const tw = Math.min(TILE, gw - ti);
      const th = Math.min(TILE, gh - tj);
      const cu = (ti + tw / 2 - gw / 2) * px;
      const cv = (gh / 2 - tj - th / 2) * px;
      const radius = Math.hypot(tw, th) * 0.5 * px + reach;
      active = [];
      for (let k = 0; k < parts.length; k++) if ((parts[k] as Part).sdf(cu, cv) <= radius) active.push(k);
      for (let j = tj; j < tj + th; j++) {
        for (let i = ti; i < ti + tw; i++) {
          let r = 0;
          let g = 0;
          let b = 0;
          let a = 0;
          for (let sj = 0; sj < ss; sj++) {
            for (let si = 0; si < ss; si++) {
              const u = (i + (si + 0.5) / ss - gw / 2) * px;
              const v = (gh / 2 - j - (sj + 0.5) / ss) * px;
              shadeSample(u, v);
              const sa = sample[3] as number;
              r += (sample[0] as number) * sa;
              g += (sample[1] as number) * sa;
              b += (sample[2] as number) * sa;
              a += sa;
            }
          }
          const o = (j * gw + i) * 4;
          if (a > 0) {
            rgba[o] = Math.round(r / a);
            rgba[o + 1] = Math.round(g / a);
            rgba[o + 2] = Math.round(b / a);
            rgba[o + 3] = Math.round((a / (ss * ss)) * 255);
          }
        }
      }
    }
  }
  return { width: gw, height: gh, cell, rgba, ...(art?.cells ? { stretched: true } : {}) };
}

function saturate(rgb: Rgb, factor: number): Rgb {
  if (factor === 1) return rgb;
  const [h, s, l] = rgbToHsl(rgb);
  return hslToRgb(h, Math.min(1, s * factor), l);
}

function outlineColour(ramp: readonly Rgb[], style: Style): Rgb {
  if (style.outline === 'black') return [22, 16, 30];
  return mixRgb(ramp[0] as Rgb, [12, 8, 24], style.outline === 'soft' ? 0.35 : 0.55);
}

function shadeIndex(
  part: Part,
  u: number,
  v: number,
  d: number,
  e: number,
  levels: number,
  quality: Quality,
  shading: boolean,
): number {
  const finish = part.material.finish;
  const t = Math.min(1, -d / part.bevel);
  if (finish === 'glow') return Math.min(levels - 1, Math.floor(t * 1.6 * levels));
  if (!shading) return Math.min(levels - 1, Math.floor(levels / 2));
  const gu = (part.sdf(u + e, v) - d) / e;
  const gv = (part.sdf(u, v + e) - d) / e;
  let slope: number;
  if (part.round) slope = Math.min(3, (1 - t) / Math.sqrt(Math.max(0.04, 1 - (1 - t) * (1 - t))));
  else slope = t < 1 ? 1.1 : 0;
  let nu = gu * slope;
  let nv = gv * slope;
  if (finish === 'gem') {
    // Facets: snap the surface direction to six sectors and a flat table in the middle.
    if (t > 0.55) {
      nu = 0;
      nv = 0;
    } else {
      const angle = Math.round(Math.atan2(gv, gu) / (Math.PI / 3)) * (Math.PI / 3);
      nu = Math.cos(angle) * 0.9;
      nv = Math.sin(angle) * 0.9;
    }
  }
  const len = Math.hypot(nu, nv, 1);
  const lambert = (nu * LIGHT[0] + nv * LIGHT[1] + LIGHT[2]) / len;
  const contrast = finish === 'metal' ? 1.7 : finish === 'cloth' ? 0.9 : 1.25;
  let value = 0.5 + (lambert - FLAT_LAMBERT) * contrast + (v - u) * 0.18;
  if (finish === 'glass') value = t < 0.22 ? 0.85 : 0.4 + (v - u) * 0.3;
  if (
    quality.highlights &&
    (finish === 'metal' || finish === 'gem' || finish === 'glass') &&
    lambert > 0.95
  ) {
    value = 1;
  }
  return Math.max(0, Math.min(levels - 1, Math.round(value * (levels - 1))));
}
