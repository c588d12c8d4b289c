import { mixRgb, type Rgb } from './colour.ts';
import { type ItemPainter, part } from './part.ts';
import type { Material, Part } from './scene.ts';
import {
  box,
  capsule,
  circle,
  ellipse,
  intersect,
  polygon,
  ring,
  rotate,
  star,
  subtract,
  union,
} from './sdf.ts';

/** A glowing sphere held by claws on a small stand. */
export const orb: ItemPainter = (look, rng) => {
  const r = rng('orb');
  const size = r.range(0.26, 0.32);
  const sphere: Material = {
    base: look.element === 'none' ? look.gem.base : (look.light.base as Rgb),
    finish: 'glass',
  };
  const parts: Part[] = [part(circle(0, 0.08, size), sphere, size, { round: true })];
  parts.push(part(circle(0, 0.08, size * 0.55), look.light, size * 0.55, { lineless: true, alpha: 0.8 }));
  parts.push(
    part(
      ellipse(-size * 0.35, 0.08 + size * 0.4, size * 0.22, size * 0.12),
      { base: [255, 255, 255], finish: 'glow' },
      0.03,
      { lineless: true },
    ),
  );
  const stand = r.int(0, 1);
  if (stand === 0) {
    for (const s of [-1, 0, 1])
      parts.push(
        part(
          capsule(s * 0.16, -0.3, s * (size - 0.02), -0.04 + Math.abs(s) * 0.06, 0.03, 0.018),
          look.accent,
          0.025,
          { round: true },
        ),
      );
  } else {
    parts.push(
      part(subtract(ellipse(0, -0.16, size + 0.04, 0.12), circle(0, 0.08, size)), look.accent, 0.05),
    );
  }
  parts.push(part(polygon([-0.22, -0.3, 0.22, -0.3, 0.28, -0.42, -0.28, -0.42]), look.handle, 0.04));
  return { parts };
};

/** A thick grimoire with a clasp and a sigil. */
export const tome: ItemPainter = (look, rng) => {
  const r = rng('tome');
  const cover: Material = { base: look.paint.base, finish: 'cloth' };
  const pages: Material = { base: [236, 226, 200], finish: 'matte' };
  const thick = r.range(0.09, 0.13);
  const sigil = r.int(0, 2);
  const parts: Part[] = [
    part(box(0.04, -0.05, 0.3, 0.38, 0.02), mixMaterial(cover, 0.3), 0.03),
    part(box(0.05 + thick * 0.5, -0.02, 0.28, 0.37, 0.01), pages, 0.02),
    part(box(-0.02, 0.02, 0.3, 0.4, 0.03), cover, 0.05),
    part(box(-0.3, 0.02, 0.05, 0.41, 0.02), mixMaterial(cover, 0.35), 0.05, { round: true }),
  ];
  for (const v of [0.3, -0.26]) parts.push(part(box(-0.3, v, 0.055, 0.025, 0.01), look.accent, 0.02));
  parts.push(
    part(box(0.3, 0.02, 0.06, 0.08, 0.015), look.accent, 0.04),
    part(box(0.25, 0.02, 0.05, 0.035, 0.01), look.accent, 0.02),
  );
  const sigilShape =
    sigil === 0
      ? union(ellipse(0, 0.04, 0.13, 0.07), ring(0, 0.04, 0.13, 0.012))
      : sigil === 1
        ? subtract(star(0, 0.04, 0.16, 0.07, 5), circle(0, 0.04, 0.04))
        : union(ring(0, 0.04, 0.13, 0.018), polygon([0, 0.2, 0.03, 0.04, 0, -0.12, -0.03, 0.04]));
  parts.push(part(sigilShape, look.accent, 0.03));
  if (sigil === 0) parts.push(part(circle(0, 0.04, 0.045), look.gems ? look.gem : look.dark, 0.045));
  if (look.element !== 'none' && sigil !== 0)
    parts.push(part(circle(0, 0.04, 0.03), look.light, 0.03, { lineless: true }));
  return { parts: parts.map((p) => ({ ...p, sdf: rotate(p.sdf, r.range(-0.15, 0.15)) })) };
};

function mixMaterial(m: Material, dark: number): Material {
  return { base: mixRgb(m.base, [16, 10, 26], dark), finish: m.finish };
}

/** A carved pole: stacked faces, a beak or horns on top, feathers tied on. */
export const totem: ItemPainter = (look, rng) => {
  const r = rng('totem');
  const wood =
    look.metal.finish === 'matte'
      ? look.metal
      : look.handle.finish === 'matte'
        ? look.handle
        : ({ base: [138, 90, 48], finish: 'matte' } as Material);
  const faces = r.int(2, 3);
  const parts: Part[] = [part(box(0, -0.08, 0.15, 0.5, 0.04), wood, 0.08)];
  const span = 0.8 / faces;
  for (let i = 0; i < faces; i++) {
    const v = 0.32 - span * (i + 0.5);
    const band: Material = i % 2 ? look.paint : look.trim;
    parts.push(
      part(box(0, v + span * 0.42, 0.165, 0.02, 0.01), band, 0.02),
      part(ellipse(-0.06, v + 0.04, 0.04, 0.025), look.dark, 0.02),
      part(ellipse(0.06, v + 0.04, 0.04, 0.025), look.dark, 0.02),
      part(
        r.chance(0.5)
          ? box(0, v - 0.08, 0.08, 0.02, 0.01)
          : polygon([-0.08, v - 0.06, 0.08, v - 0.06, 0, v - 0.12]),
        look.dark,
        0.02,
      ),
    );
  }
  const crown = r.int(0, 2);
  if (crown === 0)
    parts.unshift(
      part(polygon([-0.4, 0.24, -0.12, 0.32, 0.12, 0.32, 0.4, 0.24, 0.12, 0.4, -0.12, 0.4]), wood, 0.04),
    );
  if (crown === 1)
    parts.unshift(
      part(
        union(capsule(-0.12, 0.4, -0.3, 0.56, 0.04, 0.015), capsule(0.12, 0.4, 0.3, 0.56, 0.04, 0.015)),
        { base: [230, 220, 196], finish: 'matte' },
        0.03,
        { round: true },
      ),
    );
  if (crown === 2)
    parts.unshift(
      part(
        union(
          rotate(ellipse(-0.22, 0.34, 0.04, 0.14), 0.7, -0.22, 0.34),
          rotate(ellipse(0.22, 0.34, 0.04, 0.14), -0.7, 0.22, 0.34),
        ),
        look.trim,
        0.03,
      ),
    );
  parts.push(part(intersect(circle(0, 0.42, 0.15), box(0, 0.48, 0.2, 0.08)), wood, 0.06, { round: true }));
  if (look.gems && look.rarity >= 2) parts.push(part(circle(0, 0.42, 0.04), look.gem, 0.04));
  return { parts };
};
