import { z } from 'zod';
import { NO_ELEMENT } from './game.ts';

/**
 * The item plan: what an item is and looks like, which its name, its text and its icon are all made
 * from (a model fills it beside the item; the server checks the words against it and builds the icon
 * prompt from it; the painter reads that prompt back with `readIconPrompt`).
 */

/**
 * Every silhouette the embedded painter draws: what a game's `item_types[].icon` may name, and the
 * "… icon" tag of an icon prompt.
 */
export const ICON_SILHOUETTES = [
  'sword',
  'dagger',
  'claws',
  'axe',
  'mace',
  'flail',
  'hammer',
  'spear',
  'trident',
  'halberd',
  'scythe',
  'whip',
  'bow',
  'crossbow',
  'arrow',
  'quiver',
  'staff',
  'wand',
  'shield',
  'kite_shield',
  'tower_shield',
  'buckler',
  'helmet',
  'hood',
  'crown',
  'circlet',
  'thorn_crown',
  'hat',
  'armor',
  'chainmail',
  'robe',
  'cloak',
  'tunic',
  'leggings',
  'greaves',
  'tassets',
  'boots',
  'sabatons',
  'gloves',
  'gauntlets',
  'bracers',
  'ring',
  'amulet',
  'belt',
  'totem',
  'orb',
  'potion',
  'essence',
  'dust',
  'scroll',
  'map',
  'bandage',
  'bomb',
  'food',
  'book',
  'tome',
  'ore',
  'ingot',
  'gem',
  'crystal',
  'herb',
  'mushroom',
  'hide',
  'cloth',
  'log',
  'coin',
  'bone',
  'feather',
  'key',
  'lockpick',
  'lantern',
  'torch',
  'fishing_rod',
  'pickaxe',
  'horn',
  'bag',
  'chest',
  'gun',
  'rifle',
  'grenade',
  'ammo',
  'syringe',
  'medkit',
  'chip',
  'implant',
  'terminal',
  'battery',
  'canister',
  'visor',
  'jacket',
  'vest',
  'wrench',
  'screwdriver',
  'seeds',
  'wheat',
  'carrot',
  'dish',
  'can',
  'emblem',
] as const;
export type IconSilhouette = (typeof ICON_SILHOUETTES)[number];

/** What can be seen on an item beyond its shape and colours: the painter draws each one. */
export const ITEM_FEATURES = [
  'gem',
  'horns',
  'wings',
  'glow',
  'runes',
  'spikes',
  'skull',
  'feathers',
  'chains',
  'circuits',
] as const;
export type ItemFeature = (typeof ITEM_FEATURES)[number];

/** The words that name a feature in a name or a text ("Horned Helm": horns). */
export const FEATURE_WORDS: Record<ItemFeature, readonly string[]> = {
  gem: [
    'gem',
    'gems',
    'gemmed',
    'gemstone',
    'jewel',
    'jewels',
    'jewelled',
    'jeweled',
    'ruby',
    'rubies',
    'sapphire',
    'sapphires',
    'emerald',
    'emeralds',
    'amethyst',
    'topaz',
    'diamond',
    'diamonds',
    'opal',
    'garnet',
    'pearl',
  ],
  horns: ['horn', 'horns', 'horned'],
  wings: ['wing', 'wings', 'winged'],
  glow: ['glow', 'glows', 'glowing', 'luminous', 'radiant'],
  runes: ['rune', 'runes', 'runed', 'runic', 'glyph', 'glyphs', 'sigil', 'sigils'],
  spikes: ['spike', 'spikes', 'spiked', 'barbed', 'thorned'],
  skull: ['skull', 'skulls'],
  feathers: ['feather', 'feathers', 'feathered', 'plumed'],
  chains: ['chain', 'chains', 'chained'],
  circuits: ['circuit', 'circuits', 'wired', 'wiring'],
};

/** A colour an icon can carry, with the words that name it and the colour it is painted in. */
export const COLOURS = {
  red: { rgb: [200, 40, 48], words: ['red', 'crimson', 'scarlet', 'ruby', 'vermilion', 'cardinal'] },
  orange: { rgb: [232, 120, 32], words: ['orange', 'amber', 'copper', 'tangerine'] },
  yellow: { rgb: [236, 206, 52], words: ['yellow', 'lemon', 'topaz', 'saffron'] },
  gold: { rgb: [226, 174, 46], words: ['gold', 'golden', 'gilded', 'gilt', 'brass'] },
  green: {
    rgb: [52, 170, 82],
    words: ['green', 'emerald', 'jade', 'verdant', 'olive', 'lime', 'viridian'],
  },
  teal: { rgb: [32, 170, 170], words: ['teal', 'turquoise', 'cyan', 'aqua', 'aquamarine'] },
  blue: {
    rgb: [48, 96, 220],
    words: ['blue', 'sapphire', 'azure', 'cobalt', 'navy', 'indigo', 'cerulean'],
  },
  purple: { rgb: [140, 70, 210], words: ['purple', 'violet', 'amethyst', 'lavender', 'plum', 'mauve'] },
  pink: { rgb: [232, 110, 170], words: ['pink', 'rose', 'magenta', 'fuchsia', 'blush'] },
  white: { rgb: [236, 236, 240], words: ['white', 'ivory', 'snow-white', 'pearl', 'bone-white'] },
  grey: { rgb: [128, 132, 140], words: ['grey', 'gray', 'ashen', 'slate', 'iron-grey', 'steel-grey'] },
  black: { rgb: [34, 30, 38], words: ['black', 'ebony', 'onyx', 'ink-black', 'obsidian', 'coal-black'] },
  brown: { rgb: [128, 82, 44], words: ['brown', 'tan', 'umber', 'chestnut', 'bronze', 'russet', 'sepia'] },
  silver: { rgb: [200, 206, 218], words: ['silver', 'silvered', 'silvery', 'platinum'] },
} as const satisfies Record<string, { rgb: readonly [number, number, number]; words: readonly string[] }>;
export type Colour = keyof typeof COLOURS;
export const COLOUR_NAMES = Object.keys(COLOURS) as Colour[];

/** CIE L*a*b* of an sRGB colour (D65): a space where distance is close to how different colours look. */
function labOf([r, g, b]: readonly [number, number, number]): [number, number, number] {
  const lin = (c: number) => {
    const x = c / 255;
    return x <= 0.04045 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4;
  };
  const [lr, lg, lb] = [lin(r), lin(g), lin(b)];
  const f = (t: number) => (t > 0.008856 ? Math.cbrt(t) : 7.787 * t + 16 / 116);
  const x = f((lr * 0.4124 + lg * 0.3576 + lb * 0.1805) / 0.95047);
  const y = f(lr * 0.2126 + lg * 0.7152 + lb * 0.0722);
  const z = f((lr * 0.0193 + lg * 0.1192 + lb * 0.9505) / 1.08883);
  return [116 * y - 16, 500 * (x - y), 200 * (y - z)];
}
const COLOUR_LABS = COLOUR_NAMES.map((c) => [c, labOf(COLOURS[c].rgb)] as const);

/**
 * The colour family a pixel reads as: the nearest of `COLOURS` in L*a*b*, so a shaded red is still red
 * and a grey is grey, not the nearest hue (what measures whether an icon carries a colour).
 */
export function colourOfPixel(rgb: readonly [number, number, number]): Colour {
  const [l, a, b] = labOf(rgb);
  let best: Colour = 'grey';
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const [colour, [cl, ca, cb]] of COLOUR_LABS) {
    const d = (l - cl) ** 2 * 0.5 + (a - ca) ** 2 + (b - cb) ** 2;
    if (d < bestDistance) {
      bestDistance = d;
      best = colour;
    }
  }
  return best;
}

/** Material words by the stuff they are: "oaken" and "yew" are both wood; "gilded" is gold. */
export const MATERIAL_FAMILIES: Record<string, readonly string[]> = {
  iron: ['iron'],
  steel: ['steel'],
  bronze: ['bronze'],
  copper: ['copper'],
  brass: ['brass'],
  tin: ['tin', 'pewter'],
  silver: ['silver', 'silvered'],
  gold: ['gold', 'golden', 'gilded', 'gilt'],
  platinum: ['platinum'],
  mithril: ['mithril'],
  adamant: ['adamant', 'adamantite', 'adamantine'],
  titanium: ['titanium'],
  obsidian: ['obsidian'],
  crystal: ['crystal', 'crystalline', 'quartz', 'moonstone'],
  glass: ['glass'],
  bone: ['bone', 'bones'],
  ivory: ['ivory'],
  wood: ['wood', 'wooden', 'oak', 'oaken', 'yew', 'ironwood', 'elderwood', 'ebony', 'timber', 'ashwood'],
  leather: ['leather', 'hide', 'suede', 'rawhide'],
  cloth: ['cloth', 'silk', 'silken', 'linen', 'wool', 'woollen', 'woolen', 'canvas', 'cotton', 'velvet'],
  stone: ['stone', 'granite', 'marble'],
  jade: ['jade'],
  scale: ['dragonscale', 'scale', 'scaled'],
  parchment: ['parchment', 'vellum', 'paper'],
  clay: ['clay', 'ceramic', 'earthenware'],
};

const FEATURE_OF = new Map<string, ItemFeature>();
for (const feature of ITEM_FEATURES) for (const w of FEATURE_WORDS[feature]) FEATURE_OF.set(w, feature);
const COLOUR_OF = new Map<string, Colour>();
for (const colour of COLOUR_NAMES) for (const w of COLOURS[colour].words) COLOUR_OF.set(w, colour);
const MATERIAL_OF = new Map<string, string>();
for (const [family, words] of Object.entries(MATERIAL_FAMILIES))
  for (const w of words) MATERIAL_OF.set(w, family);
/** Everything a look word names, so reading a text asks one map per word (most words name nothing). */
const LOOK_OF = new Map<string, { material?: string; colour?: Colour; feature?: ItemFeature }>();
for (const w of [...MATERIAL_OF.keys(), ...COLOUR_OF.keys(), ...FEATURE_OF.keys()])
  LOOK_OF.set(w, { material: MATERIAL_OF.get(w), colour: COLOUR_OF.get(w), feature: FEATURE_OF.get(w) });

/** The colour a word names ("crimson": red), if it names one. */
export const colourOfWord = (word: string): Colour | undefined => COLOUR_OF.get(word.toLowerCase());

/**
 * The material family of a material ("ash wood", "oak": wood): its own words' family, else its
 * last word ("carbon weave"), so a game's own materials are families of their own.
 */
export function materialFamily(material: string): string {
  const words = material.toLowerCase().match(/[a-z]+(?:-[a-z]+)*/g) ?? [];
  for (let i = words.length - 1; i >= 0; i--) {
    const family = MATERIAL_OF.get(words[i] as string);
    if (family) return family;
  }
  return words.join(' ');
}

/** The colour a material shows by itself (gold is gold, oak is brown), if it has one. */
export function colourOfMaterial(material: string): Colour | undefined {
  const family = materialFamily(material);
  const own: Record<string, Colour> = {
    iron: 'grey',
    steel: 'grey',
    tin: 'grey',
    bronze: 'brown',
    copper: 'orange',
    brass: 'gold',
    silver: 'silver',
    gold: 'gold',
    platinum: 'silver',
    mithril: 'silver',
    titanium: 'grey',
    obsidian: 'black',
    bone: 'white',
    ivory: 'white',
    wood: 'brown',
    leather: 'brown',
    stone: 'grey',
    jade: 'green',
    parchment: 'white',
    clay: 'brown',
  };
  return own[family] ?? material.toLowerCase().split(/\s+/).map(colourOfWord).find(Boolean);
}

/** What a piece of text names of an item's look: material families, colours and features. */
export interface NamedLook {
  materials: Set<string>;
  colours: Set<Colour>;
  features: Set<ItemFeature>;
}

/**
 * Reads the look words of a text. `extraMaterials` are a game's own material words (each its own
 * family). "Ruby" names a gem and the colour red; "gold" names the metal, and its colour only where no
 * metal is meant ("a gold ring" is made of gold, which is gold-coloured anyway).
 */
export function lookNamedIn(text: string, extraMaterials: readonly string[] = []): NamedLook {
  const named: NamedLook = { materials: new Set(), colours: new Set(), features: new Set() };
  const lower = text.toLowerCase();
  for (const material of extraMaterials) {
    const m = material.toLowerCase();
    if (m && new RegExp(`\\b${m.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`).test(lower))
      named.materials.add(materialFamily(m));
  }
  for (const word of lower.match(/[a-z]+(?:-[a-z]+)*/g) ?? []) {
    readLookWord(word, named);
    if (word.includes('-')) for (const part of word.split('-')) readLookWord(part, named);
  }
  return named;
}

function readLookWord(word: string, named: NamedLook) {
  const look = LOOK_OF.get(word);
  if (!look) return;
  const { material, colour, feature } = look;
  if (material) named.materials.add(material);
  if (colour && !material) named.colours.add(colour);
  if (feature) named.features.add(feature);
  // A gem names its colour: a ruby is red.
  if (feature === 'gem' && colour) named.colours.add(colour);
}

const named = new Map<string, NamedLook>();
/**
 * Whether a phrase names only what the look has (its materials, their colours and its colours, its
 * features): what a writer checks each word it might use against. Phrases are read once.
 */
export function fitsLook(look: ItemLook): (phrase: string) => boolean {
  const families = new Set(look.materials.map(materialFamily));
  const colours = new Set<Colour>(look.colors);
  for (const m of look.materials) {
    const own = colourOfMaterial(m);
    if (own) colours.add(own);
  }
  return (phrase) => {
    let words = named.get(phrase);
    if (!words) {
      words = lookNamedIn(phrase);
      if (named.size > 20_000) named.clear();
      named.set(phrase, words);
    }
    for (const m of words.materials) if (!families.has(m)) return false;
    for (const c of words.colours) if (!colours.has(c)) return false;
    for (const f of words.features) if (!look.features.includes(f)) return false;
    return true;
  };
}

/** Words of former owners, which the lore of a thing made a moment ago never has. */
export const FORMER_OWNERS =
  /\bhanded (down|on)\b|\b(every|former|previous|other|past|two) owners?\b|\boutlasted\b|\bgenerations\b|\bonce (carried|worn|wielded|owned|held) by\b|\blast (seen|held) (with|by)\b|\bother hands\b|\bpawned\b|\bburied with\b|\bancestral\b|\bheirloom\b/i;

/** The look of an item: what its words may name and its icon shows. */
export const ItemLook = z.object({
  noun: z
    .string()
    .min(2)
    .max(32)
    .describe('The word the name and the text use for the thing ("hatchet", "greaves")'),
  materials: z
    .array(z.string().min(2).max(32))
    .min(1)
    .max(3)
    .describe('What it is made of, the main one first (the same as `material`); its words name no other'),
  colors: z
    .array(z.enum(COLOUR_NAMES as [Colour, ...Colour[]]))
    .max(3)
    .describe(
      "Its colours, the main one first; its words name no other colour than these and its materials'",
    ),
  features: z
    .array(z.enum(ITEM_FEATURES))
    .max(4)
    .describe('What can be seen on it beyond its shape (a gem, horns, runes…); its words name no other'),
});
export type ItemLook = z.infer<typeof ItemLook>;

/** How an item came to be: dropped (found, looted) or made by the player just now. */
export const ItemOrigin = z.enum(['dropped', 'made']);
export type ItemOrigin = z.infer<typeof ItemOrigin>;

/** What an icon is painted from: the item's plan and the game's art. */
export interface IconPlan {
  name: string;
  look: ItemLook;
  /** An element of the game, or "none". */
  element: string;
  rarity: string;
  /** The painter silhouette the game gives the item's type ("emblem"), if it gives one. */
  silhouette?: string | undefined;
  /**
   * The name of the item's type ("implant"), when the game gives it no silhouette: a painter guesses
   * the shape from it when the noun names none ("reflex booster", a kind of implant).
   */
  type?: string | undefined;
  /** The game's style words ("pixel art"). */
  style?: string | undefined;
  /** The game's palette, colour words. */
  palette?: readonly string[] | undefined;
  /** The player's own word for a colour of the look ("crimson" for red), which the prompt says instead. */
  colorWord?: string | undefined;
  /** The game's art (`art` of its game file): its pixel grid, its palette as colours, its outline. */
  art?: { pixel_size: number | null; palette?: readonly string[] | undefined; outline: string | null };
}

const and = (list: readonly string[]) => list.join(' and ');
const split = (text: string) => text.split(' and ').map((s) => s.trim());

/**
 * docs/SPEC.md 2.3: the subject first, then comma-separated tags. Every tag but the name says what it
 * is ("made of …", "colours …", "with …", "… element", "… icon", "in …"), so an image model reads
 * them as it reads any prompt and `readIconPrompt` reads them back exactly.
 */
export function iconPrompt(plan: IconPlan): string {
  const { look } = plan;
  const word = plan.colorWord?.toLowerCase();
  const asked = word ? colourOfWord(word) : undefined;
  return [
    plan.name,
    `${look.noun} made of ${and(look.materials)}`,
    ...(plan.type ? [`a kind of ${plan.type.toLowerCase()}`] : []),
    ...(look.colors.length
      ? [`colours ${and(look.colors.map((c) => (asked === c && word ? word : c)))}`]
      : []),
    ...(look.features.length ? [`with ${and(look.features)}`] : []),
    ...(plan.element === NO_ELEMENT ? [] : [`${plan.element} element`]),
    plan.rarity.toLowerCase(),
    ...(plan.silhouette ? [`${plan.silhouette.replaceAll('_', ' ')} icon`] : []),
    ...artTags(plan.art),
    ...(plan.style ? [plan.style] : []),
    ...(plan.palette?.length ? [`in ${and(plan.palette)}`] : []),
  ].join(', ');
}

/** The art's tags: "32×32 pixel grid", "palette #1a1c2c #5d275d …", "outline #000000". */
function artTags(art: IconPlan['art']): string[] {
  if (!art) return [];
  return [
    ...(art.pixel_size ? [`${art.pixel_size}×${art.pixel_size} pixel grid`] : []),
    ...(art.palette?.length ? [`palette ${art.palette.join(' ').toLowerCase()}`] : []),
    ...(art.outline ? [`outline ${art.outline.toLowerCase()}`] : []),
  ];
}

const GRID_TAG = /^(\d{2})×\1 pixel grid$/;
const PALETTE_TAG = /^palette((?: #[0-9a-f]{6})+)$/;
const OUTLINE_TAG = /^outline (#[0-9a-f]{6})$/;

/**
 * The plan an icon prompt of `iconPrompt` was made from, or undefined for any other prompt (a
 * developer's own, which a painter reads word by word).
 */
export function readIconPrompt(prompt: string): IconPlan | undefined {
  const tags = prompt.split(',').map((t) => t.trim());
  const at = tags.findIndex((t, i) => i > 0 && / made of /.test(t));
  if (at < 1) return undefined;
  const [noun, materials] = (tags[at] as string).split(' made of ') as [string, string];
  const look: ItemLook = { noun, materials: split(materials), colors: [], features: [] };
  const plan: IconPlan = { name: tags.slice(0, at).join(', '), look, element: NO_ELEMENT, rarity: '' };
  const rest = tags.slice(at + 1);
  for (const [i, tag] of rest.entries()) {
    if (tag.startsWith('colours ')) {
      const words = split(tag.slice(8));
      look.colors = words.flatMap((w) => colourOfWord(w) ?? []);
      const own = words.find((w) => !(w in COLOURS));
      if (own) plan.colorWord = own;
    } else if (tag.startsWith('a kind of ')) plan.type = tag.slice(10);
    else if (tag.startsWith('with ')) look.features = split(tag.slice(5)) as ItemFeature[];
    else if (tag.endsWith(' element')) plan.element = tag.slice(0, -8);
    else if (tag.endsWith(' icon')) plan.silhouette = tag.slice(0, -5).replaceAll(' ', '_');
    else if (GRID_TAG.test(tag)) artOf(plan).pixel_size = Number(tag.slice(0, 2));
    else if (PALETTE_TAG.test(tag)) artOf(plan).palette = tag.slice(8).split(' ');
    else if (OUTLINE_TAG.test(tag)) artOf(plan).outline = tag.slice(8);
    else if (tag.startsWith('in ') && i === rest.length - 1) plan.palette = split(tag.slice(3));
    else if (!plan.rarity) plan.rarity = tag;
    else plan.style = plan.style ? `${plan.style}, ${tag}` : tag;
  }
  return plan;
}

function artOf(plan: IconPlan): NonNullable<IconPlan['art']> {
  plan.art ??= { pixel_size: null, outline: null };
  return plan.art;
}
