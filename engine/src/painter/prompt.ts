import { COLOUR_WORDS } from './colour.ts';
import { declaredKind, type ItemKind, kindOf } from './kinds.ts';
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
  colours: string[];
  rarity: number;
  negative: NegativeReading;
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

/** Reads what to draw from a prompt: "subject, tag, tag". The subject decides first; tags refine. */
export function readPrompt(prompt: string, negativePrompt?: string): PromptReading {
  const negative = readNegative(negativePrompt);
  const lower = prompt.toLowerCase();
  const words = wordsOf(prompt);
  const [subjectText = ''] = lower.split(',');
  const has = (w: string) => words.includes(w);

  let kind = declaredKind(lower) ?? kindOf(lower);
  if (!kind) kind = words.map((w) => TYPE_KINDS[w]).find((k) => k !== undefined);

  const materials: string[] = [];
  for (const w of words) {
    const name = MATERIAL_SYNONYMS[w] ?? (w in MATERIALS ? w : undefined);
    if (name && !negative.words.has(w) && !materials.includes(name)) materials.push(name);
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

  let style: Style['name'] = 'fantasy';
  if (has('realistic') || has('photorealistic') || has('realism')) style = 'realistic';
  if (has('cartoon') || has('toon') || has('cute') || has('chibi')) style = 'cartoon';

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
    style,
    kind,
    words,
    materials,
    element,
    colours: words.filter((w) => w in COLOUR_WORDS && !negative.colours.includes(w)),
    rarity,
    negative,
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
