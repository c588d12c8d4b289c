import { mixRgb } from './colour.ts';
import { type ItemPainter, part } from './part.ts';
import type { Material, Part } from './scene.ts';
import { box, capsule, circle, ellipse, intersect, polygon, ring, rotate, star, union } from './sdf.ts';

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

/** A heap of powder, or a small tied sachet spilling it. */
export const dust: ItemPainter = (look, rng) => {
  const r = rng('dust');
  const powder: Material = { base: mixRgb(look.light.base, look.paint.base, 0.3), finish: 'matte' };
  const sparkle: Material = { base: [255, 255, 240], finish: 'glow' };
  const specks: Part[] = [];
  for (let i = 0; i < 5; i++)
    specks.push(
      part(star(r.range(-0.3, 0.3), r.range(-0.3, 0.05), 0.03, 0.01, 4), sparkle, 0.02, { lineless: true }),
    );
  if (r.chance(0.5)) {
    const peak = r.range(0.04, 0.14);
    return {
      parts: [
        part(
          union(
            ellipse(0, -0.3, 0.44, 0.12),
            polygon([-0.4, -0.3, -0.1, peak - 0.04, 0.06, peak, 0.4, -0.3]),
          ),
          powder,
          0.14,
          { round: true },
        ),
        part(
          ellipse(-0.1, -0.14, 0.1, 0.05),
          { base: mixRgb(powder.base, [255, 255, 255], 0.3), finish: 'matte' },
          0.04,
          { lineless: true },
        ),
        ...specks,
      ],
    };
  }
  const cloth = look.metal.finish === 'cloth' ? look.metal : look.trim;
  return {
    parts: [
      part(
        union(ellipse(0.12, -0.38, 0.32, 0.08), polygon([-0.1, -0.38, 0.2, -0.2, 0.44, -0.38])),
        powder,
        0.06,
        { round: true },
      ),
      part(
        union(ellipse(-0.08, -0.12, 0.22, 0.24), polygon([-0.16, 0.3, 0.0, 0.3, 0.04, 0.08, -0.2, 0.08])),
        cloth,
        0.1,
        { round: true },
      ),
      part(capsule(-0.22, 0.12, 0.06, 0.12, 0.025), look.accent, 0.025, { round: true }),
      part(ellipse(0.1, -0.2, 0.07, 0.05), powder, 0.05),
      ...specks.slice(0, 3),
    ],
  };
};

export const bandage: ItemPainter = (look, rng) => {
  const r = rng('roll');
  const linen: Material = { base: [232, 224, 204], finish: 'cloth' };
  const tail = r.range(0.2, 0.4);
  const stained = r.chance(0.4);
  const parts: Part[] = [
    part(polygon([0.1, -0.2, 0.42, -0.28 - tail * 0.3, 0.44, -0.44, 0.12, -0.34]), linen, 0.03),
    part(ellipse(0, 0.02, 0.3, 0.26), linen, 0.2, { round: true }),
    part(ring(0.08, 0.04, 0.12, 0.012), { base: [190, 178, 150], finish: 'cloth' }, 0.01, { lineless: true }),
    part(ellipse(0.08, 0.04, 0.06, 0.06), { base: [200, 190, 160], finish: 'matte' }, 0.04),
  ];
  if (stained)
    parts.push(
      part(ellipse(-0.14, -0.06, 0.06, 0.04), { base: [170, 40, 40], finish: 'cloth' }, 0.03, {
        lineless: true,
      }),
    );
  else parts.push(part(intersect(ellipse(0, 0.02, 0.3, 0.26), box(-0.18, 0.02, 0.03, 0.3)), look.trim, 0.02));
  return { parts };
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
