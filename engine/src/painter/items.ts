import type { Rng } from '../random.ts';
import { armor, boots, gloves, helmet, leggings, shield } from './armour.ts';
import { elementEffects } from './effects.ts';
import { bag, belt, chest, coin, food, hide, ingot, log, ore } from './goods.ts';
import { chooseLook } from './look.ts';
import type { ItemPainter } from './part.ts';
import type { ItemKind, PromptReading } from './prompt.ts';
import type { Part, Scene } from './scene.ts';
import { rotate } from './sdf.ts';
import { amulet, book, gem, herb, key, potion, ring_, scroll } from './trinkets.ts';
import { axe, bow, dagger, hammer, mace, spear, staff, sword, wand } from './weapons.ts';

export const ITEM_PAINTERS: Record<ItemKind, ItemPainter> = {
  sword,
  dagger,
  axe,
  mace,
  hammer,
  spear,
  bow,
  staff,
  wand,
  shield,
  helmet,
  armor,
  leggings,
  boots,
  gloves,
  ring: ring_,
  amulet,
  potion,
  scroll,
  book,
  gem,
  key,
  bag,
  chest,
  ore,
  ingot,
  coin,
  herb,
  log,
  hide,
  belt,
  food,
};

const FRAME = 0.46;

/** Centres a drawing and scales it down until it fits the icon with room for its outline. */
function fitToFrame(parts: Part[]): Part[] {
  const samples = 40;
  const step = 1.4 / samples;
  let minU = Number.POSITIVE_INFINITY;
  let maxU = Number.NEGATIVE_INFINITY;
  let minV = Number.POSITIVE_INFINITY;
  let maxV = Number.NEGATIVE_INFINITY;
  for (let j = 0; j < samples; j++) {
    for (let i = 0; i < samples; i++) {
      const u = (i + 0.5) * step - 0.7;
      const v = (j + 0.5) * step - 0.7;
      if (parts.some((p) => p.sdf(u, v) < 0)) {
        minU = Math.min(minU, u);
        maxU = Math.max(maxU, u);
        minV = Math.min(minV, v);
        maxV = Math.max(maxV, v);
      }
    }
  }
  if (minU > maxU) return parts;
  const cu = (minU + maxU) / 2;
  const cv = (minV + maxV) / 2;
  const k = Math.max(1, (Math.max(maxU - minU, maxV - minV) / 2 + step / 2) / FRAME);
  if (k === 1 && Math.abs(cu) < step && Math.abs(cv) < step) return parts;
  return parts.map((p) => ({
    ...p,
    bevel: p.bevel / k,
    sdf: (u: number, v: number) => p.sdf(u * k + cu, v * k + cv) / k,
  }));
}

/** An inventory icon: the subject's silhouette in the prompt's materials, with its element's effects. */
export function paintItem(reading: PromptReading, rng: Rng): Scene {
  // A subject the painter has no silhouette for becomes a gem: a generic, valuable-looking thing.
  const kind = reading.kind ?? 'gem';
  const look = chooseLook(kind, reading, rng.fork('look'));
  const drawing = ITEM_PAINTERS[kind](look, (name) => rng.fork(`${kind}:${name}`));
  const rotated = drawing.diagonal
    ? drawing.parts.map((p) => ({ ...p, sdf: rotate(p.sdf, -Math.PI / 4) }))
    : drawing.parts;
  const parts = fitToFrame(rotated);
  const effects = elementEffects(
    reading.element,
    reading.rarity,
    rng.fork('effects'),
    !reading.negative.effects,
  );
  return {
    parts: [...effects.behind, ...parts, ...effects.front],
    extent: effects.glow ? 1.08 + reading.rarity * 0.01 : 1.04,
    ...(effects.glow ? { glow: effects.glow } : {}),
  };
}
