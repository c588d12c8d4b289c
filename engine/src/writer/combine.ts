import { type Element, ITEM_TYPES, type ItemType } from '@lootsmith/protocol';
import type { Rng } from '../random.ts';
import { subtypeIn } from './context.ts';
import { type CombineCue, type Cues, elementOf, type Ingredient } from './cues.ts';
import { agree, capitalise, listOf, nameWithArticle, titleCase, withArticle } from './grammar.ts';
import { type ItemPlan, type PlanOptions, planItem } from './item-plan.ts';
import { OPPOSED, SUBTYPE_TYPES, type Theme, typeOfSubtype } from './lexicon.ts';

export interface Verdict {
  sensible: boolean;
  message: string;
  suggestions: string[];
  item: ItemPlan | null;
}

/** What an ingredient is to a crafter. */
type Stuff = 'metal' | 'wood' | 'hide' | 'cloth' | 'bone' | 'herb' | 'reagent' | 'gem';

const STUFF_WORDS: Array<[Stuff, RegExp]> = [
  ['gem', /\b(gem|gemstone|jewel|ruby|sapphire|emerald|diamond|amethyst|topaz|opal|pearl)s?\b/],
  ['bone', /\b(bone|skull|tooth|teeth|horn|fang|claw|antler|ivory)s?\b/],
  ['metal', /\b(ore|ingot|nugget|iron|copper|gold|silver|steel|bronze|tin|mithril|adamantite|metal|bar)s?\b/],
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
};
/** A common ingredient of each kind, for suggestions (the fantasy game's names). */
const STUFF_EXAMPLES: Record<Stuff, string> = {
  metal: 'Iron Ore',
  wood: 'Oak Wood',
  hide: 'Leather Scraps',
  cloth: 'Shadow Silk',
  bone: 'Bone Shard',
  herb: 'Healing Herb',
  reagent: 'Arcane Dust',
  gem: 'a cut gem',
};
const ELEMENT_EXAMPLES: Record<Theme, string> = {
  fire: 'Ember Essence',
  frost: 'Frost Shard',
  poison: 'Venom Gland',
  shadow: 'Shadow Silk',
  holy: 'Holy Water',
  lightning: 'Storm Crystal',
};

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
const STATION_TYPES: Array<[RegExp, string, ItemType[]]> = [
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
/** How a refusal names what a station makes. */
const TYPE_PLURALS: Record<ItemType, string> = {
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
const GENERIC_TYPES: Record<string, ItemType> = {
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
const PURPOSE_TYPES: Record<string, ItemType> = {
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
  finished?: { type: ItemType; subtype: string };
}

function partOf(ingredient: Ingredient): Part {
  const text = `${ingredient.name} ${ingredient.material ?? ''}`.toLowerCase();
  if (ingredient.type && ingredient.type !== 'MATERIAL') {
    const subtype = ingredient.subtype ?? subtypeIn(ingredient.name) ?? ingredient.type.toLowerCase();
    return { ingredient, finished: { type: ingredient.type, subtype } };
  }
  const stuff =
    STUFF_WORDS.find(([, words]) => words.test(text))?.[0] ??
    (ingredient.element !== 'none' ? 'reagent' : undefined);
  return stuff ? { ingredient, stuff } : { ingredient };
}

function needsOf(subtype: string): Stuff[] {
  return (
    NEEDS.find(([pattern]) => pattern.test(subtype))?.[1] ?? ['metal', 'wood', 'hide', 'cloth', 'bone', 'gem']
  );
}

const typeOf = (subtype: string): ItemType => typeOfSubtype(subtype) ?? 'WEAPON';

function stationTypes(combine: CombineCue): readonly ItemType[] {
  if (combine.stationTypes?.length) return combine.stationTypes;
  const name = (combine.station ?? '').toLowerCase();
  if (!name) return ITEM_TYPES;
  return STATION_TYPES.find(([pattern]) => pattern.test(name))?.[2] ?? ITEM_TYPES;
}

/** Stations that make a type: the game's own when the request lists them, else the usual names. */
function stationsFor(type: ItemType, combine: CombineCue, parts: Part[] = []): string[] {
  // The station that can do most with these ingredients first: the forge for metal, not the workbench.
  const listed = combine.otherStations
    ?.filter((s) => s.types.includes(type))
    .sort((a, b) => possible(parts, b.types).length - possible(parts, a.types).length)
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

/** Subtypes these ingredients could make at this station, most natural first. */
function possible(parts: Part[], types: readonly ItemType[]): string[] {
  const have = new Set(parts.map((p) => p.stuff).filter(Boolean) as Stuff[]);
  const out: string[] = [];
  for (const stuff of have)
    for (const subtype of MAKES[stuff])
      if (
        types.includes(typeOf(subtype)) &&
        needsOf(subtype).some((n) => have.has(n)) &&
        !out.includes(subtype)
      )
        out.push(subtype);
  return out;
}

/** Suggestions that name what would work: another station for this, or what these make here. */
function adviceFor(parts: Part[], combine: CombineCue, wanted?: string): string[] {
  const station = combine.station ?? 'this station';
  const names = listOf(parts.map((p) => p.ingredient.name));
  const out: string[] = [];
  // A finished piece goes where pieces of its kind are made, with material of its kind.
  const piece = parts.find((p) => p.finished);
  if (piece?.finished) {
    const at = stationsFor(piece.finished.type, combine, parts).find(
      (s) => s.toLowerCase() !== station.toLowerCase(),
    );
    const need = needsOf(piece.finished.subtype)[0] as Stuff;
    if (at)
      out.push(
        `Improve the ${piece.ingredient.name} at the ${at} with ${STUFF_EXAMPLES[need]} or an essence.`,
      );
  }
  const here = possible(parts, stationTypes(combine));
  if (here[0])
    out.push(`Ask the ${station} for ${withArticle(here[0])} instead: ${names} can make one here.`);
  if (wanted) {
    const type = typeOf(wanted);
    const at = stationsFor(type, combine, parts).filter((s) => s.toLowerCase() !== station.toLowerCase());
    if (at[0] && !stationTypes(combine).includes(type))
      out.push(`Take them to the ${at[0]}, which makes ${TYPE_PLURALS[type]}.`);
    const have = new Set(parts.map((p) => p.stuff));
    const need = needsOf(wanted).find((n) => !have.has(n));
    if (need && !needsOf(wanted).some((n) => have.has(n)))
      out.push(`Add ${STUFF_EXAMPLES[need]} (${STUFF_NAMES[need]}) for ${withArticle(wanted)}.`);
  }
  const elsewhere = (combine.otherStations ?? STATION_TYPES.map(([, name, types]) => ({ name, types })))
    .filter((s) => s.name.toLowerCase() !== station.toLowerCase())
    .map((s) => ({ name: s.name, options: possible(parts, s.types) }))
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
    out.push(`Start from a base material such as ${STUFF_EXAMPLES.metal} or ${STUFF_EXAMPLES.wood}.`);
  return out;
}

/** What is on the bench: the ingredients as a crafter sees them, the station, and what the intent asks. */
interface Bench {
  combine: CombineCue;
  parts: Part[];
  station: string;
  types: readonly ItemType[];
  /** The elements the ingredients carry. */
  elements: Theme[];
  finished: Part[];
  /** The finished piece a craft improves, if one went in. */
  base?: { type: ItemType; subtype: string };
  intent: string;
  words: string[];
  /** "something to keep me alive": a purpose, not a thing; the craft picks the thing. */
  purpose: boolean;
  /** A type the intent names in general ("a weapon", "a cure"). */
  generic?: ItemType;
  /** The subtype the intent names ("a heavy axe"). */
  named?: string;
}

/** A check of the bench: a refusal with advice, or nothing when the check passes. */
type Check = (bench: Bench) => Verdict | undefined;
/** A check of the thing about to be made. */
type MakeCheck = (bench: Bench, subtype: string) => Verdict | undefined;

function readBench(combine: CombineCue): Bench {
  const parts = combine.ingredients.map(partOf);
  const types = stationTypes(combine);
  const finished = parts.filter((p) => p.finished);
  const intent = (combine.intent ?? '').toLowerCase();
  const words = intent.match(/[a-z]+(?:-[a-z]+)*/g) ?? [];
  const purpose = /^(?:(?:a|an|some)\s+)?(?:something|anything|thing|item|gear|tool)\b|^(?:to|for)\s/.test(
    intent.trim(),
  );
  const generic =
    words.map((w) => GENERIC_TYPES[w]).find(Boolean) ??
    (purpose ? words.map((w) => PURPOSE_TYPES[w]).find((t) => t && types.includes(t)) : undefined);
  const named = subtypeIn(intent);
  return {
    combine,
    parts,
    station: combine.station ?? 'workbench',
    types,
    elements: [...new Set(combine.ingredients.map((i) => i.element).filter((e): e is Theme => e !== 'none'))],
    finished,
    ...(finished[0]?.finished ? { base: finished[0].finished } : {}),
    intent,
    words,
    purpose,
    ...(generic ? { generic } : {}),
    ...(named ? { named } : {}),
  };
}

const namesOf = (bench: Bench) => listOf(bench.parts.map((p) => p.ingredient.name));

const opposedElements: Check = ({ combine, parts, elements }) => {
  const clash = OPPOSED.find(([a, b]) => elements.includes(a) && elements.includes(b));
  if (!clash) return undefined;
  const [a, b] = clash;
  const first = combine.ingredients.find((i) => i.element === a) as Ingredient;
  const second = combine.ingredients.find((i) => i.element === b) as Ingredient;
  const base = parts.find((p) => p.stuff && p.stuff !== 'reagent')?.ingredient.name ?? STUFF_EXAMPLES.metal;
  return refuse(
    `${capitalise(the(first))} and ${the(second)} fight each other: ${a} and ${b} cancel out, and the mixture fizzles into useless slag.`,
    [
      `Leave out ${the(second)} and combine ${the(first)} with ${base} for a ${a} item.`,
      `Leave out ${the(first)} and combine ${the(second)} with ${base} for a ${b} item.`,
      `Add a second ${a} ingredient such as ${ELEMENT_EXAMPLES[a]} instead of mixing opposed elements.`,
    ],
  );
};

const piecesOfOneKind: Check = ({ finished }) => {
  if (new Set(finished.map((p) => p.finished?.subtype)).size <= 1) return undefined;
  const [x, y] = finished.map((p) => p.ingredient) as [Ingredient, Ingredient];
  return refuse(
    `${capitalise(the(x))} and ${the(y)} are finished pieces of different kinds; no craft makes one thing of them.`,
    [
      `Combine ${the(x)} with a material (${STUFF_EXAMPLES.metal}, an essence) to improve ${agree(headOf(x.name)).them}.`,
      `Combine ${the(y)} with a material of its own kind instead.`,
      `Craft from raw materials: ${STUFF_EXAMPLES.metal}, ${STUFF_EXAMPLES.wood} or ${STUFF_EXAMPLES.hide}.`,
    ],
  );
};

const somethingToShape: Check = (bench) => {
  if (bench.base || bench.parts.some((p) => p.stuff)) return undefined;
  return refuse(`There is nothing to work with: ${namesOf(bench)} cannot be shaped into anything.`, [
    `Add a base material such as ${STUFF_EXAMPLES.metal} or ${STUFF_EXAMPLES.wood}.`,
    'Add an essence (Ember Essence, Frost Shard) to give the result an element.',
    'Try a forge or an alchemy table with raw materials instead of finished consumables.',
  ]);
};

/** An intent that names nothing a crafter knows ("a banana-powered spaceship") is not guessed at. */
const intentNamesAThing: Check = (bench) => {
  const { words, named, generic, purpose } = bench;
  const unknown = words.filter(
    (w) =>
      !PLAIN_WORDS.has(w) &&
      !SUBTYPE_TYPES[w] &&
      !SUBTYPE_TYPES[w.replace(/s$/, '')] &&
      !GENERIC_TYPES[w] &&
      !STUFF_WORDS.some(([, re]) => re.test(w)) &&
      elementOf(w) === 'none' &&
      w.length > 2,
  );
  if (!words.length || named || generic || purpose || !unknown.length) return undefined;
  return refuse(
    `The master of the ${bench.station} shakes their head: nobody here knows how to make “${bench.combine.intent?.slice(0, 60)}” from ${namesOf(bench)}.`,
    adviceFor(bench.parts, bench.combine),
  );
};

/** What to make: the piece being improved, else what the intent names, else what the bench and tool favour. */
function chooseSubtype(bench: Bench): string | Verdict {
  const { base, named, generic, types, combine, parts } = bench;
  if (base) return named && typeOf(named) === base.type ? named : base.subtype;
  if (named) return named;
  const toolPick = TOOL_MAKES.find(([pattern]) => pattern.test(combine.tool?.toLowerCase() ?? ''))?.[1] ?? [];
  const options = possible(parts, generic ? [generic] : types);
  const chosen = toolPick.find((s) => options.includes(s)) ?? options[0];
  return (
    chosen ??
    refuse(
      `The ${bench.station} can do nothing with ${namesOf(bench)}: it makes ${listOf(types.map((t) => TYPE_PLURALS[t]))}.`,
      adviceFor(parts, combine),
    )
  );
}

const pieceKeepsItsKind: MakeCheck = ({ base, named, finished, parts, combine }) => {
  if (!base || !named || typeOf(named) === base.type) return undefined;
  const item = finished[0]?.ingredient as Ingredient;
  return refuse(
    `${capitalise(the(item))} cannot be turned into ${withArticle(named)}; a craft can improve a piece, not change what it is.`,
    [
      `Combine ${the(item)} with an essence to give it an element.`,
      `Start ${withArticle(named)} from raw materials instead.`,
      ...adviceFor(parts, combine, named),
    ],
  );
};

const stationMakesIt: MakeCheck = (bench, subtype) => {
  if (bench.types.includes(typeOf(subtype))) return undefined;
  return refuse(
    `The ${bench.station} cannot make ${withArticle(subtype)}: it makes ${listOf(bench.types.map((t) => TYPE_PLURALS[t]))}.`,
    adviceFor(bench.parts, bench.combine, subtype),
  );
};

/** The stuff the ingredients give: their own, or what a finished piece is made of. */
const stuffOf = (parts: Part[]) =>
  new Set(parts.map((p) => p.stuff ?? (p.finished ? needsOf(p.finished.subtype)[0] : undefined)));

const ingredientsGiveIt: MakeCheck = (bench, subtype) => {
  const have = stuffOf(bench.parts);
  if (needsOf(subtype).some((n) => have.has(n))) return undefined;
  const need = needsOf(subtype)[0] as Stuff;
  return refuse(
    `${capitalise(withArticle(subtype))} needs ${STUFF_NAMES[need]}, and ${namesOf(bench)} will not give it that.`,
    adviceFor(bench.parts, bench.combine, subtype),
  );
};

const elementIsCarried: MakeCheck = ({ intent, elements }, subtype) => {
  const wanted = elementOf(intent);
  if (wanted === 'none' || elements.includes(wanted)) return undefined;
  return refuse(
    `Nothing here carries ${wanted}: ${withArticle(`${wanted} ${subtype}`)} needs an ingredient of ${wanted}.`,
    [
      `Add ${ELEMENT_EXAMPLES[wanted]} to the ${subtype}.`,
      `Ask for a plain ${subtype} from these ingredients instead.`,
    ],
  );
};

/** Intent materials the ingredients lack ("an oak shield" from iron alone) are promises the craft can't keep. */
const materialIsThere: MakeCheck = (bench, subtype) => {
  const have = stuffOf(bench.parts);
  const missing = STUFF_WORDS.find(
    ([stuff, re]) => stuff !== 'reagent' && re.test(bench.intent) && !have.has(stuff),
  )?.[0];
  if (!missing) return undefined;
  return refuse(`You asked for ${STUFF_NAMES[missing]}, but none went in: ${namesOf(bench)}.`, [
    `Add ${STUFF_EXAMPLES[missing]} to the combination.`,
    `Ask for ${withArticle(subtype)} of what you have instead.`,
  ]);
};

const BENCH_CHECKS: readonly Check[] = [
  opposedElements,
  piecesOfOneKind,
  somethingToShape,
  intentNamesAThing,
];
const MAKE_CHECKS: readonly MakeCheck[] = [
  pieceKeepsItsKind,
  stationMakesIt,
  ingredientsGiveIt,
  elementIsCarried,
  materialIsThere,
];

/** The item a passed combination makes: of what went in, after the intent's subtype and adjective. */
function craft(bench: Bench, subtype: string, cues: Cues, rng: Rng, options: PlanOptions): Verdict {
  const { combine, parts, elements, words, station } = bench;
  // What the player added leads: fire essence on a poisoned keg makes a fire keg.
  const added = parts.find((p) => !p.finished && p.ingredient.element !== 'none')?.ingredient.element;
  const element: Element = added ?? elements[0] ?? 'none';
  const main =
    parts.find((p) => p.finished)?.ingredient ??
    parts
      .filter((p) => p.stuff && p.stuff !== 'reagent')
      .sort((a, b) => b.ingredient.quantity - a.ingredient.quantity)[0]?.ingredient ??
    parts[0]?.ingredient;
  const material = main?.material ?? 'iron';
  const adjective = words.find((w) => QUALITY_NAMES[w]);
  const type = typeOf(subtype);
  const item = planItem({ ...combine.result, type, subtype }, { ...cues, element, themeOnly: false }, rng, {
    ...options,
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
  const bench = readBench(combine);
  for (const check of BENCH_CHECKS) {
    const refused = check(bench);
    if (refused) return refused;
  }
  const subtype = chooseSubtype(bench);
  if (typeof subtype !== 'string') return subtype;
  for (const check of MAKE_CHECKS) {
    const refused = check(bench, subtype);
    if (refused) return refused;
  }
  return craft(bench, subtype, cues, rng, options);
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
