import { mixRgb } from './colour.ts';
import type { ItemLook } from './look.ts';
import { type ItemPainter, part } from './part.ts';
import type { Part } from './scene.ts';
import { box, capsule, circle, intersect, polygon, ring, star, subtract, union } from './sdf.ts';

function pommelAndGem(look: ItemLook, v: number, r: number): Part[] {
  const parts = [part(circle(0, v, r), look.accent, r, { round: true })];
  if (look.gems && look.rarity >= 2) parts.push(part(circle(0, v, r * 0.5), look.gem, r * 0.5));
  return parts;
}

/** Blade outlines, bottom to tip, as half-widths along the blade: straight, leaf, tapered, broad, curved. */
function bladeShape(kind: number, bw: number, base: number, tipStart: number): number[] {
  switch (kind) {
    case 1: // leaf: swells before the tip
      return [
        -bw * 0.8,
        base,
        bw * 0.8,
        base,
        bw * 1.35,
        tipStart - 0.08,
        0,
        0.58,
        -bw * 1.35,
        tipStart - 0.08,
      ];
    case 2: // tapered: narrows all the way
      return [-bw * 1.15, base, bw * 1.15, base, bw * 0.55, tipStart, 0, 0.6, -bw * 0.55, tipStart];
    case 3: // broad, with a clipped tip
      return [
        -bw * 1.3,
        base,
        bw * 1.3,
        base,
        bw * 1.3,
        tipStart,
        bw * 0.4,
        0.56,
        -bw * 0.4,
        0.56,
        -bw * 1.3,
        tipStart,
      ];
    case 4: // curved: a sabre's back edge
      return [
        -bw,
        base,
        bw,
        base,
        bw * 1.2,
        tipStart - 0.1,
        bw * 0.9,
        0.5,
        -bw * 0.3,
        0.58,
        -bw,
        tipStart - 0.05,
      ];
    default:
      return [-bw, base, bw, base, bw, tipStart, 0, 0.58, -bw, tipStart];
  }
}

export const sword: ItemPainter = (look, rng) => {
  const r = rng('blade');
  const bw = r.range(0.048, 0.07);
  const base = -0.16;
  const tipStart = r.range(0.36, 0.44);
  const curved = ['sabre', 'saber', 'scimitar', 'katana', 'cutlass', 'falchion'].some((w) =>
    look.words.has(w),
  );
  const blade = polygon(bladeShape(curved ? 4 : r.int(0, 3), bw, base, tipStart));
  const g = rng('guard');
  const gw = g.range(0.12, 0.19);
  const style = g.int(0, 2);
  const curl = style === 1 ? g.range(0.03, 0.07) : style === 2 ? -g.range(0.03, 0.06) : 0;
  const guard = union(
    capsule(-gw, -0.19 + curl, 0, -0.2, 0.032),
    capsule(0, -0.2, gw, -0.19 + curl, 0.032),
    box(0, -0.2, 0.06, 0.045, 0.015),
    ...(style === 0 ? [circle(-gw, -0.19, 0.04), circle(gw, -0.19, 0.04)] : []),
  );
  const pommel = rng('pommel').int(0, 2);
  const parts = [
    part(box(0, -0.34, 0.03, 0.13, 0.01), look.handle, 0.03, { round: true }),
    part(box(0, -0.3, 0.034, 0.012), look.accent, 0.012, { lineless: true }),
    part(box(0, -0.38, 0.034, 0.012), look.accent, 0.012, { lineless: true }),
    part(blade, look.metal, 0.04),
    part(
      box(0, (base + tipStart) / 2 - 0.03, bw * 0.22, (tipStart - base) / 2 - 0.07, 0.01),
      look.metalDark,
      0.02,
      {
        lineless: true,
      },
    ),
    part(guard, look.accent, 0.03, { round: true }),
  ];
  if (pommel === 2)
    parts.push(part(polygon([0, -0.43, 0.06, -0.5, 0, -0.57, -0.06, -0.5]), look.accent, 0.04));
  else parts.push(...pommelAndGem(look, -0.49, pommel === 0 ? 0.05 : 0.04));
  if (look.gems && look.rarity >= 3) parts.push(part(circle(0, -0.2, 0.035), look.gem, 0.035));
  return { parts, diagonal: true };
};

export const dagger: ItemPainter = (look, rng) => {
  const r = rng('blade');
  const bw = r.range(0.075, 0.095);
  const blade = r.chance(0.5)
    ? polygon([-bw, -0.08, bw, -0.08, bw * 0.8, 0.2, 0, 0.5, -bw * 0.8, 0.2])
    : polygon([-bw * 0.7, -0.08, bw, -0.08, bw * 1.1, 0.12, 0.02, 0.5, -bw * 0.7, 0.25]);
  return {
    diagonal: true,
    parts: [
      part(box(0, -0.26, 0.036, 0.15, 0.015), look.handle, 0.036, { round: true }),
      part(blade, look.metal, 0.04),
      part(capsule(-0.14, -0.1, 0.14, -0.1, 0.035), look.accent, 0.035, { round: true }),
      ...pommelAndGem(look, -0.44, 0.055),
    ],
  };
};

export const axe: ItemPainter = (look, rng) => {
  const double = rng('head').chance(0.35);
  const edge = (s: number) =>
    polygon([
      0.03 * s,
      0.46,
      0.16 * s,
      0.48,
      0.32 * s,
      0.58,
      0.37 * s,
      0.36,
      0.32 * s,
      0.12,
      0.16 * s,
      0.24,
      0.03 * s,
      0.22,
    ]);
  const blade = double
    ? union(edge(1), edge(-1))
    : union(edge(1), polygon([-0.03, 0.44, -0.15, 0.4, -0.17, 0.3, -0.03, 0.26]));
  const bite = circle(0.02, 0.35, 0.28);
  return {
    diagonal: true,
    parts: [
      part(capsule(0, -0.56, 0, 0.52, 0.034), look.handle, 0.034, { round: true }),
      part(blade, look.metal, 0.05),
      part(
        subtract(blade, bite),
        { base: mixRgb(look.metal.base, [255, 255, 255], 0.3), finish: 'metal' },
        0.02,
        {
          lineless: true,
        },
      ),
      part(box(0, 0.35, 0.05, 0.12, 0.015), look.accent, 0.04),
      part(box(0, -0.4, 0.045, 0.1, 0.01), look.leather, 0.045, { round: true }),
    ],
  };
};

export const mace: ItemPainter = (look, rng) => {
  const spikes = rng('head').int(6, 8);
  const flanges: Part[] = [];
  for (let i = 0; i < spikes; i++) {
    const a = (i / spikes) * Math.PI * 2;
    const c = Math.cos(a);
    const s = Math.sin(a);
    flanges.push(
      part(
        polygon([c * 0.22, 0.34 + s * 0.22, -s * 0.05, 0.34 + c * 0.05, s * 0.05, 0.34 - c * 0.05]),
        look.metalDark,
        0.03,
      ),
    );
  }
  return {
    diagonal: true,
    parts: [
      part(capsule(0, -0.56, 0, 0.25, 0.034), look.handle, 0.034, { round: true }),
      ...flanges,
      part(circle(0, 0.34, 0.15), look.metal, 0.15, { round: true }),
      part(box(0, 0.16, 0.06, 0.035, 0.015), look.accent, 0.03),
      part(box(0, -0.4, 0.045, 0.12, 0.01), look.leather, 0.045, { round: true }),
      ...pommelAndGem(look, -0.55, 0.05),
    ],
  };
};

export const hammer: ItemPainter = (look, rng) => {
  const spike = rng('head').chance(0.5);
  const parts: Part[] = [part(capsule(0, -0.56, 0, 0.42, 0.032), look.handle, 0.032, { round: true })];
  if (spike) parts.push(part(polygon([-0.04, 0.44, 0.04, 0.44, 0, 0.6]), look.metalDark, 0.03));
  parts.push(
    part(box(0, 0.34, 0.25, 0.11, 0.025), look.metal, 0.05),
    part(box(-0.22, 0.34, 0.035, 0.125, 0.01), look.accent, 0.03),
    part(box(0.22, 0.34, 0.035, 0.125, 0.01), look.accent, 0.03),
    part(box(0, -0.42, 0.045, 0.11, 0.01), look.leather, 0.045, { round: true }),
  );
  if (look.gems && look.rarity >= 2) parts.push(part(circle(0, 0.34, 0.055), look.gem, 0.055));
  return { diagonal: true, parts };
};

export const spear: ItemPainter = (look, rng) => {
  const w = rng('head').range(0.07, 0.1);
  return {
    diagonal: true,
    parts: [
      part(capsule(0, -0.6, 0, 0.3, 0.026), look.handle, 0.026, { round: true }),
      part(polygon([0, 0.6, w, 0.4, 0.03, 0.28, -0.03, 0.28, -w, 0.4]), look.metal, 0.04),
      part(box(0, 0.26, 0.036, 0.05, 0.01), look.accent, 0.036, { round: true }),
      part(polygon([0.03, 0.22, 0.14, 0.1, 0.1, 0.02, 0.02, 0.16]), look.paint, 0.03),
    ],
  };
};

export const bow: ItemPainter = (look) => {
  const limb = intersect(ring(-0.52, 0, 0.64, 0.032), box(0.2, 0, 0.5, 0.56));
  return {
    diagonal: true,
    parts: [
      part(capsule(-0.23, -0.56, -0.23, 0.56, 0.007), { base: [230, 222, 200], finish: 'matte' }, 0.007, {
        lineless: true,
      }),
      part(limb, look.metal.finish === 'metal' ? look.handle : look.metal, 0.032, { round: true }),
      part(box(0.12, 0, 0.04, 0.09, 0.015), look.leather, 0.04, { round: true }),
      part(capsule(-0.3, 0, 0.32, 0, 0.012), look.handle, 0.012, { round: true }),
      part(polygon([0.28, 0.05, 0.42, 0, 0.28, -0.05]), look.accent, 0.03),
      part(polygon([-0.34, 0.05, -0.22, 0.0, -0.34, -0.05, -0.28, 0]), look.paint, 0.02),
      part(circle(-0.23, 0.56, 0.03), look.accent, 0.03, { round: true }),
      part(circle(-0.23, -0.56, 0.03), look.accent, 0.03, { round: true }),
    ],
  };
};

export const staff: ItemPainter = (look, rng) => {
  const crystal = rng('head').chance(0.4);
  const parts: Part[] = [part(capsule(0, -0.6, 0, 0.32, 0.026, 0.034), look.handle, 0.03, { round: true })];
  if (crystal) {
    parts.push(
      part(capsule(-0.03, 0.3, -0.1, 0.44, 0.02), look.accent, 0.02, { round: true }),
      part(capsule(0.03, 0.3, 0.1, 0.44, 0.02), look.accent, 0.02, { round: true }),
      part(polygon([0, 0.6, 0.07, 0.44, 0, 0.3, -0.07, 0.44]), look.gem, 0.06),
    );
  } else {
    parts.push(
      part(ring(0, 0.44, 0.12, 0.024), look.accent, 0.024, { round: true }),
      part(circle(0, 0.44, 0.08), look.gem, 0.08, { round: true }),
    );
  }
  parts.push(part(box(0, 0.22, 0.04, 0.03, 0.01), look.accent, 0.03, { round: true }));
  parts.push(part(box(0, -0.1, 0.04, 0.09, 0.01), look.leather, 0.04, { round: true }));
  return { diagonal: true, parts };
};

export const wand: ItemPainter = (look, rng) => {
  const tip = rng('tip').chance(0.5) ? star(0, 0.4, 0.14, 0.06, 5) : circle(0, 0.4, 0.09);
  return {
    diagonal: true,
    parts: [
      part(capsule(0, -0.5, 0, 0.32, 0.03, 0.018), look.handle, 0.025, { round: true }),
      part(box(0, -0.3, 0.042, 0.12, 0.01), look.leather, 0.04, { round: true }),
      part(box(0, -0.15, 0.04, 0.025, 0.01), look.accent, 0.04, { round: true }),
      part(box(0, 0.28, 0.035, 0.03, 0.01), look.accent, 0.035, { round: true }),
      part(tip, look.gem, 0.09, { round: true }),
    ],
  };
};

/** Three curved blades over a knuckle grip. */
export const claws: ItemPainter = (look, rng) => {
  const r = rng('blades');
  const length = r.range(0.42, 0.54);
  const curve = r.range(0.1, 0.2);
  const blade = (u: number) =>
    polygon([
      u - 0.045,
      -0.08,
      u - 0.045,
      length * 0.4,
      u - 0.015 + curve * 0.45,
      length * 0.78,
      u + curve,
      length,
      u + 0.03 + curve * 0.3,
      length * 0.68,
      u + 0.045,
      length * 0.35,
      u + 0.045,
      -0.08,
    ]);
  const blades = union(blade(-0.16), blade(0), blade(0.16));
  return {
    parts: [
      part(blades, look.metal, 0.03),
      part(box(0, -0.12, 0.27, 0.07, 0.04), look.accent, 0.05),
      part(box(0, -0.28, 0.08, 0.12, 0.03), look.leather, 0.05, { round: true }),
      part(capsule(-0.22, -0.24, 0.22, -0.24, 0.025), look.leather, 0.025, { round: true }),
      ...(look.gems && look.rarity >= 2 ? [part(circle(0, -0.12, 0.045), look.gem, 0.045)] : []),
    ],
  };
};
