import { SUBTYPE_TYPES } from './lexicon.ts';
import type { Vocabulary } from './vocabulary.ts';

/**
 * What a player's own words ask for (a create-item description, a combine intent): the thing they
 * name ("a jagged iron cleaver" → cleaver) and its colour ("crimson"). Players write nouns the
 * writer's subtypes lack and colours in many words; these tables read them.
 */

/** Nouns players use for items, beyond the writer's subtypes, with the types each may be. */
const PLAYER_NOUNS: Record<string, readonly string[]> = {
  cleaver: ['WEAPON'],
  club: ['WEAPON'],
  cudgel: ['WEAPON'],
  warhammer: ['WEAPON'],
  broadsword: ['WEAPON'],
  greatsword: ['WEAPON'],
  shortsword: ['WEAPON'],
  scimitar: ['WEAPON'],
  rapier: ['WEAPON'],
  cutlass: ['WEAPON'],
  falchion: ['WEAPON'],
  machete: ['WEAPON'],
  sickle: ['WEAPON'],
  morningstar: ['WEAPON'],
  quarterstaff: ['WEAPON'],
  sling: ['WEAPON'],
  javelin: ['WEAPON'],
  dirk: ['WEAPON'],
  stiletto: ['WEAPON'],
  claymore: ['WEAPON'],
  'round shield': ['SHIELD'],
  'heater shield': ['SHIELD'],
  'tower shield': ['SHIELD'],
  'kite shield': ['SHIELD'],
  targe: ['SHIELD'],
  pavise: ['SHIELD'],
  cap: ['HELMET'],
  coif: ['HELMET'],
  bascinet: ['HELMET'],
  tiara: ['HELMET'],
  diadem: ['HELMET'],
  breastplate: ['CHEST'],
  cuirass: ['CHEST'],
  chainmail: ['CHEST'],
  brigandine: ['CHEST'],
  jerkin: ['CHEST'],
  gambeson: ['CHEST'],
  coat: ['CHEST'],
  shirt: ['CHEST'],
  trousers: ['LEGS'],
  breeches: ['LEGS'],
  chausses: ['LEGS'],
  kilt: ['LEGS'],
  sandals: ['BOOTS'],
  shoes: ['BOOTS'],
  slippers: ['BOOTS'],
  mittens: ['GLOVES'],
  vambraces: ['GLOVES', 'EQUIPMENT'],
  wraps: ['GLOVES'],
  bracelet: ['ACCESSORY'],
  bangle: ['ACCESSORY'],
  necklace: ['ACCESSORY'],
  pendant: ['ACCESSORY'],
  locket: ['ACCESSORY'],
  earrings: ['ACCESSORY'],
  earring: ['ACCESSORY'],
  brooch: ['ACCESSORY'],
  circlet: ['HELMET', 'ACCESSORY'],
  belt: ['EQUIPMENT', 'ACCESSORY'],
  cloak: ['EQUIPMENT', 'CHEST'],
  flask: ['CONSUMABLE'],
  vial: ['CONSUMABLE'],
  bread: ['CONSUMABLE'],
  ration: ['CONSUMABLE'],
  stew: ['CONSUMABLE'],
  pie: ['CONSUMABLE'],
  salve: ['CONSUMABLE'],
  poultice: ['CONSUMABLE'],
  backpack: ['CONTAINER'],
  bag: ['CONTAINER'],
  box: ['CONTAINER'],
  crate: ['CONTAINER'],
  sack: ['CONTAINER'],
};

/** Colour words players type, each with the colour the icon is painted in. */
const COLOURS: Record<string, string> = {
  red: 'red',
  crimson: 'crimson',
  scarlet: 'scarlet',
  ruby: 'red',
  orange: 'orange',
  yellow: 'yellow',
  gold: 'gold',
  golden: 'gold',
  green: 'green',
  emerald: 'emerald',
  teal: 'teal',
  cyan: 'cyan',
  blue: 'blue',
  azure: 'azure',
  navy: 'blue',
  purple: 'purple',
  violet: 'violet',
  pink: 'pink',
  magenta: 'magenta',
  brown: 'brown',
  black: 'black',
  white: 'white',
  grey: 'grey',
  gray: 'grey',
  silver: 'silver',
};

/** A word and its plural or singular: "gauntlet" finds "gauntlets", "earrings" finds "earring". */
const forms = (word: string) => [word, `${word}s`, `${word}es`, word.replace(/s$/, '')];

/** The types a noun may be: the game's own subtypes first, then the player nouns, then the writer's subtypes. */
function typesOf(noun: string, vocab: Vocabulary): string[] {
  const own = vocab.types.filter((t) => t.ownSubtypes && t.subtypes.some((s) => s.toLowerCase() === noun));
  if (own.length) return own.map((t) => t.id);
  const player = PLAYER_NOUNS[noun];
  if (player) return [...player];
  const writer = SUBTYPE_TYPES[noun];
  return writer ? [writer] : [];
}

/** Words that name a kind of thing loosely ("a curved blade like a sabre"): a closer noun wins. */
const LOOSE = new Set(['blade', 'weapon', 'armor', 'armour', 'mail', 'gear']);

/**
 * Every noun of an item a text names, in the order it names them. A two-word noun is read across a
 * word between ("a round oak shield" → round shield).
 */
function nounsIn(text: string, vocab: Vocabulary): string[] {
  const words = text.toLowerCase().match(/[a-z]+/g) ?? [];
  const known = (w: string) => forms(w).find((f) => typesOf(f, vocab).length);
  const found: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const pair = words[i + 1] ? known(`${words[i]} ${words[i + 1]}`) : undefined;
    if (pair) {
      found.push(pair);
      i++;
      continue;
    }
    const one = known(words[i] as string);
    if (!one) continue;
    const before = [words[i - 1], words[i - 2]]
      .flatMap((w) => (w ? [known(`${w} ${one}`) ?? []] : []))
      .flat();
    found.push(before[0] ?? one);
  }
  return [...found.filter((n) => !LOOSE.has(n)), ...found.filter((n) => LOOSE.has(n))];
}

/**
 * The noun a player's words ask for: among the nouns they name, the first an item of `type` may be
 * ("a small dagger I hide in my boot" → dagger for a WEAPON), else the first of any type when none
 * is asked. Undefined when they name nothing the type may be.
 */
export function askedNoun(text: string, vocab: Vocabulary, type?: string): string | undefined {
  const nouns = nounsIn(text, vocab);
  if (!type) return nouns[0];
  return nouns.find((n) => typesOf(n, vocab).includes(type));
}

/** The type a noun a player named belongs to, if the writer knows it. */
export function typeOfNoun(noun: string, vocab: Vocabulary): string | undefined {
  return typesOf(noun, vocab)[0];
}

/** The colour a player's words or visual preferences ask for ("a crimson cross" → crimson). */
export function askedColour(
  text: string | undefined,
  look?: Record<string, string | number | boolean>,
): string | undefined {
  const chosen = look?.color ?? look?.colour;
  if (typeof chosen === 'string' && chosen.trim()) {
    const word = chosen.trim().toLowerCase();
    return COLOURS[word] ?? word.slice(0, 24);
  }
  const words = (text ?? '').toLowerCase().match(/[a-z]+/g) ?? [];
  const found = words.find((w) => COLOURS[w]);
  return found ? COLOURS[found] : undefined;
}
