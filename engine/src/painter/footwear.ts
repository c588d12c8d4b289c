import { mixRgb } from './colour.ts';
import type { ItemLook } from './look.ts';
import { type ItemPainter, part } from './part.ts';
import type { Material, Part } from './scene.ts';
import { box, capsule, polygon, union } from './sdf.ts';

const dim = (m: Material, shade: number): Material => ({
  base: mixRgb(m.base, [16, 10, 30], shade),
  finish: m.finish,
});

function leatherBoot(
  look: ItemLook,
  du: number,
  dv: number,
  shade: number,
  shaft: number,
  cuff: boolean,
  toe: number,
): Part[] {
  const body = look.metal.finish === 'cloth' ? look.metal : look.leather;
  const parts = [
    part(
      union(
        box(-0.08 + du, 0.1 + dv - (0.26 - shaft), 0.13, shaft, 0.03),
        polygon([
          -0.21 + du,
          -0.08 + dv,
          0.08 + du,
          -0.08 + dv,
          0.26 + toe + du,
          -0.2 + dv,
          0.28 + toe + du,
          -0.32 + dv,
          -0.21 + du,
          -0.32 + dv,
        ]),
      ),
      dim(body, shade),
      0.06,
    ),
    part(box(0.04 + du + toe / 2, -0.34 + dv, 0.27 + toe / 2, 0.035, 0.015), dim(look.dark, shade), 0.02),
  ];
  const top = 0.1 + dv - (0.26 - shaft) + shaft;
  if (cuff) parts.push(part(box(-0.08 + du, top - 0.03, 0.155, 0.06, 0.02), dim(look.trim, shade), 0.04));
  else parts.push(part(box(-0.08 + du, top - 0.14, 0.14, 0.025, 0.01), dim(look.accent, shade), 0.02));
  return parts;
}

export const boots: ItemPainter = (look, rng) => {
  const r = rng('boot');
  const shaft = r.range(0.18, 0.28);
  const cuff = r.chance(0.5);
  const toe = r.range(-0.04, 0.04);
  return {
    parts: [
      ...leatherBoot(look, 0.12, 0.1, 0.3, shaft, cuff, toe),
      ...leatherBoot(look, -0.04, -0.06, 0, shaft, cuff, toe),
    ],
  };
};

/** A plate boot: an ankle guard, overlapping lames over the foot and a pointed toe. */
function sabaton(
  look: ItemLook,
  du: number,
  dv: number,
  shade: number,
  lames: number,
  point: number,
): Part[] {
  const metal = dim(look.metal, shade);
  const seam = dim(look.metalDark, shade);
  const parts: Part[] = [
    part(box(-0.08 + du, 0.12 + dv, 0.13, 0.22, 0.04), metal, 0.07),
    part(
      polygon([
        -0.22 + du,
        -0.06 + dv,
        0.04 + du,
        -0.06 + dv,
        0.3 + point + du,
        -0.28 + dv,
        -0.22 + du,
        -0.32 + dv,
      ]),
      metal,
      0.06,
    ),
  ];
  for (let i = 0; i < lames; i++) {
    const u = -0.02 + i * (0.26 / lames) + du;
    parts.push(
      part(capsule(u, -0.07 + dv - i * 0.035, u + 0.04, -0.3 + dv, 0.008), seam, 0.008, { lineless: true }),
    );
  }
  parts.push(
    part(box(-0.08 + du, 0.02 + dv, 0.145, 0.03, 0.01), dim(look.accent, shade), 0.03),
    part(box(-0.08 + du, 0.32 + dv, 0.15, 0.035, 0.015), dim(look.accent, shade), 0.03),
    part(box(-0.02 + du, -0.34 + dv, 0.22, 0.025, 0.01), dim(look.dark, shade), 0.02),
  );
  return parts;
}

export const sabatons: ItemPainter = (look, rng) => {
  const r = rng('plates');
  const lames = r.int(2, 4);
  const point = r.range(0, 0.08);
  return {
    parts: [...sabaton(look, 0.12, 0.1, 0.3, lames, point), ...sabaton(look, -0.04, -0.06, 0, lames, point)],
  };
};
