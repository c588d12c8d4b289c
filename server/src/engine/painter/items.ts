import type { Rng } from '../random.ts';
import { armor, boots, gloves, helmet, leggings, shield } from './armour.ts';
import { elementEffects } from './effects.ts';
import { bag, chest, coin, ingot, ore } from './goods.ts';
import { chooseLook } from './look.ts';
import type { ItemPainter } from './part.ts';
import { ITEM_KINDS, type ItemKind, type PromptReading } from './prompt.ts';
import type { Scene } from './scene.ts';
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
};

/** An inventory icon: the subject's silhouette in the prompt's materials, with its element's effects. */
export function paintItem(reading: PromptReading, rng: Rng): Scene {
  const kind = reading.kind ?? rng.fork('kind').pick(ITEM_KINDS);
  const look = chooseLook(kind, reading, rng.fork('look'));
  const drawing = ITEM_PAINTERS[kind](look, (name) => rng.fork(`${kind}:${name}`));
  const parts = drawing.diagonal
    ? drawing.parts.map((p) => ({ ...p, sdf: rotate(p.sdf, -Math.PI / 4) }))
    : drawing.parts;
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
