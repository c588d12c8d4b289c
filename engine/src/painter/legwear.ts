import { mixRgb } from './colour.ts';
import { type ItemPainter, part } from './part.ts';
import type { Material, Part } from './scene.ts';
import { box, circle, ellipse, polygon } from './sdf.ts';

function leg(s: number, top: number, knee: number, ankle: number) {
  return polygon([
    0.25 * s,
    top,
    0.01 * s,
    top,
    0.04 * s,
    0.0,
    knee * s,
    -0.46,
    (knee + 0.15) * s,
    -0.46,
    (0.25 + ankle) * s,
    0.0,
  ]);
}

/** Cloth or leather trousers. */
export const leggings: ItemPainter = (look, rng) => {
  const r = rng('cut');
  const body: Material =
    look.metal.finish === 'cloth' ? look.metal : { base: look.paint.base, finish: 'cloth' };
  const flare = r.range(-0.02, 0.03);
  const parts: Part[] = [
    part(leg(-1, 0.32, 0.06 - flare, flare), body, 0.06),
    part(leg(1, 0.32, 0.06 - flare, flare), body, 0.06),
  ];
  const patch = r.int(0, 2);
  if (patch === 1) parts.push(part(ellipse(-0.14, -0.08, 0.06, 0.07), look.leather, 0.03));
  if (patch === 2)
    for (const s of [-1, 1]) parts.push(part(box(0.14 * s, -0.36, 0.09, 0.03, 0.01), look.trim, 0.02));
  parts.push(
    part(box(0, 0.34, 0.26, 0.05, 0.015), look.leather, 0.04),
    part(box(0, 0.34, 0.045, 0.045, 0.01), look.accent, 0.03),
  );
  return { parts };
};

/** Plate legs: lames, knee cops and a belt. */
export const greaves: ItemPainter = (look, rng) => {
  const r = rng('plates');
  const seams = r.int(1, 3);
  const parts: Part[] = [
    part(leg(-1, 0.32, 0.07, 0), look.metal, 0.06),
    part(leg(1, 0.32, 0.07, 0), look.metal, 0.06),
  ];
  for (let i = 0; i < seams; i++) {
    const v = 0.2 - i * (0.18 + 0.06 * (3 - seams));
    for (const s of [-1, 1])
      parts.push(part(box(0.145 * s, v, 0.1, 0.008), look.metalDark, 0.008, { lineless: true }));
  }
  for (let i = 0; i < 2; i++) {
    const s = i ? 1 : -1;
    parts.push(
      part(
        r.chance(0.5)
          ? circle(0.14 * s, -0.06, 0.075)
          : polygon([0.14 * s, 0.04, 0.22 * s, -0.06, 0.14 * s, -0.16, 0.06 * s, -0.06]),
        look.accent,
        0.06,
        { round: true },
      ),
    );
  }
  parts.push(
    part(box(0, 0.37, 0.26, 0.06, 0.015), look.leather, 0.04),
    part(box(0, 0.37, 0.05, 0.05, 0.01), look.accent, 0.03),
  );
  if (look.gems && look.rarity >= 2)
    for (const s of [-1, 1]) parts.push(part(circle(0.14 * s, -0.06, 0.03), look.gem, 0.03));
  return { parts };
};

/** A skirt of overlapping plates hanging from a belt. */
export const tassets: ItemPainter = (look, rng) => {
  const r = rng('plates');
  const rows = r.int(2, 3);
  const flare = r.range(0.06, 0.12);
  const rowHeight = 0.6 / rows;
  const parts: Part[] = [];
  for (let i = rows - 1; i >= 0; i--) {
    const top = 0.26 - i * rowHeight * 0.85;
    const w = 0.3 + flare * (i / rows);
    const plate = polygon([
      -w,
      top,
      w,
      top,
      w + flare * 0.5,
      top - rowHeight,
      0.04,
      top - rowHeight - 0.04,
      -0.04,
      top - rowHeight - 0.04,
      -w - flare * 0.5,
      top - rowHeight,
    ]);
    const shade: Material = {
      base: mixRgb(look.metal.base, [20, 14, 36], 0.1 * (rows - 1 - i)),
      finish: look.metal.finish,
    };
    parts.push(
      part(plate, shade, 0.05),
      part(box(0, top - 0.03, w, 0.012), look.metalDark, 0.01, { lineless: true }),
    );
    for (const s of [-1, 1])
      parts.push(part(circle((w - 0.06) * s, top - 0.05, 0.02), look.accent, 0.02, { round: true }));
  }
  parts.push(
    part(polygon([-0.02, 0.26, 0.02, 0.26, 0.03, -0.5, -0.03, -0.5]), look.dark, 0.01, { lineless: true }),
  );
  parts.push(
    part(box(0, 0.32, 0.33, 0.06, 0.015), look.leather, 0.04),
    part(box(0, 0.32, 0.06, 0.055, 0.01), look.accent, 0.03),
  );
  if (look.gems && look.rarity >= 2) parts.push(part(circle(0, 0.32, 0.035), look.gem, 0.035));
  return { parts };
};
