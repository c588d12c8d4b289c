import { mixRgb } from './colour.ts';
import { type ItemPainter, part } from './part.ts';
import type { Material, Part } from './scene.ts';
import { box, capsule, circle, ellipse, intersect, polygon, rotate, star, union } from './sdf.ts';

const CORK: Material = { base: [150, 100, 60], finish: 'matte' };

/** A slim vial with a glowing wisp inside: an element held in glass. */
export const essence: ItemPainter = (look, rng) => {
  const r = rng('vial');
  const w = r.range(0.13, 0.17);
  const body = r.chance(0.5)
    ? union(box(0, -0.12, w, 0.26, w * 0.9), circle(0, -0.3, w))
    : union(ellipse(0, -0.16, w + 0.05, 0.28), box(0, 0.1, w * 0.6, 0.1, 0.02));
  const glass: Material = { base: mixRgb(look.light.base, [220, 240, 255], 0.7), finish: 'glass' };
  const twist = r.range(-0.5, 0.5);
  const wisp = union(
    rotate(
      union(circle(0, -0.22, w * 0.6), polygon([-w * 0.6, -0.22, w * 0.6, -0.22, w * 0.2, 0.06])),
      twist * 0.4,
      0,
      -0.22,
    ),
    circle(w * 0.3 * Math.sign(twist || 1), 0.02, 0.025),
  );
  const parts: Part[] = [
    part(union(body, box(0, 0.2, w * 0.55, 0.1, 0.02)), glass, 0.06, { alpha: 0.8 }),
    part(wisp, look.light, 0.1, { lineless: true }),
    part(circle(-w * 0.4, -0.05, 0.018), { base: [255, 255, 255], finish: 'glow' }, 0.02, { lineless: true }),
    part(box(0, 0.3, w * 0.7, 0.03, 0.015), glass, 0.03),
    part(box(0, 0.37, w * 0.5, 0.05, 0.02), look.handle.finish === 'cloth' ? CORK : look.handle, 0.04),
  ];
  if (r.chance(0.5))
    parts.push(part(capsule(w * 0.55, 0.3, w + 0.12, 0.08, 0.012), look.trim, 0.012, { round: true }));
  return { parts };
};

/** A heap of glittering powder, sometimes spilled from a small sachet lying behind it. */
export const dust: ItemPainter = (look, rng) => {
  const r = rng('dust');
  const powder: Material = {
    base: mixRgb(mixRgb(look.light.base, look.paint.base, 0.4), [255, 255, 255], 0.2),
    finish: 'matte',
  };
  const sparkle: Material = { base: [255, 255, 240], finish: 'glow' };
  const parts: Part[] = [];
  if (r.chance(0.5)) {
    const cloth = look.metal.finish === 'cloth' ? look.metal : look.leather;
    parts.push(
      part(
        rotate(
          union(ellipse(-0.2, 0.06, 0.16, 0.13), polygon([-0.08, 0.14, 0.12, 0.2, 0.12, -0.02, -0.06, 0.0])),
          0.3,
          -0.2,
          0.06,
        ),
        cloth,
        0.08,
        { round: true },
      ),
      part(capsule(-0.06, 0.14, -0.04, -0.01, 0.022), look.trim, 0.02, { round: true }),
    );
  }
  // The heap's profile: a sum of bell curves, concave at the foot as poured powder is.
  const humps = r.int(1, 3);
  const peaks = Array.from({ length: humps }, (_, i) => ({
    u: humps === 1 ? r.range(-0.05, 0.05) : -0.14 + (i * 0.28) / (humps - 1) + r.range(-0.03, 0.03),
    h: r.range(0.34, 0.46) * (humps > 1 && i % 2 ? 0.7 : 1),
    w: r.range(0.16, 0.22),
  }));
  const outline: number[] = [];
  for (let i = 0; i <= 16; i++) {
    const u = -0.44 + (i * 0.88) / 16;
    const h = Math.max(...peaks.map((p) => p.h * Math.exp(-(((u - p.u) / p.w) ** 2))));
    outline.push(u, -0.3 + Math.min(0.5, h));
  }
  outline.push(0.4, -0.36, -0.4, -0.36);
  parts.push(part(polygon(outline), powder, 0.1));
  for (let i = 0; i < 4; i++) {
    const u = (i % 2 ? 1 : -1) * r.range(0.42, 0.5);
    parts.push(part(circle(u, -0.36 + r.range(-0.03, 0.02), r.range(0.015, 0.025)), powder, 0.02));
  }
  const specks = r.int(3, 6);
  for (let i = 0; i < specks; i++)
    parts.push(
      part(star(r.range(-0.32, 0.32), r.range(-0.32, 0.1), r.range(0.025, 0.045), 0.01, 4), sparkle, 0.02, {
        lineless: true,
        halo: false,
      }),
    );
  return { parts };
};

/** A roll of linen with a loose end, marked with a red cross. */
export const bandage: ItemPainter = (look, rng) => {
  const r = rng('roll');
  const linen: Material = { base: [236, 228, 210], finish: 'cloth' };
  const edge: Material = { base: [196, 184, 160], finish: 'matte' };
  const width = r.range(0.2, 0.26);
  const tail = r.range(0.3, 0.44);
  const parts: Part[] = [
    part(polygon([0.0, -0.24, tail, -0.36, tail + 0.04, -0.5, 0.02, -0.4]), linen, 0.03),
    part(box(-0.06, 0, width, 0.24, 0.04), linen, 0.16, { round: true }),
    part(ellipse(-0.06 + width, 0, 0.08, 0.24), edge, 0.06),
    part(ellipse(-0.06 + width, 0, 0.035, 0.1), look.dark, 0.03),
  ];
  for (const v of [-0.1, 0.1]) parts.push(part(box(-0.06, v, width, 0.006), edge, 0.006, { lineless: true }));
  const cross: Material = { base: [200, 40, 44], finish: 'cloth' };
  parts.push(part(union(box(-0.08, 0, 0.03, 0.1), box(-0.08, 0, 0.1, 0.03)), cross, 0.02));
  if (r.chance(0.4))
    parts.push(
      part(ellipse(0.18, -0.34, 0.05, 0.03), { base: [150, 40, 40], finish: 'cloth' }, 0.02, {
        lineless: true,
      }),
    );
  return { parts: parts.map((p) => ({ ...p, sdf: rotate(p.sdf, r.range(0.2, 0.45)) })) };
};

export const bomb: ItemPainter = (look, rng) => {
  const r = rng('bomb');
  const shell: Material =
    look.metal.finish === 'metal'
      ? { base: mixRgb(look.metal.base, [30, 30, 40], 0.6), finish: 'metal' }
      : { base: [58, 54, 66], finish: 'metal' };
  const curl = r.range(-0.12, 0.12);
  return {
    parts: [
      part(circle(0, -0.1, 0.34), shell, 0.34, { round: true }),
      part(box(0, 0.26, 0.09, 0.06, 0.02), look.accent, 0.04),
      part(capsule(0, 0.3, 0.1 + curl, 0.44, 0.018), { base: [200, 170, 110], finish: 'matte' }, 0.018, {
        round: true,
      }),
      part(
        star(0.12 + curl, 0.48, 0.09, 0.035, r.int(5, 7)),
        look.light.finish === 'glow' && look.element !== 'none'
          ? look.light
          : { base: [255, 190, 60], finish: 'glow' },
        0.05,
        { lineless: true },
      ),
      ...(r.chance(0.5)
        ? [part(intersect(circle(0, -0.1, 0.34), box(0, -0.06, 0.4, 0.03)), look.trim, 0.03)]
        : []),
    ],
  };
};

export const map: ItemPainter = (look, rng) => {
  const r = rng('map');
  const paper: Material = { base: [222, 198, 150], finish: 'matte' };
  const ink: Material = { base: [110, 70, 44], finish: 'matte' };
  const sheet = polygon([
    -0.42, 0.3, -0.14, 0.36, 0.14, 0.3, 0.42, 0.36, 0.42, -0.34, 0.14, -0.4, -0.14, -0.34, -0.42, -0.4,
  ]);
  const coast = [];
  let u = -0.36;
  let v = r.range(-0.1, 0.2);
  for (let i = 0; i < 6; i++) {
    const nu = u + 0.12;
    const nv = Math.max(-0.3, Math.min(0.26, v + r.range(-0.12, 0.12)));
    coast.push(capsule(u, v, nu, nv, 0.012));
    u = nu;
    v = nv;
  }
  const xu = r.range(-0.2, 0.25);
  const xv = r.range(-0.25, 0.2);
  return {
    parts: [
      part(sheet, paper, 0.03),
      part(intersect(sheet, box(-0.14, 0, 0.008, 0.5)), { base: [190, 164, 120], finish: 'matte' }, 0.01, {
        lineless: true,
      }),
      part(intersect(sheet, box(0.14, 0, 0.008, 0.5)), { base: [190, 164, 120], finish: 'matte' }, 0.01, {
        lineless: true,
      }),
      part(union(...coast), ink, 0.01, { lineless: true }),
      part(
        union(
          capsule(xu - 0.05, xv - 0.05, xu + 0.05, xv + 0.05, 0.018),
          capsule(xu - 0.05, xv + 0.05, xu + 0.05, xv - 0.05, 0.018),
        ),
        { base: [190, 30, 30], finish: 'matte' },
        0.015,
      ),
      part(star(0.3, 0.22, 0.07, 0.02, 4), look.accent, 0.02, { lineless: true }),
    ],
  };
};
