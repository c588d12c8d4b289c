import {
  BoundedMap,
  type ChatMessage,
  type IngredientLine,
  type ItemEffect,
  type ItemLine,
  type ItemPrompt,
  mergePrompt,
  parsePrompt,
} from '@lootsmith/protocol';
import { readFreeContext } from './context.ts';
import { type Vocabulary, vocabularyFor } from './vocabulary.ts';

export interface Ingredient {
  quantity: number;
  name: string;
  type?: string;
  subtype?: string;
  material?: string;
  /** An element of the game, or 'none'. */
  element: string;
  /** What the item is worth, when the request says: an upgrade keeps and builds on it. */
  rarity?: string;
  level?: number;
  stats?: Record<string, number>;
  effects?: ItemEffect[];
}

export interface CombineCue {
  ingredients: Ingredient[];
  station?: string;
  /** The item types the station can make, when the request lists them ("Station: Forge (makes WEAPON, SHIELD)"). */
  stationTypes?: string[];
  /** Other stations of the game and what they make, for suggestions. */
  otherStations?: Array<{ name: string; types: string[] }>;
  tool?: string;
  intent?: string;
  result: ItemLine;
}

/** What the conversation asks for: the lines of a Lootsmith prompt, else what free text says. */
export interface Cues {
  /** The game the items are for: its own vocabulary when the request describes it, else the writer's. */
  vocab: Vocabulary;
  lastUser: string;
  /** The system message, less the lines that describe the game. */
  system: string;
  count?: number;
  items: ItemLine[];
  location?: string;
  enemy?: string;
  /** The setting's words ("dark fantasy dungeon", "frost"). */
  theme?: string;
  playerLevel?: number;
  naming?: string;
  /** What a create-item request forges from, and what the player asked for. */
  materials?: Ingredient[];
  request?: string;
  /** A create-item's visual preferences ({"color": "crimson"}). */
  look?: Record<string, string | number | boolean>;
  /** The enemy's element when the request declares it. */
  enemyElement?: string;
  /** The request's sampling temperature: low keeps names plain and stats even, high makes them bolder. */
  temperature?: number;
  /** An element of the game, or 'none'. */
  element: string;
  /** True when only the theme named the element: the theme colours some drops, the enemy and room lead. */
  themeOnly: boolean;
  /** How the item came to be, for lore: dropped by an enemy, crafted by combining, forged at a station. */
  obtained: 'dropped' | 'crafted' | 'forged';
  station?: string;
  /** The item a free-form request asks for (JSON, `key: value` lines or prose), when it has no "Item N" lines. */
  base: ItemLine;
  combine?: CombineCue;
}

/** A declared element, else the one its name and material speak of ("Ember Essence" is fire). */
function ingredient(line: IngredientLine, vocab: Vocabulary): Ingredient {
  const material = line.material?.toLowerCase();
  const declared = line.element?.toLowerCase() === 'none' ? 'none' : vocab.element(line.element)?.id;
  return {
    quantity: line.quantity,
    name: line.name.trim(),
    ...(line.type ? { type: vocab.type(line.type)?.id ?? line.type } : {}),
    ...(line.subtype ? { subtype: line.subtype.toLowerCase() } : {}),
    ...(material ? { material } : {}),
    element: declared ?? vocab.elementIn(`${line.name} ${material ?? ''}`),
    ...(line.rarity ? { rarity: line.rarity } : {}),
    ...(line.level !== undefined ? { level: line.level } : {}),
    ...(line.stats ? { stats: line.stats } : {}),
    ...(line.effects ? { effects: line.effects } : {}),
  };
}

/** An item line as the writer uses it: the game's ids, subtype and focus in lower case, a subtype only of letters. */
function itemCue(line: ItemLine, vocab: Vocabulary): ItemLine {
  const { subtype, focus, type, rarity, ...rest } = line;
  const word = subtype
    ?.toLowerCase()
    .replace(/[^\p{L} -]+/gu, '')
    .trim();
  // Set on the rest rather than spread into a copy: V8 builds a spread object it then extends slowly.
  const cue: ItemLine = rest;
  if (type) cue.type = vocab.type(type)?.id ?? type;
  if (rarity) cue.rarity = vocab.rarityAt(vocab.rarityIndex(rarity));
  if (word) cue.subtype = word;
  if (focus) cue.focus = focus.trim().toLowerCase();
  return cue;
}

function combineCue(p: ItemPrompt, ingredients: IngredientLine[], vocab: Vocabulary): CombineCue {
  const combine: CombineCue = {
    ingredients: ingredients.map((i) => ingredient(i, vocab)),
    result: itemCue(p.result ?? {}, vocab),
  };
  if (p.station) combine.station = p.station.name;
  const stations = p.otherStations ?? vocab.stations;
  const own = p.station && stations?.find((s) => s.name.toLowerCase() === p.station?.name.toLowerCase());
  const makes = p.station?.makes ?? own?.makes;
  if (makes) combine.stationTypes = makes;
  if (stations)
    combine.otherStations = stations
      .filter((s) => s !== own)
      .map((s) => ({ name: s.name, types: s.makes ?? [] }));
  if (p.tool && p.tool !== 'none') combine.tool = p.tool;
  if (p.intent) combine.intent = p.intent.trim();
  return combine;
}

const systems = new BoundedMap<string, ReturnType<typeof parsePrompt>>(100);

/** A system message read once: a game's pipeline sends the same one (its game and schema) with every request. */
function parseSystem(text: string): ReturnType<typeof parsePrompt> {
  let parsed = systems.get(text);
  if (!parsed) {
    parsed = parsePrompt(text);
    systems.set(text, parsed);
  }
  return parsed;
}

export function readCues(messages: readonly ChatMessage[]): Cues {
  const system = parseSystem(
    messages
      .filter((m) => m.role === 'system')
      .map((m) => m.content)
      .join('\n'),
  );
  const users = messages.filter((m) => m.role === 'user').map((m) => m.content);
  // Every user message, in order: a re-ask ("That answer was rejected…") keeps the first one's lines.
  const read = users.map(parsePrompt);
  const p: ItemPrompt = [system, ...read].reduce<ItemPrompt>((all, r) => mergePrompt(all, r.prompt), {});
  const vocab = vocabularyFor(p.game);
  const context = p.context ?? {};
  const cues: Cues = {
    vocab,
    lastUser: users.at(-1) ?? '',
    system: system.rest.join('\n'),
    items: (p.items ?? []).map((line) => itemCue(line, vocab)),
    element: 'none',
    themeOnly: false,
    obtained: p.combine ? 'crafted' : p.materials ? 'forged' : 'dropped',
    base: {},
  };
  if (p.count !== undefined) cues.count = p.count;
  if (context.location) cues.location = context.location;
  if (context.enemy) cues.enemy = context.enemy;
  const enemyElement = vocab.element(context.enemyElement)?.id;
  if (enemyElement) cues.enemyElement = enemyElement;
  if (context.theme) cues.theme = context.theme;
  if (context.playerLevel) cues.playerLevel = context.playerLevel;
  if (p.namingStyle) cues.naming = p.namingStyle.trim().toLowerCase();
  if (p.materials) cues.materials = p.materials.map((i) => ingredient(i, vocab));
  if (p.station) cues.station = p.station.name;
  if (p.request) cues.request = p.request;
  if (p.look) cues.look = p.look;
  if (p.combine) cues.combine = combineCue(p, p.combine, vocab);
  const combine = cues.combine;

  // Whatever is not a Lootsmith line is a developer's own words: JSON, `key: value` lines or prose.
  const free = readFreeContext(read.map((r) => r.rest.join('\n')));
  cues.location ||= free.location;
  cues.enemy ||= free.enemy?.replace(/\s*\([^)]*\)/, '');
  cues.theme ||= free.theme;
  cues.playerLevel ??= free.playerLevel ?? free.item.level;
  if (!cues.items.length && !combine) {
    cues.base = free.item;
    cues.count ??= free.count;
  }
  // The enemy and the room lead; the theme only colours what they leave plain.
  const declared = vocab.element(free.element)?.id;
  const lead = cues.enemyElement ?? declared ?? (cues.enemy ? vocab.elementIn(cues.enemy) : 'none');
  const room = lead !== 'none' ? lead : cues.location ? vocab.elementIn(cues.location) : 'none';
  cues.element = room;
  if (cues.element === 'none' && cues.theme) {
    cues.element = vocab.elementIn(cues.theme);
    cues.themeOnly = cues.element !== 'none';
  }
  const forged = cues.materials?.find((i) => i.element !== 'none')?.element;
  if (forged && (cues.element === 'none' || cues.themeOnly)) {
    cues.element = forged;
    cues.themeOnly = false;
  }
  if (cues.element === 'none' && cues.request) cues.element = vocab.elementIn(cues.request);
  if (cues.element === 'none' && !combine && !cues.items.length)
    cues.element = vocab.elementIn(users[0] ?? '');
  return cues;
}
