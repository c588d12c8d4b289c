import { mixRgb } from './colour.ts';
import { skull } from './features.ts';
import { MATERIALS } from './materials.ts';
import { type ItemPainter, part } from './part.ts';
import type { Material, Part } from './scene.ts';
import { box, capsule, circle, ellipse, intersect, polygon, rotate, subtract, union } from './sdf.ts';

/** A cluster of pointed crystals on a rock base. */
export const crystal: ItemPainter = (look, rng) => {
  const r = rng('cluster');
  const stone = look.gem.finish === 'gem' ? look.gem : (MATERIALS.crystal as Material);
  const count = r.int(3, 5);
  const parts: Part[] = [];
  const spikes: Array<[number, number, number, number]> = [];
  for (let i = 0; i < count; i++) {
    const t = count === 1 ? 0.5 : i / (count - 1);
    const middle = 1 - Math.abs(t - 0.5) * 2;
    spikes.push([
      -0.26 + t * 0.52,
      (t - 0.5) * -0.9 + r.range(-0.12, 0.12),
      0.22 + middle * 0.3 + r.range(-0.05, 0.05),
      0.06 + middle * 0.04,
    ]);
  }
  spikes.sort((a, b) => a[2] - b[2]);
  for (const [u, lean, height, w] of spikes) {
    const shape = rotate(
      polygon([
        u - w,
        -0.24,
        u + w,
        -0.24,
        u + w,
        -0.24 + height,
        u,
        -0.24 + height + w * 1.4,
        u - w,
        -0.24 + height,
      ]),
      lean * 0.6,
      u,
      -0.24,
    );
    parts.push(part(shape, stone, w * 1.2));
  }
  parts.push(
    part(
      union(ellipse(0, -0.3, 0.36, 0.1), ellipse(-0.14, -0.26, 0.14, 0.08)),
      { base: [104, 96, 92], finish: 'matte' },
      0.08,
      { round: true },
    ),
  );
  return { parts };
};

export const mushroom: ItemPainter = (look, rng) => {
  const r = rng('cap');
  const capColour: Material = {
    base:
      look.element === 'none'
        ? r.pick([
            [190, 50, 40],
            [170, 110, 60],
            [120, 70, 140],
            [200, 160, 80],
          ] as const)
        : look.paint.base,
    finish: 'cloth',
  };
  const stem: Material = { base: [232, 222, 196], finish: 'matte' };
  const big = r.range(0.3, 0.38);
  const parts: Part[] = [
    part(capsule(0, -0.42, 0.02, 0.04, 0.08, 0.06), stem, 0.08, { round: true }),
    part(intersect(ellipse(0, 0.04, big, big * 0.75), box(0, 0.3, 0.5, 0.28)), capColour, 0.14, {
      round: true,
    }),
  ];
  const spots = r.int(2, 5);
  for (let i = 0; i < spots; i++)
    parts.push(
      part(
        circle(r.range(-big * 0.6, big * 0.6), r.range(0.1, 0.04 + big * 0.55), r.range(0.03, 0.05)),
        { base: [245, 240, 225], finish: 'matte' },
        0.02,
        { lineless: true },
      ),
    );
  if (r.chance(0.6)) {
    parts.push(
      part(capsule(0.28, -0.42, 0.3, -0.2, 0.04), stem, 0.04, { round: true }),
      part(intersect(ellipse(0.3, -0.2, 0.14, 0.11), box(0.3, -0.1, 0.2, 0.1)), capColour, 0.08, {
        round: true,
      }),
    );
  }
  parts.push(part(ellipse(0, -0.44, 0.4, 0.05), { base: [90, 130, 50], finish: 'cloth' }, 0.04));
  return { parts };
};

/** A folded bolt of cloth tied with a ribbon. */
export const cloth: ItemPainter = (look, rng) => {
  const r = rng('bolt');
  const fabric: Material = { base: look.paint.base, finish: 'cloth' };
  const light: Material = { base: mixRgb(fabric.base, [255, 245, 230], 0.2), finish: 'cloth' };
  const layers = r.int(2, 3);
  const parts: Part[] = [];
  for (let i = 0; i < layers; i++) {
    const v = -0.28 + i * 0.2;
    parts.push(part(box(0.02 * i, v, 0.38, 0.1, 0.08), i % 2 ? light : fabric, 0.08, { round: true }));
  }
  const tieU = r.range(-0.16, 0.16);
  parts.push(
    part(
      box(tieU, -0.28 + ((layers - 1) * 0.2) / 2, 0.035, (layers - 1) * 0.1 + 0.13, 0.01),
      look.trim,
      0.02,
    ),
    part(polygon([0.2, -0.38, 0.46, -0.5, 0.36, -0.34]), fabric, 0.03),
  );
  if (r.chance(0.5))
    parts.push(
      part(
        intersect(union(...parts.slice(0, layers).map((p) => p.sdf)), box(0, 0, 0.5, 0.012)),
        look.accent,
        0.01,
        { lineless: true },
      ),
    );
  return { parts };
};

export const bone: ItemPainter = (look, rng) => {
  const material = look.metal.finish === 'matte' ? look.metal : (MATERIALS.bone as Material);
  if (look.words.has('skull')) return { parts: skull(0, 0, 1, material, look.dark, rng('skull')) };
  const r = rng('bone');
  const length = r.range(0.36, 0.46);
  const knob = r.range(0.08, 0.1);
  const end = (s: number) => union(circle(s * length, 0.06, knob), circle(s * length, -0.06, knob));
  return {
    diagonal: true,
    parts: [
      part(union(capsule(-length, 0, length, 0, 0.06), end(-1), end(1)), material, 0.09, { round: true }),
    ].map((p) => ({
      ...p,
      sdf: rotate(p.sdf, Math.PI / 2),
    })),
  };
};

export const feather: ItemPainter = (look, rng) => {
  const r = rng('feather');
  const vane: Material = {
    base: look.element === 'none' ? look.trim.base : look.paint.base,
    finish: 'cloth',
  };
  const curve = r.range(-0.1, 0.1);
  const width = r.range(0.15, 0.2);
  const points: number[] = [];
  for (let i = 0; i <= 8; i++) {
    const t = i / 8;
    points.push(curve * t * t + width * Math.sin(t * Math.PI) ** 0.7, -0.3 + t * 0.82);
  }
  for (let i = 7; i >= 1; i--) {
    const t = i / 8;
    points.push(curve * t * t - width * 0.85 * Math.sin(t * Math.PI) ** 0.7, -0.3 + t * 0.82);
  }
  const notches = [];
  for (let i = 0; i < 2; i++) {
    const v = r.range(-0.15, 0.35);
    const s = i ? -1 : 1;
    notches.push(polygon([(width + 0.06) * s, v, 0.03 * s, v + 0.05, (width + 0.06) * s, v + 0.04]));
  }
  const shape = subtract(polygon(points), union(...notches));
  const tip: Material = { base: mixRgb(vane.base, [255, 255, 255], 0.4), finish: 'cloth' };
  return {
    diagonal: true,
    parts: [
      part(shape, vane, 0.08),
      part(intersect(shape, box(0, 0.4, 0.3, 0.12)), tip, 0.04, { lineless: true }),
      part(
        capsule(0, -0.52, curve * 0.6, 0.46, 0.018, 0.008),
        { base: [236, 228, 210], finish: 'matte' },
        0.015,
        { round: true },
      ),
    ],
  };
};
