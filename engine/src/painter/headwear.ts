import { mixRgb } from './colour.ts';
import { type ItemPainter, part } from './part.ts';
import type { Material, Part } from './scene.ts';
import {
  box,
  capsule,
  circle,
  ellipse,
  inflate,
  intersect,
  polygon,
  rotate,
  star,
  subtract,
  union,
} from './sdf.ts';

const PLUME: Material = { base: [230, 220, 196], finish: 'matte' };

export const helmet: ItemPainter = (look, rng) => {
  const r = rng('shape');
  // Dome helm or flat-topped great helm; T-slit, eye slits or an open face with a nose guard.
  const great = r.chance(0.35);
  const width = r.range(0.29, 0.33);
  const dome = great
    ? box(0, -0.02, width - 0.02, 0.36, r.range(0.04, 0.1))
    : union(circle(0, 0.05, width), box(0, -0.12, width, 0.22, 0.08));
  const parts: Part[] = [];
  const crest = r.int(0, 3);
  if (crest === 1) {
    const lift = r.range(0.34, 0.46);
    parts.push(part(capsule(-0.26, 0.1, -0.44, lift, 0.05, 0.016), PLUME, 0.04, { round: true }));
    parts.push(part(capsule(0.26, 0.1, 0.44, lift, 0.05, 0.016), PLUME, 0.04, { round: true }));
  } else if (crest === 2) {
    parts.push(part(ellipse(0, 0.38, 0.08, 0.14), look.trim, 0.06, { round: true }));
  } else if (crest === 3) {
    parts.push(part(polygon([-0.03, 0.3, 0.03, 0.3, 0.0, 0.52]), look.accent, 0.03));
  }
  const visor = r.int(0, 2);
  const opening =
    visor === 0
      ? union(box(0, -0.06, 0.2, 0.035, 0.01), box(0, -0.2, 0.045, 0.13, 0.01))
      : visor === 1
        ? union(box(-0.12, -0.04, 0.09, 0.025, 0.01), box(0.12, -0.04, 0.09, 0.025, 0.01))
        : box(0, -0.14, 0.2, 0.13, 0.05);
  const bandV = r.range(0.03, 0.1);
  parts.push(
    part(dome, look.metal, great ? 0.08 : 0.14, { round: !great }),
    part(box(0, bandV, width + 0.005, 0.035, 0.01), look.accent, 0.03),
    part(opening, look.dark, 0.02),
  );
  if (visor === 2) parts.push(part(box(0, -0.1, 0.025, 0.11, 0.01), look.metal, 0.02));
  if (visor === 1 && great) {
    for (let i = 0; i < 4; i++)
      parts.push(part(circle(-0.09 + i * 0.06, -0.18, 0.014), look.dark, 0.01, { lineless: true }));
  }
  if (look.gems && look.rarity >= 2) parts.push(part(circle(0, bandV + 0.12, 0.05), look.gem, 0.05));
  return { parts };
};

export const hood: ItemPainter = (look, rng) => {
  const r = rng('shape');
  const peak = r.range(0.3, 0.44);
  const lean = r.range(-0.14, 0.14);
  const spread = r.range(0.4, 0.48);
  const cloth: Material = { base: look.paint.base, finish: 'cloth' };
  const shape = union(
    ellipse(0, 0.0, 0.3, 0.34),
    polygon([-0.26, 0.12, 0.26, 0.12, lean, peak]),
    polygon([-0.3, -0.08, 0.3, -0.08, spread, -0.46, -spread, -0.46]),
  );
  const opening = ellipse(0, -0.06, r.range(0.12, 0.15), r.range(0.16, 0.2));
  const parts: Part[] = [
    part(shape, cloth, 0.1, { round: true }),
    part(subtract(inflate(opening, 0.035), opening), look.trim, 0.03),
    part(opening, look.dark, 0.05),
  ];
  if (look.element !== 'none' || r.chance(0.3)) {
    for (const s of [-1, 1])
      parts.push(part(ellipse(0.06 * s, -0.02, 0.03, 0.018), look.light, 0.02, { lineless: true }));
  }
  const clasp = r.int(0, 2);
  if (clasp === 1) parts.push(part(circle(0, -0.34, 0.055), look.accent, 0.05, { round: true }));
  if (clasp === 2) parts.push(part(star(0, -0.34, 0.07, 0.035, 4), look.accent, 0.04));
  if (look.gems && look.rarity >= 2 && clasp === 1)
    parts.push(part(circle(0, -0.34, 0.028), look.gem, 0.028));
  return { parts };
};

export const crown: ItemPainter = (look, rng) => {
  const r = rng('shape');
  const points = r.int(3, 5);
  const tall = r.range(0.3, 0.42);
  const tips = r.int(0, 2);
  const spikes = [];
  const balls: Part[] = [];
  for (let i = 0; i < points; i++) {
    const u = -0.3 + (i * 0.6) / (points - 1);
    const h = i % 2 === 0 ? tall : tall * r.range(0.7, 0.85);
    const w = 0.6 / (points - 1) / 2 + 0.02;
    spikes.push(
      tips === 1
        ? union(polygon([u - w, 0, u + w, 0, u, h - 0.05]), circle(u, h - 0.04, 0.05))
        : polygon([u - w, 0, u + w, 0, u, h]),
    );
    if (tips === 2) balls.push(part(circle(u, h, 0.035), look.accent, 0.035, { round: true }));
  }
  const parts: Part[] = [
    part(intersect(union(...spikes), box(0, 0.2, 0.36, 0.3)), look.accent, 0.04),
    ...balls,
    part(box(0, -0.08, 0.38, r.range(0.07, 0.1), 0.02), look.accent, 0.05),
  ];
  if (look.gems) {
    const count = r.pick([1, 3, 5]);
    for (let i = 0; i < count; i++) {
      const u = count === 1 ? 0 : -0.26 + (i * 0.52) / (count - 1);
      parts.push(part(circle(u, -0.08, i === (count - 1) / 2 ? 0.055 : 0.035), look.gem, 0.045));
    }
  }
  if (r.chance(0.5)) parts.unshift(part(ellipse(0, 0.06, 0.34, 0.16), look.trim, 0.08, { round: true }));
  return { parts };
};

/** A thin band seen from a little above: the far side thin and shaded, the near side carrying a jewel. */
export const circlet: ItemPainter = (look, rng) => {
  const r = rng('shape');
  const rv = r.range(0.2, 0.26);
  const band = ellipse(0, 0, 0.42, rv);
  const far: Material = { base: mixRgb(look.accent.base, [20, 14, 36], 0.4), finish: look.accent.finish };
  const front = -rv;
  const peak = r.range(0.16, 0.26);
  const parts: Part[] = [
    part(
      intersect((u, v) => Math.abs(band(u, v)) - 0.014, box(0, 0.3, 0.5, 0.3)),
      far,
      0.014,
      { round: true },
    ),
    part(
      intersect((u, v) => Math.abs(band(u, v)) - 0.03, box(0, -0.3, 0.5, 0.3)),
      look.accent,
      0.03,
      { round: true },
    ),
    part(
      polygon([-0.12, front - 0.02, 0, front + peak, 0.12, front - 0.02, 0, front - 0.07]),
      look.accent,
      0.03,
    ),
  ];
  const wings = r.int(0, 2);
  for (const s of [-1, 1]) {
    if (wings === 1)
      parts.push(
        part(
          rotate(ellipse(0.2 * s, front + 0.06, 0.08, 0.03), 0.5 * s, 0.2 * s, front + 0.06),
          look.accent,
          0.03,
        ),
      );
    if (wings === 2) parts.push(part(circle(0.24 * s, front + 0.05, 0.03), look.gem, 0.03));
  }
  if (look.gems) {
    parts.push(
      part(
        r.chance(0.5)
          ? circle(0, front + 0.04, 0.06)
          : polygon([0, front + 0.14, 0.055, front + 0.03, 0, front - 0.05, -0.055, front + 0.03]),
        look.gem,
        0.06,
      ),
    );
  }
  return { parts };
};

/** A ring of twisted thorny briar, seen from the front and a little above. */
export const thorn_crown: ItemPainter = (look, rng) => {
  const r = rng('briar');
  const vine: Material = look.metal.finish === 'metal' ? look.metal : { base: [96, 70, 44], finish: 'matte' };
  const ru = 0.4;
  const rv = r.range(0.16, 0.22);
  const strand = (phase: number) => (u: number, v: number) => {
    const a = Math.atan2(v / rv, u / ru);
    const dv = (v - Math.sin(a * 7 + phase) * 0.03) / rv;
    return Math.abs((Math.hypot(u / ru, dv) - 1) * rv) - 0.028;
  };
  const thorns = [];
  const count = r.int(9, 13);
  for (let i = 0; i < count; i++) {
    const a = (i / count) * Math.PI * 2 + r.range(-0.2, 0.2);
    const c = Math.cos(a);
    const s = Math.sin(a);
    const u = c * ru;
    const v = s * rv;
    const len = r.range(0.07, 0.12);
    const out = Math.atan2(s * ru, c * rv) + r.range(-0.5, 0.5);
    thorns.push(
      polygon([
        u - s * 0.02,
        v + c * 0.02,
        u + Math.cos(out) * len,
        v + Math.sin(out) * len,
        u + s * 0.02,
        v - c * 0.02,
      ]),
    );
  }
  const parts: Part[] = [
    part(union(...thorns), { base: vine.base, finish: 'matte' }, 0.02),
    part(strand(0), vine, 0.028, { round: true }),
    part(strand(Math.PI), { base: mixRgb(vine.base, [20, 14, 30], 0.25), finish: vine.finish }, 0.028, {
      round: true,
    }),
  ];
  const drops = r.int(0, 3);
  for (let i = 0; i < drops; i++) {
    const u = r.range(-0.3, 0.3);
    parts.push(
      part(
        union(circle(u, -rv - 0.05, 0.025), polygon([u - 0.025, -rv - 0.05, u + 0.025, -rv - 0.05, u, -rv])),
        { base: [170, 20, 30], finish: 'gem' },
        0.025,
      ),
    );
  }
  return { parts };
};

export const hat: ItemPainter = (look, rng) => {
  const r = rng('shape');
  const tip = r.range(-0.3, 0.3);
  const tall = r.range(0.5, 0.62);
  const cone = polygon([-0.24, -0.16, 0.24, -0.16, 0.12, 0.18, tip, tall, 0.0, 0.22]);
  const cloth: Material = { base: look.paint.base, finish: 'cloth' };
  const parts: Part[] = [
    part(ellipse(0, -0.2, r.range(0.44, 0.5), 0.1), cloth, 0.06),
    part(cone, cloth, 0.08),
    part(intersect(cone, box(0, -0.1, 0.3, 0.05)), look.trim, 0.03),
  ];
  const charm = r.int(0, 2);
  if (charm === 0) parts.push(part(star(0.04, 0.1, 0.08, 0.035, 5), look.accent, 0.03));
  if (charm === 1)
    parts.push(part(subtract(circle(0.02, 0.1, 0.07), circle(0.06, 0.13, 0.06)), look.accent, 0.03));
  if (look.gems && look.rarity >= 2) parts.push(part(circle(0, -0.1, 0.04), look.gem, 0.04));
  return { parts };
};
