import type { ItemFeature } from '@lootsmith/protocol';
import type { Rng } from '../random.ts';
import { mixRgb } from './colour.ts';
import { darker, type ItemLook } from './look.ts';
import { MATERIALS } from './materials.ts';
import { part } from './part.ts';
import type { Glow, Material, Part } from './scene.ts';
import { box, capsule, circle, ellipse, intersect, polygon, ring, type Sdf, star, union } from './sdf.ts';

/** Where a drawing stands: its bounding box, the middle of its mass, and points well inside it. */
export interface Extent {
  minU: number;
  maxU: number;
  minV: number;
  maxV: number;
  /** The mean of its inside points: on the body, even for a ring or a bow. */
  centre: [number, number];
  /** Points at least `DEEP` inside the silhouette, row by row. */
  deep: Array<[number, number]>;
}

const SAMPLES = 40;
/** The distance between two of the grid's samples. */
export const EXTENT_STEP = 1.4 / SAMPLES;
const STEP = EXTENT_STEP;
const DEEP = 0.035;

/** Samples a drawing on a grid: its extent, or undefined when it covers nothing. */
export function extentOf(parts: readonly Part[]): Extent | undefined {
  const shape = union(...parts.map((p) => p.sdf));
  const extent: Extent = {
    minU: Number.POSITIVE_INFINITY,
    maxU: Number.NEGATIVE_INFINITY,
    minV: Number.POSITIVE_INFINITY,
    maxV: Number.NEGATIVE_INFINITY,
    centre: [0, 0],
    deep: [],
  };
  let su = 0;
  let sv = 0;
  let n = 0;
  for (let j = 0; j < SAMPLES; j++) {
    for (let i = 0; i < SAMPLES; i++) {
      const u = (i + 0.5) * STEP - 0.7;
      const v = (j + 0.5) * STEP - 0.7;
      const d = shape(u, v);
      if (d >= 0) continue;
      extent.minU = Math.min(extent.minU, u);
      extent.maxU = Math.max(extent.maxU, u);
      extent.minV = Math.min(extent.minV, v);
      extent.maxV = Math.max(extent.maxV, v);
      su += u;
      sv += v;
      n++;
      if (d < -DEEP) extent.deep.push([u, v]);
    }
  }
  if (!n) return undefined;
  extent.centre = [su / n, sv / n];
  // A mean can fall in a hole (a ring's middle): take the deep point nearest to it.
  const [cu, cv] = extent.centre;
  if (shape(cu, cv) > -DEEP && extent.deep.length) {
    extent.centre = extent.deep.reduce((a, b) =>
      Math.hypot(b[0] - cu, b[1] - cv) < Math.hypot(a[0] - cu, a[1] - cv) ? b : a,
    );
  }
  return extent;
}

/** A skull seen from the front, centred at (cu, cv), `k` times the size of one filling the icon. */
export function skull(cu: number, cv: number, k: number, bone: Material, dark: Material, rng: Rng): Part[] {
  const at = (u: number, v: number): [number, number] => [cu + u * k, cv + v * k];
  const [hu, hv] = at(0, 0.08);
  const [ju, jv] = at(0, -0.2);
  const eye = (s: number) => {
    const [eu, ev] = at(0.12 * s, 0.02);
    return ellipse(eu, ev, 0.08 * k, rng.range(0.07, 0.1) * k);
  };
  const [nu, nv] = at(0, -0.07);
  const [tu, tv] = at(0, -0.26);
  return [
    part(union(circle(hu, hv, 0.32 * k), box(ju, jv, 0.18 * k, 0.12 * k, 0.06 * k)), bone, 0.2 * k, {
      round: true,
    }),
    part(eye(-1), dark, 0.04 * k),
    part(eye(1), dark, 0.04 * k),
    part(
      polygon([nu - 0.03 * k, nv - 0.03 * k, nu + 0.03 * k, nv - 0.03 * k, nu, nv + 0.03 * k]),
      dark,
      0.02 * k,
    ),
    part(box(tu, tv, 0.12 * k, 0.012 * k), dark, 0.01 * k, { lineless: true }),
  ];
}

/** A band along a curve through `points` ([u, v, …]), `width` wide at the start and tapering to a point. */
function taper(points: readonly number[], width: number): Sdf {
  const left: number[] = [];
  const right: number[] = [];
  const n = points.length / 2;
  for (let i = 0; i < n; i++) {
    const a = Math.max(0, i - 1);
    const b = Math.min(n - 1, i + 1);
    const du = (points[b * 2] as number) - (points[a * 2] as number);
    const dv = (points[b * 2 + 1] as number) - (points[a * 2 + 1] as number);
    const len = Math.hypot(du, dv) || 1;
    // Never quite a point: two equal corners would make an edge of no length.
    const w = Math.max(0.004, (width / 2) * (1 - i / (n - 1)) ** 0.8);
    const u = points[i * 2] as number;
    const v = points[i * 2 + 1] as number;
    left.push(u - (dv / len) * w, v + (du / len) * w);
    right.unshift(u + (dv / len) * w, v - (du / len) * w);
  }
  return polygon([...left, ...right]);
}

/**
 * `shape` inside `body`, reading the body (a union of every part, which costs) only near the shape:
 * far from it the shape's own distance is a lower bound of the clipped one, which is all a renderer needs.
 */
function clipped(shape: Sdf, body: Sdf): Sdf {
  return (u, v) => {
    const d = shape(u, v);
    return d > 0.05 ? d : Math.max(d, body(u, v));
  };
}

/** Points along a quadratic Bézier curve, [u, v, …]. */
function curve(a: number[], c: number[], b: number[], steps = 8): number[] {
  const out: number[] = [];
  for (let i = 0; i <= steps; i++) {
    const t = i / steps;
    const s = 1 - t;
    out.push(
      s * s * (a[0] as number) + 2 * s * t * (c[0] as number) + t * t * (b[0] as number),
      s * s * (a[1] as number) + 2 * s * t * (c[1] as number) + t * t * (b[1] as number),
    );
  }
  return out;
}

export interface FeatureParts {
  behind: Part[];
  front: Part[];
  glow?: Glow;
}

/**
 * What an item plan's features add to a drawing, placed on the drawing's own extent so that they
 * sit on any kind: horns on its top, wings and spikes around it, runes and circuits on its surface,
 * a gem or a skull on its middle, feathers and chains hanging from it, a halo of light behind it.
 */
export function featureParts(
  features: readonly ItemFeature[],
  drawn: readonly Part[],
  look: ItemLook,
  rng: (name: string) => Rng,
): FeatureParts {
  const out: FeatureParts = { behind: [], front: [] };
  const extent = features.length ? extentOf(drawn) : undefined;
  if (!extent) return out;
  const { minU, maxU, minV, maxV } = extent;
  const [cu, cv] = extent.centre;
  const w = maxU - minU;
  const h = maxV - minV;
  const size = Math.min(0.5, Math.max(0.25, Math.min(w, h)));
  const body = union(...drawn.map((p) => p.sdf));
  const bone: Material = {
    base: mixRgb((MATERIALS.bone as Material).base, look.metal.base, 0.1),
    finish: 'matte',
  };
  const ink: Material = {
    base: look.light.base,
    finish: 'glow',
    ...(look.light.ramp ? { ramp: look.light.ramp } : {}),
  };
  // The middle is shared: a skull takes it first, a gem then sits above it.
  let middle: [number, number] = [cu, cv];
  const deepest = (near: [number, number]) =>
    extent.deep.reduce(
      (a, b) =>
        Math.hypot(b[0] - near[0], b[1] - near[1]) < Math.hypot(a[0] - near[0], a[1] - near[1]) ? b : a,
      extent.centre,
    );

  for (const feature of features) {
    const r = rng(`feature:${feature}`);
    switch (feature) {
      case 'horns': {
        const spread = r.range(0.22, 0.34);
        const rise = r.range(0.18, 0.26);
        for (const s of [-1, 1]) {
          const base = [cu + s * w * spread, maxV - h * 0.15];
          const tip = [cu + s * (w * 0.5 + r.range(0.08, 0.14)), maxV + rise];
          const bend = [cu + s * (w * 0.5 + 0.14), maxV - h * 0.05];
          out.behind.push(part(taper(curve(base, bend, tip), Math.max(0.12, size * 0.34)), bone, 0.05));
        }
        break;
      }
      case 'wings': {
        // Pale feathers with a touch of the trim: a wing in a strong colour reads as a blot.
        const plumage: Material = { base: mixRgb([236, 232, 220], look.trim.base, 0.3), finish: 'cloth' };
        for (const s of [-1, 1]) {
          const root = [cu + s * w * 0.15, cv + h * 0.12];
          const reach = w * 0.5 + r.range(0.16, 0.22);
          const top = [cu + s * reach, cv + h * 0.32 + 0.08];
          const lobes = [0, 1, 2].map((k) =>
            ellipse(cu + s * (reach - 0.05 - k * 0.07), cv + h * 0.08 - k * 0.07, 0.07, 0.045),
          );
          const wing = union(
            polygon([
              root[0] as number,
              (root[1] as number) + 0.06,
              top[0] as number,
              top[1] as number,
              cu + s * (reach - 0.02),
              cv,
              root[0] as number,
              (root[1] as number) - 0.12,
            ]),
            ...lobes,
          );
          out.behind.push(part(wing, plumage, 0.05));
          for (let k = 0; k < 3; k++) {
            const fu = cu + s * (reach - 0.05 - k * 0.07);
            out.behind.push(
              part(
                capsule(
                  fu,
                  cv + h * 0.08 - k * 0.07,
                  (fu + (root[0] as number)) / 2,
                  (cv + (root[1] as number)) / 2 + 0.04,
                  0.006,
                ),
                darker(plumage),
                0.006,
                { lineless: true },
              ),
            );
          }
        }
        break;
      }
      case 'glow': {
        // A halo round the whole item, and a few sparks of its light.
        out.glow = { colour: look.light.base, radius: 0.13, strength: 0.8 };
        for (let k = 0; k < 4; k++) {
          const a = ((k + r.range(0.2, 0.8)) / 4) * Math.PI * 2;
          const su = cu + Math.cos(a) * (w / 2 + 0.06);
          const sv = cv + Math.sin(a) * (h / 2 + 0.06);
          const s = r.range(0.035, 0.055);
          out.front.push(part(star(su, sv, s, s * 0.3, 4), ink, s * 0.6, { lineless: true, halo: false }));
        }
        break;
      }
      case 'runes': {
        const count = Math.min(6, Math.max(3, Math.floor(extent.deep.length / 30)));
        for (let k = 0; k < count && extent.deep.length; k++) {
          const [u, v] = extent.deep[Math.floor(((k + r.range(0.2, 0.8)) / count) * extent.deep.length)] as [
            number,
            number,
          ];
          const g = 0.045 * Math.max(1, size / 0.3);
          const t = g / 3;
          const strokes = [capsule(u, v - g, u, v + g, t)];
          const shape = r.int(0, 3);
          if (shape === 0) strokes.push(capsule(u, v + g, u + g * 0.8, v, t));
          if (shape === 1) strokes.push(capsule(u - g * 0.8, v + g * 0.4, u + g * 0.8, v - g * 0.4, t));
          if (shape === 2)
            strokes.push(capsule(u, v, u - g * 0.8, v - g, t), capsule(u, v, u + g * 0.8, v - g, t));
          if (shape === 3) strokes.push(capsule(u - g * 0.7, v + g, u + g * 0.7, v + g, t));
          out.front.push(part(union(...strokes), ink, 0.01, { lineless: true, halo: false }));
        }
        break;
      }
      case 'spikes': {
        const count = r.int(6, 9);
        for (let k = 0; k < count; k++) {
          const a = ((k + r.range(0.3, 0.7)) / count) * Math.PI * 2;
          const du = Math.cos(a);
          const dv = Math.sin(a);
          // March in from outside to the outer edge (not into a gap between legs), stand a spike there.
          let t = 0.9;
          while (t > 0 && body(cu + du * t, cv + dv * t) >= 0) t -= 0.01;
          const eu = cu + du * (t - 0.02);
          const ev = cv + dv * (t - 0.02);
          const grow = Math.max(1, size / 0.3);
          const len = r.range(0.08, 0.11) * grow;
          const half = 0.035 * grow;
          out.behind.push(
            part(
              polygon([
                eu - dv * half,
                ev + du * half,
                eu + du * len,
                ev + dv * len,
                eu + dv * half,
                ev - du * half,
              ]),
              look.metalDark,
              0.02,
            ),
          );
        }
        break;
      }
      case 'skull': {
        out.front.push(...skull(cu, cv, Math.min(0.34, size * 0.55), bone, look.dark, r));
        middle = deepest([cu, cv + size * 0.3]);
        break;
      }
      case 'gem': {
        // A painter's own stone big enough to be seen (a ring's) is the plan's gem; a pommel's speck is not.
        const own = drawn.filter((p) => p.material === look.gem);
        if (own.length && extentOf(own)?.deep.length) break;
        const [gu, gv] = middle;
        const gr = Math.min(0.1, Math.max(0.055, size * 0.2));
        out.front.push(
          part(circle(gu, gv, gr * 1.25), look.accent, 0.03, { round: true }),
          part(polygon([gu, gv + gr, gu + gr, gv, gu, gv - gr, gu - gr, gv]), look.gem, gr),
        );
        break;
      }
      case 'feathers': {
        const hang = [maxU - w * 0.2, minV + h * 0.25];
        const cord = r.range(0.08, 0.12);
        out.front.push(
          part(
            capsule(
              hang[0] as number,
              hang[1] as number,
              (hang[0] as number) + 0.02,
              (hang[1] as number) - cord,
              0.008,
            ),
            look.leather,
            0.008,
          ),
        );
        for (const [k, a] of [-0.35, 0, 0.35].entries()) {
          const tu = (hang[0] as number) + 0.02 + Math.sin(a) * 0.02;
          const tv = (hang[1] as number) - cord;
          const eu = tu + Math.sin(a) * 0.22;
          const ev = tv - Math.cos(a) * 0.22;
          const vane = intersect(
            ellipse((tu + eu) / 2, (tv + ev) / 2, 0.065, 0.065),
            capsule(tu, tv, eu, ev, 0.045),
          );
          out.front.push(
            part(vane, k === 1 ? look.paint : look.trim, 0.03),
            part(capsule(tu, tv, eu, ev, 0.006), darker(look.trim), 0.006, { lineless: true }),
          );
        }
        break;
      }
      case 'chains': {
        const links = 7;
        const from = [minU + w * 0.1, maxV - h * 0.25];
        const to = [maxU - w * 0.1, maxV - h * 0.25];
        const sag = h * 0.35;
        const iron = MATERIALS.iron as Material;
        for (let k = 0; k < links; k++) {
          const t = (k + 0.5) / links;
          const u = (from[0] as number) + ((to[0] as number) - (from[0] as number)) * t;
          const v = (from[1] as number) - sag * 4 * t * (1 - t);
          const long = k % 2 === 0;
          const link = long ? ring(u, v, 0.032, 0.011) : ellipse(u, v, 0.014, 0.03);
          out.front.push(part(link, iron, 0.011, { round: true }));
        }
        break;
      }
      case 'circuits': {
        // Traces that turn at right angles between pads, clipped to the surface; at least one runs
        // the item's length, so a thin blade carries one too.
        const traces: Sdf[] = [];
        const pads: Sdf[] = [];
        const t = 0.012 * Math.max(1, size / 0.3);
        const count = Math.min(4, Math.max(3, Math.floor(extent.deep.length / 50)));
        const points = extent.deep.length ? extent.deep : [extent.centre];
        for (let k = 0; k < count; k++) {
          const [u, v] = points[r.int(0, points.length - 1)] as [number, number];
          const [u2, v2] =
            k === 0 ? [u, minV + h * 0.15] : (points[r.int(0, points.length - 1)] as [number, number]);
          const v1 = k === 0 ? maxV - h * 0.15 : v;
          traces.push(capsule(u, v1, u2, v1, t), capsule(u2, v1, u2, v2, t));
          pads.push(circle(u, v1, t * 2.2), circle(u2, v2, t * 2.2));
        }
        out.front.push(
          part(clipped(union(...traces, ...pads), body), ink, 0.01, { lineless: true, halo: false }),
        );
        break;
      }
    }
  }
  return out;
}
