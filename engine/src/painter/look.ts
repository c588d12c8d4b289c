import type { Colour, ItemFeature } from '@lootsmith/protocol';
import type { Rng } from '../random.ts';
import { hex, hslToRgb, mixRgb, type Rgb, rgbOf, rgbToHsl } from './colour.ts';
import { MATERIALS } from './materials.ts';
import { ELEMENT_PALETTES } from './palettes.ts';
import type { Element, ItemKind, PromptReading } from './prompt.ts';
import type { Material } from './scene.ts';

/** The materials one item is made of, decided from the prompt's words and the seed. */
export interface ItemLook {
  kind: ItemKind;
  /** Blade, head, plate or body. */
  metal: Material;
  /** A darker variant of `metal` for grooves and recesses. */
  metalDark: Material;
  handle: Material;
  leather: Material;
  accent: Material;
  gem: Material;
  /** Cloth, paint, liquid or cover: the colour a prompt's colour word sets. */
  paint: Material;
  /** A second cloth colour: trims, fletching, bindings, wraps. */
  trim: Material;
  /** Light inside the item (essences, lanterns, orbs): the element palette's ramp, or the paint's. */
  light: Material;
  /** The element palette's ramp (edge → hot centre), for the item's particles and halo. */
  ramp: readonly Rgb[] | undefined;
  dark: Material;
  element: Element;
  rarity: number;
  gems: boolean;
  features: readonly ItemFeature[];
  words: Set<string>;
}

const HANDLE_MATERIALS = new Set(['wood', 'oak', 'ebony', 'bone', 'ivory', 'leather']);
const PAINTS = ['#8a2a2a', '#2a4a8a', '#2a6a3a', '#6a2a7a', '#8a5a1a', '#2a6a7a'];
const GEMS = ['ruby', 'sapphire', 'emerald', 'amethyst', 'topaz'];
const TRIMS = ['#c8a040', '#a83a3a', '#3a7a5a', '#d8d0c0', '#3a5a9a', '#7a4a8a', '#2a2a30'];
const DEFAULT_METAL: Partial<Record<ItemKind, string>> = {
  ring: 'gold',
  amulet: 'gold',
  potion: 'glass',
  essence: 'glass',
  scroll: 'parchment',
  map: 'parchment',
  book: 'leather',
  tome: 'leather',
  bag: 'leather',
  quiver: 'leather',
  whip: 'leather',
  chest: 'wood',
  bow: 'wood',
  crossbow: 'wood',
  staff: 'wood',
  wand: 'wood',
  totem: 'wood',
  torch: 'wood',
  fishing_rod: 'wood',
  herb: 'wood',
  mushroom: 'wood',
  coin: 'gold',
  gem: 'ruby',
  crystal: 'crystal',
  orb: 'crystal',
  bone: 'bone',
  horn: 'ivory',
  thorn_crown: 'wood',
  jacket: 'leather',
  vest: 'cloth',
  syringe: 'glass',
  seeds: 'parchment',
  wheat: 'wood',
  carrot: 'wood',
  dish: 'wood',
};
/** Second colours that are metals: a gold accent is gold metal, not gold paint. */
const ACCENT_METALS: Partial<Record<Colour, string>> = {
  gold: 'gold',
  silver: 'silver',
  brown: 'bronze',
  orange: 'copper',
  grey: 'iron',
};
/** Kinds whose metal an element's palette may replace with its own material. */
const SOFT_DEFAULT = new Set<ItemKind>(['ring', 'amulet', 'coin', 'gem', 'crystal', 'orb']);

/** The same colour a little warmer or cooler, lighter or darker: one name's red is not another's. */
function jitter(rgb: Rgb, rng: Rng, hue: number, light: number): Rgb {
  const [h, s, l] = rgbToHsl(rgb);
  return hslToRgb(h + rng.range(-hue, hue), s * rng.range(0.85, 1.1), l + rng.range(-light, light));
}

export function darker(material: Material, amount = 0.35): Material {
  return { base: mixRgb(material.base, [20, 14, 36], amount), finish: material.finish };
}

export function tinted(material: Material, tint: Rgb, amount: number): Material {
  return { base: mixRgb(material.base, tint, amount), finish: material.finish };
}

export function chooseLook(kind: ItemKind, reading: PromptReading, rng: Rng): ItemLook {
  const element = reading.element;
  const palette = element === 'none' ? undefined : rng.fork('palette').pick(ELEMENT_PALETTES[element]);
  const named = reading.materials.map((name) => ({ name, material: MATERIALS[name] as Material }));
  const rarity = reading.rarity;
  const byRarity = ['iron', 'iron', 'steel', 'steel', 'mithril', 'mithril'][rarity] as string;
  const fallback = DEFAULT_METAL[kind];
  const primaryName =
    named.find((n) => !HANDLE_MATERIALS.has(n.name) || fallback === 'wood' || fallback === 'leather')?.name ??
    named[0]?.name ??
    (fallback && !(palette && SOFT_DEFAULT.has(kind)) ? fallback : undefined) ??
    palette?.primary ??
    fallback ??
    byRarity;
  let metal = MATERIALS[primaryName] as Material;
  if (palette && !named.length && metal.finish === 'metal') metal = tinted(metal, palette.tint, 0.3);
  const tone = rng.fork('tone');
  metal = { base: jitter(metal.base, tone, 6, 0.04), finish: metal.finish };

  const handleName = named.find((n) => HANDLE_MATERIALS.has(n.name) && n.name !== primaryName)?.name;
  const handle = MATERIALS[
    handleName ?? rng.fork('handle').pick(['wood', 'wood', 'leather', 'ebony', 'oak', 'bone'])
  ] as Material;
  const accentChoice = rng.fork('accent');
  const accentName = reading.materials.includes('gold')
    ? 'gold'
    : element === 'holy'
      ? 'gold'
      : accentChoice.chance(0.3)
        ? accentChoice.pick(['bronze', 'silver', 'gold', 'copper'])
        : (['bronze', 'iron', 'silver', 'gold', 'gold', 'gold'][rarity] as string);
  let accent = MATERIALS[
    accentName === primaryName && accentName !== 'gold' ? 'gold' : accentName
  ] as Material;

  const [main, second] = reading.colours;
  const colour = main ? rgbOf(main) : undefined;
  const gemmed = reading.features.includes('gem');
  const gemName = named.find((n) => n.material.finish === 'gem')?.name;
  const gemColour = gemmed ? colour : second ? rgbOf(second) : colour;
  const gem: Material = gemColour
    ? { base: gemColour, finish: 'gem' }
    : gemName
      ? (MATERIALS[gemName] as Material)
      : palette
        ? { base: palette.gem, finish: 'gem' }
        : (MATERIALS[rng.fork('gem').pick(GEMS)] as Material);
  const paintBase = colour ?? palette?.tint ?? hex(rng.fork('paint').pick(PAINTS));
  const paint: Material = { base: jitter(paintBase, rng.fork('paint-tone'), 10, 0.05), finish: 'cloth' };
  // The second colour (or a game's palette: "in teal and orange") is the trim, and a metal's accents.
  const trim: Material = {
    base: second ? rgbOf(second) : palette ? (palette.ramp[3] as Rgb) : hex(rng.fork('trim').pick(TRIMS)),
    finish: 'cloth',
  };
  const accentMetal = second && ACCENT_METALS[second];
  if (accentMetal) accent = MATERIALS[accentMetal] as Material;
  const light: Material = palette
    ? { base: palette.ramp[2] as Rgb, finish: 'glow', ramp: palette.ramp }
    : { base: mixRgb(paint.base, [255, 255, 255], 0.3), finish: 'glow' };
  return {
    kind,
    metal,
    metalDark: darker(metal),
    handle,
    leather: { base: jitter((MATERIALS.leather as Material).base, tone, 8, 0.05), finish: 'cloth' },
    accent,
    gem,
    paint,
    trim,
    light,
    ramp: palette?.ramp,
    dark: { base: hex('#221a2a'), finish: 'matte' },
    element,
    rarity,
    gems: reading.planned ? reading.features.includes('gem') : !reading.negative.gems,
    features: reading.features,
    words: new Set(reading.words),
  };
}
