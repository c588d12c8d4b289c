import { BoundedMap, FORMER_OWNERS } from '@lootsmith/protocol';
import { fresh, type Rng } from '../random.ts';
import type { Cues } from './cues.ts';
import { agree, capitalise, isPlural, listOf, placeName, verb, withArticle } from './grammar.ts';
import type { Element } from './lexicon.ts';
import type { Vocabulary } from './vocabulary.ts';

/** What the text of one item is written from. */
export interface ItemFacts {
  vocab: Vocabulary;
  name: string;
  /** The noun the name uses, lower case ("legguards"), which the sentences agree with. */
  noun: string;
  type: string;
  subtype: string;
  material: string;
  /** An element of the game, or 'none'. */
  element: string;
  stats: ReadonlyArray<{ name: string; value: number }>;
  value: number;
  /** The colour the player asked for, if any. */
  color?: string;
  /** Whether a phrase names only what the item looks like (`fitsLook`): its text says nothing else. */
  fits?: (phrase: string) => boolean;
  /** Made by the player just now: its lore tells of no former owner. */
  made?: boolean;
}

/** The phrases of a list that fit the item, or the list when none does (a game's own words). */
function fitting(item: ItemFacts, list: readonly string[]): readonly string[] {
  if (!item.fits) return list;
  const kept = list.filter(item.fits);
  return kept.length ? kept : list;
}

const ADJECTIVES: Record<Element, readonly string[]> = {
  none: ['well-made', 'sturdy', 'battle-worn', 'plain but honest', 'carefully balanced', 'polished', 'heavy'],
  fire: ['smouldering', 'ember-lit', 'scorched', 'soot-streaked', 'heat-warped'],
  frost: ['frost-rimed', 'ice-cold', 'rime-crusted', 'pale, frozen', 'snow-dusted'],
  poison: ['venom-slick', 'green-tinged', 'bitter-smelling', 'acid-pitted', 'mottled'],
  shadow: ['shadow-wreathed', 'light-drinking', 'dusk-dark', 'whispering', 'ink-black'],
  holy: ['softly glowing', 'gleaming', 'consecrated', 'sunlit', 'hymn-etched'],
  lightning: ['crackling', 'storm-scarred', 'humming', 'spark-flecked', 'charged'],
};

/** Clauses with the item as subject; {it}/{its}/{is}/{has} agree with the noun. */
const FLAVOURS: Record<Element, readonly string[]> = {
  none: [
    '{it} {has} outlasted every owner so far',
    'no rust has ever touched {them}',
    '{its} grip is worn smooth by other hands',
    'a maker’s mark is still legible on {them}',
    '{it} {is} heavier than {it} {looks}',
    '{it} {bears} a notch for every battle',
    'careful hands have mended {them} more than once',
    'a faded name is scratched into {them}',
    'no two owners have told the same story about {them}',
    '{it} {has} been handed down further than anyone remembers',
  ],
  fire: [
    '{it} never quite {cools}',
    '{it} still {smells} of smoke and cinders',
    'sparks leap from {them} when struck',
    'snow melts where {it} {lies}',
    '{its} metal glows at the edges in the dark',
    'a faint heat rolls off {them} like a banked hearth',
    '{it} {leaves} scorch marks on whatever {it} {touches}',
    'smoke curls from {them} after every fight',
    'embers stir in {its} seams when danger is near',
    'rain hisses into steam on {them}',
  ],
  frost: [
    'frost creeps over {them} even in summer',
    '{it} {stings} bare skin with cold',
    'breath mists in the air around {them}',
    'ice flowers bloom wherever {it} {rests}',
    '{it} {rings} like a frozen lake when tapped',
    'no fire will warm {them} for long',
    'a thin rime returns to {them} however often {it} {is} wiped',
    'water freezes in a cup set down beside {them}',
    '{its} touch numbs the fingers for an hour',
    'wolves howl when {it} {is} carried through the snow',
  ],
  poison: [
    'a green sheen clings to {them}',
    'wise bearers handle {them} with gloves',
    'grass wilts where {it} {is} set down',
    '{it} {weeps} a bitter dew at night',
    'flies will not settle on {them}',
    '{it} {smells} faintly of bitter almonds',
    'rats will not come near {them}',
    '{it} {leaves} a bitter taste in the air',
    'healers frown when {it} {is} brought near',
    'a sickly stain spreads through any cloth {it} {is} wrapped in',
  ],
  shadow: [
    'candles gutter when {it} {is} drawn',
    '{its} outline blurs at the edge of sight',
    'whispers follow whoever carries {them}',
    '{it} {casts} no reflection in still water',
    'torchlight seems to bend away from {them}',
    'the dark around {them} is never quite empty',
    'dogs growl at {them} in the dark',
    'lamplight dims a little when {it} {is} near',
    'whoever sleeps beside {them} dreams of long corridors',
    '{it} {is} hard to find even in an empty room',
  ],
  holy: [
    '{it} {hums} softly at dawn, like a remembered prayer',
    'the undead will not touch {them}',
    '{its} surface never tarnishes',
    'a faint warmth settles over whoever holds {them}',
    'bells are said to ring when {it} {is} raised',
    'no shadow falls beneath {them}',
    'a quiet calm settles over those near {them}',
    'old prayers are scratched into {them} in a tiny hand',
    'wounds close a little faster near {them}',
    'candles burn brighter in {its} presence',
  ],
  lightning: [
    'sparks crawl over {them} before every storm',
    'hair stands on end near {them}',
    '{it} {crackles} when moved quickly',
    'the air around {them} smells of rain',
    'compasses spin in {its} presence',
    'thunder seems to answer when {it} {is} swung',
    'a faint blue light dances along {its} edges',
    'loose nails leap toward {them}',
    'storm clouds seem to gather when {it} {is} raised',
    'the smell of a struck tree clings to {them}',
  ],
};

/** What a crafting material lends the things made from it. */
const USES: Record<Element, string> = {
  none: 'honest, sturdy work',
  fire: 'blades that burn',
  frost: 'armour that turns the cold',
  poison: 'edges that sicken',
  shadow: 'work that hides in the dark',
  holy: 'wards against the dead',
  lightning: 'weapons that strike twice',
};

/** What a scroll that strikes does when read, by element; {n} is its strength. */
const SPELLS: Record<Element, string> = {
  none: 'strikes the nearest foe for {n} damage',
  fire: 'calls down {n} fire damage on every foe nearby',
  frost: 'locks nearby foes in ice and deals {n} frost damage',
  poison: 'spreads a cloud that deals {n} poison damage over time',
  shadow: 'lets the dark strike the nearest foe for {n} damage',
  holy: 'sears the nearest undead for {n} damage',
  lightning: 'strikes up to three foes for {n} lightning damage',
};

/** Stats whose points come back when used up (a potion restores health), as against stats it lends for a while. */
const RESTORED = /health|\bhp\b|life|vital|mana|energy|hull|shield|stamina/i;
/** Stats a used-up item strikes with. */
const STRIKES = /attack|damage|power|cutting|magic/i;

/** What reading a scroll does: what its main stat says — heals, strikes or wards. */
function spellOf(item: ItemFacts, main: ItemFacts['stats'][number] | undefined): string {
  const n = String(main?.value ?? 10);
  const stat = main ? `${main.name} ${item.vocab.stat(main.name)?.name ?? ''}` : '';
  if (RESTORED.test(stat)) return `restores ${main ? statWords(item.vocab, main) : n} to the reader`;
  if (STRIKES.test(stat)) return wordsOf(SPELLS, item.element, undefined).replace('{n}', n);
  return main
    ? `lends the reader +${statWords(item.vocab, main)} for a while`
    : `wards the reader against the next ${n} damage`;
}

/**
 * Words of an element: the writer's own for its fantasy elements, else the game's (`Words:`) when it
 * gives some, else the writer's plain ones.
 */
function wordsOf<T>(table: Record<Element, T>, element: string, own: T | undefined): T {
  const fantasy = element === 'none' ? undefined : (table as Record<string, T>)[element];
  return fantasy ?? own ?? table.none;
}
const some = <T>(list: readonly T[] | undefined) => (list?.length ? list : undefined);

/** Metals an item may be made of: only these rust, tarnish or ring like a bell. */
const METAL = /iron|steel|bronze|copper|silver|gold|mithril|adamant|metal|brass|tin|starmetal|alloy|titanium/;

/**
 * Whether a clause of lore fits the thing: a grip only on what is held in the hand to strike or
 * block, rust and metal only on metal, swinging and striking only on what strikes, nothing of
 * wear and battle on what is drunk or eaten. The item is read once for all the clauses.
 */
function fitsItem(item: ItemFacts): (clause: string) => boolean {
  const type = item.vocab.type(item.type);
  const used = type?.consumable || type?.stackable;
  const held =
    type?.strikes ||
    /shield|buckler|targe|pavise|staff|wand|tool|cutter|welder|driver|lance|hook/.test(item.subtype);
  const metal = METAL.test(item.material);
  return (clause) => {
    if (item.made && FORMER_OWNERS.test(clause)) return false;
    if (item.fits && !item.fits(clause)) return false;
    if (/\bgrip\b|\bhilt\b|\bswung\b|\bdrawn\b|when struck|\bnotch/.test(clause) && !held) return false;
    if (/\brust|tarnish|\bmetal\b|\brings\b|\bseams\b/.test(clause) && (!metal || used)) return false;
    if (/\boutlasted\b|mended|handed down|owners?\b|battle/.test(clause) && used) return false;
    return true;
  };
}

function agreeClause(clause: string, noun: string): string {
  const a = agree(noun);
  return clause
    .replaceAll('{them}', a.them)
    .replaceAll('{it}', a.it)
    .replaceAll('{its}', a.its)
    .replaceAll('{is}', a.is)
    .replaceAll('{has}', a.has)
    .replace(/\{([a-z]+)\}/g, (_, v: string) => verb(v, noun));
}

/** "+12 attack", "+5% crit chance": a stat as the game names it, in its kind. */
function statWords(vocab: Vocabulary, s: { name: string; value: number }): string {
  const stat = vocab.stat(s.name);
  return `${s.value}${stat?.kind === 'percent' ? '%' : ''} ${stat?.name ?? s.name.replaceAll('_', ' ')}`;
}

function statPhrase(vocab: Vocabulary, stats: ItemFacts['stats']): string {
  return listOf(stats.slice(0, 3).map((s) => `+${statWords(vocab, s)}`));
}

/** The origin clauses of one request's context, made once: a drop's items and a pool's refills share them. */
const originsByContext = new BoundedMap<string, readonly string[]>(256);

/** "from the Sunken Crypt", "taken off a Fire Imp", …: where the item comes from, when the request says. */
export function originClause(cues: Cues, rng: Rng, used: Set<string>): string {
  const key = JSON.stringify([
    cues.enemy,
    cues.location,
    cues.theme,
    cues.obtained,
    cues.combine?.station,
    cues.station,
  ]);
  let options = originsByContext.get(key);
  if (!options) {
    options = originOptions(cues);
    originsByContext.set(key, options);
  }
  return options.length ? fresh(rng, options, used) : '';
}

function originOptions(cues: Cues): string[] {
  const enemy = cues.enemy?.replace(/^the\s+/i, '');
  const place = cues.location && placeName(cues.location);
  const options: string[] = [];
  if (enemy && place)
    options.push(
      `taken from the ${enemy} in ${place}`,
      `won from the ${enemy} in ${place}`,
      `claimed off the ${enemy} in ${place}`,
      `dropped by the ${enemy} in ${place}`,
    );
  if (enemy)
    options.push(
      `pried from the ${enemy}`,
      `left behind by the ${enemy}`,
      `marked by the ${enemy}'s last stand`,
      `guarded by the ${enemy}`,
      `last held by the ${enemy}`,
      `kept by the ${enemy} until now`,
      `among the ${enemy}'s spoils`,
      `recovered from the ${enemy}`,
    );
  if (place)
    options.push(
      `from ${place}`,
      `carried out of ${place}`,
      `found deep in ${place}`,
      `unearthed in ${place}`,
      `brought up from ${place}`,
    );
  if (!options.length && cues.theme) options.push(`in the ${cues.theme} style`, `fit for a ${cues.theme}`);
  if (cues.obtained === 'crafted' && cues.combine?.station)
    options.splice(0, options.length, `fresh from the ${cues.combine.station}`);
  if (cues.obtained === 'forged' && cues.station)
    options.splice(0, options.length, `newly made at the ${cues.station}`);
  return options;
}

/** One sentence that says what the item is, where it is from and what it does, agreeing in number. */
export function describeItem(
  item: ItemFacts,
  rng: Rng,
  /** Phrases the answer has already written (see `fresh`). */
  used: Set<string>,
  /** Where the item comes from (`originClause`), or ''. */
  origin: string,
): string {
  const { vocab } = item;
  const adjective = fresh(
    rng,
    fitting(item, wordsOf(ADJECTIVES, item.element, some(vocab.words.adjectives))),
    used,
  );
  const material = item.material.includes(' ') ? '' : `${item.material} `;
  const noun = item.noun.toLowerCase();
  const phrase = `${adjective} ${item.color ? `${item.color} ` : ''}${material}${noun}`;
  const from = origin ? ` ${origin}` : '';
  const main = item.stats[0];
  const type = vocab.type(item.type);
  if (type?.consumable) {
    if (/scroll|writ|codex|leaf|parchment/.test(item.subtype))
      return `${capitalise(withArticle(phrase))}${from}; read aloud, it ${spellOf(item, main)} and crumbles to dust.`;
    // Health comes back; attack is lent for a while.
    const restores = !main || RESTORED.test(`${main.name} ${vocab.stat(main.name)?.name ?? ''}`);
    const amount = main ? statWords(vocab, main) : `${Math.max(5, item.value % 97)} health`;
    if (/bomb|grenade/.test(item.subtype))
      return `${capitalise(withArticle(phrase))}${from} that bursts for ${main?.value ?? 5} damage ${fresh(rng, ['when thrown', 'where it lands', 'on impact'], used)}.`;
    if (!restores) {
      const how = /food|ration|bread|meat/.test(item.subtype)
        ? 'when eaten'
        : /potion|elixir|tonic|draught|brew|philter|cordial|flask/.test(item.subtype)
          ? 'when drunk'
          : 'when used';
      return `${capitalise(withArticle(phrase))}${from} that lends +${amount} for a while ${how}.`;
    }
    if (/food|ration|bread|meat/.test(item.subtype))
      return `${capitalise(withArticle(phrase))}${from} that restores ${amount} ${fresh(rng, ['when eaten', 'once eaten', 'at the first bite'], used)}.`;
    if (/bandage|poultice|salve/.test(item.subtype))
      return `${capitalise(withArticle(phrase))}${from} that restores ${amount} ${fresh(rng, ['when bound to a wound', 'once wrapped over a cut', 'once pressed to a fresh wound'], used)}.`;
    if (!/potion|elixir|tonic|draught|brew|philter|cordial|flask/.test(item.subtype))
      return `${capitalise(withArticle(phrase))}${from} ${fresh(rng, ['that restores', 'that gives back', 'good for'], used)} ${amount} ${fresh(rng, ['when used', 'once applied', 'the moment it is used'], used)}.`;
    // The vessel is what the potion is made of: a clay flask, a crystal vial, glass.
    const vessel = /flask|vial|phial|bottle/.test(item.material)
      ? `a ${item.material}`
      : fresh(
          rng,
          fitting(item, ['a stoppered vial', 'a clay flask', 'a cut-glass bottle', 'a wax-sealed phial']),
          used,
        );
    return `${capitalise(withArticle(`${adjective} ${item.color ? `${item.color} ` : ''}${noun}`))} in ${vessel}${from} that restores ${amount} ${fresh(rng, ['when drunk', 'in one swallow', 'within a breath of drinking'], used)}.`;
  }
  if (type?.stackable || !main) {
    const crafters = fresh(
      rng,
      item.vocab.words.prefixes?.length
        ? ['crafters prize', 'makers pay well for', 'every workshop wants']
        : ['crafters prize', 'smiths pay well for', 'alchemists hoard', 'every forge wants'],
      used,
    );
    return `${capitalise(withArticle(phrase))}${from}; ${crafters} ${isPlural(noun) ? 'them' : 'it'} for ${wordsOf(USES, item.element, undefined)}.`;
  }
  const a = agree(noun);
  const stats = statPhrase(vocab, item.stats);
  const grant = verb('grants', noun);
  const forms = {
    'form:that': () => `${capitalise(withArticle(phrase))}${from} that ${grant} ${stats}.`,
    'form:this': () => `${a.this} ${phrase}${from} ${grant} ${stats}.`,
    'form:adding': () =>
      `${capitalise(withArticle(phrase))}${origin ? `, ${origin},` : ''} ${fresh(rng, ['good for', 'adding', 'giving'], used)} ${stats}.`,
    'form:stats': () => `${capitalise(stats)} from ${withArticle(phrase)}${from}.`,
  };
  return forms[fresh(rng, Object.keys(forms) as Array<keyof typeof forms>, used)]();
}

/** One sentence of history that fits how the item came to be: dropped, crafted or forged. */
export function loreFor(
  item: ItemFacts,
  cues: Cues,
  rng: Rng,
  used: Set<string>,
  /** The description's origin clause: a place it (or the item's name) names is not named again. */
  origin: string,
): string {
  // "Iron Greaves were…, and they…" but "Emberbite was…, and it…": the name is the subject.
  const noun = item.name.toLowerCase().includes(item.noun.toLowerCase()) ? item.noun.toLowerCase() : 'it';
  const was = isPlural(noun) ? 'were' : 'was';
  const clauses = wordsOf(FLAVOURS, item.element, some(item.vocab.words.lore));
  const fitting = clauses.filter(fitsItem(item));
  const flavour = agreeClause(fresh(rng, fitting.length ? fitting : clauses, used), noun);
  const enemy = cues.enemy?.replace(/^the\s+/i, '');
  const place = cues.location && placeName(cues.location);
  let opening: string;
  if (cues.obtained === 'crafted') {
    const parts = (cues.combine?.ingredients ?? []).map((i) => i.name);
    const station = cues.combine?.station ?? 'workbench';
    opening = `${item.name} ${was} ${fresh(rng, ['worked', 'fused', 'bound together', 'shaped'], used)} at the ${station} from ${listOf(parts) || 'what was at hand'}`;
  } else if (cues.obtained === 'forged') {
    const parts = (cues.materials ?? []).map((i) => i.name);
    const station = cues.station ?? 'forge';
    const type = item.vocab.type(item.type);
    const how = type?.consumable
      ? ['brewed', 'prepared', 'mixed']
      : METAL.test(item.material)
        ? ['forged', 'made', 'worked']
        : ['made', 'crafted', 'worked'];
    opening = `${item.name} ${was} ${fresh(rng, how, used)} at the ${station} from ${listOf(parts) || 'raw stock'}`;
  } else if (enemy) {
    const how = fresh(
      rng,
      [
        'torn from',
        'recovered from the remains of',
        'taken from',
        'looted from',
        'won from',
        'wrested from',
        'salvaged from',
        'claimed from',
        'prised off',
        'stripped from',
        'carried off from',
      ],
      used,
    );
    const said = !place || origin.includes(place) || item.name.includes(place);
    // The description names the enemy already: the lore tells where the item lay (a schema may
    // show only the lore, so it still names the context).
    opening =
      origin.includes(enemy) && place
        ? placeOpening(item, rng, used, was, place)
        : `${item.name} ${was} ${how} the ${enemy}${said ? '' : ` in ${place}`}`;
  } else if (place) opening = placeOpening(item, rng, used, was, place);
  else opening = pastOf(item, rng, used, was);
  return `${opening}, and ${flavour}.`;
}

/** Where an item lay before it was found: "Emberbite was found half-buried in the Sunken Crypt". */
function placeOpening(item: ItemFacts, rng: Rng, used: Set<string>, was: string, place: string): string {
  const how = fresh(
    rng,
    fitting(item, [
      'found half-buried in',
      'retrieved out of',
      'left behind in',
      'hidden away in',
      'dug out of the rubble of',
      'wedged in a crack somewhere in',
      'lying forgotten in',
      'stashed in a corner of',
      'kept under a loose stone in',
      'washed up in',
    ]),
    used,
  );
  return `${item.name} ${was} ${how} ${place}`;
}

/** People of the writer's own world, whom an item of a game with words of its own never names. */
const NEUTRAL_PASTS = [
  'came to light only recently',
  'turned up where nobody expected it',
  'was set aside by someone who meant to come back for it',
  'was listed in no inventory',
  'was found sealed in its original wrapping',
  'was traded on before anyone asked where it came from',
];

/** Who an item once belonged to, in the item's name: "Emberbite was made for a temple guard". */
function pastOf(item: ItemFacts, rng: Rng, used: Set<string>, was: string): string {
  if (item.vocab.words.prefixes?.length)
    return `${item.name} ${fresh(rng, NEUTRAL_PASTS, used).replace(/^was /, `${was} `)}`;
  const who = fresh(
    rng,
    [
      'a forgotten warlord',
      'a wandering smith',
      'an old hermit',
      'a fallen knight',
      'a river pirate',
      'a temple guard',
      'a border captain',
      'a travelling tinker',
      'a disgraced noble',
      'a village healer',
      'a mercenary company',
      'a mountain clan',
    ],
    used,
  );
  const how = fresh(
    rng,
    [
      'once carried by',
      'last seen with',
      'made for',
      'lost by',
      'traded away by',
      'handed on by',
      'hidden by',
      'prized by',
      'pawned by',
      'buried with',
    ],
    used,
  );
  return `${item.name} ${was} ${how} ${who}`;
}
