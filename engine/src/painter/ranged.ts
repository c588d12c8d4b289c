import type { ItemLook } from './look.ts';
import { type ItemPainter, part } from './part.ts';
import type { Material, Part } from './scene.ts';
import { box, capsule, circle, intersect, polygon, ring, rotate, union } from './sdf.ts';

const STRING: Material = { base: [230, 222, 200], finish: 'matte' };

/** One arrow along +v from (0, bottom) to (0, top); head and fletching shaped by `style`. */
function arrowParts(look: ItemLook, u: number, bottom: number, top: number, style: number): Part[] {
  const head =
    style === 0
      ? polygon([u - 0.06, top - 0.12, u, top, u + 0.06, top - 0.12, u, top - 0.09])
      : style === 1
        ? polygon([u - 0.035, top - 0.1, u, top, u + 0.035, top - 0.1])
        : polygon([
            u - 0.07,
            top - 0.16,
            u,
            top,
            u + 0.07,
            top - 0.16,
            u + 0.02,
            top - 0.1,
            u - 0.02,
            top - 0.1,
          ]);
  const fletch = (s: number) =>
    polygon([u, bottom + 0.22, u + 0.065 * s, bottom + 0.12, u + 0.065 * s, bottom - 0.02, u, bottom + 0.04]);
  return [
    part(capsule(u, bottom, u, top - 0.08, 0.014), look.handle, 0.014, { round: true }),
    part(union(fletch(-1), fletch(1)), look.trim, 0.03),
    part(head, look.metal, 0.03),
  ];
}

export const arrow: ItemPainter = (look, rng) => {
  const r = rng('arrow');
  const style = r.int(0, 2);
  const bundle = look.words.has('arrows') || look.words.has('bolts') || r.chance(0.3);
  if (!bundle) return { diagonal: true, parts: arrowParts(look, 0, -0.55, 0.55, style) };
  const parts = [
    ...arrowParts(look, -0.1, -0.5, 0.48, style).map((p) => ({ ...p, sdf: rotate(p.sdf, 0.12) })),
    ...arrowParts(look, 0.1, -0.5, 0.48, style).map((p) => ({ ...p, sdf: rotate(p.sdf, -0.12) })),
    ...arrowParts(look, 0, -0.55, 0.55, style),
    part(box(0, -0.12, 0.07, 0.03, 0.01), look.leather, 0.03),
  ];
  return { diagonal: true, parts };
};

export const quiver: ItemPainter = (look, rng) => {
  const r = rng('quiver');
  const count = r.int(3, 5);
  const style = r.int(0, 2);
  const body = look.metal.finish === 'cloth' ? look.metal : look.leather;
  const parts: Part[] = [];
  for (let i = 0; i < count; i++) {
    const u = -0.12 + (i * 0.24) / (count - 1);
    const tip = 0.5 + r.range(-0.06, 0.04);
    parts.push(
      part(capsule(u, 0.1, u, tip - 0.1, 0.014), look.handle, 0.014, { round: true }),
      part(
        polygon([
          u,
          tip,
          u + 0.055,
          tip - 0.1,
          u + 0.055,
          tip - 0.24,
          u,
          tip - 0.16,
          u - 0.055,
          tip - 0.24,
          u - 0.055,
          tip - 0.1,
        ]),
        look.trim,
        0.03,
      ),
    );
  }
  parts.push(
    part(polygon([-0.2, 0.22, 0.2, 0.22, 0.16, -0.5, -0.14, -0.5]), body, 0.07),
    part(box(0, 0.2, 0.21, 0.04, 0.015), look.accent, 0.03),
    part(box(0, -0.46, 0.16, 0.04, 0.015), look.accent, 0.03),
    part(capsule(0.2, 0.16, 0.34, -0.3, 0.025), look.leather, 0.025, { round: true }),
  );
  if (style === 1) parts.push(part(box(0.0, -0.14, 0.17, 0.03, 0.01), look.accent, 0.02));
  if (style === 2 && look.gems) parts.push(part(circle(0, -0.14, 0.05), look.gem, 0.05));
  return { parts: parts.map((p) => ({ ...p, sdf: rotate(p.sdf, -0.35) })) };
};

export const crossbow: ItemPainter = (look, rng) => {
  const r = rng('prod');
  const span = r.range(0.4, 0.5);
  const bend = r.range(0.16, 0.26);
  const wood = look.metal.finish === 'metal' ? look.handle : look.metal;
  const prodMaterial = look.metal.finish === 'metal' ? look.metal : look.accent;
  const radius = (span * span + bend * bend) / (2 * bend);
  const prod = intersect(ring(0, 0.3 - radius, radius, 0.03), box(0, 0.2, span, 0.14));
  const tipV = 0.3 - bend;
  return {
    parts: [
      part(box(0, -0.12, 0.055, 0.44, 0.025), wood, 0.05),
      part(polygon([-0.06, -0.3, 0.06, -0.3, 0.1, -0.56, -0.1, -0.56]), wood, 0.05),
      part(capsule(-span, tipV, 0, 0.02, 0.008), STRING, 0.008, { lineless: true }),
      part(capsule(span, tipV, 0, 0.02, 0.008), STRING, 0.008, { lineless: true }),
      part(prod, prodMaterial, 0.03, { round: true }),
      part(capsule(0, 0.02, 0, 0.42, 0.016), look.handle, 0.016, { round: true }),
      part(polygon([-0.04, 0.4, 0, 0.52, 0.04, 0.4]), look.metal, 0.03),
      part(box(0, 0.3, 0.07, 0.04, 0.01), look.accent, 0.03),
      part(ring(0, 0.4, 0.06, 0.018), look.accent, 0.02, { round: true }),
      part(capsule(0.02, -0.2, 0.08, -0.3, 0.016), look.accent, 0.016, { round: true }),
    ],
  };
};
