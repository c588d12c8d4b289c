import type { Element } from '@lootsmith/protocol';
import type { Rng } from '../random.ts';
import { COLOUR_WORDS, hex, mixRgb, type Rgb } from './colour.ts';
import { ELEMENT_LOOKS, MATERIALS } from './materials.ts';
import type { ItemKind, PromptReading } from './prompt.ts';
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
  dark: Material;
  element: Element;
  rarity: number;
  gems: boolean;
  words: Set<string>;
}

const HANDLE_MATERIALS = new Set(['wood', 'oak', 'ebony', 'bone', 'ivory', 'leather']);
const PAINTS = ['#8a2a2a', '#2a4a8a', '#2a6a3a', '#6a2a7a', '#8a5a1a', '#2a6a7a'];
const GEMS = ['ruby', 'sapphire', 'emerald', 'amethyst', 'topaz'];
const DEFAULT_METAL: Partial<Record<ItemKind, string>> = {
  ring: 'gold',
  amulet: 'gold',
  potion: 'glass',
  scroll: 'parchment',
  book: 'leather',
  bag: 'leather',
  chest: 'wood',
  bow: 'wood',
  staff: 'wood',
  wand: 'wood',
  herb: 'wood',
  coin: 'gold',
  gem: 'ruby',
};

function darker(material: Material, amount = 0.35): Material {
  return { base: mixRgb(material.base, [20, 14, 36], amount), finish: material.finish };
}

function tinted(material: Material, tint: Rgb, amount: number): Material {
  return { base: mixRgb(material.base, tint, amount), finish: material.finish };
}

export function chooseLook(kind: ItemKind, reading: PromptReading, rng: Rng): ItemLook {
  const element = reading.element;
  const elementLook = element === 'none' ? undefined : ELEMENT_LOOKS[element];
  const named = reading.materials.map((name) => ({ name, material: MATERIALS[name] as Material }));
  const rarity = reading.rarity;
  const byRarity = ['iron', 'iron', 'steel', 'steel', 'mithril', 'mithril'][rarity] as string;
  const primaryName =
    named.find((n) => !HANDLE_MATERIALS.has(n.name) || kind === 'bow' || kind === 'staff')?.name ??
    named[0]?.name ??
    DEFAULT_METAL[kind] ??
    elementLook?.primary ??
    byRarity;
  let metal = MATERIALS[primaryName] as Material;
  if (elementLook && !named.length && metal.finish === 'metal') metal = tinted(metal, elementLook.tint, 0.25);

  const handleName = named.find((n) => HANDLE_MATERIALS.has(n.name) && n.name !== primaryName)?.name;
  const handle = MATERIALS[
    handleName ?? rng.fork('handle').pick(['wood', 'wood', 'leather', 'ebony'])
  ] as Material;
  const accentName = reading.materials.includes('gold')
    ? 'gold'
    : element === 'holy'
      ? 'gold'
      : (['bronze', 'iron', 'silver', 'gold', 'gold', 'gold'][rarity] as string);
  const accent = MATERIALS[
    accentName === primaryName && accentName !== 'gold' ? 'gold' : accentName
  ] as Material;

  const colourWord = reading.colours[0];
  const colour = colourWord ? COLOUR_WORDS[colourWord]?.rgb : undefined;
  const gemName = named.find((n) => n.material.finish === 'gem')?.name;
  const gem: Material = colour
    ? { base: colour, finish: 'gem' }
    : gemName
      ? (MATERIALS[gemName] as Material)
      : elementLook
        ? { base: hex(elementLook.gem), finish: 'gem' }
        : (MATERIALS[rng.fork('gem').pick(GEMS)] as Material);
  const paint: Material = {
    base: colour ?? elementLook?.tint ?? hex(rng.fork('paint').pick(PAINTS)),
    finish: 'cloth',
  };
  return {
    kind,
    metal,
    metalDark: darker(metal),
    handle,
    leather: MATERIALS.leather as Material,
    accent,
    gem,
    paint,
    dark: { base: hex('#221a2a'), finish: 'matte' },
    element,
    rarity,
    gems: !reading.negative.gems,
    words: new Set(reading.words),
  };
}
