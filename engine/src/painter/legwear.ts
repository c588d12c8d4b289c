import { mixRgb } from './colour.ts';
import { type ItemPainter, part } from './part.ts';
import type { Material, Part } from './scene.ts';
import { box, circle, ellipse, intersect, polygon, type Sdf, union } from './sdf.ts';

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

/** Plate legs: lames, flutes or cloth bands, knee cops of several shapes, a belt, sometimes plated feet. */
export const greaves: ItemPainter = (look, rng) => {
  const r = rng('plates');
  const knee = r.range(0.04, 0.1);
  const ankle = r.range(-0.03, 0.03);
  const legs = [leg(-1, 0.32, knee, ankle), leg(1, 0.32, knee, ankle)];
  const parts: Part[] = [part(legs[0] as Sdf, look.metal, 0.06), part(legs[1] as Sdf, look.metal, 0.06)];
  const style = r.int(0, 2);
  legs.forEach((shape, i) => {
    const s = i ? 1 : -1;
    if (style === 0) {
      const seams = r.int(2, 3);
      for (let k = 0; k < seams; k++)
        parts.push(
          part(
            intersect(shape, box(0, 0.22 - k * (0.5 / seams) - (k ? 0.1 : 0), 0.5, 0.008)),
            look.metalDark,
            0.008,
            { lineless: true },
          ),
        );
    } else if (style === 1) {
      for (const du of [-0.04, 0.04])
        parts.push(
          part(intersect(shape, box(0.145 * s + du, -0.2, 0.008, 0.3)), look.metalDark, 0.008, {
            lineless: true,
          }),
        );
    } else {
      parts.push(part(intersect(shape, box(0, 0.16, 0.5, 0.05)), look.trim, 0.03));
    }
    if (r.chance(0.3))
      parts.push(
        part(
          polygon([
            (0.08 + knee) * s,
            -0.5,
            (0.3 + knee) * s,
            -0.5,
            (0.22 + knee) * s,
            -0.4,
            (0.08 + knee) * s,
            -0.4,
          ]),
          look.metalDark,
          0.03,
        ),
      );
  });
  const cop = r.int(0, 2);
  for (const s of [-1, 1]) {
    const u = (0.14 + knee * 0.2) * s;
    const shape =
      cop === 0
        ? circle(u, -0.06, 0.075)
        : cop === 1
          ? polygon([u, 0.04, u + 0.08, -0.06, u, -0.16, u - 0.08, -0.06])
          : union(
              circle(u, -0.06, 0.065),
              polygon([u + 0.04 * s, -0.02, u + 0.18 * s, -0.06, u + 0.04 * s, -0.1]),
            );
    parts.push(part(shape, look.accent, 0.06, { round: cop === 0 }));
    if (look.gems && look.rarity >= 2) parts.push(part(circle(u, -0.06, 0.03), look.gem, 0.03));
  }
  const belt = r.chance(0.5) ? look.leather : look.trim;
  parts.push(
    part(box(0, 0.37, 0.26, 0.06, 0.015), belt, 0.04),
    part(box(0, 0.37, 0.05, 0.05, 0.01), look.accent, 0.03),
  );
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
