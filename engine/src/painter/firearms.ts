import { mixRgb } from './colour.ts';
import type { ItemLook } from './look.ts';
import { type ItemPainter, part } from './part.ts';
import type { Material, Part } from './scene.ts';
import { box, capsule, circle, ellipse, polygon, ring, rotate, subtract, union } from './sdf.ts';

/** Black polymer: frames, grips and furniture of modern guns. */
const POLYMER: Material = { base: [58, 60, 70], finish: 'matte' };
const BORE: Material = { base: [18, 14, 24], finish: 'matte' };

const hasAny = (look: ItemLook, words: readonly string[]) => words.some((w) => look.words.has(w));
const SMART = ['smartgun', 'smart', 'smartlink', 'linked', 'guided', 'tracking'];
const ENERGY = ['blaster', 'laser', 'plasma', 'ray', 'phaser', 'pulse', 'ion', 'beam', 'energy'];

/** A glowing sight or cell: the element's light, or the look's own. */
function lightOf(look: ItemLook): Material {
  return look.element === 'none'
    ? { base: mixRgb(look.paint.base, [120, 255, 240], 0.45), finish: 'glow' }
    : look.light;
}

/** The grip material: wood or polymer, by what the look is made of. */
function gripOf(look: ItemLook, wooden: boolean): Material {
  if (wooden) return look.handle.finish === 'cloth' ? { base: [120, 74, 40], finish: 'matte' } : look.handle;
  return look.metal.finish === 'metal' ? POLYMER : look.metal;
}

/** A trigger guard loop and its trigger, under a frame whose underside is at `v`. */
function triggerParts(u: number, v: number, metal: Material): Part[] {
  return [
    part(subtract(ring(u, v, 0.07, 0.016), box(u, v + 0.06, 0.1, 0.06)), metal, 0.016, { round: true }),
    part(capsule(u - 0.005, v - 0.005, u - 0.025, v - 0.05, 0.012), metal, 0.012, { round: true }),
  ];
}

/** A semi-automatic pistol, muzzle right: slide, frame, raked grip with a magazine base; a heavy one longer, with a compensator. */
function pistol(look: ItemLook, smart: boolean, heavy: boolean, r: number): Part[] {
  const length = heavy ? 0.42 : 0.32 + r * 0.06;
  const depth = heavy ? 0.09 : 0.075;
  const grip = gripOf(look, false);
  const parts: Part[] = [
    part(polygon([-0.3, 0.02, -0.1, 0.02, -0.15, -0.36, -0.36, -0.36]), grip, 0.05),
    part(box(-0.255, -0.38, 0.11, 0.03, 0.01), look.metalDark, 0.02),
    part(box(-0.02, 0.03, length - 0.04, 0.045, 0.015), POLYMER, 0.03),
    ...triggerParts(-0.05, -0.02, POLYMER),
    part(box(0, 0.05 + depth, length, depth, 0.018), look.metal, 0.04),
    part(box(length - 0.01, 0.05 + depth, 0.012, 0.03), BORE, 0.01, { lineless: true }),
    part(box(-length + 0.05, 0.06 + depth * 2, 0.025, 0.015), look.metalDark, 0.01),
  ];
  for (let i = 0; i < 4; i++)
    parts.push(
      part(box(-length + 0.08 + i * 0.035, 0.05 + depth, 0.008, depth * 0.65), look.metalDark, 0.008, {
        lineless: true,
      }),
    );
  if (heavy)
    for (let i = 0; i < 3; i++)
      parts.push(
        part(box(length - 0.1 + i * 0.035, 0.09 + depth, 0.01, 0.025), BORE, 0.01, { lineless: true }),
      );
  if (smart) {
    // A smartlink: a lit rail along the slide, a big optic on top, a cable down into the grip.
    const sight = lightOf(look);
    parts.push(
      part(box(0.02, 0.05 + depth, length - 0.08, 0.014, 0.007), sight, 0.014, { lineless: true }),
      part(box(-0.02, 0.24 + depth, 0.17, 0.06, 0.03), POLYMER, 0.04),
      part(box(-0.02, 0.24 + depth, 0.12, 0.025, 0.012), sight, 0.03),
      part(box(-0.02, 0.15 + depth, 0.03, 0.04), look.metalDark, 0.02),
      part(capsule(-0.33, -0.22, -0.46, -0.4, 0.018), look.trim, 0.018, { round: true }),
      part(circle(-0.24, -0.14, 0.03), sight, 0.03),
    );
  } else parts.push(part(box(length - 0.06, 0.06 + depth * 2, 0.02, 0.015), look.metalDark, 0.01));
  return parts;
}

/** A revolver, muzzle right: long barrel, fluted cylinder, hammer and a curved wooden grip. */
function revolver(look: ItemLook): Part[] {
  const grip = gripOf(look, true);
  return [
    part(
      union(polygon([-0.26, 0.06, -0.12, 0.04, -0.2, -0.34, -0.38, -0.3]), circle(-0.29, -0.32, 0.08)),
      grip,
      0.05,
    ),
    part(box(0.16, 0.15, 0.26, 0.04, 0.012), look.metal, 0.03, { round: true }),
    part(box(0.4, 0.2, 0.015, 0.015), look.metalDark, 0.01),
    part(box(0.41, 0.15, 0.01, 0.02), BORE, 0.01, { lineless: true }),
    part(box(-0.1, 0.08, 0.18, 0.09, 0.03), look.metalDark, 0.04),
    ...triggerParts(-0.08, -0.02, look.metalDark),
    part(box(-0.02, 0.1, 0.1, 0.075, 0.03), look.metal, 0.06, { round: true }),
    part(box(-0.02, 0.12, 0.085, 0.012), look.metalDark, 0.01, { lineless: true }),
    part(box(-0.02, 0.08, 0.085, 0.012), look.metalDark, 0.01, { lineless: true }),
    part(polygon([-0.26, 0.14, -0.2, 0.14, -0.25, 0.24, -0.31, 0.22]), look.metalDark, 0.02),
    part(circle(-0.28, -0.12, 0.02), look.accent, 0.02, { round: true }),
  ];
}

/** An energy pistol, emitter right: a rounded body, a glowing cell and rings round the emitter. */
function blaster(look: ItemLook): Part[] {
  const glow = lightOf(look);
  return [
    part(polygon([-0.24, 0.02, -0.08, 0.02, -0.12, -0.34, -0.32, -0.34]), POLYMER, 0.05),
    ...triggerParts(-0.02, -0.04, POLYMER),
    part(union(ellipse(-0.04, 0.08, 0.28, 0.11), box(0.2, 0.1, 0.14, 0.06, 0.03)), look.metal, 0.08, {
      round: true,
    }),
    part(box(-0.06, 0.06, 0.14, 0.03, 0.015), glow, 0.03, { lineless: true }),
    part(box(0.37, 0.1, 0.04, 0.08, 0.02), look.accent, 0.04),
    part(box(0.3, 0.1, 0.015, 0.075, 0.008), look.metalDark, 0.01, { lineless: true }),
    part(circle(0.42, 0.1, 0.035), glow, 0.035),
    part(polygon([-0.22, 0.16, -0.06, 0.18, -0.14, 0.28, -0.26, 0.26]), look.accent, 0.03),
  ];
}

/**
 * A handgun, muzzle right: a pistol (and its smartlinked form), a revolver or an energy blaster, as
 * the words say; an unnamed gun is most often a pistol.
 */
export const gun: ItemPainter = (look, rng) => {
  const r = rng('gun');
  const smart = hasAny(look, SMART);
  const heavy = hasAny(look, ['heavy', 'magnum', 'cannon', 'deagle']);
  const form = look.words.has('revolver')
    ? 'revolver'
    : hasAny(look, ENERGY)
      ? 'blaster'
      : smart || look.words.has('pistol') || heavy
        ? 'pistol'
        : r.pick(['pistol', 'pistol', 'revolver', 'blaster'] as const);
  const parts =
    form === 'revolver'
      ? revolver(look)
      : form === 'blaster'
        ? blaster(look)
        : pistol(look, smart, heavy, r.next());
  if (look.gems && look.rarity >= 3) parts.push(part(circle(-0.24, -0.2, 0.035), look.gem, 0.035));
  const tilt = r.range(0.08, 0.2);
  return { parts: parts.map((p) => ({ ...p, sdf: rotate(p.sdf, tilt) })) };
};

/**
 * A long gun, muzzle up-right: stock, receiver, barrel, grip and magazine; a shotgun's pump, a
 * sniper's scope, a smart rifle's glowing optic, as the words say.
 */
export const rifle: ItemPainter = (look, rng) => {
  const r = rng('rifle');
  const shotgun = hasAny(look, ['shotgun', 'scattergun', 'boomstick']);
  const long = hasAny(look, ['sniper', 'marksman', 'longrifle', 'railgun']);
  const smart = hasAny(look, SMART);
  const energy = hasAny(look, ENERGY) || look.words.has('railgun');
  const wooden = !energy && !smart && (shotgun || look.metal.finish !== 'metal' || r.chance(0.35));
  const furniture = gripOf(look, wooden);
  const muzzle = long ? 0.62 : shotgun ? 0.5 : 0.52 + r.range(-0.04, 0.04);
  const parts: Part[] = [
    // Stock, receiver, pistol grip.
    part(polygon([-0.6, 0.06, -0.28, 0.07, -0.22, -0.02, -0.36, -0.04, -0.6, -0.14]), furniture, 0.05),
    part(polygon([-0.24, -0.02, -0.14, -0.02, -0.17, -0.2, -0.27, -0.2]), furniture, 0.04),
    ...triggerParts(-0.09, -0.04, look.metalDark),
    part(box(-0.06, 0.04, 0.2, 0.065, 0.015), look.metal, 0.04),
    part(box(0.06, 0.04, 0.012, 0.04), look.metalDark, 0.01, { lineless: true }),
  ];
  if (shotgun) {
    parts.push(
      part(box(0.3, 0.07, muzzle - 0.16, 0.028, 0.012), look.metal, 0.028, { round: true }),
      part(box(0.3, 0.02, muzzle - 0.2, 0.022, 0.01), look.metalDark, 0.022, { round: true }),
      part(box(0.3, 0.02, 0.1, 0.035, 0.015), furniture, 0.035, { round: true }),
    );
  } else {
    parts.push(
      part(box(0.26, 0.05, muzzle - 0.26, 0.018, 0.008), look.metal, 0.018, { round: true }),
      part(box(0.26, 0.04, 0.14, 0.04, 0.015), energy ? look.accent : furniture, 0.04),
      part(box(muzzle, 0.05, 0.03, 0.028, 0.008), look.metalDark, 0.02),
      part(polygon([0.0, -0.02, 0.08, -0.02, 0.12, -0.2, 0.04, -0.22]), look.metalDark, 0.03),
    );
  }
  if (energy) {
    const glow = lightOf(look);
    parts.push(
      part(box(-0.06, 0.04, 0.12, 0.02, 0.01), glow, 0.02, { lineless: true }),
      part(circle(muzzle + 0.02, 0.05, 0.03), glow, 0.03),
    );
  }
  if (long || smart || (!shotgun && r.chance(0.4))) {
    const lens = smart ? lightOf(look) : { base: [120, 200, 230] as const, finish: 'glass' as const };
    parts.push(
      part(box(-0.06, 0.13, 0.015, 0.03), look.metalDark, 0.01),
      part(box(-0.06, 0.18, 0.15, 0.03, 0.02), POLYMER, 0.03, { round: true }),
      part(box(0.1, 0.18, 0.025, 0.04, 0.01), POLYMER, 0.03),
      part(box(0.13, 0.18, 0.008, 0.03), lens, 0.01),
    );
  }
  if (smart) parts.push(part(capsule(-0.2, -0.19, -0.38, -0.3, 0.013), look.trim, 0.013, { round: true }));
  if (look.gems && look.rarity >= 3) parts.push(part(circle(-0.44, -0.02, 0.035), look.gem, 0.035));
  const angle = r.range(0.55, 0.7);
  return { parts: parts.map((p) => ({ ...p, sdf: rotate(p.sdf, angle) })) };
};

/** A fragmentation grenade: a ridged body, a spoon lever and a pull ring. */
export const grenade: ItemPainter = (look, rng) => {
  const r = rng('grenade');
  const body =
    look.metal.finish === 'metal'
      ? { base: mixRgb(look.metal.base, [70, 90, 50], 0.55), finish: 'matte' as const }
      : look.metal;
  const parts: Part[] = [part(ellipse(0, -0.1, 0.24, 0.29), body, 0.24, { round: true })];
  const ridge = { base: mixRgb(body.base, [10, 10, 20], 0.35), finish: body.finish };
  for (let i = -1; i <= 1; i++)
    parts.push(part(box(0, -0.1 + i * 0.12, 0.25, 0.008), ridge, 0.008, { lineless: true }));
  for (let i = -1; i <= 1; i += 2)
    parts.push(part(box(i * 0.1, -0.1, 0.008, 0.27), ridge, 0.008, { lineless: true }));
  parts.push(
    part(box(0, 0.22, 0.09, 0.06, 0.02), look.metalDark, 0.04),
    part(polygon([0.06, 0.28, 0.14, 0.26, 0.22, -0.02, 0.17, -0.02, 0.1, 0.2]), look.metal, 0.03),
    part(ring(-0.14, 0.3, 0.07, 0.014), look.accent, 0.014, { round: true }),
  );
  if (r.chance(0.5)) parts.push(part(box(0, -0.1, 0.26, 0.03, 0.01), look.trim, 0.02));
  return { parts };
};

/** Cartridges standing in a row (or a magazine for a game's "magazine"): brass cases, tipped rounds. */
export const ammo: ItemPainter = (look, rng) => {
  const r = rng('ammo');
  const brass: Material = { base: [214, 168, 64], finish: 'metal' };
  const tip =
    look.metal.finish === 'metal' ? look.metal : { base: [190, 110, 70] as const, finish: 'metal' as const };
  const shell = look.words.has('shells') || look.words.has('shell');
  if (look.words.has('magazine') || look.words.has('clip')) {
    return {
      parts: [
        part(polygon([-0.14, 0.34, 0.12, 0.34, 0.22, -0.4, -0.06, -0.4]), look.metalDark, 0.05),
        part(box(0.08, -0.42, 0.16, 0.04, 0.015), POLYMER, 0.03),
        part(
          union(ellipse(-0.02, 0.36, 0.1, 0.04), polygon([-0.12, 0.36, 0.08, 0.36, -0.02, 0.48])),
          brass,
          0.03,
        ),
        part(box(0.02, 0.0, 0.04, 0.2, 0.01), BORE, 0.01, { lineless: true }),
      ],
    };
  }
  const count = r.int(3, 4);
  const parts: Part[] = [];
  for (let i = 0; i < count; i++) {
    const u = (i - (count - 1) / 2) * 0.2;
    const base = -0.4 + (i % 2) * 0.04;
    if (shell) {
      parts.push(
        part(box(u, base + 0.28, 0.075, 0.22, 0.015), look.paint, 0.075, { round: true }),
        part(box(u, base + 0.04, 0.08, 0.05, 0.01), brass, 0.08, { round: true }),
      );
    } else {
      parts.push(
        part(box(u, base + 0.2, 0.065, 0.2, 0.012), brass, 0.065, { round: true }),
        part(box(u, base + 0.02, 0.07, 0.02, 0.005), mixMaterial(brass), 0.07, { round: true }),
        part(union(box(u, base + 0.45, 0.055, 0.06), ellipse(u, base + 0.5, 0.055, 0.12)), tip, 0.055, {
          round: true,
        }),
      );
    }
  }
  return { parts };
};

function mixMaterial(m: Material): Material {
  return { base: mixRgb(m.base, [30, 20, 10], 0.3), finish: m.finish };
}
