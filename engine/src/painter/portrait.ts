import type { Rng } from '../random.ts';
import { hex, mixRgb, type Rgb, rgbOf } from './colour.ts';
import { ELEMENT_RAMPS, MATERIALS } from './materials.ts';
import { part } from './part.ts';
import type { PromptReading } from './prompt.ts';
import type { Material, Part, Scene } from './scene.ts';
import { box, circle, ellipse, intersect, polygon, star, union } from './sdf.ts';

const SKIN = ['#f4cfae', '#e3b08a', '#c68a60', '#9a6642', '#f0c4a0'].map(hex);
const HAIR = ['#2a1e18', '#5a3a20', '#a8742a', '#d8c080', '#8a2a1a', '#c8c8d0'].map(hex);
const BACKDROPS = ['#3a4a6a', '#5a3a4a', '#3a5a4a', '#5a4a3a', '#4a3a6a'].map(hex);

const has = (words: Set<string>, list: string) => list.split(' ').some((w) => words.has(w));
const flat = (rgb: Rgb, finish: Material['finish'] = 'matte'): Material => ({ base: rgb, finish });

/** Head and shoulders of a character: species, headgear and clothing from the prompt's words. */
export function paintPortrait(reading: PromptReading, rng: Rng): Scene {
  const words = new Set(reading.words);
  const element = reading.element;
  const skeleton = has(words, 'skeleton undead lich skull zombie');
  const green = has(words, 'orc goblin troll');
  const giant = words.has('giant');
  let skin: Rgb = rng.fork('skin').pick(SKIN);
  if (green) skin = hex('#6a9a4a');
  if (giant && element === 'frost') skin = hex('#a8c8e0');
  // Skin takes light softly (the cloth model), or a shaded cheek turns into a red blotch.
  const skinM: Material = { base: skin, finish: 'cloth', hueShift: 6 };
  const hair = flat(element === 'frost' && giant ? hex('#e8f4ff') : rng.fork('hair').pick(HAIR), 'cloth');
  const colour = reading.colours[0];
  const clothing: Material = has(words, 'knight warrior paladin guard soldier')
    ? (MATERIALS.steel as Material)
    : flat((colour && rgbOf(colour)) || rng.fork('cloth').pick(BACKDROPS), 'cloth');
  const eyeGlow = skeleton || element === 'shadow';
  const eye: Material = eyeGlow
    ? { base: [255, 80, 80], finish: 'glow', ramp: ELEMENT_RAMPS[element === 'none' ? 'fire' : element] }
    : flat(hex('#1e1420'));

  const parts: Part[] = [
    part(ellipse(0, -0.56, 0.44, 0.28), clothing, 0.1, { round: true }),
    part(box(0, -0.25, 0.075, 0.1), skinM, 0.05, { round: true }),
  ];
  const beard: Part[] = [];
  if (skeleton) {
    const bone = MATERIALS.bone as Material;
    parts.push(
      part(union(circle(0, 0.08, 0.2), box(0, -0.1, 0.12, 0.08, 0.03)), bone, 0.16, { round: true }),
      part(circle(-0.075, 0.04, 0.05), flat(hex('#1a1018')), 0.02, { lineless: true }),
      part(circle(0.075, 0.04, 0.05), flat(hex('#1a1018')), 0.02, { lineless: true }),
      part(circle(-0.075, 0.04, 0.018), eye, 0.018, { lineless: true }),
      part(circle(0.075, 0.04, 0.018), eye, 0.018, { lineless: true }),
      part(polygon([0, -0.02, 0.025, -0.07, -0.025, -0.07]), flat(hex('#1a1018')), 0.01, { lineless: true }),
      part(box(0, -0.13, 0.07, 0.012), flat(hex('#5a4a3a')), 0.01, { lineless: true }),
    );
  } else {
    const ears = words.has('elf')
      ? [polygon([-0.17, 0.0, -0.3, 0.16, -0.17, 0.08]), polygon([0.17, 0.0, 0.3, 0.16, 0.17, 0.08])]
      : words.has('goblin')
        ? [polygon([-0.17, 0.0, -0.36, 0.1, -0.17, 0.1]), polygon([0.17, 0.0, 0.36, 0.1, 0.17, 0.1])]
        : [ellipse(-0.19, 0.02, 0.045, 0.07), ellipse(0.19, 0.02, 0.045, 0.07)];
    for (const e of ears) parts.push(part(e, skinM, 0.03));
    parts.push(part(ellipse(0, 0.03, 0.19, 0.24), skinM, 0.2, { round: true }));
    parts.push(
      part(box(-0.075, 0.03, 0.038, 0.022), flat(hex('#f4f0ea')), 0.02, { lineless: true }),
      part(box(0.075, 0.03, 0.038, 0.022), flat(hex('#f4f0ea')), 0.02, { lineless: true }),
      part(box(-0.068, 0.03, 0.018, 0.022), eye, 0.02, { lineless: true }),
      part(box(0.082, 0.03, 0.018, 0.022), eye, 0.02, { lineless: true }),
      part(box(-0.075, 0.085, 0.045, 0.013), hair, 0.01, { lineless: true }),
      part(box(0.075, 0.085, 0.045, 0.013), hair, 0.01, { lineless: true }),
      part(box(0, -0.12, 0.05, 0.012), flat(hex('#8a3a3a')), 0.01, { lineless: true }),
    );
    if (has(words, 'dwarf giant king viking') || rng.fork('beard').chance(0.25)) {
      beard.push(part(polygon([-0.19, -0.02, 0.19, -0.02, 0.15, -0.3, 0, -0.42, -0.15, -0.3]), hair, 0.05));
      beard.push(part(box(0, -0.1, 0.05, 0.012), flat(hex('#5a2a2a')), 0.01, { lineless: true }));
    }
    if (green && words.has('orc')) {
      parts.push(part(polygon([-0.06, -0.12, -0.04, -0.05, -0.02, -0.12]), flat(hex('#f0ead0')), 0.01));
      parts.push(part(polygon([0.06, -0.12, 0.04, -0.05, 0.02, -0.12]), flat(hex('#f0ead0')), 0.01));
    }
  }
  parts.push(...headgear(words, hair, clothing, rng, skeleton), ...beard);

  const backdrop =
    element === 'none' ? rng.fork('backdrop').pick(BACKDROPS) : (ELEMENT_RAMPS[element][1] as Rgb);
  const dark = mixRgb(backdrop, [10, 8, 20], 0.7);
  const scene: Scene = { parts };
  if (!reading.negative.background) {
    scene.background = (u, v) => {
      const d = Math.min(1, Math.hypot(u, v - 0.05) / 0.75);
      return mixRgb(backdrop, dark, Math.round(d * 4) / 4);
    };
  }
  return scene;
}

function headgear(
  words: Set<string>,
  hair: Material,
  clothing: Material,
  rng: Rng,
  skeleton: boolean,
): Part[] {
  if (has(words, 'king queen prince princess lord emperor')) {
    const gold = MATERIALS.gold as Material;
    return [
      ...(skeleton ? [] : [part(intersect(ellipse(0, 0.1, 0.21, 0.25), box(0, 0.26, 0.3, 0.1)), hair, 0.06)]),
      part(
        union(
          box(0, 0.24, 0.19, 0.04),
          polygon([-0.19, 0.24, -0.15, 0.38, -0.08, 0.26, 0, 0.4, 0.08, 0.26, 0.15, 0.38, 0.19, 0.24]),
        ),
        gold,
        0.04,
      ),
      part(circle(0, 0.24, 0.025), MATERIALS.ruby as Material, 0.025),
    ];
  }
  if (has(words, 'wizard mage sorcerer witch necromancer warlock')) {
    const hat: Material = { base: mixRgb(clothing.base, [40, 20, 80], 0.4), finish: 'cloth' };
    return [
      part(ellipse(0, 0.18, 0.32, 0.06), hat, 0.05),
      part(polygon([-0.18, 0.19, 0.18, 0.19, 0.08, 0.42, 0.2, 0.5]), hat, 0.06),
      part(star(0.02, 0.3, 0.045, 0.02, 5), MATERIALS.gold as Material, 0.02),
    ];
  }
  if (has(words, 'knight warrior paladin guard soldier')) {
    const steel = MATERIALS.steel as Material;
    return [
      part(
        intersect(
          union(circle(0, 0.06, 0.23), box(0, -0.08, 0.23, 0.16, 0.05)),
          union(box(0, 0.25, 0.3, 0.13), box(-0.2, 0, 0.06, 0.3), box(0.2, 0, 0.06, 0.3)),
        ),
        steel,
        0.1,
        { round: true },
      ),
      part(box(0, 0.07, 0.015, 0.17), steel, 0.015),
    ];
  }
  if (has(words, 'rogue thief assassin ranger hunter hooded')) {
    const hood: Material = { base: mixRgb(clothing.base, [30, 30, 30], 0.3), finish: 'cloth' };
    return [
      part(
        intersect(
          ellipse(0, 0.06, 0.26, 0.33),
          union(box(0, 0.26, 0.3, 0.12), box(-0.23, -0.05, 0.06, 0.3), box(0.23, -0.05, 0.06, 0.3)),
        ),
        hood,
        0.08,
        { round: true },
      ),
    ];
  }
  if (skeleton) return [];
  const long = rng.fork('hairstyle').chance(0.4);
  const cap = intersect(ellipse(0, 0.08, 0.215, 0.26), box(0, 0.25, 0.3, 0.12));
  return [
    part(
      long ? union(cap, box(-0.19, -0.05, 0.04, 0.18, 0.02), box(0.19, -0.05, 0.04, 0.18, 0.02)) : cap,
      hair,
      0.06,
    ),
  ];
}
