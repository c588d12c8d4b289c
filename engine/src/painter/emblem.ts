import { mixRgb } from './colour.ts';
import { type ItemPainter, part } from './part.ts';
import type { Material, Part } from './scene.ts';
import { box, circle, inflate, polygon, ring, star, subtract } from './sdf.ts';

/**
 * A clean generic icon for what no silhouette draws (a game's implant, a module): a bevelled plate
 * in the prompt's first colour, a rim in its second, and a simple mark in the middle. It says "an
 * item of this game" without pretending to be a sword.
 */
export const emblem: ItemPainter = (look, rng) => {
  const r = rng('plate');
  const shape = r.int(0, 3);
  const plate =
    shape === 0
      ? box(0, 0, 0.36, 0.36, 0.1)
      : shape === 1
        ? star(0, 0, 0.42, 0.42 * Math.cos(Math.PI / 6), 6, Math.PI / 6)
        : shape === 2
          ? circle(0, 0, 0.4)
          : polygon([0, 0.42, 0.36, 0.22, 0.3, -0.2, 0, -0.42, -0.3, -0.2, -0.36, 0.22]);
  const face: Material = { base: look.paint.base, finish: 'metal' };
  const rim: Material = { base: mixRgb(look.trim.base, [255, 255, 255], 0.1), finish: 'metal' };
  const inner = inflate(plate, -0.06);
  const parts: Part[] = [part(subtract(plate, inner), rim, 0.03), part(inner, face, 0.08)];
  const m = rng('mark');
  const mark = m.int(0, 3);
  const size = m.range(0.12, 0.16);
  const symbol =
    mark === 0
      ? polygon([0, size * 1.3, size, 0, 0, -size * 1.3, -size, 0])
      : mark === 1
        ? ring(0, 0, size, 0.035)
        : mark === 2
          ? star(0, 0, size * 1.3, size * 0.5, 4)
          : polygon([
              -size,
              size * 0.6,
              0,
              -size * 0.5,
              size,
              size * 0.6,
              size,
              size * 0.1,
              0,
              -size,
              -size,
              size * 0.1,
            ]);
  // The mark in the second colour, brighter, so it reads against the face.
  const ink: Material = { base: mixRgb(look.trim.base, [255, 255, 255], 0.3), finish: 'gem' };
  parts.push(part(symbol, ink, 0.05));
  return { parts };
};
