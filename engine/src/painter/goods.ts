import { mixRgb } from './colour.ts';
import { MATERIALS } from './materials.ts';
import { type ItemPainter, part } from './part.ts';
import type { Material, Part } from './scene.ts';
import {
  box,
  capsule,
  circle,
  ellipse,
  intersect,
  polygon,
  ring,
  rotate,
  star,
  subtract,
  union,
} from './sdf.ts';

export const bag: ItemPainter = (look, rng) => {
  const body: Material = look.words.has('leather') || !rng('cloth').chance(0.4) ? look.leather : look.paint;
  const parts: Part[] = [
    part(union(ellipse(0, -0.12, 0.33, 0.3), box(0, 0.14, 0.12, 0.08, 0.03)), body, 0.12, { round: true }),
    part(polygon([-0.18, 0.4, 0.18, 0.4, 0.11, 0.22, -0.11, 0.22]), body, 0.05),
    part(capsule(-0.15, 0.2, 0.15, 0.2, 0.03), { base: [200, 180, 130], finish: 'cloth' }, 0.03, {
      round: true,
    }),
    part(capsule(0.1, 0.2, 0.18, 0.02, 0.018), { base: [200, 180, 130], finish: 'cloth' }, 0.018, {
      round: true,
    }),
    part(circle(0, -0.14, 0.09), look.accent, 0.09, { round: true }),
  ];
  if (look.gems && look.rarity >= 2) parts.push(part(circle(0, -0.14, 0.045), look.gem, 0.045));
  return { parts };
};

export const chest: ItemPainter = (look) => {
  const wood = look.metal.finish === 'metal' ? (MATERIALS.wood as Material) : look.metal;
  const band = look.metal.finish === 'metal' ? look.metal : (MATERIALS.iron as Material);
  const lid = union(intersect(ellipse(0, 0.06, 0.4, 0.24), box(0, 0.2, 0.5, 0.14)), box(0, 0.1, 0.4, 0.05));
  return {
    parts: [
      part(box(0, -0.16, 0.4, 0.23, 0.02), wood, 0.04),
      part(lid, mixWood(wood), 0.06),
      part(box(-0.26, -0.02, 0.04, 0.38, 0.01), band, 0.03),
      part(box(0.26, -0.02, 0.04, 0.38, 0.01), band, 0.03),
      part(box(0, 0.06, 0.41, 0.025, 0.01), band, 0.02),
      part(box(0, 0.0, 0.075, 0.09, 0.015), look.accent, 0.04),
      part(union(circle(0, 0.02, 0.02), box(0, -0.03, 0.01, 0.03)), look.dark, 0.01, { lineless: true }),
    ],
  };
};

function mixWood(wood: Material): Material {
  return { base: mixRgb(wood.base, [255, 230, 190], 0.08), finish: wood.finish };
}

export const ore: ItemPainter = (look, rng) => {
  const r = rng('rock');
  const points: number[] = [];
  const n = 9;
  for (let i = 0; i < n; i++) {
    const a = (i / n) * Math.PI * 2 + r.range(-0.15, 0.15);
    const radius = r.range(0.27, 0.38);
    points.push(Math.cos(a) * radius, Math.sin(a) * radius * 0.85 - 0.04);
  }
  // Iron ore reads as iron by its rust, not by grey on grey.
  const rust: Material = { base: [176, 104, 66], finish: 'metal' };
  const vein =
    look.metal.finish === 'matte' || look.metal.finish === 'cloth' || look.metal === MATERIALS.iron
      ? rust
      : look.metal;
  const parts: Part[] = [part(polygon(points), { base: [104, 96, 92], finish: 'matte' }, 0.12)];
  const c = rng('crystals');
  const count = c.int(3, 5);
  for (let i = 0; i < count; i++) {
    const u = c.range(-0.2, 0.2);
    const v = c.range(-0.2, 0.16);
    const s = c.range(0.05, 0.085);
    const shape =
      vein.finish === 'gem'
        ? rotate(polygon([u, v + s * 2.2, u + s, v, u, v - s * 0.6, u - s, v]), c.range(-0.7, 0.7), u, v)
        : star(u, v, s, s * 0.7, 5, c.next());
    parts.push(part(shape, vein, s));
  }
  return { parts };
};

/** Ingots seen from the front and a little above: a bright top face over a shaded front, stacked. */
export const ingot: ItemPainter = (look, rng) => {
  const metal = look.metal.finish === 'metal' ? look.metal : (MATERIALS.iron as Material);
  const front: Material = { base: mixRgb(metal.base, [20, 10, 30], 0.25), finish: 'metal' };
  const top: Material = { base: mixRgb(metal.base, [255, 250, 230], 0.1), finish: 'metal' };
  const r = rng('stack');
  const w = r.range(0.2, 0.26);
  const bar = (du: number, dv: number): Part[] => [
    part(
      polygon([-w - 0.06 + du, -0.1 + dv, w + 0.06 + du, -0.1 + dv, w + du, 0.04 + dv, -w + du, 0.04 + dv]),
      front,
      0.04,
    ),
    part(
      polygon([-w + du, 0.04 + dv, w + du, 0.04 + dv, w - 0.04 + du, 0.12 + dv, -w + 0.04 + du, 0.12 + dv]),
      top,
      0.03,
    ),
    part(
      box(du, -0.03 + dv, 0.06, 0.025, 0.01),
      { base: mixRgb(metal.base, [20, 10, 30], 0.45), finish: 'metal' },
      0.015,
      {
        lineless: true,
      },
    ),
  ];
  const stacked = r.int(1, 3);
  const parts: Part[] = [];
  if (stacked === 1) parts.push(...bar(0, -0.05));
  else {
    parts.push(...bar(-w - 0.04, -0.2), ...bar(w + 0.04, -0.2));
    if (stacked === 3) parts.push(...bar(0, 0.02));
  }
  return { parts };
};

export const coin: ItemPainter = (look, rng) => {
  const metal = look.metal.finish === 'metal' ? look.metal : (MATERIALS.gold as Material);
  const edge: Material = { base: mixRgb(metal.base, [40, 20, 10], 0.35), finish: 'metal' };
  const face = (u: number, v: number, r: number): Part[] => [
    part(circle(u, v, r), metal, 0.05),
    part(ring(u, v, r * 0.78, 0.012), edge, 0.01, { lineless: true }),
    part(star(u, v, r * 0.45, r * 0.2, 5), metal, 0.03),
  ];
  // A stack seen from the side: each coin an edge band under a lighter top.
  const stack: Part[] = [];
  const height = rng('stack').int(4, 6);
  for (let i = 0; i < height; i++) {
    const v = -0.36 + i * 0.075;
    stack.push(part(union(ellipse(-0.16, v, 0.2, 0.07), box(-0.16, v - 0.02, 0.2, 0.02)), edge, 0.03));
    stack.push(part(ellipse(-0.16, v + 0.012, 0.19, 0.06), metal, 0.04, { lineless: i < height - 1 }));
  }
  return { parts: [...stack, ...face(0.17, -0.14, 0.23)] };
};

export const log: ItemPainter = (look, rng) => {
  const wood = look.metal.finish === 'matte' ? look.metal : (MATERIALS.wood as Material);
  const cut: Material = { base: mixRgb(wood.base, [240, 210, 160], 0.45), finish: 'matte' };
  const tilt = rng('tilt').range(-0.35, -0.15);
  const parts: Part[] = [
    part(capsule(-0.3, 0, 0.26, 0, 0.17), wood, 0.17, { round: true }),
    part(ellipse(0.3, 0, 0.09, 0.17), cut, 0.04),
    part(ring(0.3, 0, 0.08, 0.012), { base: mixRgb(cut.base, [90, 50, 20], 0.4), finish: 'matte' }, 0.01, {
      lineless: true,
    }),
    part(capsule(-0.1, 0.17, -0.02, 0.3, 0.035, 0.015), wood, 0.03, { round: true }),
  ];
  return { parts: parts.map((p) => ({ ...p, sdf: rotate(p.sdf, tilt) })) };
};

export const hide: ItemPainter = (look) => {
  const cloth = ['silk', 'fabric', 'cloth'].some((w) => look.words.has(w));
  const body: Material = cloth ? look.paint : { base: [150, 104, 70], finish: 'cloth' };
  const shape = cloth
    ? polygon([-0.38, 0.3, 0.34, 0.36, 0.4, -0.2, 0.1, -0.36, -0.36, -0.3, -0.3, 0.0])
    : polygon([
        -0.2, 0.34, 0.0, 0.26, 0.2, 0.34, 0.24, 0.18, 0.4, 0.08, 0.26, -0.02, 0.26, -0.3, 0.36, -0.42, 0.14,
        -0.34, 0, -0.42, -0.14, -0.34, -0.36, -0.42, -0.26, -0.3, -0.26, -0.02, -0.4, 0.08, -0.24, 0.18,
      ]);
  return {
    parts: [
      part(shape, body, 0.08),
      part(
        cloth ? polygon([-0.38, 0.3, 0.34, 0.36, 0.3, 0.24, -0.3, 0.18]) : ellipse(0, -0.04, 0.12, 0.2),
        { base: mixRgb(body.base, [255, 240, 210], 0.25), finish: 'cloth' },
        0.05,
        { lineless: true },
      ),
    ],
  };
};

export const belt: ItemPainter = (look) => {
  const strap: Material = look.metal.finish === 'metal' ? look.leather : look.metal;
  const band = (u: number, v: number) => {
    const d = Math.abs(Math.hypot(u / 0.42, (v + 0.02) / 0.26) - 1) * 0.26;
    return d - 0.055;
  };
  return {
    parts: [
      part(band, strap, 0.05),
      part(capsule(0.16, -0.3, 0.24, -0.44, 0.04), strap, 0.03, { round: true }),
      part(subtract(box(0, -0.28, 0.11, 0.09, 0.02), box(0, -0.28, 0.06, 0.045)), look.accent, 0.04),
      part(box(0, -0.28, 0.012, 0.06), look.accent, 0.012),
      ...(look.gems && look.rarity >= 2 ? [part(circle(-0.3, -0.14, 0.04), look.gem, 0.04)] : []),
    ],
  };
};

export const food: ItemPainter = (look, rng) => {
  const kind =
    ['apple', 'meat', 'ham', 'cheese', 'bread', 'loaf'].find((w) => look.words.has(w)) ??
    rng('food').pick(['bread', 'apple', 'meat']);
  if (kind === 'apple') {
    return {
      parts: [
        part(
          union(circle(-0.1, -0.04, 0.26), circle(0.1, -0.04, 0.26)),
          { base: [200, 40, 40], finish: 'gem' },
          0.26,
          { round: true },
        ),
        part(capsule(0, 0.2, 0.04, 0.36, 0.025), { base: [110, 70, 40], finish: 'matte' }, 0.02, {
          round: true,
        }),
        part(
          rotate(ellipse(0.14, 0.3, 0.1, 0.045), 0.4, 0.14, 0.3),
          { base: [80, 160, 60], finish: 'cloth' },
          0.04,
        ),
      ],
    };
  }
  if (kind === 'meat' || kind === 'ham') {
    return {
      parts: [
        part(capsule(-0.1, 0.1, -0.36, 0.36, 0.04), MATERIALS.bone as Material, 0.04, { round: true }),
        part(circle(-0.38, 0.38, 0.06), MATERIALS.bone as Material, 0.06, { round: true }),
        part(
          rotate(ellipse(0.06, -0.06, 0.32, 0.24), -0.6, 0.06, -0.06),
          { base: [170, 80, 50], finish: 'cloth' },
          0.2,
          { round: true },
        ),
        part(
          rotate(ellipse(0.02, -0.02, 0.16, 0.1), -0.6, 0.02, -0.02),
          { base: [220, 140, 110], finish: 'cloth' },
          0.06,
          { lineless: true },
        ),
      ],
    };
  }
  const crust: Material = { base: [196, 130, 60], finish: 'cloth' };
  const cuts: Part[] = [];
  for (let i = -1; i <= 1; i++)
    cuts.push(
      part(
        rotate(box(i * 0.14, 0.06, 0.02, 0.1), 0.5, i * 0.14, 0.06),
        { base: [236, 200, 140], finish: 'matte' },
        0.01,
        { lineless: true },
      ),
    );
  return {
    parts: [
      part(union(ellipse(0, 0, 0.4, 0.22), box(0, -0.1, 0.38, 0.12, 0.08)), crust, 0.16, { round: true }),
      ...cuts,
    ],
  };
};
