import type { ItemLook } from './look.ts';
import { type ItemPainter, part } from './part.ts';
import type { Material, Part } from './scene.ts';
import { box, capsule, circle, polygon } from './sdf.ts';

function hand(
  look: ItemLook,
  body: Material,
  cuff: Material,
  flare: number,
  lengths: number[],
  plated: boolean,
): Part[] {
  const parts: Part[] = [
    part(polygon([-0.2 - flare, -0.48, 0.2 + flare, -0.48, 0.16, -0.16, -0.16, -0.16]), cuff, 0.05),
  ];
  [-0.105, -0.035, 0.035, 0.105].forEach((u, i) => {
    const top = lengths[i] as number;
    parts.push(part(capsule(u, 0.1, u * 1.1, top, 0.04), body, 0.04, { round: true }));
    if (plated)
      for (const v of [0.18, 0.26])
        if (v < top)
          parts.push(part(box(u * 1.05, v, 0.04, 0.006), look.metalDark, 0.006, { lineless: true }));
  });
  parts.push(
    part(capsule(-0.12, -0.06, -0.25, 0.1, 0.06, 0.045), body, 0.05, { round: true }),
    part(box(0, -0.02, 0.16, 0.16, 0.06), body, 0.08),
    part(box(0, -0.17, 0.18, 0.03, 0.01), look.accent, 0.03),
  );
  return parts;
}

export const gloves: ItemPainter = (look, rng) => {
  const r = rng('glove');
  const body = look.metal.finish === 'cloth' ? look.metal : look.leather;
  const lengths = [0.3, 0.36, 0.34, 0.28].map((l) => l + r.range(-0.03, 0.03));
  const parts = hand(look, body, r.chance(0.5) ? look.trim : body, r.range(0, 0.05), lengths, false);
  if (r.chance(0.5)) parts.push(part(box(0, 0.02, 0.1, 0.02, 0.01), look.trim, 0.02));
  return { parts };
};

export const gauntlets: ItemPainter = (look, rng) => {
  const r = rng('plates');
  const metal = look.metal.finish === 'metal' ? look.metal : look.accent;
  const lengths = [0.3, 0.36, 0.34, 0.28].map((l) => l + r.range(-0.02, 0.02));
  const parts = hand({ ...look, metalDark: look.metalDark }, metal, metal, r.range(0.04, 0.1), lengths, true);
  parts.push(part(box(0, 0.08, 0.15, 0.03, 0.01), look.accent, 0.03));
  const knuckle = r.int(0, 2);
  if (knuckle === 1)
    for (const u of [-0.1, 0, 0.1])
      parts.push(part(polygon([u - 0.03, 0.06, u + 0.03, 0.06, u, 0.13]), look.accent, 0.02));
  if (look.gems && (knuckle === 2 || look.rarity >= 3))
    parts.push(part(circle(0, -0.02, 0.045), look.gem, 0.045));
  return { parts };
};

/** A pair of forearm guards with straps. */
export const bracers: ItemPainter = (look, rng) => {
  const r = rng('bracer');
  const body = look.metal;
  const taper = r.range(0.02, 0.06);
  const straps = r.int(2, 3);
  const one = (du: number, dv: number): Part[] => {
    const parts: Part[] = [
      part(
        polygon([
          du - 0.15,
          dv + 0.34,
          du + 0.15,
          dv + 0.34,
          du + 0.15 - taper,
          dv - 0.34,
          du - 0.15 + taper,
          dv - 0.34,
        ]),
        body,
        0.07,
      ),
    ];
    for (let i = 0; i < straps; i++) {
      const v = dv + 0.24 - (i * 0.48) / (straps - 1);
      parts.push(
        part(box(du, v, 0.16, 0.028, 0.01), look.leather, 0.02),
        part(box(du + 0.08, v, 0.025, 0.035, 0.008), look.accent, 0.02),
      );
    }
    parts.push(
      part(
        r.chance(0.5)
          ? circle(du, dv, 0.05)
          : polygon([du, dv + 0.09, du + 0.05, dv, du, dv - 0.09, du - 0.05, dv]),
        look.gems && look.rarity >= 2 ? look.gem : look.accent,
        0.04,
      ),
    );
    return parts;
  };
  return { parts: [...one(0.12, 0.06), ...one(-0.12, -0.06)] };
};
