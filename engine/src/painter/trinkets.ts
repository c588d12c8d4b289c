import { mixRgb } from './colour.ts';
import { type ItemPainter, part } from './part.ts';
import type { Material, Part } from './scene.ts';
import {
  box,
  capsule,
  circle,
  ellipse,
  inflate,
  intersect,
  polygon,
  ring,
  rotate,
  star,
  subtract,
  union,
} from './sdf.ts';

export const ring_: ItemPainter = (look, rng) => {
  const r = rng('ring');
  const thick = r.range(0.04, 0.065);
  const bandShape = ellipse(0, -0.1, 0.3, r.range(0.22, 0.27));
  const band = (u: number, v: number) => Math.abs(bandShape(u, v)) - thick;
  const metal = look.metal.finish === 'metal' ? look.metal : look.accent;
  const setting = r.int(0, 2);
  const parts: Part[] = [part(band, metal, thick, { round: true })];
  if (setting === 0)
    parts.push(part(polygon([-0.12, 0.1, 0.12, 0.1, 0.08, 0.22, -0.08, 0.22]), look.accent, 0.04));
  if (setting === 1) parts.push(part(box(0, 0.17, 0.1, 0.07, 0.02), look.accent, 0.04));
  if (setting === 2)
    for (const s of [-1, 1])
      parts.push(part(capsule(0.04 * s, 0.1, 0.1 * s, 0.3, 0.02), look.accent, 0.02, { round: true }));
  if (look.gems) {
    // A plan's gem is what the ring is about (a ruby ring): a big stone.
    const size = r.range(0.08, 0.12) * (look.features.includes('gem') ? 1.5 : 1);
    parts.push(
      part(setting === 1 ? box(0, 0.2, size, size * 0.8, 0.02) : circle(0, 0.24, size), look.gem, size),
    );
    if (r.chance(0.35))
      for (const s of [-1, 1]) parts.push(part(circle(0.16 * s, 0.14, 0.035), look.gem, 0.035));
  }
  return { parts };
};

export const amulet: ItemPainter = (look, rng) => {
  const chain = intersect(ring(0, 0.46, 0.34, 0.016), box(0, 0.2, 0.5, 0.26));
  const shape = rng('pendant').int(0, 2);
  const pendant =
    shape === 0
      ? circle(0, -0.16, 0.18)
      : shape === 1
        ? polygon([0, 0.06, 0.17, -0.16, 0, -0.44, -0.17, -0.16])
        : star(0, -0.16, 0.22, 0.12, 6);
  const parts: Part[] = [
    part(chain, look.accent, 0.016, { round: true }),
    part(box(0, 0.09, 0.035, 0.05, 0.01), look.accent, 0.03),
    part(pendant, look.accent, 0.05),
  ];
  if (look.gems) parts.push(part(inflate(pendant, -0.06), look.gem, 0.08));
  return { parts };
};

export const potion: ItemPainter = (look, rng) => {
  const shape = rng('flask').int(0, 2);
  const body =
    shape === 0
      ? circle(0, -0.15, 0.29)
      : shape === 1
        ? polygon([-0.08, 0.12, 0.08, 0.12, 0.3, -0.42, -0.3, -0.42])
        : box(0, -0.16, 0.22, 0.28, 0.06);
  const level = rng('level').range(-0.05, 0.08);
  const glass: Material = { base: mixRgb(look.paint.base, [220, 240, 255], 0.75), finish: 'glass' };
  const liquid: Material = { base: look.paint.base, finish: 'gem' };
  const bubbles: Part[] = [];
  const b = rng('bubbles');
  for (let i = 0; i < 3; i++) {
    bubbles.push(
      part(
        circle(b.range(-0.12, 0.12), b.range(-0.35, level - 0.06), b.range(0.018, 0.035)),
        { base: mixRgb(look.paint.base, [255, 255, 255], 0.6), finish: 'glow' },
        0.03,
        { lineless: true },
      ),
    );
  }
  return {
    parts: [
      part(union(body, box(0, 0.2, 0.085, 0.14, 0.02)), glass, 0.06, { alpha: 0.85 }),
      part(intersect(inflate(body, -0.035), box(0, level - 0.6, 0.6, 0.6)), liquid, 0.2, { round: true }),
      ...bubbles,
      part(box(0, 0.33, 0.115, 0.03, 0.02), glass, 0.03),
      part(
        box(0, 0.41, 0.075, 0.06, 0.02),
        look.handle.finish === 'cloth' ? { base: [150, 100, 60], finish: 'matte' } : look.handle,
        0.04,
      ),
    ],
  };
};

export const scroll: ItemPainter = (look) => {
  const paper: Material = { base: [226, 206, 160], finish: 'matte' };
  const lines: Part[] = [];
  for (let i = 0; i < 5; i++) {
    const w = [0.17, 0.15, 0.17, 0.12, 0.09][i] as number;
    lines.push(
      part(
        box(-0.02 + (0.17 - w) * -0.2, 0.2 - i * 0.09, w, 0.012),
        { base: [120, 84, 60], finish: 'matte' },
        0.01,
        { lineless: true },
      ),
    );
  }
  const all: Part[] = [
    part(box(0, 0, 0.26, 0.34), paper, 0.03),
    ...lines,
    part(capsule(-0.32, 0.35, 0.32, 0.35, 0.065), paper, 0.065, { round: true }),
    part(capsule(-0.32, -0.35, 0.32, -0.35, 0.065), paper, 0.065, { round: true }),
    part(polygon([0.1, -0.2, 0.16, -0.2, 0.18, -0.46, 0.13, -0.4, 0.08, -0.46]), look.paint, 0.02),
    part(
      circle(0.13, -0.2, 0.075),
      { base: mixRgb(look.paint.base, [170, 30, 40], 0.5), finish: 'matte' },
      0.07,
      { round: true },
    ),
  ];
  return { parts: all.map((p) => ({ ...p, sdf: rotate(p.sdf, -0.3) })) };
};

export const book: ItemPainter = (look) => {
  const cover: Material = { base: look.paint.base, finish: 'cloth' };
  const corners: Part[] = [];
  for (const [su, sv] of [
    [-1, -1],
    [1, -1],
    [-1, 1],
    [1, 1],
  ] as const) {
    corners.push(
      part(polygon([0.3 * su, 0.4 * sv, 0.17 * su, 0.4 * sv, 0.3 * su, 0.27 * sv]), look.accent, 0.02),
    );
  }
  const parts: Part[] = [
    part(box(0.05, -0.03, 0.28, 0.39, 0.02), { base: [236, 226, 200], finish: 'matte' }, 0.02),
    part(box(0, 0, 0.3, 0.4, 0.03), cover, 0.04),
    part(
      box(-0.26, 0, 0.045, 0.41, 0.02),
      { base: mixRgb(cover.base, [10, 6, 20], 0.35), finish: 'cloth' },
      0.04,
      { round: true },
    ),
    ...corners,
    part(star(0.02, 0.02, 0.16, 0.07, 4), look.accent, 0.04),
    part(box(0.3, 0, 0.04, 0.06, 0.01), look.accent, 0.03),
  ];
  if (look.gems) parts.push(part(circle(0.02, 0.02, 0.05), look.gem, 0.05));
  return { parts: parts.map((p) => ({ ...p, sdf: rotate(p.sdf, 0.12) })) };
};

export const gem: ItemPainter = (look, rng) => {
  const cut = rng('cut').int(0, 3);
  const shape =
    cut === 0
      ? star(0, 0, 0.36, 0.36 * Math.cos(Math.PI / 8), 8, Math.PI / 8)
      : cut === 1
        ? polygon([0, 0.42, 0.3, 0.14, 0.22, -0.1, 0, -0.42, -0.22, -0.1, -0.3, 0.14])
        : cut === 2
          ? polygon([
              -0.2, 0.34, 0.2, 0.34, 0.3, 0.22, 0.3, -0.22, 0.2, -0.34, -0.2, -0.34, -0.3, -0.22, -0.3, 0.22,
            ])
          : union(circle(0, -0.1, 0.27), polygon([-0.24, -0.02, 0.24, -0.02, 0, 0.44]));
  return {
    parts: [
      part(shape, look.gem, 0.16),
      part(
        star(-0.1, 0.14, 0.09, 0.02, 4),
        {
          base: [255, 255, 255],
          finish: 'glow',
          ramp: [
            [200, 230, 255],
            [255, 255, 255],
          ],
        },
        0.05,
        { lineless: true },
      ),
    ],
  };
};

export const key: ItemPainter = (look, rng) => {
  const r = rng('key');
  const metal = look.metal.finish === 'metal' ? look.accent : look.metal;
  const teeth = r.int(1, 3);
  const bit = [];
  for (let i = 0; i < teeth; i++) bit.push(box(0.07, 0.38 - i * 0.09, r.range(0.05, 0.08), 0.03));
  const bow = r.int(0, 2);
  const bowShape =
    bow === 0
      ? ring(0, -0.4, 0.13, 0.04)
      : bow === 1
        ? union(ring(0, -0.34, 0.07, 0.03), ring(-0.1, -0.46, 0.07, 0.03), ring(0.1, -0.46, 0.07, 0.03))
        : subtract(polygon([0, -0.22, 0.16, -0.4, 0, -0.58, -0.16, -0.4]), circle(0, -0.4, 0.06));
  const parts: Part[] = [
    part(box(0, 0.05, 0.032, 0.38, 0.01), metal, 0.032, { round: true }),
    part(union(...bit), metal, 0.03),
    part(bowShape, metal, 0.04, { round: bow !== 2 }),
    part(box(0, -0.22, 0.05, 0.025, 0.01), metal, 0.03),
  ];
  if (look.gems && look.rarity >= 2)
    parts.push(part(circle(0, bow === 1 ? -0.42 : -0.4, 0.05), look.gem, 0.05));
  return { diagonal: true, parts };
};

export const herb: ItemPainter = (look, rng) => {
  const r = rng('leaves');
  const leafColour: Material = {
    base: look.element === 'none' ? [70, 150, 60] : look.paint.base,
    finish: 'cloth',
  };
  const parts: Part[] = [
    part(capsule(0, -0.46, 0.02, 0.2, 0.02), { base: [90, 130, 50], finish: 'cloth' }, 0.02, { round: true }),
  ];
  const count = r.int(4, 6);
  for (let i = 0; i < count; i++) {
    const side = i % 2 === 0 ? -1 : 1;
    const v = -0.3 + i * 0.12;
    const a = side * r.range(0.6, 1.1);
    parts.push(part(rotate(ellipse(0, v + 0.13, 0.06, 0.15), a, 0, v), leafColour, 0.05));
  }
  parts.push(
    part(star(0.02, 0.28, 0.14, 0.07, 5), look.paint, 0.06),
    part(circle(0.02, 0.28, 0.05), look.accent, 0.05, { round: true }),
  );
  return { parts };
};
