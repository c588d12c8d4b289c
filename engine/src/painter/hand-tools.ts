import { mixRgb } from './colour.ts';
import { type ItemPainter, part } from './part.ts';
import type { Material } from './scene.ts';
import { box, capsule, circle, polygon, subtract, union } from './sdf.ts';

/** A spanner: an open jaw at the top, a ring at the bottom, a flat shank between. */
export const wrench: ItemPainter = (look, rng) => {
  const r = rng('wrench');
  const steel =
    look.metal.finish === 'metal' ? look.metal : { base: [170, 176, 188] as const, finish: 'metal' as const };
  const jaw = subtract(circle(0, 0.38, 0.16), union(box(0, 0.5, 0.065, 0.14), circle(0, 0.38, 0.065)));
  const bottom = r.chance(0.5)
    ? subtract(circle(0, -0.42, 0.13), circle(0, -0.42, 0.07))
    : subtract(circle(0, -0.42, 0.14), union(box(0, -0.56, 0.06, 0.14), circle(0, -0.42, 0.06)));
  const grip: Material = { base: look.paint.base, finish: 'matte' };
  const parts = [
    part(union(jaw, bottom, box(0, -0.02, 0.06, 0.34, 0.02)), steel, 0.04),
    part(box(0, -0.02, 0.025, 0.2, 0.01), look.metalDark, 0.01, { lineless: true }),
  ];
  if (r.chance(0.5)) parts.push(part(box(0, -0.06, 0.075, 0.18, 0.035), grip, 0.05, { round: true }));
  return { diagonal: true, parts };
};

/** A screwdriver: a moulded handle, a steel shaft, a flat or cross tip. */
export const screwdriver: ItemPainter = (look, rng) => {
  const r = rng('screwdriver');
  const steel =
    look.metal.finish === 'metal' ? look.metal : { base: [180, 186, 198] as const, finish: 'metal' as const };
  const handle: Material = { base: look.paint.base, finish: 'gem' };
  const ribs: Material = { base: mixRgb(look.paint.base, [16, 10, 24], 0.35), finish: 'matte' };
  const parts = [
    part(capsule(0, -0.1, 0, 0.5, 0.028), steel, 0.028, { round: true }),
    part(
      r.chance(0.5)
        ? polygon([-0.028, 0.5, 0.028, 0.5, 0.018, 0.58, -0.018, 0.58])
        : polygon([-0.03, 0.48, 0.03, 0.48, 0, 0.58]),
      steel,
      0.02,
    ),
    part(union(box(0, -0.3, 0.09, 0.2, 0.06), box(0, -0.06, 0.06, 0.06, 0.03)), handle, 0.09, {
      round: true,
    }),
  ];
  for (let i = -1; i <= 1; i++)
    parts.push(part(box(i * 0.045, -0.3, 0.012, 0.16, 0.006), ribs, 0.01, { lineless: true }));
  parts.push(part(box(0, -0.5, 0.07, 0.02, 0.01), ribs, 0.02));
  return { diagonal: true, parts };
};
