import type { Rng } from '../random.ts';
import type { Rgb } from './colour.ts';
import { glowMaterial, RARITY_GLOW } from './materials.ts';
import { part } from './part.ts';
import type { Element } from './prompt.ts';
import type { Glow, Part } from './scene.ts';
import { capsule, circle, ellipse, polygon, ring, rotate, star, union } from './sdf.ts';

export interface Effects {
  behind: Part[];
  front: Part[];
  glow?: Glow;
}

/** Where particles go: on a ring around the item, away from its middle. */
function spot(rng: Rng, i: number, count: number): [number, number] {
  const a = ((i + rng.range(0.1, 0.9)) / count) * Math.PI * 2;
  const r = rng.range(0.34, 0.44);
  return [Math.cos(a) * r, Math.sin(a) * r];
}

/** The element's particles (flames, ice stars, bubbles, wisps, rays, bolts) and the halo colour, from the item's palette ramp. */
export function elementEffects(
  element: Element,
  ramp: readonly Rgb[] | undefined,
  rarity: number,
  rng: Rng,
  particles: boolean,
): Effects {
  const effects: Effects = { behind: [], front: [] };
  if (element === 'none' || !ramp) {
    if (rarity >= 3)
      effects.glow = { colour: RARITY_GLOW[rarity] as Rgb, radius: 0.05 + rarity * 0.01, strength: 0.45 };
    return effects;
  }
  effects.glow = { colour: ramp[2] as Rgb, radius: 0.06 + rarity * 0.012, strength: 0.55 };
  if (!particles) return effects;
  const material = glowMaterial(ramp);
  const count = 2 + Math.min(4, rarity);
  const r = rng.fork(`particles:${element}`);
  for (let i = 0; i < count; i++) {
    const [u, v] = spot(r, i, count);
    const s = r.range(0.035, 0.06);
    const front = r.chance(0.5);
    const list = front ? effects.front : effects.behind;
    switch (element) {
      case 'fire':
        list.push(
          part(
            union(circle(u, v, s), polygon([u - s, v, u + s, v, u + r.range(-s, s), v + s * 2.8])),
            material,
            s,
            { lineless: true, halo: false },
          ),
        );
        break;
      case 'frost':
        list.push(
          part(star(u, v, s * 1.4, s * 0.35, 4, r.range(0, 0.5)), material, s * 0.6, {
            lineless: true,
            halo: false,
          }),
        );
        break;
      case 'poison':
        list.push(
          part(
            i % 2
              ? ring(u, v, s * 0.8, s * 0.22)
              : union(circle(u, v - s, s), polygon([u - s, v - s, u + s, v - s, u, v + s * 1.6])),
            material,
            s,
            { lineless: true, halo: false },
          ),
        );
        break;
      case 'shadow':
        list.push(
          part(rotate(ellipse(u, v, s * 2.2, s * 0.8), r.range(-1, 1), u, v), material, s, {
            lineless: true,
            alpha: 0.8,
          }),
        );
        break;
      case 'holy':
        list.push(part(star(u, v, s * 1.5, s * 0.3, 4), material, s * 0.6, { lineless: true, halo: false }));
        break;
      case 'lightning': {
        let pu = u;
        let pv = v;
        const segments = [];
        for (let k = 0; k < 3; k++) {
          const nu = pu + r.range(-0.07, 0.07);
          const nv = pv - r.range(0.05, 0.09);
          segments.push(capsule(pu, pv, nu, nv, 0.014));
          pu = nu;
          pv = nv;
        }
        list.push(part(union(...segments), material, 0.014, { lineless: true, halo: false }));
        break;
      }
    }
  }
  if (element === 'holy') {
    const rays = [];
    for (let i = 0; i < 8; i++) {
      const a = (i / 8) * Math.PI * 2 + 0.2;
      const c = Math.cos(a);
      const s = Math.sin(a);
      rays.push(
        polygon([
          c * 0.5 - s * 0.05,
          s * 0.5 + c * 0.05,
          c * 0.5 + s * 0.05,
          s * 0.5 - c * 0.05,
          c * 0.1,
          s * 0.1,
        ]),
      );
    }
    effects.behind.unshift(part(union(...rays), material, 0.2, { lineless: true, alpha: 0.55, halo: false }));
  }
  return effects;
}
