import { mixRgb } from './colour.ts';
import { type ItemPainter, part } from './part.ts';
import type { Material, Part } from './scene.ts';
import { box, capsule, circle, ellipse, intersect, polygon, type Sdf, star, union } from './sdf.ts';

/** A torso seen from the front: shoulders, a neck dip, a waist `waist` wide at `hem`. */
function torso(shoulder: number, waist: number, hem: number): Sdf {
  return polygon([
    -shoulder,
    0.3,
    -0.12,
    0.38,
    0,
    0.26,
    0.12,
    0.38,
    shoulder,
    0.3,
    shoulder - 0.03,
    0.0,
    waist,
    hem,
    -waist,
    hem,
    -(shoulder - 0.03),
    0,
  ]);
}

/** Links of mail: a lattice of small dark rings, offset every other row. */
function mail(scale: number): Sdf {
  return (u, v) => {
    const row = Math.floor(v / scale);
    const shifted = u / scale + (row % 2 ? 0.5 : 0);
    const du = (shifted - Math.floor(shifted) - 0.5) * scale;
    const dv = (v / scale - row - 0.5) * scale;
    return Math.abs(Math.hypot(du, dv) - scale * 0.3) - scale * 0.09;
  };
}

export const armor: ItemPainter = (look, rng) => {
  const r = rng('plates');
  const shape = torso(r.range(0.28, 0.32), r.range(0.2, 0.24), -0.4);
  const parts: Part[] = [part(shape, look.metal, 0.08)];
  parts.push(part(box(0, -0.02, 0.012, 0.26), look.metalDark, 0.012, { lineless: true }));
  const lames = r.int(0, 2);
  for (let i = 0; i < lames; i++)
    parts.push(part(box(0, 0.12 - i * 0.26, 0.2, 0.01), look.metalDark, 0.01, { lineless: true }));
  const pauldron = r.range(0.12, 0.16);
  const round = r.chance(0.6);
  for (const s of [-1, 1]) {
    const u = 0.3 * s;
    parts.push(
      part(
        round
          ? ellipse(u, 0.27, pauldron, 0.11)
          : polygon([u - pauldron, 0.2, u, 0.38, u + pauldron, 0.2, u + pauldron * 0.8 * s, 0.12]),
        look.accent,
        round ? 0.11 : 0.05,
        { round },
      ),
    );
  }
  parts.push(
    part(box(0, -0.31, 0.215, 0.045, 0.01), look.leather, 0.04),
    part(box(0, -0.31, 0.05, 0.05, 0.01), look.accent, 0.03),
  );
  if (r.chance(0.5)) parts.push(part(star(0, 0.1, 0.1, 0.04, 4), look.accent, 0.03));
  else if (look.gems && look.rarity >= 2) parts.push(part(circle(0, 0.14, 0.05), look.gem, 0.05));
  return { parts };
};

export const chainmail: ItemPainter = (look, rng) => {
  const r = rng('mail');
  const body = look.metal.finish === 'metal' ? look.metal : (look.accent as Material);
  const shape = union(
    torso(0.27, r.range(0.24, 0.3), -0.46),
    capsule(-0.28, 0.26, -0.4, r.range(0.02, 0.1), 0.08),
    capsule(0.28, 0.26, 0.4, r.range(0.02, 0.1), 0.08),
  );
  const links = r.range(0.05, 0.065);
  const parts: Part[] = [
    part(shape, body, 0.08),
    part(intersect(shape, mail(links)), mixShade(body), 0.01, { lineless: true }),
    part(intersect(shape, box(0, -0.44, 0.4, 0.03)), look.leather, 0.02),
    part(union(capsule(-0.12, 0.36, 0, 0.24, 0.03), capsule(0.12, 0.36, 0, 0.24, 0.03)), look.leather, 0.03, {
      round: true,
    }),
  ];
  if (r.chance(0.6))
    parts.push(
      part(box(0, -0.2, 0.26, 0.035, 0.01), look.leather, 0.03),
      part(box(0, -0.2, 0.045, 0.045, 0.01), look.accent, 0.03),
    );
  return { parts };
};

function mixShade(m: Material): Material {
  return { base: mixRgb(m.base, [20, 14, 36], 0.45), finish: 'matte' };
}

export const robe: ItemPainter = (look, rng) => {
  const r = rng('robe');
  const flare = r.range(0.3, 0.38);
  const cloth: Material = { base: look.paint.base, finish: 'cloth' };
  const shape = union(
    polygon([-0.2, 0.34, 0.2, 0.34, flare, -0.5, -flare, -0.5]),
    polygon([-0.18, 0.32, -0.42, -0.06, -0.28, -0.12, -0.14, 0.1]),
    polygon([0.18, 0.32, 0.42, -0.06, 0.28, -0.12, 0.14, 0.1]),
  );
  const parts: Part[] = [
    part(shape, cloth, 0.07),
    part(intersect(shape, box(0, -0.48, 0.5, 0.035)), look.trim, 0.02),
    part(polygon([-0.1, 0.34, 0, 0.16, 0.1, 0.34]), look.dark, 0.02),
    part(polygon([-0.04, 0.14, 0.04, 0.14, 0.06, -0.47, -0.06, -0.47]), look.trim, 0.03),
    part(box(0, -0.04, r.range(0.2, 0.24), 0.035, 0.01), look.accent, 0.03),
  ];
  if (r.chance(0.5))
    parts.push(
      part(
        union(capsule(-0.36, -0.1, -0.28, -0.13, 0.03), capsule(0.36, -0.1, 0.28, -0.13, 0.03)),
        look.trim,
        0.02,
      ),
    );
  if (look.gems && look.rarity >= 2) parts.push(part(circle(0, -0.04, 0.045), look.gem, 0.045));
  return { parts };
};

export const cloak: ItemPainter = (look, rng) => {
  const r = rng('cloak');
  const cloth: Material = { base: look.paint.base, finish: 'cloth' };
  const waves = r.int(3, 5);
  const hem: number[] = [];
  const width = r.range(0.38, 0.44);
  for (let i = 0; i <= waves * 2; i++) {
    const u = width - (i * 2 * width) / (waves * 2);
    hem.push(u, -0.48 + (i % 2 ? 0.06 : 0));
  }
  const shape = polygon([-0.14, 0.34, 0.14, 0.34, 0.22, 0.2, ...hem, -0.22, 0.2]);
  const parts: Part[] = [
    part(shape, cloth, 0.07),
    part(
      polygon([0.02, 0.2, 0.14, 0.16, width - 0.08, -0.44, 0.12, -0.4]),
      { base: mixRgb(cloth.base, [255, 240, 220], 0.12), finish: 'cloth' },
      0.04,
      { lineless: true },
    ),
    part(ellipse(0, 0.32, 0.2, 0.07), look.trim, 0.06, { round: true }),
    part(circle(0, 0.26, 0.05), look.accent, 0.05, { round: true }),
  ];
  if (look.gems && look.rarity >= 2) parts.push(part(circle(0, 0.26, 0.025), look.gem, 0.025));
  return { parts };
};

export const tunic: ItemPainter = (look, rng) => {
  const r = rng('tunic');
  const body = look.metal.finish === 'cloth' ? look.metal : look.leather;
  const shape = torso(r.range(0.26, 0.3), r.range(0.22, 0.26), -0.42);
  const parts: Part[] = [
    part(shape, body, 0.06),
    part(polygon([-0.12, 0.38, 0, 0.1, 0.12, 0.38, 0, 0.26]), look.paint, 0.02),
  ];
  for (let i = 0; i < 3; i++) {
    const v = 0.22 - i * 0.06;
    parts.push(
      part(
        union(capsule(-0.04, v, 0.04, v - 0.04, 0.008), capsule(0.04, v, -0.04, v - 0.04, 0.008)),
        look.trim,
        0.008,
        { lineless: true },
      ),
    );
  }
  if (r.chance(0.6)) {
    for (const s of [-1, 1])
      parts.push(
        part(
          box(0.13 * s, -0.16, 0.07, 0.06, 0.02),
          { base: mixRgb(body.base, [0, 0, 0], 0.15), finish: 'cloth' },
          0.02,
        ),
      );
  }
  parts.push(
    part(box(0, -0.02, 0.26, 0.035, 0.01), look.leather, 0.03),
    part(box(0.08, -0.02, 0.04, 0.04, 0.01), look.accent, 0.03),
  );
  return { parts };
};
