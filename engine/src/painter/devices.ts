import { mixRgb } from './colour.ts';
import type { ItemLook } from './look.ts';
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
  ring,
  rotate,
  subtract,
  union,
} from './sdf.ts';

const CASING: Material = { base: [62, 66, 78], finish: 'matte' };
const PCB: Material = { base: [40, 120, 80], finish: 'matte' };
const PIN: Material = { base: [214, 180, 90], finish: 'metal' };

/** A lit screen, light or cell: the element's light, or a cool glow tinted by the look's colour. */
function glowOf(look: ItemLook): Material {
  return look.element === 'none'
    ? { base: mixRgb(look.paint.base, [110, 250, 230], 0.5), finish: 'glow' }
    : look.light;
}

/** A shell for a device: the look's own material when it is not a bare metal, else a painted casing. */
function shellOf(look: ItemLook): Material {
  if (look.metal.finish === 'metal')
    return { base: mixRgb(look.metal.base, CASING.base, 0.45), finish: 'metal' };
  return look.metal.finish === 'glass' ? CASING : look.metal;
}

/** A circuit chip: a dark package on a board, pins along its sides, traces running off. */
export const chip: ItemPainter = (look, rng) => {
  const r = rng('chip');
  const pins = r.int(4, 6);
  const w = 0.22;
  const board: Material = { base: mixRgb(look.paint.base, PCB.base, 0.55), finish: 'matte' };
  const parts: Part[] = [part(box(0, 0, 0.4, 0.4, 0.04), board, 0.04)];
  const trace: Material = { base: [200, 190, 120], finish: 'metal' };
  for (let i = 0; i < pins; i++) {
    const t = -w + 0.04 + (i * (2 * w - 0.08)) / (pins - 1);
    parts.push(
      part(box(t, w + 0.08, 0.016, 0.06, 0.004), PIN, 0.01),
      part(box(t, -w - 0.08, 0.016, 0.06, 0.004), PIN, 0.01),
      part(box(w + 0.08, t, 0.06, 0.016, 0.004), PIN, 0.01),
      part(box(-w - 0.08, t, 0.06, 0.016, 0.004), PIN, 0.01),
    );
    if (i % 2 === 0)
      parts.push(part(capsule(t, w + 0.14, t + 0.06, 0.36, 0.008), trace, 0.008, { lineless: true }));
  }
  parts.push(
    part(
      box(0, 0, w, w, 0.025),
      { base: mixRgb(look.metal.base, [28, 28, 36], 0.75), finish: 'metal' },
      0.05,
    ),
    part(box(0, 0, w * 0.55, w * 0.55, 0.015), glowOf(look), 0.04),
    part(circle(-w + 0.05, w - 0.05, 0.018), PIN, 0.018, { lineless: true }),
  );
  return { parts: parts.map((p) => ({ ...p, sdf: rotate(p.sdf, r.range(-0.2, 0.2)) })) };
};

/** A cybernetic implant: a rounded capsule of alloy, a lit port, contact pins and a trailing lead. */
export const implant: ItemPainter = (look, rng) => {
  const r = rng('implant');
  const shell = look.metal.finish === 'metal' ? look.metal : shellOf(look);
  const glow = glowOf(look);
  const eye =
    look.words.has('ocular') || look.words.has('eye') || look.words.has('optic') || look.words.has('lens');
  if (eye) {
    return {
      parts: [
        part(capsule(0.18, -0.14, 0.42, -0.4, 0.025), look.trim, 0.025, { round: true }),
        part(circle(0, 0.02, 0.3), shell, 0.3, { round: true }),
        part(circle(0, 0.02, 0.18), CASING, 0.05),
        part(circle(0, 0.02, 0.12), glow, 0.1),
        part(circle(0, 0.02, 0.045), { base: [20, 16, 30], finish: 'gem' }, 0.04),
        part(circle(-0.05, 0.08, 0.025), { base: [255, 255, 255], finish: 'glow' }, 0.02, { lineless: true }),
      ],
    };
  }
  const parts: Part[] = [
    part(
      union(capsule(-0.12, -0.34, -0.2, -0.46, 0.02), capsule(0.0, -0.34, 0.04, -0.48, 0.02)),
      look.trim,
      0.02,
      { round: true },
    ),
    part(capsule(0, -0.24, 0, 0.22, 0.2), shell, 0.18, { round: true }),
    part(
      box(0, 0.08, 0.2, 0.018),
      { base: mixRgb(shell.base, [20, 14, 36], 0.4), finish: shell.finish },
      0.01,
      {
        lineless: true,
      },
    ),
    part(box(0, -0.08, 0.1, 0.12, 0.04), CASING, 0.04),
    part(box(0, -0.08, 0.06, 0.08, 0.02), glow, 0.05),
  ];
  for (let i = -1; i <= 1; i++) parts.push(part(box(i * 0.08, 0.36, 0.022, 0.06, 0.008), PIN, 0.02));
  if (r.chance(0.5)) parts.push(part(circle(0.1, 0.22, 0.03), glow, 0.03));
  return { parts: parts.map((p) => ({ ...p, sdf: rotate(p.sdf, r.range(-0.5, -0.3)) })) };
};

/** A deck or terminal: a keyboard slab under a lit screen, seen from the front and a little above. */
export const terminal: ItemPainter = (look, rng) => {
  const r = rng('deck');
  const shell = shellOf(look);
  const screen = glowOf(look);
  const key: Material = { base: mixRgb(shell.base, [230, 230, 240], 0.35), finish: 'matte' };
  const laptop =
    look.words.has('laptop') || look.words.has('terminal') || look.words.has('computer') || r.chance(0.4);
  const parts: Part[] = [];
  const keysTop = laptop ? -0.06 : 0.06;
  if (laptop) {
    parts.push(
      part(polygon([-0.36, -0.02, 0.36, -0.02, 0.32, 0.42, -0.32, 0.42]), shell, 0.04),
      part(polygon([-0.3, 0.03, 0.3, 0.03, 0.27, 0.37, -0.27, 0.37]), CASING, 0.02),
      part(polygon([-0.27, 0.06, 0.27, 0.06, 0.245, 0.34, -0.245, 0.34]), screen, 0.1),
    );
    for (let i = 0; i < 3; i++)
      parts.push(
        part(box(-0.12 + i * 0.03, 0.26 - i * 0.07, 0.12 - i * 0.02, 0.012), CASING, 0.01, {
          lineless: true,
        }),
      );
  }
  parts.push(
    part(polygon([-0.46, -0.4, 0.46, -0.4, 0.4, keysTop + 0.04, -0.4, keysTop + 0.04]), shell, 0.05),
  );
  const rows = 3;
  for (let j = 0; j < rows; j++) {
    const v = keysTop - 0.06 - j * 0.09;
    const inset = (rows - j) * 0.012;
    const count = 7;
    for (let i = 0; i < count; i++) {
      const u = -0.33 - inset + 0.06 + (i * (0.66 + 2 * inset - 0.12)) / (count - 1);
      parts.push(part(box(u, v, 0.035, 0.03, 0.01), key, 0.015));
    }
  }
  parts.push(part(box(0, keysTop - 0.33, 0.16, 0.025, 0.01), key, 0.015));
  if (!laptop) {
    // A cyberdeck's own small screen and its jack.
    parts.push(
      part(box(0.2, keysTop + 0.12, 0.18, 0.1, 0.02), CASING, 0.03),
      part(box(0.2, keysTop + 0.12, 0.14, 0.065, 0.01), screen, 0.06),
      part(capsule(-0.44, keysTop - 0.05, -0.3, keysTop + 0.26, 0.02), look.trim, 0.02, { round: true }),
      part(box(-0.22, keysTop + 0.12, 0.08, 0.05, 0.015), look.accent, 0.03),
    );
  }
  return { parts };
};

/** A battery or power cell: a cylinder with a terminal cap and a charge gauge. */
export const battery: ItemPainter = (look, rng) => {
  const r = rng('cell');
  const w = r.range(0.18, 0.22);
  const body: Material = { base: look.paint.base, finish: 'metal' };
  const charge = glowOf(look);
  const level = r.int(2, 4);
  const parts: Part[] = [
    part(box(0, -0.04, w, 0.38, 0.04), body, w, { round: true }),
    part(box(0, 0.36, w * 0.45, 0.05, 0.015), look.metal.finish === 'metal' ? look.metal : PIN, 0.04, {
      round: true,
    }),
    part(box(0, 0.3, w + 0.005, 0.035, 0.01), CASING, w, { round: true }),
    part(box(0, -0.38, w + 0.005, 0.035, 0.01), CASING, w, { round: true }),
    part(box(0, -0.06, w * 0.55, 0.28, 0.02), CASING, 0.02),
  ];
  for (let i = 0; i < level; i++)
    parts.push(part(box(0, -0.28 + i * 0.11, w * 0.42, 0.04, 0.01), charge, 0.03));
  parts.push(
    part(
      polygon([0.02, 0.05, -0.06, -0.06, 0.0, -0.06, -0.03, -0.16, 0.07, -0.02, 0.01, -0.02]),
      charge,
      0.02,
      { lineless: true },
    ),
  );
  return { parts: parts.map((p) => ({ ...p, sdf: rotate(p.sdf, r.range(-0.35, -0.15)) })) };
};

/** A canister: a squat pressure cylinder with a valve, a hazard band and a gauge. */
export const canister: ItemPainter = (look, rng) => {
  const r = rng('canister');
  const w = r.range(0.22, 0.27);
  const body: Material = { base: look.paint.base, finish: 'metal' };
  const steel =
    look.metal.finish === 'metal' ? look.metal : { base: [150, 156, 168] as const, finish: 'metal' as const };
  const parts: Part[] = [
    part(union(box(0, -0.1, w, 0.3, w * 0.5), ellipse(0, 0.16, w, 0.12)), body, w, { round: true }),
    part(box(0, 0.3, 0.06, 0.06, 0.015), steel, 0.05, { round: true }),
    part(box(0, 0.38, 0.13, 0.025, 0.01), steel, 0.02),
    part(box(0.1, 0.42, 0.03, 0.03, 0.01), look.accent, 0.02),
    part(box(0, -0.1, w + 0.005, 0.06, 0.01), look.trim, w, { round: true }),
  ];
  for (let i = -2; i <= 2; i++)
    parts.push(
      part(
        intersect(rotate(box(i * 0.1, -0.1, 0.022, 0.12), 0.6, i * 0.1, -0.1), box(0, -0.1, w - 0.01, 0.05)),
        { base: [30, 26, 36], finish: 'matte' },
        0.01,
        { lineless: true },
      ),
    );
  if (r.chance(0.6)) {
    parts.push(
      part(circle(-w * 0.45, 0.1, 0.06), CASING, 0.03),
      part(circle(-w * 0.45, 0.1, 0.04), { base: [235, 235, 225], finish: 'matte' }, 0.02),
      part(
        capsule(-w * 0.45, 0.1, -w * 0.45 + 0.03, 0.13, 0.008),
        { base: [200, 40, 40], finish: 'matte' },
        0.008,
        {
          lineless: true,
        },
      ),
    );
  }
  return { parts };
};

/** A syringe or auto-injector: a glass barrel of coloured dose, a plunger, a needle. */
export const syringe: ItemPainter = (look, rng) => {
  const r = rng('syringe');
  const dose: Material = { base: look.paint.base, finish: 'gem' };
  const glass: Material = { base: mixRgb(look.paint.base, [220, 240, 255], 0.75), finish: 'glass' };
  const steel =
    look.metal.finish === 'metal' ? look.metal : { base: [190, 196, 206] as const, finish: 'metal' as const };
  const injector =
    ['injector', 'autoinjector', 'hypo', 'hypospray', 'stim', 'stimpak', 'pen'].some((w) =>
      look.words.has(w),
    ) || r.chance(0.3);
  const parts: Part[] = injector
    ? [
        part(capsule(0, -0.46, 0, -0.3, 0.012), steel, 0.012, { round: true }),
        part(box(0, -0.24, 0.08, 0.07, 0.02), CASING, 0.05),
        part(box(0, 0.04, 0.11, 0.24, 0.05), shellOf(look), 0.11, { round: true }),
        part(box(0, 0.02, 0.05, 0.15, 0.02), glass, 0.04, { alpha: 0.9 }),
        part(box(0, -0.04, 0.045, 0.09, 0.015), dose, 0.04),
        part(box(0, 0.36, 0.09, 0.06, 0.03), look.trim, 0.06, { round: true }),
        part(box(0, 0.24, 0.115, 0.02, 0.008), look.accent, 0.11, { round: true }),
      ]
    : [
        part(capsule(0, -0.56, 0, -0.3, 0.01), steel, 0.01, { round: true }),
        part(box(0, -0.28, 0.05, 0.03, 0.01), steel, 0.03),
        part(box(0, 0.3, 0.02, 0.16), { base: [225, 228, 235], finish: 'matte' }, 0.02),
        part(box(0, 0.5, 0.1, 0.025, 0.01), { base: [225, 228, 235], finish: 'matte' }, 0.02),
        part(box(0, -0.02, 0.085, 0.26, 0.02), glass, 0.06, { alpha: 0.85 }),
        part(box(0, -0.1, 0.07, 0.16, 0.015), dose, 0.06, { round: true }),
        part(box(0, 0.13, 0.075, 0.025, 0.01), CASING, 0.02),
        part(box(0, 0.26, 0.14, 0.02, 0.01), { base: [225, 228, 235], finish: 'matte' }, 0.02),
      ];
  for (let i = 0; i < 3; i++)
    parts.push(
      part(box(-0.05, -0.2 + i * 0.08, 0.02, 0.005), { base: [250, 250, 255], finish: 'matte' }, 0.005, {
        lineless: true,
      }),
    );
  return { diagonal: true, parts };
};

/** A medical kit: a case with a handle and a cross. */
export const medkit: ItemPainter = (look, rng) => {
  const r = rng('medkit');
  const body: Material =
    look.metal.finish === 'cloth' ? look.metal : { base: [232, 232, 226], finish: 'matte' };
  const cross: Material = { base: look.paint.base, finish: 'matte' };
  const w = r.range(0.36, 0.4);
  return {
    parts: [
      part(subtract(box(0, 0.28, 0.13, 0.08, 0.04), box(0, 0.26, 0.08, 0.04, 0.02)), CASING, 0.03),
      part(box(0, -0.06, w, 0.28, 0.06), body, 0.06),
      part(
        box(0, 0.16, w + 0.01, 0.02, 0.01),
        { base: mixRgb(body.base, [40, 30, 50], 0.3), finish: 'matte' },
        0.01,
        {
          lineless: true,
        },
      ),
      part(union(box(0, -0.08, 0.05, 0.15, 0.01), box(0, -0.08, 0.15, 0.05, 0.01)), cross, 0.03),
      part(box(-w + 0.06, 0.16, 0.03, 0.04, 0.01), look.accent, 0.02),
      part(box(w - 0.06, 0.16, 0.03, 0.04, 0.01), look.accent, 0.02),
    ],
  };
};

/** A visor or goggles: a band round a lit lens (or two round lenses for goggles). */
export const visor: ItemPainter = (look, rng) => {
  const r = rng('visor');
  const frame = shellOf(look);
  const lens: Material =
    look.element === 'none'
      ? { base: mixRgb(look.paint.base, [140, 220, 255], 0.35), finish: 'glass' }
      : glowOf(look);
  const goggles =
    look.words.has('goggles') || look.words.has('glasses') || look.words.has('shades') || r.chance(0.3);
  const strap = capsule(-0.44, 0.02, 0.44, 0.02, 0.045);
  if (goggles) {
    return {
      parts: [
        part(strap, look.leather, 0.04, { round: true }),
        part(
          union(circle(-0.19, 0.0, 0.19), circle(0.19, 0.0, 0.19), box(0, 0.02, 0.08, 0.04)),
          frame,
          0.06,
          {
            round: true,
          },
        ),
        part(circle(-0.19, 0.0, 0.135), lens, 0.1, { alpha: 0.95 }),
        part(circle(0.19, 0.0, 0.135), lens, 0.1, { alpha: 0.95 }),
        part(ring(-0.19, 0.0, 0.16, 0.014), look.accent, 0.012, { round: true }),
        part(ring(0.19, 0.0, 0.16, 0.014), look.accent, 0.012, { round: true }),
        part(circle(-0.25, 0.05, 0.025), { base: [255, 255, 255], finish: 'glow' }, 0.02, { lineless: true }),
        part(circle(0.15, 0.05, 0.025), { base: [255, 255, 255], finish: 'glow' }, 0.02, { lineless: true }),
      ],
    };
  }
  // A wrap-around visor: one wide lens over the eyes, a notch for the nose, arms going back.
  const notch = ellipse(0, -0.16, 0.09, 0.1);
  const band = subtract(box(0, 0.0, 0.44, 0.14, 0.1), notch);
  const glass = subtract(box(0, 0.0, 0.38, 0.09, 0.07), inflate(notch, 0.03));
  return {
    parts: [
      part(
        union(box(-0.44, 0.06, 0.05, 0.03, 0.02), box(0.44, 0.06, 0.05, 0.03, 0.02)),
        look.metalDark,
        0.02,
      ),
      part(band, frame, 0.06),
      part(glass, lens, 0.1),
      part(box(-0.16, 0.05, 0.14, 0.012, 0.006), { base: [255, 255, 255], finish: 'glow' }, 0.01, {
        lineless: true,
      }),
      part(box(0.4, -0.06, 0.04, 0.05, 0.015), look.accent, 0.03),
      part(circle(0.4, -0.06, 0.018), glowOf(look), 0.02),
    ],
  };
};
