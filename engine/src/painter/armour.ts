import { mixRgb } from './colour.ts';
import { type ItemPainter, part } from './part.ts';
import type { Material, Part } from './scene.ts';
import { box, capsule, circle, ellipse, inflate, intersect, polygon, star, union } from './sdf.ts';

function heater(): number[] {
  const points = [-0.38, 0.42, -0.19, 0.44, 0, 0.45, 0.19, 0.44, 0.38, 0.42, 0.38, 0.05];
  for (let i = 1; i < 8; i++) {
    const t = i / 8;
    points.push(0.38 * (1 - t) ** 1.4, 0.05 - 0.53 * Math.sin((t * Math.PI) / 2));
  }
  points.push(0, -0.48);
  for (let i = 7; i >= 1; i--) {
    const t = i / 8;
    points.push(-0.38 * (1 - t) ** 1.4, 0.05 - 0.53 * Math.sin((t * Math.PI) / 2));
  }
  points.push(-0.38, 0.05);
  return points;
}

export const shield: ItemPainter = (look, rng) => {
  const r = rng('shape');
  if (look.words.has('round') || (!look.words.has('kite') && r.chance(0.35))) {
    const rivets: Part[] = [];
    for (let i = 0; i < 8; i++) {
      const a = (i / 8) * Math.PI * 2;
      rivets.push(
        part(circle(Math.cos(a) * 0.37, Math.sin(a) * 0.37, 0.022), look.accent, 0.022, { round: true }),
      );
    }
    return {
      parts: [
        part(circle(0, 0, 0.45), look.metal, 0.05),
        part(circle(0, 0, 0.39), look.paint, 0.04),
        ...rivets,
        part(circle(0, 0, 0.11), look.accent, 0.11, { round: true }),
      ],
    };
  }
  const outer = polygon(heater());
  const face = inflate(outer, -0.05);
  const emblem = r.int(0, 2);
  const parts: Part[] = [part(outer, look.metal, 0.05), part(face, look.paint, 0.04)];
  if (emblem === 0)
    parts.push(part(union(box(0, 0.04, 0.05, 0.3), box(0, 0.14, 0.22, 0.05)), look.accent, 0.03));
  else if (emblem === 1) parts.push(part(intersect(face, box(0, 0.02, 0.5, 0.08)), look.accent, 0.03));
  else parts.push(part(star(0, 0.04, 0.2, 0.09, 5), look.accent, 0.04));
  if (look.gems && look.rarity >= 2) parts.push(part(circle(0, 0.1, 0.06), look.gem, 0.06));
  return { parts };
};

export const helmet: ItemPainter = (look, rng) => {
  if (look.words.has('crown') || look.words.has('circlet')) {
    const points: number[] = [-0.36, -0.1, 0.36, -0.1];
    for (let i = 0; i <= 4; i++) {
      const u = 0.36 - (i * 0.72) / 4;
      points.push(u, i % 2 === 0 ? 0.36 : 0.22, u - 0.09, 0.1);
    }
    const gems: Part[] = [];
    for (let i = -1; i <= 1; i++) gems.push(part(circle(i * 0.22, -0.02, 0.045), look.gem, 0.045));
    return {
      parts: [
        part(intersect(polygon(points.slice(0, -2)), box(0, 0.1, 0.36, 0.3)), look.accent, 0.04),
        part(box(0, -0.08, 0.38, 0.08, 0.02), look.accent, 0.05),
        ...(look.gems ? gems : []),
      ],
    };
  }
  if (look.words.has('hood') || look.words.has('cowl')) {
    const hood = { base: look.paint.base, finish: 'cloth' as const };
    return {
      parts: [
        part(
          union(ellipse(0, 0.02, 0.3, 0.38), polygon([-0.3, -0.1, 0.3, -0.1, 0.42, -0.46, -0.42, -0.46])),
          hood,
          0.1,
          { round: true },
        ),
        part(ellipse(0, -0.02, 0.16, 0.22), look.dark, 0.05),
      ],
    };
  }
  const r = rng('shape');
  // Dome helm or flat-topped great helm; T-slit, eye slits or an open face with a nose guard.
  const great = r.chance(0.35);
  const dome = great
    ? box(0, -0.02, 0.3, 0.36, 0.06)
    : union(circle(0, 0.05, 0.32), box(0, -0.12, 0.32, 0.22, 0.08));
  const parts: Part[] = [];
  const crest = r.int(0, 2);
  if (crest === 1) {
    parts.push(
      part(capsule(-0.28, 0.1, -0.44, 0.4, 0.05, 0.018), { base: [230, 220, 196], finish: 'matte' }, 0.04, {
        round: true,
      }),
    );
    parts.push(
      part(capsule(0.28, 0.1, 0.44, 0.4, 0.05, 0.018), { base: [230, 220, 196], finish: 'matte' }, 0.04, {
        round: true,
      }),
    );
  } else if (crest === 2) {
    parts.push(part(ellipse(0, 0.38, 0.08, 0.14), look.paint, 0.06, { round: true }));
  }
  const visor = r.int(0, 2);
  const opening =
    visor === 0
      ? union(box(0, -0.06, 0.2, 0.035, 0.01), box(0, -0.2, 0.045, 0.13, 0.01))
      : visor === 1
        ? union(box(-0.12, -0.04, 0.09, 0.025, 0.01), box(0.12, -0.04, 0.09, 0.025, 0.01))
        : box(0, -0.14, 0.2, 0.13, 0.05);
  parts.push(
    part(dome, look.metal, great ? 0.08 : 0.14, { round: !great }),
    part(box(0, 0.05, 0.325, 0.035, 0.01), look.accent, 0.03),
    part(opening, look.dark, 0.02),
  );
  if (visor === 2) parts.push(part(box(0, -0.1, 0.025, 0.11, 0.01), look.metal, 0.02));
  if (visor === 1 && great) {
    for (let i = 0; i < 4; i++)
      parts.push(part(circle(-0.09 + i * 0.06, -0.18, 0.014), look.dark, 0.01, { lineless: true }));
  }
  if (look.gems && look.rarity >= 2) parts.push(part(circle(0, 0.17, 0.05), look.gem, 0.05));
  return { parts };
};

export const armor: ItemPainter = (look, rng) => {
  const robe = ['robe', 'tunic', 'vest', 'jerkin', 'cloak', 'cape', 'mantle', 'shroud'].some((w) =>
    look.words.has(w),
  );
  const body: Material = robe ? look.paint : look.metal;
  const torso = polygon([
    -0.3, 0.3, -0.12, 0.38, 0, 0.26, 0.12, 0.38, 0.3, 0.3, 0.27, 0.0, 0.22, -0.4, -0.22, -0.4, -0.27, 0,
  ]);
  const parts: Part[] = [part(torso, body, robe ? 0.06 : 0.08)];
  if (!robe) {
    parts.push(part(box(0, -0.02, 0.012, 0.26), look.metalDark, 0.012, { lineless: true }));
    if (rng('plates').chance(0.6))
      parts.push(part(box(0, 0.12, 0.2, 0.01), look.metalDark, 0.01, { lineless: true }));
  }
  parts.push(
    part(ellipse(-0.3, 0.27, 0.14, 0.11), robe ? look.paint : look.accent, 0.11, { round: true }),
    part(ellipse(0.3, 0.27, 0.14, 0.11), robe ? look.paint : look.accent, 0.11, { round: true }),
    part(box(0, -0.31, 0.235, 0.045, 0.01), look.leather, 0.04),
    part(box(0, -0.31, 0.05, 0.05, 0.01), look.accent, 0.03),
  );
  if (look.gems && look.rarity >= 3) parts.push(part(circle(0, 0.17, 0.05), look.gem, 0.05));
  return { parts };
};

export const leggings: ItemPainter = (look) => {
  const cloth = ['pants', 'trousers', 'breeches'].some((w) => look.words.has(w));
  const body = cloth ? look.paint : look.metal;
  const leg = (s: number) =>
    polygon([0.25 * s, 0.32, 0.01 * s, 0.32, 0.04 * s, 0.0, 0.07 * s, -0.46, 0.22 * s, -0.46, 0.25 * s, 0.0]);
  const parts: Part[] = [part(leg(-1), body, 0.06), part(leg(1), body, 0.06)];
  if (!cloth) {
    // Plate seams: the lames of a greave.
    for (const v of [0.14, -0.26]) {
      for (const s of [-1, 1])
        parts.push(part(box(0.145 * s, v, 0.1, 0.008), look.metalDark, 0.008, { lineless: true }));
    }
  }
  parts.push(
    part(circle(-0.14, -0.06, 0.07), cloth ? look.leather : look.accent, 0.07, { round: true }),
    part(circle(0.14, -0.06, 0.07), cloth ? look.leather : look.accent, 0.07, { round: true }),
    part(box(0, 0.37, 0.26, 0.06, 0.015), look.leather, 0.04),
    part(box(0, 0.37, 0.05, 0.05, 0.01), look.accent, 0.03),
  );
  return { parts };
};

function boot(look: Parameters<ItemPainter>[0], du: number, dv: number, shade: number): Part[] {
  const dim = (m: Material): Material => ({ base: mixRgb(m.base, [16, 10, 30], shade), finish: m.finish });
  const body = look.metal.finish === 'metal' ? look.leather : look.metal;
  return [
    part(
      union(
        box(-0.08 + du, 0.1 + dv, 0.13, 0.26, 0.03),
        polygon([
          -0.21 + du,
          -0.08 + dv,
          0.08 + du,
          -0.08 + dv,
          0.28 + du,
          -0.2 + dv,
          0.3 + du,
          -0.32 + dv,
          -0.21 + du,
          -0.32 + dv,
        ]),
      ),
      dim(body),
      0.06,
    ),
    part(box(0.04 + du, -0.34 + dv, 0.27, 0.035, 0.015), dim(look.dark), 0.02),
    part(
      box(-0.08 + du, 0.33 + dv, 0.155, 0.05, 0.02),
      dim(look.metal.finish === 'metal' ? look.metal : look.accent),
      0.04,
    ),
  ];
}

export const boots: ItemPainter = (look) => ({
  parts: [...boot(look, 0.12, 0.1, 0.3), ...boot(look, -0.04, -0.06, 0)],
});

export const gloves: ItemPainter = (look) => {
  const body = look.metal.finish === 'metal' && !look.words.has('gloves') ? look.metal : look.leather;
  const fingers: Part[] = [];
  [-0.105, -0.035, 0.035, 0.105].forEach((u, i) => {
    fingers.push(
      part(capsule(u, 0.1, u * 1.1, [0.32, 0.38, 0.36, 0.3][i] as number, 0.04), body, 0.04, { round: true }),
    );
  });
  return {
    parts: [
      part(polygon([-0.2, -0.46, 0.2, -0.46, 0.16, -0.16, -0.16, -0.16]), look.paint, 0.05),
      ...fingers,
      part(capsule(-0.12, -0.06, -0.25, 0.1, 0.06, 0.045), body, 0.05, { round: true }),
      part(box(0, -0.02, 0.16, 0.16, 0.06), body, 0.08),
      part(box(0, 0.1, 0.15, 0.03, 0.01), look.accent, 0.03),
      part(box(0, -0.17, 0.18, 0.03, 0.01), look.accent, 0.03),
    ],
  };
};
