import { effectParamCeiling, type ItemEffect, intentChangesItem } from '@lootsmith/protocol';
import type { Rng } from '../random.ts';
import { subtypeIn } from './context.ts';
import type { CombineCue, Cues, Ingredient } from './cues.ts';
import { effectsFor, lean } from './effects.ts';
import { agree, capitalise, isPlural, listOf, nameWithArticle, titleCase, withArticle } from './grammar.ts';
import { type ItemPlan, type PlanOptions, planItem } from './item-plan.ts';
import { SUBTYPE_TYPES } from './lexicon.ts';
import { isThing, readWish } from './requests.ts';
import type { Vocabulary } from './vocabulary.ts';

export interface Verdict {
  sensible: boolean;
  message: string;
  suggestions: string[];
  item: ItemPlan | null;
}

/** What an ingredient is to a crafter; `stock` is a game's material the writer has no word for. */
type Stuff = 'metal' | 'wood' | 'hide' | 'cloth' | 'bone' | 'herb' | 'reagent' | 'gem' | 'stock';

const STUFF_WORDS: Array<[Stuff, RegExp]> = [
  ['gem', /\b(gem|gemstone|jewel|ruby|sapphire|emerald|diamond|amethyst|topaz|opal|pearl)s?\b/],
  ['bone', /\b(bone|skull|tooth|teeth|horn|fang|claw|antler|ivory)s?\b/],
  [
    'metal',
    /\b(ore|ingot|nugget|iron|copper|gold|silver|steel|bronze|tin|mithril|adamantite|metal|bar|alloy|plating)s?\b/,
  ],
  ['wood', /\b(wood|oak|log|plank|timber|yew|ironwood|branch|lumber|bark)s?\b/],
  ['hide', /\b(leather|hide|pelt|fur|skin|scraps)s?\b/],
  ['cloth', /\b(silk|cloth|linen|wool|thread|fabric|cotton)s?\b/],
  ['herb', /\b(herb|leaf|leaves|root|flower|mushroom|moss|petal|blossom|berry|berries)s?\b/],
  [
    'reagent',
    /\b(essence|shard|crystal|dust|water|gland|venom|ember|salt|powder|vial|ichor|blood|spark|mote)s?\b/,
  ],
];

const STUFF_NAMES: Record<Stuff, string> = {
  metal: 'metal',
  wood: 'wood',
  hide: 'leather',
  cloth: 'cloth',
  bone: 'bone',
  herb: 'herbs',
  reagent: 'an essence or reagent',
  gem: 'a gem',
  stock: 'a material',
};
/** A common ingredient of each kind, for suggestions when the request names no materials of its game. */
const STUFF_EXAMPLES: Record<Stuff, string> = {
  metal: 'Iron Ore',
  wood: 'Oak Wood',
  hide: 'Leather Scraps',
  cloth: 'Shadow Silk',
  bone: 'Bone Shard',
  herb: 'Healing Herb',
  reagent: 'Arcane Dust',
  gem: 'a cut gem',
  stock: 'a material',
};
const ELEMENT_EXAMPLES: Record<string, string> = {
  fire: 'Ember Essence',
  frost: 'Frost Shard',
  poison: 'Venom Gland',
  shadow: 'Shadow Silk',
  holy: 'Holy Water',
  lightning: 'Storm Crystal',
};

/** What a material's words make it to a crafter. */
const stuffIn = (text: string) => STUFF_WORDS.find(([, words]) => words.test(text.toLowerCase()))?.[0];

/** An ingredient of this kind to suggest: one of the game's materials, else the writer's example. */
function stuffExample(vocab: Vocabulary, stuff: Stuff): string {
  if (!vocab.materials.length) return STUFF_EXAMPLES[stuff];
  const own = vocab.materials.find((m) => stuffIn(`${m.name} ${m.material ?? ''}`) === stuff);
  return own?.name ?? STUFF_NAMES[stuff];
}

/** An ingredient that carries an element, to suggest: the game's material of it, else the writer's example. */
function elementExample(vocab: Vocabulary, element: string): string {
  const own = vocab.materials.find((m) => m.element === element)?.name;
  const name = vocab.element(element)?.name.toLowerCase() ?? element;
  return (
    own ??
    (vocab.materials.length ? `a ${name} material` : (ELEMENT_EXAMPLES[element] ?? `a ${name} material`))
  );
}

/** What each subtype must be made of (any one of these). */
const NEEDS: Array<[RegExp, Stuff[]]> = [
  [/^(dagger|spear|axe)$/, ['metal', 'bone']],
  [/^(staff|wand)$/, ['wood', 'bone']],
  [/^(bow|crossbow|totem|chest)$/, ['wood']],
  [/^(shield|buckler)$/, ['wood', 'metal']],
  [
    /sword|mace|hammer|trident|halberd|scythe|flail|helm|chestplate|hauberk|greaves|sabatons|gauntlets|crown|circlet|ingot|lantern|shield/,
    ['metal'],
  ],
  [/robe|hood|cloak|tunic|leggings|gloves|hat/, ['cloth', 'hide']],
  [/boots|bracers|belt|quiver|whip/, ['hide']],
  [/pouch|satchel|bag/, ['hide', 'cloth']],
  [/ring|amulet|talisman/, ['metal', 'gem', 'bone']],
  [/orb/, ['reagent', 'gem']],
  [/potion|elixir|tonic/, ['herb', 'reagent']],
  [/bandage/, ['cloth', 'herb']],
  [/scroll|bomb|essence/, ['reagent']],
  [/dust/, ['reagent', 'bone', 'gem', 'herb']],
  [/crystal/, ['reagent', 'gem']],
];

/** Subtypes each kind of stuff makes, most natural first: the default when the intent names none. */
const MAKES: Record<Stuff, string[]> = {
  metal: [
    'sword',
    'axe',
    'mace',
    'helmet',
    'chestplate',
    'greaves',
    'gauntlets',
    'sabatons',
    'shield',
    'ring',
    'amulet',
    'dagger',
  ],
  wood: ['staff', 'bow', 'shield', 'buckler', 'wand', 'chest', 'totem'],
  hide: ['boots', 'gloves', 'pouch', 'belt', 'bracers', 'leggings', 'hood', 'quiver'],
  cloth: ['robe', 'hood', 'cloak', 'gloves', 'pouch', 'bandage', 'leggings', 'hat'],
  herb: ['potion', 'tonic', 'elixir', 'bandage', 'dust'],
  reagent: ['elixir', 'potion', 'essence', 'dust', 'orb', 'scroll', 'bomb'],
  bone: ['dagger', 'talisman', 'staff', 'amulet', 'dust'],
  gem: ['ring', 'amulet', 'orb', 'talisman'],
  stock: [],
};

/** Subtypes a tool leans towards. */
const TOOL_MAKES: Array<[RegExp, string[]]> = [
  [/hammer|anvil/, ['sword', 'mace', 'helmet', 'chestplate']],
  [/tongs/, ['ingot', 'gauntlets', 'sabatons']],
  [/knife/, ['dagger', 'belt', 'pouch', 'gloves']],
  [/saw/, ['shield', 'staff', 'bow', 'chest']],
  [/mortar|pestle/, ['dust', 'tonic']],
  [/alembic|still|retort/, ['essence', 'elixir']],
  [/wand|rune|runestone/, ['ring', 'amulet', 'orb', 'wand']],
  [/needle|loom/, ['robe', 'cloak', 'hood']],
];

/** What a station makes when the request does not list it, by the words of its name. */
const STATION_TYPES: Array<[RegExp, string, string[]]> = [
  [/forge|anvil|smith/, 'Forge', ['WEAPON', 'SHIELD', 'HELMET', 'CHEST', 'LEGS', 'BOOTS', 'GLOVES']],
  [/alchem|cauldron|brew|still|lab/, 'Alchemy Table', ['CONSUMABLE', 'MATERIAL']],
  [/enchant|altar|arcane|rune/, 'Enchanting Altar', ['ACCESSORY', 'WEAPON', 'EQUIPMENT']],
  [/loom|tailor|sew/, 'Loom', ['CHEST', 'HELMET', 'LEGS', 'BOOTS', 'GLOVES', 'EQUIPMENT', 'CONTAINER']],
  [/jewel/, 'Jeweller’s Bench', ['ACCESSORY']],
  [
    /workbench|bench|carpent|tann|table/,
    'Workbench',
    ['WEAPON', 'SHIELD', 'CONTAINER', 'CONSUMABLE', 'ACCESSORY'],
  ],
];
/** How a refusal names what a station makes, for the writer's own types. */
const TYPE_PLURALS: Record<string, string> = {
  WEAPON: 'weapons',
  SHIELD: 'shields',
  HELMET: 'helmets',
  CHEST: 'body armour',
  LEGS: 'leg armour',
  BOOTS: 'boots',
  GLOVES: 'gloves',
  ACCESSORY: 'jewellery',
  CONSUMABLE: 'potions and other consumables',
  MATERIAL: 'reagents',
  CONTAINER: 'containers',
  EQUIPMENT: 'gear',
};
const GENERIC_TYPES: Record<string, string> = {
  weapon: 'WEAPON',
  armor: 'CHEST',
  armour: 'CHEST',
  jewelry: 'ACCESSORY',
  jewellery: 'ACCESSORY',
  trinket: 'ACCESSORY',
  drink: 'CONSUMABLE',
  medicine: 'CONSUMABLE',
  remedy: 'CONSUMABLE',
  cure: 'CONSUMABLE',
  antidote: 'CONSUMABLE',
  fever: 'CONSUMABLE',
  wound: 'CONSUMABLE',
  wounds: 'CONSUMABLE',
  sickness: 'CONSUMABLE',
  illness: 'CONSUMABLE',
  pain: 'CONSUMABLE',
  sleep: 'CONSUMABLE',
  heal: 'CONSUMABLE',
};

/** What a purpose asks for, when the station can make it: "to keep me alive" is a potion. */
const PURPOSE_TYPES: Record<string, string> = {
  alive: 'CONSUMABLE',
  survive: 'CONSUMABLE',
  healthy: 'CONSUMABLE',
  protect: 'CHEST',
  protection: 'CHEST',
  defend: 'SHIELD',
  safe: 'CHEST',
  fight: 'WEAPON',
  kill: 'WEAPON',
  slay: 'WEAPON',
  hunt: 'WEAPON',
  carry: 'CONTAINER',
};

/** Words an intent may use that name no thing: qualities, filler, elements. Anything else is a thing. */
const PLAIN_WORDS = new Set(
  `a an the of with and or for to me my some something anything thing item one please make craft forge brew create build turn into new good better best great fine
  sturdy strong sharp keen light heavy wicked simple small big large long short curved elegant ornate plain rough deadly powerful mighty magic magical enchanted
  fancy shiny polished sturdier stronger lighter cheap quick fast nice old bright dark banded studded reinforced tough hard soft thick thin warm cold hot
  burning flaming fiery icy frozen frosty poisoned poisonous venomous toxic cursed shadowy shadow holy blessed sacred stormy charged crackling glowing
  healing mana health restoring minor major greater lesser small two handed two-handed one-handed
  it that this which is be can could would will from made out using use used cool soothe ease help against`.split(
    /\s+/,
  ),
);

interface Part {
  ingredient: Ingredient;
  stuff?: Stuff;
  /** A finished item among the ingredients (a sword to reforge, a potion to strengthen). */
  finished?: { type: string; subtype: string };
}

function partOf(ingredient: Ingredient, vocab: Vocabulary): Part {
  const text = `${ingredient.name} ${ingredient.material ?? ''}`;
  const type = vocab.type(ingredient.type);
  if (type && !type.stackable) {
    const subtype = ingredient.subtype ?? subtypeIn(ingredient.name, vocab) ?? type.id.toLowerCase();
    return { ingredient, finished: { type: type.id, subtype } };
  }
  const own = vocab.materials.some((m) => m.name.toLowerCase() === ingredient.name.toLowerCase());
  const stuff =
    stuffIn(text) ?? (ingredient.element !== 'none' ? 'reagent' : undefined) ?? (own ? 'stock' : undefined);
  return stuff ? { ingredient, stuff } : { ingredient };
}

/** The stuff a subtype is made of (any one of these): the writer's rule for its own words, anything for a game's. */
function needsOf(vocab: Vocabulary, subtype: string): Stuff[] {
  const own = vocab.types.some((t) => t.ownSubtypes && t.subtypes.some((s) => s.toLowerCase() === subtype));
  const rule = own ? undefined : NEEDS.find(([pattern]) => pattern.test(subtype))?.[1];
  return (
    rule ?? [
      'metal',
      'wood',
      'hide',
      'cloth',
      'bone',
      'gem',
      'stock',
      ...(own ? (['reagent', 'herb'] as const) : []),
    ]
  );
}

const typeOf = (vocab: Vocabulary, subtype: string): string =>
  vocab.typeOfSubtype(subtype)?.id ?? (vocab.types[0]?.id as string);

/** How a refusal names what a type is: the writer's words for its own, else the game's name, plural. */
function plural(vocab: Vocabulary, type: string): string {
  const info = vocab.type(type);
  const own = TYPE_PLURALS[type];
  if (own && (!info || info.name === type.toLowerCase() || !vocab.known)) return own;
  const name = info?.name ?? type.toLowerCase();
  return isPlural(name) || /armou?r$|gear$/.test(name) ? name : `${name}s`;
}

function stationTypes(combine: CombineCue, vocab: Vocabulary): readonly string[] {
  if (combine.stationTypes?.length) return combine.stationTypes;
  const all = vocab.types.map((t) => t.id);
  const name = (combine.station ?? '').toLowerCase();
  if (!name || vocab.stations) return all;
  return STATION_TYPES.find(([pattern]) => pattern.test(name))?.[2] ?? all;
}

/** The game's other stations when the request lists them, else the usual ones of a fantasy game. */
const otherStations = (combine: CombineCue) =>
  combine.otherStations ?? STATION_TYPES.map(([, name, types]) => ({ name, types }));

/** Stations that make a type: the game's own when the request lists them, else the usual names. */
function stationsFor(type: string, bench: Pick<Bench, 'combine' | 'vocab'>, parts: Part[] = []): string[] {
  const { combine } = bench;
  // The station that can do most with these ingredients first: the forge for metal, not the workbench.
  const listed = combine.otherStations
    ?.filter((s) => s.types.includes(type))
    .sort((a, b) => possible(bench, parts, b.types).length - possible(bench, parts, a.types).length)
    .map((s) => s.name);
  if (listed?.length) return listed;
  if (combine.otherStations?.length) return [];
  return STATION_TYPES.filter(([, , types]) => types.includes(type)).map(([, name]) => name);
}

function refuse(message: string, suggestions: string[]): Verdict {
  const unique = [...new Set(suggestions)].filter(Boolean).slice(0, 3);
  return {
    sensible: false,
    message: message.slice(0, 300),
    suggestions: unique.map((s) => s.slice(0, 120)),
    item: null,
  };
}

const the = (ingredient: Ingredient) => `the ${ingredient.name}`;
/** The head of a name: "Plate Boots of the Long Road" → "Plate Boots". */
const headOf = (name: string) => name.split(/,| of /)[0] as string;

/**
 * Subtypes these ingredients could make at this station, most natural first: the writer's own by
 * what each kind of stuff makes, then the game's own subtypes of the types the station makes.
 */
function possible(bench: Pick<Bench, 'vocab'>, parts: Part[], types: readonly string[]): string[] {
  const { vocab } = bench;
  const have = new Set(parts.map((p) => p.stuff).filter(Boolean) as Stuff[]);
  const out: string[] = [];
  // Only things of the game's types: a salvage game's fabricator makes no swords.
  const fits = (subtype: string) =>
    vocab.typeOfSubtype(subtype) !== undefined &&
    types.includes(typeOf(vocab, subtype)) &&
    needsOf(vocab, subtype).some((n) => have.has(n)) &&
    !out.includes(subtype);
  for (const stuff of have) for (const subtype of MAKES[stuff]) if (fits(subtype)) out.push(subtype);
  for (const type of types) {
    const info = vocab.type(type);
    if (info?.ownSubtypes && !info.stackable)
      for (const subtype of info.subtypes.map((s) => s.toLowerCase())) if (fits(subtype)) out.push(subtype);
  }
  return out;
}

/** Suggestions that name what would work: another station for this, or what these make here. */
function adviceFor(bench: Pick<Bench, 'combine' | 'vocab'>, parts: Part[], wanted?: string): string[] {
  const { combine, vocab } = bench;
  const station = combine.station ?? 'this station';
  const names = listOf(parts.map((p) => p.ingredient.name));
  const out: string[] = [];
  // A finished piece goes where pieces of its kind are made, with material of its kind.
  const piece = parts.find((p) => p.finished);
  if (piece?.finished) {
    const at = stationsFor(piece.finished.type, bench, parts).find(
      (s) => s.toLowerCase() !== station.toLowerCase(),
    );
    const need = needsOf(vocab, piece.finished.subtype)[0] as Stuff;
    if (at)
      out.push(
        `Improve the ${piece.ingredient.name} at the ${at} with ${stuffExample(vocab, need)} or an essence.`,
      );
  }
  // What these make here, unless it is what the player asked for (then something else stands in the way).
  const offer = possible(bench, parts, stationTypes(combine, vocab)).find((s) => s !== wanted);
  if (offer) out.push(`Ask the ${station} for ${withArticle(offer)} instead: ${names} can make one here.`);
  if (wanted) {
    const type = typeOf(vocab, wanted);
    const at = stationsFor(type, bench, parts).filter((s) => s.toLowerCase() !== station.toLowerCase());
    if (at[0] && !stationTypes(combine, vocab).includes(type))
      out.push(`Take them to the ${at[0]}, which makes ${plural(vocab, type)}.`);
    const have = new Set(parts.map((p) => p.stuff));
    const needs = needsOf(vocab, wanted);
    const need = needs.find((n) => !have.has(n));
    if (need && !needs.some((n) => have.has(n)))
      out.push(`Add ${stuffExample(vocab, need)} (${STUFF_NAMES[need]}) for ${withArticle(wanted)}.`);
  }
  const elsewhere = otherStations(combine)
    .filter((s) => s.name.toLowerCase() !== station.toLowerCase())
    .map((s) => ({ name: s.name, options: possible(bench, parts, s.types) }))
    // The station that can do most with these first (the forge for metal), one suggestion per thing made.
    .sort((a, b) => b.options.length - a.options.length)
    .map((s) => ({ name: s.name, makes: s.options[0] }))
    .filter(
      (s, i, all): s is { name: string; makes: string } =>
        Boolean(s.makes) && all.findIndex((o) => o.makes === s.makes) === i,
    );
  for (const s of elsewhere.slice(0, Math.max(0, 3 - out.length)))
    out.push(`At the ${s.name}, ${names} would make ${withArticle(s.makes)}.`);
  if (out.length < 2)
    out.push(
      `Start from a base material such as ${stuffExample(vocab, 'metal')} or ${stuffExample(vocab, 'wood')}.`,
    );
  return out;
}

/** What is on the bench: the ingredients as a crafter sees them, the station, and what the intent asks. */
interface Bench {
  vocab: Vocabulary;
  combine: CombineCue;
  parts: Part[];
  station: string;
  types: readonly string[];
  /** The elements the ingredients carry. */
  elements: string[];
  finished: Part[];
  /** The finished piece a craft improves, if one went in. */
  base?: { type: string; subtype: string };
  intent: string;
  words: string[];
  /** "something to keep me alive": a purpose, not a thing; the craft picks the thing. */
  purpose: boolean;
  /** A type the intent names in general ("a weapon", "a cure"). */
  generic?: string;
  /** The subtype the intent names ("a heavy axe"). */
  named?: string;
  /** The stat the intent leans to ("i want to run faster" → speed). */
  stat?: string;
}

/** A check of the bench: a refusal with advice, or nothing when the check passes. */
type Check = (bench: Bench) => Verdict | undefined;
/** A check of the thing about to be made. */
type MakeCheck = (bench: Bench, made: Made) => Verdict | undefined;

/** A type word of the intent ("a weapon", "an implant"): the game's type names, then the writer's words. */
function genericType(vocab: Vocabulary, words: string[]): string | undefined {
  const own = vocab.types.find((t) =>
    words.some(
      (w) => w === t.name.toLowerCase() || w === t.id.toLowerCase() || `${w}s` === t.name.toLowerCase(),
    ),
  );
  if (own && vocab.known) return own.id;
  return vocab.type(words.map((w) => GENERIC_TYPES[w]).find(Boolean))?.id;
}

function readBench(combine: CombineCue, vocab: Vocabulary): Bench {
  const parts = combine.ingredients.map((i) => partOf(i, vocab));
  const types = stationTypes(combine, vocab);
  const finished = parts.filter((p) => p.finished);
  const intent = (combine.intent ?? '').toLowerCase();
  const words = intent.match(/[a-z]+(?:-[a-z]+)*/g) ?? [];
  const purpose = /^(?:(?:a|an|some)\s+)?(?:something|anything|thing|item|gear|tool)\b|^(?:to|for)\s/.test(
    intent.trim(),
  );
  // A wish names what it is for where it names no thing ("i want to protect myself" → a shield).
  const wish = readWish(intent, vocab, types);
  const generic =
    genericType(vocab, words) ??
    (purpose ? words.map((w) => PURPOSE_TYPES[w]).find((t) => t && types.includes(t)) : undefined) ??
    (wish.noun ? undefined : wish.type);
  // Only a thing of the game's own types: "shields" names no tool of a salvage game.
  const found = subtypeIn(intent, vocab);
  const named = found && isThing(found, vocab) ? found : (wish.thing ?? undefined);
  return {
    vocab,
    combine,
    parts,
    station: combine.station ?? 'workbench',
    types,
    elements: [...new Set(combine.ingredients.map((i) => i.element).filter((e) => e !== 'none'))],
    finished,
    ...(finished[0]?.finished ? { base: finished[0].finished } : {}),
    intent,
    words,
    purpose: purpose || (wish.purposeful && !wish.noun),
    ...(generic ? { generic } : {}),
    ...(named ? { named } : {}),
    ...(wish.stat ? { stat: wish.stat } : {}),
  };
}

const namesOf = (bench: Bench) => listOf(bench.parts.map((p) => p.ingredient.name));
const elementName = (vocab: Vocabulary, id: string) => vocab.element(id)?.name.toLowerCase() ?? id;

const opposedElements: Check = ({ vocab, combine, parts, elements }) => {
  const clash = vocab.opposed().find(([a, b]) => elements.includes(a) && elements.includes(b));
  if (!clash) return undefined;
  const [a, b] = clash;
  const first = combine.ingredients.find((i) => i.element === a) as Ingredient;
  const second = combine.ingredients.find((i) => i.element === b) as Ingredient;
  const base =
    parts.find((p) => p.stuff && p.stuff !== 'reagent')?.ingredient.name ?? stuffExample(vocab, 'metal');
  const [an, bn] = [elementName(vocab, a), elementName(vocab, b)];
  return refuse(
    `${capitalise(the(first))} and ${the(second)} fight each other: ${an} and ${bn} cancel out, and the mixture fizzles into useless slag.`,
    [
      `Leave out ${the(second)} and combine ${the(first)} with ${base} for a ${an} item.`,
      `Leave out ${the(first)} and combine ${the(second)} with ${base} for a ${bn} item.`,
      `Add a second ${an} ingredient such as ${elementExample(vocab, a)} instead of mixing opposed elements.`,
    ],
  );
};

const piecesOfOneKind: Check = ({ vocab, finished }) => {
  if (new Set(finished.map((p) => p.finished?.subtype)).size <= 1) return undefined;
  const [x, y] = finished.map((p) => p.ingredient) as [Ingredient, Ingredient];
  const [metal, wood, hide] = [
    stuffExample(vocab, 'metal'),
    stuffExample(vocab, 'wood'),
    stuffExample(vocab, 'hide'),
  ];
  return refuse(
    `${capitalise(the(x))} and ${the(y)} are finished pieces of different kinds; no craft makes one thing of them.`,
    [
      `Combine ${the(x)} with a material (${metal}, an essence) to improve ${agree(headOf(x.name)).them}.`,
      `Combine ${the(y)} with a material of its own kind instead.`,
      `Craft from raw materials: ${listOf([...new Set([metal, wood, hide])]).replace(/ and ([^,]+)$/, ' or $1')}.`,
    ],
  );
};

const somethingToShape: Check = (bench) => {
  const { vocab } = bench;
  if (bench.base || bench.parts.some((p) => p.stuff)) return undefined;
  const essences = vocab.elements.slice(0, 2).map((e) => elementExample(vocab, e.id));
  const stations = otherStations(bench.combine).map((s) => s.name);
  return refuse(`There is nothing to work with: ${namesOf(bench)} cannot be shaped into anything.`, [
    `Add a base material such as ${stuffExample(vocab, 'metal')} or ${stuffExample(vocab, 'wood')}.`,
    ...(essences.length ? [`Add an essence (${essences.join(', ')}) to give the result an element.`] : []),
    `Try ${withArticle(stations[0] ?? 'another station')} with raw materials instead of finished consumables.`,
  ]);
};

/** A word nobody could mean: four consonants in a row, or no vowel at all. */
const gibberish = (word: string) => word.length > 3 && (/[^aeiouy]{4}/.test(word) || !/[aeiouy]/.test(word));

/**
 * An intent that names nothing a crafter knows is not guessed at: for a game the request does not
 * describe, any word the writer does not know ("a banana-powered spaceship"); for a game it does, only
 * words nobody could mean ("asdkjh"), since the game's own things are judged by what went in.
 */
const intentNamesAThing: Check = (bench) => {
  const { vocab, words, named, generic, purpose } = bench;
  const unknown = words.filter(
    (w) =>
      !PLAIN_WORDS.has(w) &&
      !SUBTYPE_TYPES[w] &&
      !SUBTYPE_TYPES[w.replace(/s$/, '')] &&
      !GENERIC_TYPES[w] &&
      !STUFF_WORDS.some(([, re]) => re.test(w)) &&
      vocab.elementIn(w) === 'none' &&
      w.length > 2,
  );
  const senseless = vocab.known ? unknown.filter(gibberish) : unknown;
  if (!words.length || (!vocab.known && (named || generic || purpose)) || !senseless.length) return undefined;
  return refuse(
    `The master of the ${bench.station} shakes their head: nobody here knows how to make “${bench.combine.intent?.slice(0, 60)}” from ${namesOf(bench)}.`,
    adviceFor(bench, bench.parts),
  );
};

/** "… made of regret and tax forms": what the intent says it is made of must be among what went in. */
const madeOfWhatWentIn: Check = (bench) => {
  const clause = /\b(?:made (?:of|from|out of)|out of|from)\s+(.+)$/.exec(bench.intent)?.[1];
  if (!clause) return undefined;
  const asked = (clause.match(/[a-z]+/g) ?? []).filter((w) => !PLAIN_WORDS.has(w) && w.length > 2);
  const went = bench.parts
    .map((p) => `${p.ingredient.name} ${p.ingredient.material ?? ''} ${p.ingredient.subtype ?? ''}`)
    .join(' ')
    .toLowerCase();
  const have = stuffOf(bench.vocab, bench.parts);
  const found = (w: string) =>
    went.includes(w.replace(/s$/, '')) || (stuffIn(w) !== undefined && have.has(stuffIn(w)));
  if (!asked.length || asked.some(found)) return undefined;
  return refuse(
    `You asked for it made of ${clause.slice(0, 60)}, but none of that went in: ${namesOf(bench)}.`,
    [`Add ${clause.slice(0, 40)} to the combination, if you have it.`, ...adviceFor(bench, bench.parts)],
  );
};

/**
 * The last word of the intent's thing, before what it is for or made of, when it is a thing: "a
 * clockwork gadget for my belt" → gadget; "whatever you think is best" names none (never "think").
 */
function headNoun(intent: string, vocab: Vocabulary): string | undefined {
  const thing = intent.split(/\b(?:for|to|with|that|which|made|from|out|of)\b/)[0] ?? '';
  const words = (thing.match(/[a-z]+/g) ?? []).filter((w) => !PLAIN_WORDS.has(w) && w.length > 2);
  const head = words.at(-1);
  return head && isThing(head, vocab) ? head : undefined;
}

/** What is made: a subtype and its type. */
interface Made {
  subtype: string;
  type: string;
}

/**
 * What to make: the piece being improved, else what the intent names, else (for a game the request
 * describes) the thing the intent asks for by its own word, else what the bench and tool favour.
 */
function chooseSubtype(bench: Bench): Made | Verdict {
  const { vocab, base, named, generic, types, combine, parts } = bench;
  const made = (subtype: string): Made => ({ subtype, type: typeOf(vocab, subtype) });
  if (base) return named && typeOf(vocab, named) === base.type ? made(named) : base;
  if (named) return made(named);
  const toolPick = TOOL_MAKES.find(([pattern]) => pattern.test(combine.tool?.toLowerCase() ?? ''))?.[1] ?? [];
  const options = possible(bench, parts, generic ? [generic] : types);
  const head = vocab.known && !bench.purpose ? headNoun(bench.intent, vocab) : undefined;
  if (head && !generic && parts.some((p) => p.stuff)) {
    // A thing of the game's world the writer has no word for: made by the first type that fits.
    const type = types.find((t) => options.some((o) => typeOf(vocab, o) === t)) ?? types[0];
    if (type) return { subtype: head, type };
  }
  const chosen = toolPick.find((s) => options.includes(s)) ?? options[0];
  return chosen
    ? made(chosen)
    : refuse(
        `The ${bench.station} can do nothing with ${namesOf(bench)}: it makes ${listOf(types.map((t) => plural(vocab, t)))}.`,
        adviceFor(bench, parts),
      );
}

const pieceKeepsItsKind: MakeCheck = (bench) => {
  const { vocab, base, named, finished, parts } = bench;
  if (!base || !named || typeOf(vocab, named) === base.type) return undefined;
  const item = finished[0]?.ingredient as Ingredient;
  return refuse(
    `${capitalise(the(item))} cannot be turned into ${withArticle(named)}; a craft can improve a piece, not change what it is.`,
    [
      `Combine ${the(item)} with an essence to give it an element.`,
      `Start ${withArticle(named)} from raw materials instead.`,
      ...adviceFor(bench, parts, named),
    ],
  );
};

const stationMakesIt: MakeCheck = (bench, { subtype, type }) => {
  if (bench.types.includes(type)) return undefined;
  return refuse(
    `The ${bench.station} cannot make ${withArticle(subtype)}: it makes ${listOf(bench.types.map((t) => plural(bench.vocab, t)))}.`,
    adviceFor(bench, bench.parts, subtype),
  );
};

/** The stuff the ingredients give: their own, or what a finished piece is made of. */
const stuffOf = (vocab: Vocabulary, parts: Part[]) =>
  new Set(parts.map((p) => p.stuff ?? (p.finished ? needsOf(vocab, p.finished.subtype)[0] : undefined)));

const ingredientsGiveIt: MakeCheck = (bench, { subtype }) => {
  const have = stuffOf(bench.vocab, bench.parts);
  const needs = needsOf(bench.vocab, subtype);
  if (needs.some((n) => have.has(n))) return undefined;
  const need = needs[0] as Stuff;
  return refuse(
    `${capitalise(withArticle(subtype))} needs ${STUFF_NAMES[need]}, and ${namesOf(bench)} will not give it that.`,
    adviceFor(bench, bench.parts, subtype),
  );
};

const elementIsCarried: MakeCheck = ({ vocab, intent, elements }, { subtype }) => {
  // A word of the thing's own name ("a plasma cutter") asks for no element.
  const wanted = vocab.elementIn(intent.replace(subtype, ' '));
  if (wanted === 'none' || elements.includes(wanted)) return undefined;
  const name = elementName(vocab, wanted);
  return refuse(
    `Nothing here carries ${name}: ${withArticle(`${name} ${subtype}`)} needs an ingredient of ${name}.`,
    [
      `Add ${elementExample(vocab, wanted)} to the ${subtype}.`,
      `Ask for a plain ${subtype} from these ingredients instead.`,
    ],
  );
};

/** Intent materials the ingredients lack ("an oak shield" from iron alone) are promises the craft can't keep. */
const materialIsThere: MakeCheck = (bench, { subtype }) => {
  const have = stuffOf(bench.vocab, bench.parts);
  const missing = STUFF_WORDS.find(
    ([stuff, re]) => stuff !== 'reagent' && re.test(bench.intent) && !have.has(stuff),
  )?.[0];
  if (!missing) return undefined;
  return refuse(`You asked for ${STUFF_NAMES[missing]}, but none went in: ${namesOf(bench)}.`, [
    `Add ${stuffExample(bench.vocab, missing)} to the combination.`,
    `Ask for ${withArticle(subtype)} of what you have instead.`,
  ]);
};

const BENCH_CHECKS: readonly Check[] = [
  opposedElements,
  piecesOfOneKind,
  somethingToShape,
  intentNamesAThing,
  madeOfWhatWentIn,
];
const MAKE_CHECKS: readonly MakeCheck[] = [
  pieceKeepsItsKind,
  stationMakesIt,
  ingredientsGiveIt,
  elementIsCarried,
  materialIsThere,
];

type Stats = ItemPlan['stats'];
const powerOf = (stats: Stats) => stats.reduce((a, s) => a + Math.max(0, s.value), 0);

/** Stats by id, those the type may carry, summed over their sources. */
function statsOf(
  vocab: Vocabulary,
  type: string,
  sources: ReadonlyArray<Record<string, number> | undefined>,
) {
  const sums = new Map<string, number>();
  for (const source of sources)
    for (const [name, value] of Object.entries(source ?? {}))
      if (vocab.carries(type, name)) sums.set(name, (sums.get(name) ?? 0) + Math.round(value));
  return [...sums].map(([name, value]) => ({ name, value })).slice(0, 6);
}

/**
 * An improved item's stats: its own, joined by what the materials carry while that stays within
 * the result's budget, then raised to the budget (never lowered below its own).
 */
function keptStats(
  vocab: Vocabulary,
  type: string,
  piece: Ingredient,
  materials: Ingredient[],
  budget: number,
) {
  const own = statsOf(vocab, type, [piece.stats]);
  const joined = statsOf(vocab, type, [piece.stats, ...materials.map((m) => m.stats)]);
  const kept = powerOf(joined) <= Math.max(budget, powerOf(own)) ? joined : own;
  const power = powerOf(kept);
  if (!power) return undefined;
  const scale = Math.max(1, budget / power);
  return kept.map((s) => (s.value > 0 ? { name: s.name, value: Math.floor(s.value * scale) } : s));
}

/**
 * An improved item's effects: every one it had (of the game's catalogue), those of the element the
 * materials bring strengthened halfway to the ceiling of the result's rarity and level; one of that
 * element drawn for it when it had none and has room.
 */
function keptEffects(
  vocab: Vocabulary,
  piece: Ingredient,
  element: string,
  item: { type: string; rarity: number; level: number },
  max: number,
  rng: Rng,
): ItemEffect[] {
  const known = (id: string) => vocab.effects.find((e) => e.id === id);
  const own = (piece.effects ?? []).filter((e) => !vocab.effects.length || known(e.id));
  const brought = element !== 'none';
  const kept = own.map((effect) => {
    const line = known(effect.id);
    if (!line || !brought || lean(line, element, vocab) < 4) return effect;
    const params = Object.fromEntries(
      Object.entries(effect.params).map(([name, value]) => {
        const range = line.params?.[name];
        if (!range) return [name, value];
        const ceiling = Math.floor(effectParamCeiling(range, item.rarity, item.level));
        return [
          name,
          Math.max(value, Math.min(ceiling, value + Math.max(1, Math.round((ceiling - value) / 2)))),
        ];
      }),
    );
    return { id: effect.id, params };
  });
  const leans = (e: ItemEffect) => {
    const line = known(e.id);
    return line !== undefined && lean(line, element, vocab) >= 4;
  };
  const room = kept.length < max && brought && !kept.some(leans);
  const added = room
    ? effectsFor(vocab, item.type, element, item.rarity, item.level, vocab.effects.length, rng).find(
        (e) => leans(e) && !kept.some((k) => k.id === e.id),
      )
    : undefined;
  return [...kept, ...(added ? [added] : [])].slice(0, Math.max(max, kept.length));
}

/**
 * What an upgrade keeps: a finished item combined with materials, when the request says what the item
 * carries and the player's words ask for no change, keeps its stats and effects and builds on them.
 */
function upgradeKeeps(bench: Bench, element: string, options: PlanOptions, rng: Rng): PlanOptions['keep'] {
  const { vocab, parts, combine, finished } = bench;
  const piece = finished[0]?.ingredient;
  if (!piece || finished.length !== 1 || piece.quantity !== 1 || intentChangesItem(combine.intent))
    return undefined;
  if (!piece.stats && !piece.effects) return undefined;
  const materials = parts.filter((p) => !p.finished).map((p) => p.ingredient);
  return (drawn, item) => ({
    stats: keptStats(vocab, item.type, piece, materials, item.budget) ?? drawn.stats,
    effects: keptEffects(vocab, piece, element, item, options.maxEffects ?? 4, rng),
  });
}

/** The item a passed combination makes: of what went in, after the intent's subtype and adjective. */
function craft(bench: Bench, { subtype, type }: Made, cues: Cues, rng: Rng, options: PlanOptions): Verdict {
  const { combine, parts, elements, words, station } = bench;
  // What the player added leads: fire essence on a poisoned keg makes a fire keg.
  const added = parts.find((p) => !p.finished && p.ingredient.element !== 'none')?.ingredient.element;
  const element = added ?? elements[0] ?? 'none';
  const main =
    parts.find((p) => p.finished)?.ingredient ??
    parts
      .filter((p) => p.stuff && p.stuff !== 'reagent')
      .sort((a, b) => b.ingredient.quantity - a.ingredient.quantity)[0]?.ingredient ??
    parts[0]?.ingredient;
  const material = main?.material ?? 'iron';
  const adjective = words.find((w) => QUALITY_NAMES[w]);
  const keep = upgradeKeeps(bench, added ?? 'none', options, rng.fork('upgrade'));
  // A new thing leans where the words ask; an improved piece keeps its nature (a bomb still bursts).
  const focus = combine.result.focus ?? (bench.base ? undefined : bench.stat);
  const result = { ...combine.result, type, subtype, ...(focus ? { focus } : {}) };
  const item = planItem(result, { ...cues, element, themeOnly: false }, rng, {
    ...options,
    ...(keep ? { keep } : {}),
    material,
    element,
    ...(adjective
      ? {
          nameHint: `${QUALITY_NAMES[adjective]} ${titleCase(material)} ${titleCase(subtype)}`,
          nounHint: subtype,
        }
      : {}),
  });
  const made = combine.ingredients.map((i) => (i.quantity > 1 ? `${i.quantity} ${i.name}` : i.name));
  const message = rng.pick([
    `At the ${station}, ${listOf(made)} become ${nameWithArticle(item.name)}.`,
    `The ${station} does its work: ${listOf(made)} yield ${nameWithArticle(item.name)}.`,
    `${capitalise(listOf(made))} go in; ${nameWithArticle(item.name)} comes out of the ${station}.`,
  ]);
  return { sensible: true, message, suggestions: [], item };
}

/**
 * Judges a combination from its ingredients, station, tool and intent together, as a game master would:
 * each check in turn may refuse with advice (opposed elements, finished pieces that do not belong together,
 * a station that cannot make the thing, an intent the ingredients cannot support or that names nothing
 * craftable). A success follows the intent (an axe asked for is an axe) and is made of what went in.
 */
export function judgeCombination(cues: Cues, rng: Rng, options: PlanOptions): Verdict {
  const combine = cues.combine;
  if (!combine?.ingredients.length)
    return refuse('There is nothing on the bench to combine.', ['Add at least two ingredients.']);
  const bench = readBench(combine, cues.vocab);
  for (const check of BENCH_CHECKS) {
    const refused = check(bench);
    if (refused) return refused;
  }
  const made = chooseSubtype(bench);
  if ('sensible' in made) return made;
  for (const check of MAKE_CHECKS) {
    const refused = check(bench, made);
    if (refused) return refused;
  }
  return craft(bench, made, cues, rng, options);
}

/** Intent adjectives a crafter honours in the name ("a sturdy oak shield" → Sturdy Oak Shield). */
const QUALITY_NAMES: Record<string, string> = {
  sturdy: 'Sturdy',
  keen: 'Keen',
  sharp: 'Keen',
  wicked: 'Wicked',
  heavy: 'Heavy',
  light: 'Light',
  elegant: 'Elegant',
  ornate: 'Ornate',
  reinforced: 'Reinforced',
  banded: 'Banded',
  studded: 'Studded',
  curved: 'Curved',
  deadly: 'Deadly',
};
