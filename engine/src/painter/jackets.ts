import { mixRgb } from './colour.ts';
import type { ItemLook } from './look.ts';
import { type ItemPainter, part } from './part.ts';
import type { Material, Part } from './scene.ts';
import { box, capsule, polygon, union } from './sdf.ts';

/** The fabric of modern wear: the look's cloth or leather, else its colour as cloth. */
function fabricOf(look: ItemLook): Material {
  if (look.metal.finish === 'cloth') return look.metal;
  if (look.metal.finish === 'matte') return { base: look.metal.base, finish: 'cloth' };
  return { base: look.paint.base, finish: 'cloth' };
}

const shade = (m: Material, amount: number): Material => ({
  base: mixRgb(m.base, [16, 12, 28], amount),
  finish: m.finish,
});

/** A jacket or coat, front on: sleeves out, a turned-down collar, a zip down the middle, pockets. */
export const jacket: ItemPainter = (look, rng) => {
  const r = rng('jacket');
  const cloth = fabricOf(look);
  const long = look.words.has('coat') || look.words.has('trenchcoat') || look.words.has('duster');
  const hem = long ? -0.52 : -0.36;
  const body = polygon([-0.26, 0.34, -0.1, 0.38, 0, 0.3, 0.1, 0.38, 0.26, 0.34, 0.24, hem, -0.24, hem]);
  const sleeve = (s: number) =>
    polygon([0.24 * s, 0.34, 0.36 * s, 0.24, 0.46 * s, hem + 0.12, 0.34 * s, hem + 0.1, 0.24 * s, 0.1]);
  const parts: Part[] = [
    part(union(sleeve(-1), sleeve(1)), shade(cloth, 0.12), 0.05),
    part(body, cloth, 0.06),
    part(box(0.4, hem + 0.12, 0.065, 0.03, 0.01), look.trim, 0.02),
    part(box(-0.4, hem + 0.12, 0.065, 0.03, 0.01), look.trim, 0.02),
    part(polygon([-0.1, 0.38, 0, 0.3, -0.02, 0.14, -0.16, 0.26]), shade(cloth, 0.25), 0.03),
    part(polygon([0.1, 0.38, 0, 0.3, 0.02, 0.14, 0.16, 0.26]), shade(cloth, 0.25), 0.03),
    part(
      box(0, (0.28 + hem) / 2, 0.012, (0.28 - hem) / 2),
      look.metal.finish === 'metal' ? look.metal : look.accent,
      0.01,
      {
        lineless: true,
      },
    ),
    part(box(0.0, 0.26, 0.02, 0.025, 0.008), look.accent, 0.015),
  ];
  const pockets = r.int(1, 2);
  for (const s of [-1, 1]) {
    parts.push(
      part(box(0.13 * s, hem + 0.14, 0.07, 0.018, 0.006), shade(cloth, 0.35), 0.01, { lineless: true }),
    );
    if (pockets === 2)
      parts.push(part(box(0.13 * s, 0.16, 0.05, 0.012, 0.006), shade(cloth, 0.35), 0.01, { lineless: true }));
  }
  if (r.chance(0.5)) parts.push(part(box(0, hem + 0.02, 0.245, 0.03, 0.005), look.trim, 0.02));
  if (look.features.length === 0 && r.chance(0.4))
    parts.push(part(capsule(0.36, 0.22, 0.42, -0.04, 0.012), look.trim, 0.012, { lineless: true }));
  return { parts };
};

/** A vest: sleeveless body with armour plates or pockets and shoulder straps. */
export const vest: ItemPainter = (look, rng) => {
  const r = rng('vest');
  const cloth = fabricOf(look);
  const armoured =
    ['flak', 'kevlar', 'ballistic', 'armored', 'armoured', 'tactical', 'plate', 'plated'].some((w) =>
      look.words.has(w),
    ) ||
    look.metal.finish === 'metal' ||
    r.chance(0.4);
  const body = polygon([
    -0.14, 0.4, -0.06, 0.4, -0.02, 0.18, 0.02, 0.18, 0.06, 0.4, 0.14, 0.4, 0.28, 0.22, 0.27, -0.36, -0.27,
    -0.36, -0.28, 0.22,
  ]);
  const parts: Part[] = [
    part(body, cloth, 0.06),
    part(box(-0.1, 0.36, 0.045, 0.05, 0.01), shade(cloth, 0.2), 0.02),
    part(box(0.1, 0.36, 0.045, 0.05, 0.01), shade(cloth, 0.2), 0.02),
  ];
  if (armoured) {
    const plate: Material = look.metal.finish === 'metal' ? look.metal : shade(cloth, 0.3);
    parts.push(part(box(0, -0.02, 0.2, 0.16, 0.04), plate, 0.05));
    for (let i = 0; i < 3; i++)
      parts.push(part(box(-0.14 + i * 0.14, -0.26, 0.055, 0.07, 0.015), shade(cloth, 0.18), 0.03));
    parts.push(part(box(0, -0.02, 0.08, 0.03, 0.01), look.trim, 0.02));
  } else {
    for (const s of [-1, 1]) {
      parts.push(
        part(box(0.14 * s, -0.18, 0.08, 0.08, 0.015), shade(cloth, 0.15), 0.03),
        part(box(0.14 * s, -0.11, 0.08, 0.018, 0.008), shade(cloth, 0.3), 0.01),
      );
    }
    for (let i = 0; i < 4; i++)
      parts.push(part(box(0, 0.12 - i * 0.12, 0.018, 0.018, 0.009), look.accent, 0.015));
  }
  return { parts };
};
