import { mixRgb } from './colour.ts';
import { type ItemPainter, part } from './part.ts';
import type { Material, Part } from './scene.ts';
import { box, capsule, circle, ellipse, intersect, polygon, ring, rotate, subtract, union } from './sdf.ts';

const FLAME: Material = {
  base: [255, 160, 40],
  finish: 'glow',
  ramp: [
    [200, 60, 20],
    [240, 120, 30],
    [255, 180, 50],
    [255, 230, 120],
    [255, 250, 220],
  ],
};

export const lantern: ItemPainter = (look, rng) => {
  const r = rng('lantern');
  const w = r.range(0.17, 0.22);
  const frame = look.metal.finish === 'metal' ? look.metal : look.accent;
  const light = look.element === 'none' ? FLAME : look.light;
  const glass: Material = {
    base: mixRgb(light.base, [255, 250, 230], 0.5),
    finish: 'glow',
    ...(light.ramp ? { ramp: light.ramp } : {}),
  };
  const roof = r.chance(0.5)
    ? polygon([-w - 0.06, 0.2, w + 0.06, 0.2, 0, 0.36])
    : intersect(circle(0, 0.16, w + 0.06), box(0, 0.3, 0.4, 0.14));
  const parts: Part[] = [
    part(ring(0, 0.44, 0.08, 0.02), frame, 0.02, { round: true }),
    part(box(0, -0.02, w, 0.22, 0.04), glass, 0.2),
    part(polygon([-0.05, -0.14, 0.05, -0.14, 0.0, 0.06]), light, 0.05, { lineless: true }),
    part(box(0, 0.02, 0.012, 0.22), frame, 0.012, { lineless: true }),
    part(box(-w, -0.02, 0.025, 0.23, 0.01), frame, 0.025),
    part(box(w, -0.02, 0.025, 0.23, 0.01), frame, 0.025),
    part(roof, frame, 0.05),
    part(box(0, -0.27, w + 0.06, 0.05, 0.015), frame, 0.04),
    part(box(0, -0.35, w - 0.02, 0.04, 0.015), look.metalDark, 0.03),
  ];
  if (r.chance(0.5)) parts.push(part(box(0, 0.2, w + 0.04, 0.02, 0.01), look.accent, 0.02));
  return { parts };
};

export const torch: ItemPainter = (look, rng) => {
  const r = rng('torch');
  const flame = look.element === 'none' ? FLAME : look.light;
  const lean = r.range(-0.08, 0.08);
  const tall = r.range(0.52, 0.62);
  return {
    diagonal: true,
    parts: [
      part(capsule(0, -0.58, 0, 0.14, 0.035, 0.05), look.handle, 0.045, { round: true }),
      part(box(0, 0.1, 0.07, 0.06, 0.015), look.trim, 0.04),
      part(box(0, 0.0, 0.06, 0.02, 0.01), look.accent, 0.02),
      part(union(ellipse(0, 0.26, 0.13, 0.13), polygon([-0.12, 0.26, 0.12, 0.26, lean, tall])), flame, 0.14, {
        lineless: true,
      }),
      part(
        union(ellipse(0, 0.24, 0.06, 0.07), polygon([-0.055, 0.24, 0.055, 0.24, lean * 0.6, 0.42])),
        { base: [255, 250, 220], finish: 'glow' },
        0.05,
        { lineless: true },
      ),
    ],
  };
};

export const fishing_rod: ItemPainter = (look, rng) => {
  const r = rng('rod');
  const sag = r.range(0.1, 0.2);
  const line: Material = { base: [220, 220, 230], finish: 'matte' };
  const parts: Part[] = [
    part(capsule(-0.4, -0.5, 0.42, 0.5, 0.03, 0.012), look.handle, 0.02, { round: true }),
    part(capsule(-0.36, -0.45, -0.22, -0.28, 0.04), look.leather, 0.04, { round: true }),
    part(ring(-0.18, -0.3, 0.06, 0.02), look.accent, 0.02, { round: true }),
    part(circle(-0.18, -0.3, 0.03), look.metalDark, 0.03),
  ];
  parts.push(
    part(
      union(
        capsule(0.42, 0.5, 0.42 + sag * 0.3, 0.2, 0.007),
        capsule(0.42 + sag * 0.3, 0.2, 0.4, -0.1, 0.007),
      ),
      line,
      0.007,
      {
        lineless: true,
      },
    ),
  );
  const bob = r.chance(0.6);
  if (bob) {
    parts.push(
      part(
        intersect(circle(0.4, -0.16, 0.06), box(0.4, -0.1, 0.1, 0.06)),
        { base: [220, 50, 40], finish: 'gem' },
        0.06,
      ),
      part(
        intersect(circle(0.4, -0.16, 0.06), box(0.4, -0.22, 0.1, 0.06)),
        { base: [240, 240, 240], finish: 'gem' },
        0.06,
      ),
    );
  }
  parts.push(
    part(
      subtract(ring(0.36, -0.24, 0.05, 0.012), box(0.3, -0.2, 0.05, 0.05)),
      look.metal.finish === 'metal' ? look.metal : look.accent,
      0.012,
    ),
  );
  return { parts };
};

export const pickaxe: ItemPainter = (look, rng) => {
  const r = rng('head');
  const reach = r.range(0.4, 0.48);
  const droop = r.range(0.12, 0.2);
  const head = union(
    polygon([
      -0.06,
      0.44,
      0.06,
      0.44,
      reach * 0.5,
      0.38,
      reach,
      0.42 - droop,
      reach * 0.5,
      0.32,
      0.06,
      0.34,
      -0.06,
      0.34,
      -reach * 0.5,
      0.32,
      -reach,
      0.42 - droop,
      -reach * 0.5,
      0.38,
    ]),
  );
  return {
    diagonal: true,
    parts: [
      part(capsule(0, -0.56, 0, 0.42, 0.034), look.handle, 0.034, { round: true }),
      part(head, look.metal, 0.05),
      part(box(0, 0.39, 0.06, 0.07, 0.015), look.accent, 0.04),
      part(box(0, -0.42, 0.045, 0.1, 0.01), look.leather, 0.045, { round: true }),
    ],
  };
};

/** A curved hunting horn: a mouthpiece low on the left, sweeping up to a flared bell facing right. */
export const horn: ItemPainter = (look, rng) => {
  const r = rng('horn');
  const ivory: Material =
    look.metal.finish === 'metal' ? { base: [232, 220, 190], finish: 'matte' } : look.metal;
  const radius = 0.7;
  const end = Math.PI * r.range(0.46, 0.56);
  const bell = r.range(0.15, 0.19);
  const at = (t: number) => {
    const a = Math.PI + (end - Math.PI) * t;
    return [0.3 + Math.cos(a) * radius, -0.3 + Math.sin(a) * radius] as const;
  };
  const shapes = [];
  const segments = 12;
  const width = (t: number) => 0.03 + (bell - 0.03) * t ** 1.8;
  for (let i = 0; i < segments; i++) {
    const [u0, v0] = at(i / segments);
    const [u1, v1] = at((i + 1) / segments);
    shapes.push(capsule(u0, v0, u1, v1, width(i / segments), width((i + 1) / segments)));
  }
  const body = union(...shapes);
  const [eu, ev] = at(1);
  const parts: Part[] = [part(body, ivory, 0.1, { round: true })];
  for (const t of [0.22, r.range(0.55, 0.7)]) {
    const [u, v] = at(t);
    parts.push(part(intersect(body, circle(u, v, 0.035)), look.accent, 0.02));
  }
  parts.push(
    part(rotate(ellipse(eu, ev, 0.05, bell + 0.02), end - Math.PI / 2, eu, ev), look.accent, 0.04),
    part(
      rotate(ellipse(eu + 0.01, ev, 0.028, bell - 0.025), end - Math.PI / 2, eu + 0.01, ev),
      look.dark,
      0.02,
    ),
  );
  const [mu, mv] = at(0);
  parts.push(part(box(mu, mv - 0.02, 0.04, 0.03, 0.01), look.accent, 0.03));
  if (look.gems && look.rarity >= 2) {
    const [gu, gv] = at(0.4);
    parts.push(part(circle(gu, gv, 0.035), look.gem, 0.035));
  }
  return { parts };
};

/** A ring of picks and tension wrenches. */
export const lockpick: ItemPainter = (look, rng) => {
  const r = rng('picks');
  const count = r.int(2, 3);
  const metal = look.metal.finish === 'metal' ? look.metal : (look.accent as Material);
  const parts: Part[] = [part(ring(-0.22, 0.24, 0.12, 0.025), look.accent, 0.025, { round: true })];
  for (let i = 0; i < count; i++) {
    const a = -0.6 - i * 0.35;
    const c = Math.cos(a);
    const s = Math.sin(a);
    const u0 = -0.22 + c * 0.12;
    const v0 = 0.24 + s * 0.12;
    const u1 = u0 + c * 0.56;
    const v1 = v0 + s * 0.56;
    const tip = i % 3;
    parts.push(
      part(capsule(u0, v0, u1, v1, 0.016), metal, 0.016, { round: true }),
      part(
        capsule(u0 + c * 0.04, v0 + s * 0.04, u0 + c * 0.18, v0 + s * 0.18, 0.035),
        i % 2 ? look.leather : look.trim,
        0.03,
        { round: true },
      ),
      part(
        tip === 0
          ? capsule(u1, v1, u1 - s * 0.06, v1 + c * 0.06, 0.014)
          : tip === 1
            ? polygon([
                u1,
                v1,
                u1 - s * 0.05 + c * 0.04,
                v1 + c * 0.05 + s * 0.04,
                u1 + c * 0.08,
                v1 + s * 0.08,
              ])
            : circle(u1, v1, 0.03),
        metal,
        0.014,
      ),
    );
  }
  return { parts };
};
