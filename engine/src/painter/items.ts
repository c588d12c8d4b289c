import type { ItemFeature } from '@lootsmith/protocol';
import type { Rng } from '../random.ts';
import { orb, tome, totem } from './arcana.ts';
import { armor, chainmail, cloak, robe, tunic } from './armour.ts';
import { bandage, bomb, dust, essence, map } from './consumables.ts';
import { battery, canister, chip, implant, medkit, syringe, terminal, visor } from './devices.ts';
import { elementEffects } from './effects.ts';
import { emblem } from './emblem.ts';
import { EXTENT_STEP, extentOf, featureParts } from './features.ts';
import { ammo, grenade, gun, rifle } from './firearms.ts';
import { flail, whip } from './flexible-weapons.ts';
import { boots, sabatons } from './footwear.ts';
import { bag, belt, chest, coin, food, hide, ingot, log, ore } from './goods.ts';
import { screwdriver, wrench } from './hand-tools.ts';
import { bracers, gauntlets, gloves } from './handwear.ts';
import { can, carrot, dish, seeds, wheat } from './harvest.ts';
import { circlet, crown, hat, helmet, hood, thorn_crown } from './headwear.ts';
import { jacket, vest } from './jackets.ts';
import { greaves, leggings, tassets } from './legwear.ts';
import { chooseLook } from './look.ts';
import { withMainColour } from './main-colour.ts';
import type { ItemPainter } from './part.ts';
import { halberd, scythe, trident } from './polearms.ts';
import type { ItemKind, PromptReading } from './prompt.ts';
import { arrow, crossbow, quiver } from './ranged.ts';
import { bone, cloth, crystal, feather, mushroom } from './reagents.ts';
import type { Part, Scene } from './scene.ts';
import { rotate } from './sdf.ts';
import { buckler, kite_shield, shield, tower_shield } from './shields.ts';
import { fishing_rod, horn, lantern, lockpick, pickaxe, torch } from './tools.ts';
import { amulet, book, gem, herb, key, potion, ring_, scroll } from './trinkets.ts';
import { axe, bow, claws, dagger, hammer, mace, spear, staff, sword, wand } from './weapons.ts';

export const ITEM_PAINTERS: Record<ItemKind, ItemPainter> = {
  sword,
  dagger,
  claws,
  axe,
  mace,
  flail,
  hammer,
  spear,
  trident,
  halberd,
  scythe,
  whip,
  bow,
  crossbow,
  arrow,
  quiver,
  staff,
  wand,
  shield,
  kite_shield,
  tower_shield,
  buckler,
  helmet,
  hood,
  crown,
  circlet,
  thorn_crown,
  hat,
  armor,
  chainmail,
  robe,
  cloak,
  tunic,
  leggings,
  greaves,
  tassets,
  boots,
  sabatons,
  gloves,
  gauntlets,
  bracers,
  ring: ring_,
  amulet,
  belt,
  totem,
  orb,
  potion,
  essence,
  dust,
  scroll,
  map,
  bandage,
  bomb,
  food,
  book,
  tome,
  ore,
  ingot,
  gem,
  crystal,
  herb,
  mushroom,
  hide,
  cloth,
  log,
  coin,
  bone,
  feather,
  key,
  lockpick,
  lantern,
  torch,
  fishing_rod,
  pickaxe,
  horn,
  bag,
  chest,
  gun,
  rifle,
  grenade,
  ammo,
  syringe,
  medkit,
  chip,
  implant,
  terminal,
  battery,
  canister,
  visor,
  jacket,
  vest,
  wrench,
  screwdriver,
  seeds,
  wheat,
  carrot,
  dish,
  can,
  emblem,
};

const FRAME = 0.46;

/** Kinds that are a feature by themselves. */
const KIND_FEATURE: Partial<Record<ItemKind, ItemFeature>> = {
  horn: 'horns',
  gem: 'gem',
  crystal: 'gem',
  feather: 'feathers',
  bone: 'skull',
};

/** Turns and stretches a drawing a little: every name stands its item at its own angle and build. */
function posed(parts: Part[], angle: number, stretch: number): Part[] {
  return parts.map((p) => {
    const turned = rotate(p.sdf, angle);
    return {
      ...p,
      sdf: (u: number, v: number) => turned(u * stretch, v / stretch) * Math.min(stretch, 1 / stretch),
    };
  });
}

/** Centres a drawing and scales it down until it fits the icon with room for its outline. */
function fitToFrame(parts: Part[]): Part[] {
  const extent = extentOf(parts);
  if (!extent) return parts;
  const { minU, maxU, minV, maxV } = extent;
  const step = EXTENT_STEP;
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
export function paintItem(reading: PromptReading, seeded: Rng): Scene {
  // A subject the painter has no silhouette for gets a clean generic emblem in the prompt's colours.
  const kind = reading.kind ?? 'emblem';
  // The name joins the seed, so two names of one kind differ even under one explicit seed.
  const rng = seeded.fork(`name:${reading.name}`);
  const look = chooseLook(kind, reading, rng.fork('look'));
  const drawing = ITEM_PAINTERS[kind](look, (name) => rng.fork(`${kind}:${name}`));
  // A war horn is not drawn with horns on it, nor a gem with a gem: the kind is that feature already.
  const shown = reading.features.filter((f) => KIND_FEATURE[kind] !== f);
  const features = featureParts(shown, drawing.parts, look, (name) => rng.fork(name));
  let drawn = [...features.behind, ...drawing.parts, ...features.front];
  const [main] = reading.colours;
  // The main colour covers a third of the item, or its gem when a gem carries it (a ruby ring).
  if (main) {
    const own = new Set(drawing.parts.map((p) => p.material));
    drawn = withMainColour(drawn, main, reading.features.includes('gem') ? 0.2 : 0.35, own);
  }
  const pose = rng.fork('pose');
  const parts = fitToFrame(
    posed(drawn, (drawing.diagonal ? -Math.PI / 4 : 0) + pose.range(-0.07, 0.07), pose.range(0.93, 1.07)),
  );
  const effects = elementEffects(
    reading.element,
    look.ramp,
    reading.rarity,
    rng.fork('effects'),
    !reading.negative.effects,
  );
  const glow = features.glow ?? effects.glow;
  return {
    parts: [...effects.behind, ...parts, ...effects.front],
    extent: glow ? 1.08 + reading.rarity * 0.01 : 1.04,
    ...(glow ? { glow } : {}),
  };
}
