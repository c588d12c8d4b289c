import type { Rng } from '../random.ts';
import type { ItemLook } from './look.ts';
import type { Material, Part } from './scene.ts';
import type { Sdf } from './sdf.ts';

export function part(sdf: Sdf, material: Material, bevel: number, extra: Partial<Part> = {}): Part {
  return { sdf, material, bevel, ...extra };
}

/** What an item painter returns: its parts, drawn upright or along the icon's diagonal. */
export interface Drawing {
  parts: Part[];
  diagonal?: boolean;
}

/** An item painter: parts from a look; `rng(name)` gives the named part its own random stream. */
export type ItemPainter = (look: ItemLook, rng: (name: string) => Rng) => Drawing;
