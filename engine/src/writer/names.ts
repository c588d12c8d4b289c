import { FORMER_OWNERS, type ItemFeature } from '@lootsmith/protocol';
import { fresh, type Rng } from '../random.ts';
import { placeName, titleCase } from './grammar.ts';
import { NAME_ENDINGS, NAME_PREFIXES, NAME_ROOTS, NAME_SUFFIXES, SUBTYPE_NOUNS } from './lexicon.ts';
import type { Vocabulary } from './vocabulary.ts';

export interface NameRequest {
  vocab: Vocabulary;
  temperature: number;
  type?: string;
  /** An element of the game, or 'none'. */
  element: string;
  subtype: string;
  material: string;
  rarity: number;
  naming?: string | undefined;
  enemy?: string | undefined;
  location?: string | undefined;
  /** Whether a word names only what the item looks like (`fitsLook`): a name says nothing else. */
  fits?: (words: string) => boolean;
  /** What can be seen on it, which a name may lead with ("Horned Helm"). */
  features?: readonly ItemFeature[];
  /** Made by the player just now: no name of an heirloom ("Ancestral"). */
  made?: boolean;
}

/** The name word of a feature the item shows. */
const FEATURE_PREFIXES: Record<ItemFeature, readonly string[]> = {
  gem: ['Jewelled', 'Gemmed'],
  horns: ['Horned'],
  wings: ['Winged'],
  glow: ['Glowing'],
  runes: ['Runed', 'Runic'],
  spikes: ['Spiked', 'Barbed'],
  skull: ['Skull-marked'],
  feathers: ['Feathered'],
  chains: ['Chained'],
  circuits: ['Wired'],
};

const EPITHETS = [
  'Ancient',
  'Sworn',
  'Last',
  'Eternal',
  'Relentless',
  'Patient',
  'Hungry',
  'Silent',
  'Faithful',
];
const MAKER_HEADS = [
  'Al',
  'Bor',
  'Cael',
  'Dun',
  'Ev',
  'Gar',
  'Hal',
  'Is',
  'Kor',
  'Mor',
  'Ren',
  'Syl',
  'Tor',
  'Vael',
];
const MAKER_TAILS = ['dric', 'wen', 'mund', 'ric', 'ara', 'eth', 'ion', 'var', 'gar', 'ys', 'old', 'ith'];

/** The noun a name uses for a subtype ("greaves" → Legguards, Tassets…), and the subtype itself if none. */
export function nounFor(subtype: string, rng: Rng): string {
  const key = Object.keys(SUBTYPE_NOUNS)
    .filter((k) => subtype.includes(k))
    .sort((a, b) => b.length - a.length)[0];
  return key ? rng.pick(SUBTYPE_NOUNS[key] as string[]) : titleCase(subtype);
}

/** Name words of an element: the writer's for its own elements, else the game's, else the writer's plain ones. */
function namesOf(
  table: Record<string, readonly string[]>,
  element: string,
  own: readonly string[] | undefined,
) {
  return (
    (element === 'none' ? undefined : table[element]) ??
    (own?.length ? own : undefined) ??
    (table.none as readonly string[])
  );
}

/** A coined name, "Cinderbite", with no doubled letter at the joint ("Ice" + "edge" takes another ending). */
function coin(roots: readonly string[], rng: Rng): string {
  const root = rng.pick(roots);
  let i = rng.int(0, NAME_ENDINGS.length - 1);
  while (
    root.toLowerCase().endsWith((NAME_ENDINGS[i] as string)[0] as string) ||
    root.toLowerCase() === NAME_ENDINGS[i]
  )
    i = (i + 1) % NAME_ENDINGS.length;
  return `${root}${NAME_ENDINGS[i]}`;
}

/** The fuller name when it fits the name length, else the shorter one. */
const shortest = (full: string, short: string) => (full.length <= 40 ? full : short);

function possessive(owner: string): string {
  const clean = titleCase(owner.replace(/^the\s+/i, '').trim());
  return clean.endsWith('s') ? `${clean}'` : `${clean}'s`;
}

function ofPlace(location: string): string {
  return `of ${titleCase(placeName(location)).replace(/^The /, 'the ')}`;
}

/**
 * A name in one of several forms — "Iron Axe", "Emberforged Axe", "Axe of Cinders", "Emberbite",
 * "Frost Giant's Maul", "Greaves of the Sunken Crypt", "Torwen's Ward" — so a bag reads varied in shape,
 * not only in words. Plain requests (low temperature, simple naming) keep to the first two.
 */
export function itemName(
  request: NameRequest,
  rng: Rng,
  used = new Set<string>(),
): { name: string; noun: string } {
  const { element, material, rarity, vocab } = request;
  const words = vocab.words;
  // A game's own subtype ("shield emitter") is its own noun; the writer's words are for its own.
  const own = vocab.types.some(
    (t) => t.ownSubtypes && t.subtypes.some((s) => s.toLowerCase() === request.subtype),
  );
  const noun = own ? titleCase(request.subtype) : nounFor(request.subtype, rng);
  // Words that name only what the item is and shows; a feature it shows leads a name now and then.
  const fit = (list: readonly string[]) => {
    const kept = list.filter(
      (w) => (!request.fits || request.fits(w)) && !(request.made && FORMER_OWNERS.test(w)),
    );
    return kept.length ? kept : list.filter((w) => !request.fits || request.fits(w));
  };
  const suffixes = fit(namesOf(NAME_SUFFIXES, element, words.suffixes));
  const shown = (request.features ?? []).flatMap((f) => FEATURE_PREFIXES[f]);
  const prefixes = fit(namesOf(NAME_PREFIXES, element, words.prefixes));
  const prefix =
    shown.length && (rng.chance(0.35) || !prefixes.length)
      ? rng.pick(shown)
      : fresh(rng, prefixes.length ? prefixes : ['Fine'], used);
  const suffix = fresh(rng, suffixes.length ? suffixes : ['of Note'], used);
  // Coined names need roots: the writer's own, or none for a game that gives its own words instead.
  const fantasyRoots = (NAME_ROOTS as Record<string, readonly string[]>)[element];
  const roots = fantasyRoots ?? (words.prefixes?.length ? undefined : NAME_ROOTS.none);
  const simple = request.naming === 'simple' || request.naming === 'plain' || request.temperature < 0.3;
  // Potions and ore get no heroic names: "Icemaw, the Patient Poultice" is not a thing anyone says.
  const type = vocab.type(request.type);
  const humble = !!type && (type.consumable || type.stackable);
  const forms: Array<[number, () => string | undefined]> = [
    [rarity <= 1 ? 2 : 1, () => (material.includes(' ') ? undefined : `${titleCase(material)} ${noun}`)],
    [3, () => `${prefix} ${noun}`],
    [simple ? 0 : 2, () => `${noun} ${suffix}`],
    [simple || rarity < 2 ? 0 : 2, () => `${prefix} ${noun} ${suffix}`],
    [simple || humble || !roots ? 0 : rarity >= 3 ? 2 : rarity >= 2 ? 1 : 0, () => coin(roots ?? [], rng)],
    [
      simple || humble || !roots || rarity < 2 ? 0 : 2,
      () => `${coin(roots ?? [], rng)}, the ${rng.pick(EPITHETS)} ${noun}`,
    ],
    [
      simple || !request.enemy ? 0 : 2,
      () =>
        shortest(
          `${possessive(request.enemy as string)} ${prefix} ${noun}`,
          `${possessive(request.enemy as string)} ${noun}`,
        ),
    ],
    [
      simple || !request.location ? 0 : 2,
      () =>
        shortest(
          `${prefix} ${noun} ${ofPlace(request.location as string)}`,
          `${noun} ${ofPlace(request.location as string)}`,
        ),
    ],
    // A maker's name sounds of the writer's own world: not for a game with words of its own.
    [
      simple || humble || words.prefixes?.length ? 0 : 1,
      () => `${rng.pick(MAKER_HEADS)}${rng.pick(MAKER_TAILS)}'s ${noun}`,
    ],
  ];
  if (request.temperature > 1.2) for (const f of forms.slice(2)) if (f[0]) f[0] += 1;
  const total = forms.reduce((sum, [w]) => sum + w, 0);
  let roll = rng.next() * total;
  for (const [weight, make] of forms) {
    roll -= weight;
    if (roll >= 0) continue;
    const name = make();
    if (name && name.length <= 44) return { name, noun };
    break;
  }
  return { name: `${prefix} ${noun}`, noun };
}
