import type { Rng } from '../random.ts';
import { hslToRgb, mixRgb, type Rgb } from './colour.ts';
import { ELEMENT_RAMPS, MATERIALS } from './materials.ts';
import { part } from './part.ts';
import type { Element, PromptReading } from './prompt.ts';
import type { Material, Part, Scene } from './scene.ts';
import { box, capsule, circle, intersect, polygon, ring, rotate, star, subtract, union } from './sdf.ts';

const SYMBOLS: Array<[string, string]> = [
  ['heal', 'heal healing cure restore regenerate regeneration mend life renew'],
  ['shield', 'shield ward barrier protect protection guard aegis block'],
  ['slash', 'slash strike cleave cut blade sword whirlwind'],
  ['bolt', 'lightning shock thunder chain zap'],
  ['arrow', 'arrow shot volley snipe'],
  ['burst', 'nova burst explosion blast meteor'],
  ['orb', 'fireball orb ball missile projectile'],
  ['drop', 'poison toxic venom plague drop'],
  ['moon', 'shadow stealth vanish curse hex darkness'],
  ['wind', 'haste speed dash sprint wind charge'],
  ['snow', 'frost ice freeze blizzard chill'],
  ['sun', 'holy smite light radiance divine'],
  ['spiral', 'summon portal teleport arcane'],
];
const ELEMENT_SYMBOL: Record<Element, string> = {
  none: 'burst',
  fire: 'orb',
  frost: 'snow',
  poison: 'drop',
  shadow: 'moon',
  holy: 'sun',
  lightning: 'bolt',
};

function symbolShape(symbol: string): Part['sdf'] {
  switch (symbol) {
    case 'heal':
      return union(box(0, 0, 0.08, 0.26, 0.02), box(0, 0, 0.26, 0.08, 0.02));
    case 'shield':
      return union(box(0, 0.1, 0.24, 0.2, 0.04), polygon([-0.24, 0.0, 0.24, 0.0, 0, -0.32]));
    case 'slash':
      return intersect(ring(-0.12, -0.12, 0.4, 0.06), polygon([-0.3, 0.4, 0.4, 0.4, 0.4, -0.3]));
    case 'bolt':
      return polygon([0.06, 0.38, -0.16, 0.0, 0.0, 0.0, -0.1, -0.38, 0.18, 0.06, 0.02, 0.06, 0.14, 0.38]);
    case 'arrow':
      return rotate(
        union(
          box(0, -0.05, 0.03, 0.3),
          polygon([-0.11, 0.2, 0.11, 0.2, 0, 0.38]),
          polygon([-0.1, -0.36, 0.1, -0.36, 0.03, -0.24, -0.03, -0.24]),
        ),
        -Math.PI / 4,
      );
    case 'burst':
      return star(0, 0, 0.36, 0.14, 8);
    case 'orb':
      return union(circle(0.08, 0.08, 0.16), capsule(0.08, 0.08, -0.3, -0.3, 0.14, 0.02));
    case 'drop':
      return union(circle(0, -0.1, 0.2), polygon([-0.19, -0.04, 0.19, -0.04, 0, 0.36]));
    case 'moon':
      return subtract(circle(0, 0, 0.3), circle(0.13, 0.08, 0.25));
    case 'wind':
      return union(
        polygon([-0.3, 0.2, -0.05, 0.0, -0.3, -0.2, -0.2, 0.0]),
        polygon([0.0, 0.2, 0.25, 0.0, 0.0, -0.2, 0.1, 0.0]),
      );
    case 'snow': {
      const arms = [0, 1, 2].map((i) => rotate(box(0, 0, 0.03, 0.34), (i * Math.PI) / 3));
      return union(...arms, star(0, 0, 0.12, 0.06, 6));
    }
    case 'sun':
      return union(circle(0, 0, 0.15), star(0, 0, 0.36, 0.12, 12));
    default:
      return subtract(ring(0, 0, 0.24, 0.06), box(0.18, 0.12, 0.1, 0.1));
  }
}

/** A square ability icon: a glowing symbol on a framed, element-coloured backdrop. */
export function paintSkill(reading: PromptReading, rng: Rng): Scene {
  const words = new Set(reading.words);
  const element = reading.element;
  const symbol =
    SYMBOLS.find(([, list]) => list.split(' ').some((w) => words.has(w)))?.[0] ?? ELEMENT_SYMBOL[element];
  const ramp: readonly Rgb[] =
    element === 'none'
      ? [0.25, 0.4, 0.55, 0.72, 0.9].map((l) => hslToRgb(rng.fork('hue').range(0, 360), 0.7, l))
      : ELEMENT_RAMPS[element];
  const glyph: Material = { base: ramp[2] as Rgb, finish: 'glow', ramp };
  const parts: Part[] = [part(symbolShape(symbol), glyph, 0.12)];
  if (symbol !== 'heal' && !reading.negative.effects) {
    const r = rng.fork('sparks');
    for (let i = 0; i < 3; i++) {
      parts.push(
        part(star(r.range(-0.34, 0.34), r.range(-0.34, 0.34), 0.05, 0.012, 4), glyph, 0.03, {
          lineless: true,
        }),
      );
    }
  }
  const scene: Scene = {
    parts,
    glow: { colour: ramp[2] as Rgb, radius: 0.08, strength: 0.6 },
  };
  if (!reading.negative.background) {
    const deep = mixRgb(ramp[0] as Rgb, [8, 6, 16], 0.65);
    const mid = mixRgb(ramp[1] as Rgb, [8, 6, 16], 0.35);
    const frame = MATERIALS[reading.rarity >= 3 ? 'gold' : 'bronze']?.base as Rgb;
    const framed = !reading.negative.frame;
    scene.background = (u, v) => {
      const edge = Math.max(Math.abs(u), Math.abs(v));
      if (framed && edge > 0.45) {
        const lit = v > Math.abs(u) || -u > Math.abs(v);
        return edge > 0.48
          ? mixRgb(frame, [10, 6, 16], 0.6)
          : mixRgb(frame, lit ? [255, 255, 230] : [20, 10, 30], 0.3);
      }
      const d = Math.min(1, Math.hypot(u, v) / 0.65);
      return mixRgb(mid, deep, Math.round(d * 4) / 4);
    };
  }
  return scene;
}
