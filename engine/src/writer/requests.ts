import type { EffectLine, GameLines } from '@lootsmith/protocol';
import { effectLeansTo } from './effects.ts';
import { SUBTYPE_TYPES } from './lexicon.ts';
import { type TypeInfo, type Vocabulary, vocabularyFor } from './vocabulary.ts';

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

/** Nouns of a made thing in any game ("a clockwork gadget"): a thing, of whichever type fits. */
const ANY_THING_NOUNS = new Set([
  'gadget',
  'gizmo',
  'device',
  'contraption',
  'trinket',
  'widget',
  'doohickey',
]);

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

/**
 * Whether a word is a thing an item may be: one of the game's nouns or subtypes, or a known item
 * noun, of a type the game has (of `type`, when given: a sword is no tool of a salvage game).
 */
export function isThing(noun: string, vocab: Vocabulary, type?: string): boolean {
  const word = noun.toLowerCase();
  if (ANY_THING_NOUNS.has(word)) return true;
  const kinds = [...typesOf(word, vocab), vocab.typeOfSubtype(word)?.id].filter(
    (t): t is string => t !== undefined && vocab.type(t) !== undefined,
  );
  return type ? kinds.includes(type) || !!vocab.type(type)?.subtypes.includes(word) : kinds.length > 0;
}

/** The colour a player's own words name ("a crimson cross" → crimson), if any. */
export function namedColour(text: string | undefined): string | undefined {
  const words = (text ?? '').toLowerCase().match(/[a-z]+/g) ?? [];
  const found = words.find((w) => COLOURS[w]);
  return found ? COLOURS[found] : undefined;
}

/**
 * The colour a player asks for: the one their words name, which beats the form's colour setting
 * (a dropdown's default is not a wish), else their visual preferences' ("a crimson cross" → crimson).
 */
export function askedColour(
  text: string | undefined,
  look?: Record<string, string | number | boolean>,
): string | undefined {
  const named = namedColour(text);
  if (named) return named;
  const chosen = look?.color ?? look?.colour;
  if (typeof chosen === 'string' && chosen.trim()) {
    const word = chosen.trim().toLowerCase();
    return COLOURS[word] ?? word.slice(0, 24);
  }
  return undefined;
}

/** The material of what went in that the words name ("a bone axe" from iron and bone → bone). */
export function namedMaterial(
  text: string | undefined,
  materials: ReadonlyArray<{ material?: string; element: string }> | undefined,
): string | undefined {
  const words = new Set((text ?? '').toLowerCase().match(/[a-z]+/g) ?? []);
  return materials?.find((m) => m.element === 'none' && m.material && words.has(m.material))?.material;
}

/** What a player's wish asks for, read with the game's vocabulary: the thing, or the purpose it serves. */
export interface Wish {
  /** The thing the words name: one of the game's nouns or a known item noun, never a verb or filler. */
  noun?: string;
  /** The type the words ask for: the named thing's, else the one that best serves the purpose. */
  type?: string;
  /** A stat of the game the words lean to ("hit harder" → attack, "heal me" → health). */
  stat?: string;
  /** Every stat of the game the words name, in order: a focus among them agrees with the words. */
  stats?: string[];
  /** Effects of the game's catalogue the words ask for ("freezes what it strikes"), best first. */
  effects: string[];
  /** An element of the game the words name, or undefined. */
  element?: string;
  /** A colour the words name. */
  colour?: string;
  /** An effect the words surely ask for, whether or not the type may carry it (for a note when it cannot). */
  sure?: string;
  /** The thing among the type's own that a part of the body names ("for my eyes" → ocular lens). */
  thing?: string;
  /** Whether the words name a purpose: a thing, a use, a body part, a stat or an effect. */
  purposeful: boolean;
}

/** Common endings, so "heals", "healing" and "healer" are one word; "luckier" is luck. */
const stem = (word: string) =>
  word
    .toLowerCase()
    .replace(/(?:ier|iest)$/, 'y')
    .replace(/(?:ly|ing|ed|er|est|es|s|y)$/, '')
    .replace(/(.)\1$/, '$1')
    .replace(/(?<=..)e$/, '');

/**
 * What players mean, as kinds of words: the words of each kind that a wish or a game's effect may use.
 * An effect's text ("Restores {health} health") and a wish ("slowly heals me") meet on a kind.
 */
const MEANINGS: Record<string, readonly string[]> = {
  heal: [
    'heal',
    'cure',
    'mend',
    'restore',
    'regenerate',
    'regen',
    'recover',
    'repair',
    'patch',
    'fix',
    'health',
    'hp',
  ],
  kill: ['kill', 'slay', 'defeat', 'disable', 'murder', 'destroy', 'finish'],
  slow: ['slow', 'freeze', 'chill', 'frost', 'ice', 'cold', 'numb'],
  burn: ['burn', 'fire', 'flame', 'ignite', 'scorch', 'heat', 'melt', 'blaze', 'roast', 'fry'],
  shock: ['shock', 'zap', 'arc', 'spark', 'lightning', 'electric', 'electrocute', 'discharge', 'static'],
  drain: ['drain', 'steal', 'siphon', 'leech', 'suck', 'absorb', 'vampire'],
  // Not "hurt": a player who is hurt asks to heal; thorns are "whoever hits me".
  thorn: ['thorn', 'spike', 'barb', 'punish', 'reflect', 'retaliate'],
  shield: ['shield', 'barrier', 'shielding'],
  poison: ['poison', 'venom', 'toxic', 'toxin'],
};
const MEANING_OF = new Map(
  Object.entries(MEANINGS).flatMap(([meaning, words]) =>
    words.map((w): [string, string] => [stem(w), meaning]),
  ),
);
/** Words that say nothing of what an effect does ("the", "target", "every"). */
const EFFECT_FILLER = new Set(
  'a an the of for to you your by it its on hit target every each s second seconds that into and or with when take dealt deal'
    .split(' ')
    .map(stem),
);
const meaningsOf = (text: string) =>
  new Set(
    (
      text
        .toLowerCase()
        .replace(/\{[^}]*\}/g, ' ')
        // Being struck is one meaning, whoever says it: "whoever hits me", "enemies that hit you".
        .replace(/\b(?:hits?|attacks?|strikes?|hurts?)\s+(?:me|you)\b/g, ' struckme ')
        .match(/[a-z]+/g) ?? []
    )
      // Adverbs say how, not what: "slowly heals" asks for healing.
      .filter((w) => !/.{3}ly$/.test(w))
      .map(stem)
      .filter((w) => w.length > 1 && !EFFECT_FILLER.has(w))
      .map((w) => MEANING_OF.get(w) ?? w),
  );

/** How players say they want to be kept from harm, healed, or to hit harder. */
const PROTECT =
  /\b(?:protect\w*|defen[cs]\w*|block\w*|guard\w*|safe\w*|tank\w*|surviv\w*|dying|die|alive|unkillable|invulnerable|invincible|tough\w*|punishment|cover|hits? me|hit by|getting (?:hit|smashed|hurt)|get hit|take (?:more )?(?:hits|damage)|off me|away from me|armou?r)\b/;
const HEAL =
  /\b(?:heal\w*|cure\w*|mend\w*|patch\w* (?:me|myself|up)|fix (?:me|myself)|restor\w*|recover\w*|health back|(?:got|am|im|been|getting) hurt|wounds?|potion)\b/;
const STRIKE =
  /\b(?:hit|harder|strike|strikes|stab\w*|slash\w*|cut|cuts|cutting|kill\w*|slay\w*|fight\w*|smash\w*|crush\w*|bash\w*|chop\w*|cleave|pierce|attack\w*|punch\w*|shoot\w*|hunt\w*|damage|stronger)\b/;
/** Words of carrying: what follows them is what goes in, not the thing wished for ("put my potions"). */
const CARRY = /\b(?:carry|carrying|hold|store|storage|stash|stow|put|keep my (?:stuff|loot|things))\b/;

/** What a wish is for, each with its cue and the types that serve it. */
const PURPOSES: Array<[RegExp, (t: TypeInfo, vocab: Vocabulary) => boolean]> = [
  [
    PROTECT,
    (t, vocab) =>
      !t.consumable &&
      !t.stackable &&
      !t.strikes &&
      t.slot !== undefined &&
      t.stats.slice(0, 2).some((s) => PROTECTIVE.test(`${s} ${vocab.stat(s)?.name ?? ''}`)),
  ],
  [HEAL, (t) => t.consumable],
  [
    STRIKE,
    (t, vocab) =>
      t.strikes || t.stats.slice(0, 1).some((s) => OFFENSIVE.test(`${s} ${vocab.stat(s)?.name ?? ''}`)),
  ],
  [CARRY, (t) => /contain|bag|pack|pouch|sack|satchel|storage|box/.test(typeWords(t))],
];
const PROTECTIVE = /defen[cs]e|armou?r|shield|protect|guard|block|absorb|resist/;
const OFFENSIVE = /attack|damage|cutting|power|strength|might/;

/** The parts of a body a wish may be for, and the words of a type or its things that fit each. */
const BODY: Array<[RegExp, RegExp]> = [
  [/\b(?:eyes?|sight|vision|see)\b/, /ocular|lens|\beyes?\b|visor|goggle/],
  [/\b(?:brain|mind|nerves?|reflex\w*)\b/, /neural|cortex|brain|reflex/],
  [/\b(?:head|noggin|skull|face|hair)\b/, /helm|hat|head|hood|crown|cap\b|mask|circlet/],
  [/\b(?:feet|foot|toes)\b/, /boot|shoe|feet|foot|sandal|sabaton/],
  [/\b(?:hands?|fists?|fingers|knuckles)\b/, /glove|gauntlet|mitten|fist/],
  [/\b(?:legs?|knees?|thighs?|shins?)\b/, /\blegs?\b|greave|trouser|pants|legging|chausses/],
  [/\b(?:chest|body|torso|ribs|belly)\b/, /chest|body|torso|cuirass|breastplate|suit|hauberk/],
  [/\b(?:neck|finger)\b/, /ring|amulet|necklace|pendant/],
];
const typeWords = (t: TypeInfo) => `${t.id} ${t.name} ${t.slot ?? ''} ${t.subtypes.join(' ')}`.toLowerCase();

/** Words for kinds of stat, when a game's own stat names are not what a player types. */
const STAT_WORDS: Array<[RegExp, RegExp]> = [
  [STRIKE, /attack|damage|cutting|power|strength/],
  [HEAL, /health|hull|hp|vitality|life/],
  [/\b(?:alive|dying|health|hp|life)\b/, /health|hull|hp|vitality|life/],
  [PROTECT, /defen[cs]e|armou?r|shielding|protection/],
  [/\b(?:fast|faster|quick\w*|run|running|speed|move|moving|swift)\b/, /speed|thrust|agility|haste/],
  [/\b(?:spells?|magic|arcane|casting)\b/, /magic|spell|mana/],
  [/\b(?:luck\w*|lucky|fortune)\b/, /luck|fortune/],
  [/\b(?:see|sight|scan\w*|range|further|farther|detect\w*|spot)\b/, /scan|range|sight|perception|vision/],
];

/**
 * The game's stats the words name, in the order they name them: by their own names first ("energy";
 * "cutting hull plates" → cutting, hull), then by what players say ("faster" → speed).
 */
function statsIn(lower: string, words: string[], vocab: Vocabulary): string[] {
  const at = (w: string) => words.findIndex((x) => stem(x) === stem(w));
  // Every word of its name: "fire resist" is not asked by "a sword of fire".
  const own = vocab.stats
    .filter((s) => s.name.split(/[\s_]+/).every((w) => stem(w).length > 2 && at(w) >= 0))
    .sort((a, b) => at(a.name.split(/[\s_]+/)[0] as string) - at(b.name.split(/[\s_]+/)[0] as string))
    .map((s) => s.id);
  const said = STAT_WORDS.map(([cue, kind]): [number, string | undefined] => [
    lower.search(cue),
    vocab.stats.find((s) => kind.test(`${s.id} ${s.name}`))?.id,
  ])
    .filter(([index, id]) => index >= 0 && id !== undefined)
    .sort((a, b) => a[0] - b[0])
    .map(([, id]) => id as string);
  return [...new Set([...own, ...said])];
}

/** The effects of the game's catalogue the words may ask for, with how surely: what they do, or their element. */
function effectsIn(
  words: Set<string>,
  element: string | undefined,
  vocab: Vocabulary,
): Array<[EffectLine, number]> {
  const catalogue = vocab.effects;
  const meanings = catalogue.map((e) =>
    meaningsOf(`${e.id.replaceAll('_', ' ')} ${e.name ?? ''} ${e.text ?? ''}`),
  );
  // A stat's name says what the item raises, not what it does ("out of energy" asks no siphon),
  // unless the effect is named by it (Shield Recharge).
  const stats = new Set(vocab.stats.flatMap((st) => st.name.split(/[\s_]+/).map(stem)));
  const scored = catalogue.map((effect, i): [EffectLine, number] => {
    let score = 0;
    const named = meaningsOf(`${effect.id.replaceAll('_', ' ')} ${effect.name ?? ''}`);
    for (const w of meanings[i] as Set<string>)
      if (words.has(w) && (!stats.has(w) || named.has(w)))
        score += 1 / meanings.filter((m) => m.has(w)).length;
    if (element && effectLeansTo(effect, element, vocab)) score += 1;
    return [effect, score];
  });
  // A word many effects share ("heals") counts a third for each: the type then tells them apart.
  return scored.filter(([, score]) => score >= 0.3).sort((a, b) => b[1] - a[1]);
}

/**
 * Reads a player's wish ("i need to hit harder", "something for my head", "a green bone axe that
 * burns") with the game's vocabulary: the thing it names, else the type that serves its purpose among
 * `types` (a station's, or all the game's), the stat and effects it asks for, its element and colour.
 * A wish that names nothing of these ("surprise me") is open: no noun is made of its words.
 */
export function readWish(
  text: string,
  vocab: Vocabulary,
  types?: readonly string[],
  /** The type a form already gives: kept when it serves the wish as well as another. */
  given?: string,
): Wish {
  const lower = text.toLowerCase();
  const words = lower.match(/[a-z]+/g) ?? [];
  const allowed = (types?.length ? types : vocab.types.map((t) => t.id))
    .map((id) => vocab.type(id))
    .filter((t): t is TypeInfo => t !== undefined);
  // What follows a word of carrying is what goes in: "a place to put my potions" asks for no potion.
  const carried = CARRY.exec(lower);
  const named = carried ? text.slice(0, carried.index + carried[0].length) : text;
  const nouns = nounsIn(named, vocab).filter((n) => isThing(n, vocab));
  // A noun of a type that can be made here, a finished thing before a material ("a bone axe" is an axe).
  const fits = (n: string) => typesOf(n, vocab).some((t) => allowed.some((a) => a.id === t));
  const noun =
    nouns.find((n) => fits(n) && !typesOf(n, vocab).every((t) => vocab.type(t)?.stackable)) ??
    nouns.find(fits) ??
    nouns[0];
  const elementId = vocab.elementIn(lower);
  const element = elementId === 'none' ? undefined : elementId;
  const meant = meaningsOf(lower);
  const asked = effectsIn(meant, element, vocab);
  const stats = statsIn(lower, words, vocab);
  const stat = stats[0];
  const colour = namedColour(text);
  const score = new Map<string, number>();
  const add = (t: TypeInfo, points: number) => score.set(t.id, (score.get(t.id) ?? 0) + points);
  for (const t of allowed) {
    if (noun && typesOf(noun, vocab).includes(t.id)) add(t, 100);
    const carried = asked.find(([e]) => e.types?.includes(t.id));
    if (carried) add(t, 20 * Math.min(1, carried[1]));
    for (const [cue, fit] of BODY) if (cue.test(lower) && fit.test(typeWords(t))) add(t, 50);
    for (const [cue, serves] of PURPOSES) if (cue.test(lower) && serves(t, vocab)) add(t, 10);
    if (stat) {
      const at = t.stats.indexOf(stat);
      add(t, at === 0 ? 5 : at === 1 ? 3 : vocab.carries(t.id, stat) ? 1 : 0);
    }
  }
  if (given && (score.get(given) ?? 0) > 0) score.set(given, (score.get(given) ?? 0) + 2);
  const best = [...score].filter(([, s]) => s > 0).sort((a, b) => b[1] - a[1])[0];
  const made = best?.[0] ?? given;
  // The effects the item's type may carry, surest first; one asked surely is named even if it may not.
  const effects = asked.filter(([e]) => !made || e.types?.includes(made)).map(([e]) => e.id);
  const sure = asked.find(([, score]) => score >= 1)?.[0].id;
  const wish: Wish = { effects, purposeful: best !== undefined || asked.length > 0 };
  if (sure) wish.sure = sure;
  if (noun) wish.noun = noun;
  // A part of the body names the thing among the type's own ("for my eyes" → ocular lens).
  const part = BODY.find(([cue]) => cue.test(lower))?.[1];
  const own = made && part && !noun ? vocab.type(made)?.subtypes.filter((s) => part.test(s)) : undefined;
  if (own?.length && own.length < (vocab.type(made as string)?.subtypes.length ?? 0)) wish.thing = own[0];
  if (best) wish.type = best[0];
  if (stat) wish.stat = stat;
  wish.stats = stats;
  if (element) wish.element = element;
  if (colour) wish.colour = colour;
  return wish;
}

/** A wish read with a game's lines, as the server holds them (`gameLines`): for a create-item's rules. */
export const readWishFor = (text: string, game: GameLines, types?: readonly string[], given?: string): Wish =>
  readWish(text, vocabularyFor(game), types, given);

/** Whether a noun is a thing in a game described by its lines. */
export const isThingIn = (noun: string, game: GameLines, type?: string): boolean =>
  isThing(noun, vocabularyFor(game), type);
