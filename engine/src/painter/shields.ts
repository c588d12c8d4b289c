import type { Rng } from '../random.ts';
import type { ItemLook } from './look.ts';
import { type ItemPainter, part } from './part.ts';
import type { Part } from './scene.ts';
import { box, circle, inflate, intersect, polygon, type Sdf, star, union } from './sdf.ts';

/** A heater's outline: flat top, straight sides, curving to a point. `drop` sets how far the point hangs. */
function heaterOutline(width: number, top: number, shoulder: number, drop: number): number[] {
  const points = [-width, top, 0, top + 0.03, width, top, width, shoulder];
  for (let i = 1; i < 5; i++) {
    const t = i / 5;
    points.push(width * (1 - t) ** 1.4, shoulder - drop * Math.sin((t * Math.PI) / 2));
  }
  points.push(0, shoulder - drop);
  for (let i = 4; i >= 1; i--) {
    const t = i / 5;
    points.push(-width * (1 - t) ** 1.4, shoulder - drop * Math.sin((t * Math.PI) / 2));
  }
  points.push(-width, shoulder);
  return points;
}

/** Heraldry on a shield's face: a cross, a band, a star, a chevron or quarters. */
function emblem(look: ItemLook, face: Sdf, r: Rng, cv: number): Part[] {
  const kind = r.int(0, 4);
  const shape =
    kind === 0
      ? union(box(0, cv, 0.05, 0.3), box(0, cv + 0.1, 0.22, 0.05))
      : kind === 1
        ? intersect(face, box(0, cv, 0.5, 0.07))
        : kind === 2
          ? star(0, cv, 0.2, 0.09, r.pick([4, 5, 6]))
          : kind === 3
            ? intersect(
                face,
                polygon([
                  -0.5,
                  cv - 0.2,
                  0,
                  cv + 0.14,
                  0.5,
                  cv - 0.2,
                  0.5,
                  cv - 0.06,
                  0,
                  cv + 0.28,
                  -0.5,
                  cv - 0.06,
                ]),
              )
            : intersect(face, union(box(-0.25, cv + 0.25, 0.25, 0.25), box(0.25, cv - 0.25, 0.25, 0.25)));
  return [part(shape, kind === 4 ? look.trim : look.accent, 0.03)];
}

export const shield: ItemPainter = (look, rng) => {
  const r = rng('shape');
  const outer = polygon(heaterOutline(r.range(0.36, 0.42), 0.44, r.range(0.0, 0.12), r.range(0.5, 0.6)));
  const face = inflate(outer, -r.range(0.04, 0.06));
  const parts: Part[] = [
    part(outer, look.metal, 0.05),
    part(face, look.paint, 0.04),
    ...emblem(look, face, r, 0.04),
  ];
  if (look.gems && look.rarity >= 2)
    parts.push(part(circle(0, r.pick([0.1, 0.22, -0.1]), 0.06), look.gem, 0.06));
  return { parts };
};

export const kite_shield: ItemPainter = (look, rng) => {
  const r = rng('shape');
  const w = r.range(0.26, 0.31);
  const points: number[] = [];
  for (let i = 0; i <= 10; i++) {
    const a = Math.PI * (i / 10);
    points.push(Math.cos(a) * w, 0.3 + Math.sin(a) * 0.2);
  }
  points.push(-w * 0.9, 0.12, 0, -0.62, w * 0.9, 0.12);
  const outer = polygon(points);
  const face = inflate(outer, -0.045);
  const parts: Part[] = [
    part(outer, look.metal, 0.05),
    part(face, look.paint, 0.04),
    ...emblem(look, face, r, 0.12),
    part(circle(0, 0.22, 0.05), look.accent, 0.05, { round: true }),
  ];
  if (look.gems && look.rarity >= 2) parts.push(part(circle(0, 0.22, 0.03), look.gem, 0.03));
  return { parts };
};

export const tower_shield: ItemPainter = (look, rng) => {
  const r = rng('shape');
  const w = r.range(0.28, 0.32);
  const outer = intersect(box(0, -0.02, w, 0.56, r.range(0.03, 0.1)), circle(0, -1.2, 1.78));
  const face = inflate(outer, -0.05);
  const parts: Part[] = [part(outer, look.metal, 0.06), part(face, look.paint, 0.05)];
  const bands = r.int(1, 2);
  for (let i = 0; i < bands; i++) {
    const v = bands === 1 ? 0.02 : -0.22 + i * 0.44;
    parts.push(part(intersect(face, box(0, v, 0.5, 0.035)), look.metal, 0.03));
  }
  parts.push(part(intersect(face, box(0, 0, 0.035, 0.6)), look.metal, 0.03));
  for (const [u, v] of [
    [-w + 0.08, 0.42],
    [w - 0.08, 0.42],
    [-w + 0.08, -0.46],
    [w - 0.08, -0.46],
  ] as const)
    parts.push(part(circle(u, v, 0.026), look.accent, 0.026, { round: true }));
  if (r.chance(0.5)) parts.push(part(box(0, 0.3, 0.1, 0.022, 0.01), look.dark, 0.02));
  parts.push(part(circle(0, 0.02, 0.08), look.accent, 0.08, { round: true }));
  if (look.gems && look.rarity >= 2) parts.push(part(circle(0, 0.02, 0.04), look.gem, 0.04));
  return { parts };
};

export const buckler: ItemPainter = (look, rng) => {
  const r = rng('shape');
  const rivets = r.pick([6, 8, 10, 12]);
  const wooden = look.metal.finish !== 'metal' || look.words.has('wooden') || r.chance(0.3);
  const parts: Part[] = [
    part(circle(0, 0, 0.45), look.metal.finish === 'metal' ? look.metal : look.accent, 0.05),
    part(circle(0, 0, 0.39), wooden && look.metal.finish !== 'metal' ? look.metal : look.paint, 0.04),
  ];
  if (wooden) {
    for (const u of [-0.2, 0, 0.2])
      parts.push(
        part(intersect(circle(0, 0, 0.39), box(u, 0, 0.006, 0.5)), look.dark, 0.006, { lineless: true }),
      );
  } else if (r.chance(0.5)) {
    parts.push(part(intersect(circle(0, 0, 0.3), box(0, 0, 0.5, 0.5)), look.trim, 0.04));
  }
  for (let i = 0; i < rivets; i++) {
    const a = (i / rivets) * Math.PI * 2;
    parts.push(
      part(circle(Math.cos(a) * 0.37, Math.sin(a) * 0.37, 0.022), look.accent, 0.022, { round: true }),
    );
  }
  const boss = r.range(0.1, 0.15);
  parts.push(part(circle(0, 0, boss), look.accent, boss, { round: true }));
  if (look.gems && look.rarity >= 2) parts.push(part(circle(0, 0, boss * 0.45), look.gem, boss * 0.45));
  return { parts };
};
