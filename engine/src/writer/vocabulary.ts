import {
  BoundedMap,
  type EffectLine,
  type ElementLine,
  FANTASY_EFFECTS,
  type FieldLine,
  type GameLines,
  type MaterialLine,
  SPEC_RARITIES,
  type StationLine,
  type StatLine,
  type TypeLine,
  type WordsLine,
} from '@lootsmith/protocol';
import { ELEMENT_CUES, OPPOSED, SUBTYPE_TYPES, TYPE_SUBTYPES } from './lexicon.ts';

export interface TypeInfo {
  id: string;
  name: string;
  slot?: string;
  consumable: boolean;
  stackable: boolean;
  strikes: boolean;
  /** What an item of the type can be, most usual first; never empty. */
  subtypes: readonly string[];
  /** Whether the subtypes are the game's own words (else the writer's fantasy defaults). */
  ownSubtypes: boolean;
  /** The stat item cards compare for it, when the game names it (else the first it leans to). */
  main?: string;
  /** The stats it leans to, first most. */
  stats: readonly string[];
}

export interface StatInfo {
  id: string;
  name: string;
  kind: 'flat' | 'percent';
  types?: readonly string[];
}

export interface ElementInfo {
  id: string;
  name: string;
  resist?: string;
  opposes: readonly string[];
  /** Words that reveal it, its own id and name among them. */
  words: readonly string[];
}

/** The writer's own game when a request describes none: a fantasy RPG's types, stats and elements. */
const FANTASY_TYPES: Record<string, Partial<TypeInfo> & { stats: readonly string[] }> = {
  WEAPON: { slot: 'WEAPON', strikes: true, stats: ['attack', 'crit_chance', 'speed'] },
  EQUIPMENT: { slot: 'EQUIPMENT', stats: ['defense', 'luck', 'speed'] },
  CONTAINER: { stats: ['luck'] },
  HELMET: { slot: 'HELMET', stats: ['defense', 'health', 'magic'] },
  CHEST: { slot: 'CHEST', name: 'body armour', stats: ['defense', 'health'] },
  LEGS: { slot: 'LEGS', name: 'leg armour', stats: ['defense', 'speed'] },
  BOOTS: { slot: 'BOOTS', stats: ['speed', 'defense'] },
  GLOVES: { slot: 'GLOVES', strikes: true, stats: ['attack', 'crit_chance', 'defense'] },
  SHIELD: { slot: 'SHIELD', stats: ['defense', 'health'] },
  ACCESSORY: { slot: 'ACCESSORY', stats: ['magic', 'luck', 'mana'] },
  CONSUMABLE: { consumable: true, stats: ['health', 'mana'] },
  MATERIAL: { stackable: true, stats: ['luck'] },
};
const FANTASY_STATS: Array<[string, 'flat' | 'percent']> = [
  ['attack', 'flat'],
  ['defense', 'flat'],
  ['magic', 'flat'],
  ['speed', 'flat'],
  ['health', 'flat'],
  ['mana', 'flat'],
  ['crit_chance', 'percent'],
  ['luck', 'flat'],
  ['fire_resist', 'percent'],
  ['frost_resist', 'percent'],
  ['poison_resist', 'percent'],
  ['shadow_resist', 'percent'],
];

const titleCase = (id: string) =>
  id
    .toLowerCase()
    .split(/[_\s]+/)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(' ');

/**
 * The game the writer writes for: the one a request describes in its game lines (types, stats,
 * elements, fields, stations, materials, words), else the writer's own fantasy RPG. Ids the writer
 * knows from its fantasy defaults (WEAPON, fire) keep its words for them unless the game gives its own.
 */
export class Vocabulary {
  /** Whether a request described its game; the writer then names only what the game has. */
  readonly known: boolean;
  readonly rarities: readonly string[];
  readonly types: readonly TypeInfo[];
  readonly stats: readonly StatInfo[];
  readonly elements: readonly ElementInfo[];
  readonly fields: readonly FieldLine[];
  /** The effects items may carry: the game's catalogue, else the writer's fantasy game's for its own types. */
  readonly effects: readonly EffectLine[];
  readonly stations?: readonly StationLine[];
  readonly materials: readonly MaterialLine[];
  readonly words: WordsLine;
  // Private (#), so the vocabulary's JSON stays what it was (a plan carries it).
  readonly #typeById = new Map<string, TypeInfo>();
  readonly #typeByUpper = new Map<string, TypeInfo>();
  readonly #statsByType = new Map<string, readonly string[]>();

  constructor(game: GameLines | undefined) {
    this.known = game !== undefined && Object.keys(game).length > 0;
    this.rarities = game?.rarities ?? SPEC_RARITIES;
    const stats: StatLine[] =
      game?.stats ?? FANTASY_STATS.map(([id, kind]) => ({ id, kind, name: id.replaceAll('_', ' ') }));
    this.stats = stats.map((s) => ({
      id: s.id,
      name: s.name ?? s.id.replaceAll('_', ' '),
      kind: s.kind === 'percent' ? 'percent' : 'flat',
      ...(s.types ? { types: s.types } : {}),
    }));
    const statIds = new Set(this.stats.map((s) => s.id));
    // A game's types say what they are; the writer's own are what its fantasy RPG makes of them.
    const described = game?.types !== undefined;
    const types: TypeLine[] = game?.types ?? Object.keys(FANTASY_TYPES).map((id) => ({ id }));
    this.types = types.map((t) => {
      const fantasy = FANTASY_TYPES[t.id];
      const flags = {
        slot: described ? t.slot : fantasy?.slot,
        consumable: described ? !!t.consumable : !!fantasy?.consumable,
        stackable: described ? !!t.stackable : !!fantasy?.stackable,
        strikes: described ? !!t.strikes : !!fantasy?.strikes,
      };
      const name = t.name || fantasy?.name || t.id.toLowerCase().replaceAll('_', ' ');
      const own = t.subtypes?.length ? t.subtypes : undefined;
      const leaning = t.stats ?? fantasy?.stats ?? [];
      return {
        id: t.id,
        name,
        ...(flags.slot ? { slot: flags.slot } : {}),
        consumable: flags.consumable,
        stackable: flags.stackable,
        strikes: flags.strikes,
        subtypes: own ?? TYPE_SUBTYPES[t.id] ?? [name],
        ownSubtypes: own !== undefined,
        ...(t.main && statIds.has(t.main) ? { main: t.main } : {}),
        stats: leaning.filter((s) => statIds.has(s)),
      } satisfies TypeInfo;
    });
    // The first type of an id wins, as a search through the list would find it.
    for (const t of [...this.types].reverse()) {
      this.#typeById.set(t.id, t);
      this.#typeByUpper.set(t.id.toUpperCase(), t);
    }
    const elements: ElementLine[] =
      game?.elements ??
      Object.keys(ELEMENT_CUES).map((id) => ({
        id,
        ...(statIds.has(`${id}_resist`) ? { resist: `${id}_resist` } : {}),
        opposes: OPPOSED.flatMap(([a, b]) => (a === id ? [b] : b === id ? [a] : [])),
      }));
    this.elements = elements.map((e) => {
      const name = e.name ?? titleCase(e.id);
      return {
        id: e.id,
        name,
        ...(e.resist && statIds.has(e.resist) ? { resist: e.resist } : {}),
        opposes: e.opposes ?? [],
        words: [
          ...new Set([
            e.id,
            ...name.toLowerCase().split(/\s+/),
            ...(e.words ?? []),
            ...(ELEMENT_CUES[e.id] ?? []),
          ]),
        ].map((w) => w.toLowerCase()),
      };
    });
    this.fields = game?.fields ?? [];
    this.effects = game?.effects ?? (described ? [] : FANTASY_EFFECTS);
    if (game?.stations) this.stations = game.stations;
    this.materials = game?.materials ?? [];
    this.words = game?.words ?? {};
  }

  /** The type of an id, whatever its case ("weapon" is WEAPON). */
  type(id: string | undefined): TypeInfo | undefined {
    if (!id) return undefined;
    return this.#typeById.get(id) ?? this.#typeByUpper.get(id.toUpperCase());
  }

  /** A rarity's step on the ladder, from 0 (the most common); an unknown one counts as the most common. */
  rarityIndex(rarity: string | undefined): number {
    const upper = (rarity ?? '').toUpperCase();
    return Math.max(
      0,
      this.rarities.findIndex((r) => r.toUpperCase() === upper),
    );
  }

  /** The rarity at a step, the game's own word for it. */
  rarityAt(index: number): string {
    return this.rarities[Math.max(0, Math.min(this.rarities.length - 1, index))] as string;
  }

  /** The type a subtype belongs to: the game's own words first, then the writer's, among the game's types. */
  typeOfSubtype(subtype: string | undefined): TypeInfo | undefined {
    if (!subtype) return undefined;
    const word = subtype.toLowerCase();
    const own = this.types.find((t) => t.subtypes.some((s) => s.toLowerCase() === word));
    if (own) return own;
    return this.type(SUBTYPE_TYPES[word] ?? SUBTYPE_TYPES[word.split(' ').at(-1) as string]);
  }

  stat(id: string): StatInfo | undefined {
    return this.stats.find((s) => s.id === id);
  }

  /** Whether an item of the type may carry the stat. */
  carries(type: string, stat: string): boolean {
    const s = this.stat(stat);
    return s !== undefined && (!s.types || s.types.includes(type));
  }

  /** Stats the type leans to, then the other stats it may carry, in the game's order. */
  statsFor(type: string): readonly string[] {
    let found = this.#statsByType.get(type);
    if (!found) {
      const info = this.type(type);
      const own = (info?.stats ?? []).filter((s) => this.carries(type, s));
      found = [...new Set([...own, ...this.stats.map((s) => s.id).filter((s) => this.carries(type, s))])];
      // Types come from requests: only the game's own are kept.
      if (info?.id === type) this.#statsByType.set(type, found);
    }
    return found;
  }

  /** The stat item cards compare for a type, which each rarity raises: the game's word, else the first it leans to. */
  mainStat(type: string): string | undefined {
    const main = this.type(type)?.main;
    return main && this.carries(type, main) ? main : this.statsFor(type)[0];
  }

  element(id: string | undefined): ElementInfo | undefined {
    if (!id) return undefined;
    const lower = id.toLowerCase();
    return this.elements.find((e) => e.id.toLowerCase() === lower);
  }

  /** The element a text leans to most, by the words that reveal each; 'none' when it names none. */
  elementIn(text: string): string {
    let best = 'none';
    let bestCount = 0;
    const words = text.toLowerCase().match(/[a-z]+/g) ?? [];
    for (const e of this.elements) {
      let count = 0;
      for (const w of words) if (e.words.some((c) => w === c || (c.length > 5 && w.startsWith(c)))) count++;
      if (count > bestCount) {
        bestCount = count;
        best = e.id;
      }
    }
    return best;
  }

  /** Pairs of elements that cancel each other out. */
  opposed(): Array<[string, string]> {
    const pairs: Array<[string, string]> = [];
    for (const e of this.elements)
      for (const o of e.opposes)
        if (!pairs.some(([a, b]) => (a === o && b === e.id) || (a === e.id && b === o)))
          pairs.push([e.id, o]);
    return pairs;
  }

  /** The game's own fields an item of the type carries. */
  fieldsFor(type: string): FieldLine[] {
    return this.fields.filter((f) => !f.types || f.types.includes(type));
  }
}

const FANTASY = new Vocabulary(undefined);
const games = new BoundedMap<string, Vocabulary>(32);

/**
 * The vocabulary of a request's game lines, built once per distinct game: every request of a game
 * carries the same lines, and building one costs more than writing an item.
 */
export function vocabularyFor(game: GameLines | undefined): Vocabulary {
  if (game === undefined || Object.keys(game).length === 0) return FANTASY;
  // Only games with a key get here, so even the text "{}" (every key undefined) is a described game's.
  const key = JSON.stringify(game);
  let vocab = games.get(key);
  if (!vocab) {
    vocab = new Vocabulary(game);
    games.set(key, vocab);
  }
  return vocab;
}
