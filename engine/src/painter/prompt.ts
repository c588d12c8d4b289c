import {
  type Colour,
  colourOfWord,
  type IconPlan,
  type ItemFeature,
  lookNamedIn,
  materialFamily,
  readIconPrompt,
} from '@lootsmith/protocol';
import { type ArtReading, artReading } from './art.ts';
import { COLOUR_WORDS } from './colour.ts';
import { declaredKind, ITEM_KINDS, type ItemKind, kindOf } from './kinds.ts';
import { MATERIAL_SYNONYMS, MATERIALS } from './materials.ts';
import type { Element } from './palettes.ts';
import type { Style } from './scene.ts';

export { ITEM_KINDS, type ItemKind } from './kinds.ts';

/** Type words the Lootsmith server uses, when no subject word names a kind. */
const TYPE_KINDS: Record<string, ItemKind> = {
  weapon: 'sword',
  equipment: 'armor',
  accessory: 'ring',
  material: 'ore',
};

export type { Element };

const ELEMENT_WORDS: Record<string, Exclude<Element, 'none'>> = {};
const elementSynonyms: Record<Exclude<Element, 'none'>, string> = {
  fire: 'fire fireball firebolt flame flames flaming burning ember embers inferno blaze blazing molten magma lava scorching infernal phoenix fiery',
  frost: 'frost frosty ice frozen glacial snow winter cold freezing rime blizzard arctic frostbite',
  poison: 'poison poisoned poisonous venom venomous toxic plague acid blight noxious rot',
  shadow:
    'shadow shadows dark darkness void night abyssal abyss cursed necrotic umbral shade death doom unholy',
  holy: 'holy divine sacred blessed radiant light celestial angelic sun solar heavenly',
  lightning: 'lightning thunder storm shock static electric spark sparks thunderous tempest volt',
};
for (const [element, words] of Object.entries(elementSynonyms)) {
  for (const word of words.split(' ')) ELEMENT_WORDS[word] = element as Exclude<Element, 'none'>;
}

const RARITY_WORDS: Record<string, number> = {
  common: 0,
  uncommon: 1,
  magic: 1,
  rare: 2,
  epic: 3,
  legendary: 4,
  mythic: 5,
  mythical: 5,
};

export type AssetType = 'item' | 'portrait' | 'skill';

export interface PromptReading {
  asset: AssetType;
  /** The subject (an item's name), lower case: items of one kind vary with it. */
  name: string;
  style: Style['name'];
  kind: ItemKind | undefined;
  /** Every word of the prompt, lower case, in order. */
  words: string[];
  materials: string[];
  element: Element;
  /** The item's colour families, the main one first. */
  colours: Colour[];
  /** What is drawn on the item beyond its shape: a plan's features, or the ones a free prompt names. */
  features: ItemFeature[];
  rarity: number;
  /** Read from an item plan's prompt (`iconPrompt`): its fields, not its words, decide. */
  planned: boolean;
  negative: NegativeReading;
  /** The game's art the prompt carries (pixel grid, palette, outline), painted within from the start. */
  art?: ArtReading | undefined;
}

export interface NegativeReading {
  colours: string[];
  glow: boolean;
  outline: boolean;
  background: boolean;
  gems: boolean;
  effects: boolean;
  shading: boolean;
  frame: boolean;
}

function wordsOf(text: string): string[] {
  return text.toLowerCase().match(/[a-z]+/g) ?? [];
}

export function readNegative(text: string | undefined): NegativeReading & { words: Set<string> } {
  const words = new Set(wordsOf(text ?? ''));
  const has = (...list: string[]) => list.some((w) => words.has(w));
  return {
    words,
    colours: [...words].filter((w) => w in COLOUR_WORDS),
    glow: has('glow', 'glowing', 'aura', 'halo', 'bloom'),
    outline: has('outline', 'outlines', 'outlined', 'lineart', 'lines'),
    background: has('background', 'backdrop', 'bg'),
    gems: has('gem', 'gems', 'jewel', 'jewels', 'gemstone', 'gemstones'),
    effects: has('particles', 'particle', 'effects', 'effect', 'sparkles', 'vfx'),
    shading: has('shading', 'gradient', 'gradients'),
    frame: has('frame', 'border'),
  };
}

/**
 * Reads what to draw from a prompt. An item plan's prompt is read field by field; any other is
 * "subject, tag, tag", read word by word: the subject decides first, tags refine.
 */
export function readPrompt(prompt: string, negativePrompt?: string): PromptReading {
  const negative = readNegative(negativePrompt);
  const plan = readIconPrompt(prompt);
  if (plan) return readPlan(plan, negative);
  const lower = prompt.toLowerCase();
  const words = wordsOf(prompt);
  const [subjectText = ''] = lower.split(',');

  let kind = declaredKind(lower) ?? kindOf(lower);
  if (!kind) kind = words.map((w) => TYPE_KINDS[w]).find((k) => k !== undefined);

  const materials: string[] = [];
  for (const w of words) {
    const name = MATERIAL_SYNONYMS[w] ?? (w in MATERIALS ? w : undefined);
    if (name && !negative.words.has(w) && !materials.includes(name)) materials.push(name);
  }
  const colours: Colour[] = [];
  for (const w of words) {
    const colour = colourOfWord(w);
    if (colour && !negative.colours.includes(w) && !colours.includes(colour)) colours.push(colour);
  }
  const elementCounts = new Map<Exclude<Element, 'none'>, number>();
  for (const w of words) {
    const element = ELEMENT_WORDS[w];
    if (element && !negative.words.has(w) && !negative.words.has(element)) {
      elementCounts.set(element, (elementCounts.get(element) ?? 0) + 1);
    }
  }
  let element: Element = 'none';
  let best = 0;
  for (const [e, n] of elementCounts) {
    if (n > best) {
      best = n;
      element = e;
    }
  }
  let rarity = 1;
  for (const w of words) if (w in RARITY_WORDS) rarity = RARITY_WORDS[w] as number;

  let asset: AssetType = 'item';
  if (/\b(character\s+)?portrait\b/.test(lower)) asset = 'portrait';
  else if (/\b(skill|ability|spell|talent)\s+icon\b/.test(lower)) asset = 'skill';
  else if (!/\bgame item\b/.test(lower) && !kind) {
    if (words.some((w) => PORTRAIT_WORDS.has(w))) asset = 'portrait';
    else if (words.some((w) => SKILL_WORDS.has(w))) asset = 'skill';
  }
  return {
    asset,
    name: subjectText.trim(),
    style: styleOf(words),
    kind,
    words,
    materials,
    element,
    colours,
    features: [...lookNamedIn(subjectText).features],
    rarity,
    planned: false,
    negative,
  };
}

function styleOf(words: readonly string[]): Style['name'] {
  const has = (list: string[]) => list.some((w) => words.includes(w));
  if (has(['cartoon', 'toon', 'cute', 'chibi'])) return 'cartoon';
  if (has(['realistic', 'photorealistic', 'realism'])) return 'realistic';
  return 'fantasy';
}

/** A painter material for a plan's material: its own word, a word it ends with ("stormsteel"), its family. */
function painterMaterial(material: string): string | undefined {
  for (const w of wordsOf(material).reverse()) {
    const name = MATERIAL_SYNONYMS[w] ?? (w in MATERIALS ? w : undefined);
    if (name) return name;
    const tail = Object.keys(MATERIALS).find((m) => m.length >= 3 && w.endsWith(m));
    if (tail) return tail;
  }
  const family = materialFamily(material);
  return FAMILY_MATERIALS[family] ?? (family in MATERIALS ? family : undefined);
}
const FAMILY_MATERIALS: Record<string, string> = {
  adamant: 'adamantite',
  brass: 'gold',
  tin: 'iron',
  platinum: 'silver',
  titanium: 'steel',
  scale: 'dragonscale',
  clay: 'stone',
};

/** What to draw from an item plan: its noun or silhouette, materials, colours, features, element, rarity. */
function readPlan(plan: IconPlan, negative: ReturnType<typeof readNegative>): PromptReading {
  const { look } = plan;
  const silhouette = (ITEM_KINDS as readonly string[]).includes(plan.silhouette ?? '')
    ? (plan.silhouette as ItemKind)
    : undefined;
  const materialWords = look.materials.join(' ');
  // The game's silhouette, else the noun (the subtype), else the item type, else the name; what none
  // names is painted as the clean generic emblem, never as some weapon.
  const kind =
    silhouette ??
    kindOf(`${look.noun}, ${materialWords} ${look.noun}`) ??
    (plan.type ? kindOf(plan.type.toLowerCase()) : undefined) ??
    kindOf(plan.name.toLowerCase()) ??
    wordsOf(look.noun)
      .map((w) => TYPE_KINDS[w])
      .find((k) => k !== undefined);
  const materials = [
    ...new Set(look.materials.map(painterMaterial).filter((m): m is string => m !== undefined)),
  ];
  const palette = (plan.palette ?? []).map(colourOfWord).filter((c): c is Colour => c !== undefined);
  const colours = [...new Set([...look.colors, ...palette])].filter((c) => !negative.colours.includes(c));
  const element = wordsOf(plan.element)
    .map((w) => ELEMENT_WORDS[w])
    .find((e) => e !== undefined && !negative.words.has(e));
  return {
    asset: 'item',
    name: plan.name.toLowerCase(),
    style: styleOf(wordsOf(plan.style ?? '')),
    kind,
    words: wordsOf(`${plan.name} ${materialWords} ${look.noun}`),
    materials,
    element: element ?? 'none',
    colours,
    features: look.features.filter((f) => !(f === 'gem' && negative.gems)),
    rarity: RARITY_WORDS[plan.rarity.toLowerCase()] ?? 1,
    planned: true,
    negative,
    ...(plan.art ? { art: artReading(plan.art) } : {}),
  };
}

const PORTRAIT_WORDS = new Set(
  'face character hero heroine knight wizard mage witch warrior rogue thief orc elf dwarf goblin skeleton king queen paladin ranger merchant villager npc giant lich necromancer'.split(
    ' ',
  ),
);
const SKILL_WORDS = new Set(
  'skill spell ability fireball heal slash strike nova bolt blast ward buff curse summon dash'.split(' '),
);
