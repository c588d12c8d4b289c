import {
  type ChatMessage,
  type Element,
  type IngredientLine,
  type ItemLine,
  type ItemPrompt,
  type ItemType,
  parsePrompt,
} from '@lootsmith/protocol';
import { readFreeContext } from './context.ts';
import { ELEMENT_CUES, type Theme } from './lexicon.ts';

export interface Ingredient {
  quantity: number;
  name: string;
  type?: ItemType;
  subtype?: string;
  material?: string;
  element: Element;
}

export interface CombineCue {
  ingredients: Ingredient[];
  station?: string;
  /** The item types the station can make, when the request lists them ("Station: Forge (makes WEAPON, SHIELD)"). */
  stationTypes?: ItemType[];
  /** Other stations of the game and what they make, for suggestions. */
  otherStations?: Array<{ name: string; types: ItemType[] }>;
  tool?: string;
  intent?: string;
  result: ItemLine;
}

/** What the conversation asks for: the lines of a Lootsmith prompt, else what free text says. */
export interface Cues {
  lastUser: string;
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
  /** The enemy's element when the request declares it. */
  enemyElement?: Theme;
  /** The request's sampling temperature: low keeps names plain and stats even, high makes them bolder. */
  temperature?: number;
  element: Element;
  /** True when only the theme named the element: the theme colours some drops, the enemy and room lead. */
  themeOnly: boolean;
  /** How the item came to be, for lore: dropped by an enemy, crafted by combining, forged at a station. */
  obtained: 'dropped' | 'crafted' | 'forged';
  station?: string;
  /** The item a free-form request asks for (JSON, `key: value` lines or prose), when it has no "Item N" lines. */
  base: ItemLine;
  combine?: CombineCue;
}

/** The element a text leans to most, by cue words; 'none' when it names none. */
export function elementOf(text: string): Element {
  let best: Element = 'none';
  let bestCount = 0;
  const words = text.toLowerCase().match(/[a-z]+/g) ?? [];
  for (const theme of Object.keys(ELEMENT_CUES) as Theme[]) {
    const cues = ELEMENT_CUES[theme];
    let count = 0;
    for (const w of words) if (cues.some((c) => w === c || (c.length > 5 && w.startsWith(c)))) count++;
    if (count > bestCount) {
      bestCount = count;
      best = theme;
    }
  }
  return best;
}

const themeOf = (word: string | undefined) =>
  word && word.toLowerCase() in ELEMENT_CUES ? (word.toLowerCase() as Theme) : undefined;

/** A declared element, else the one its name and material speak of ("Ember Essence" is fire). */
function ingredient(line: IngredientLine): Ingredient {
  const material = line.material?.toLowerCase();
  return {
    quantity: line.quantity,
    name: line.name.trim(),
    ...(line.type ? { type: line.type } : {}),
    ...(line.subtype ? { subtype: line.subtype.toLowerCase() } : {}),
    ...(material ? { material } : {}),
    element: themeOf(line.element) ?? elementOf(`${line.name} ${material ?? ''}`),
  };
}

/** An item line as the writer uses it: subtype and focus in lower case, a subtype only of letters. */
function itemCue(line: ItemLine): ItemLine {
  const { subtype, focus, ...rest } = line;
  const word = subtype
    ?.toLowerCase()
    .replace(/[^\p{L} -]+/gu, '')
    .trim();
  return {
    ...rest,
    ...(word ? { subtype: word } : {}),
    ...(focus ? { focus: focus.trim().toLowerCase() } : {}),
  };
}

function combineCue(p: ItemPrompt, ingredients: IngredientLine[]): CombineCue {
  const combine: CombineCue = { ingredients: ingredients.map(ingredient), result: itemCue(p.result ?? {}) };
  if (p.station) combine.station = p.station.name;
  if (p.station?.makes) combine.stationTypes = p.station.makes;
  if (p.otherStations)
    combine.otherStations = p.otherStations.map((s) => ({ name: s.name, types: s.makes ?? [] }));
  if (p.tool && p.tool !== 'none') combine.tool = p.tool;
  if (p.intent) combine.intent = p.intent.trim();
  return combine;
}

export function readCues(messages: readonly ChatMessage[]): Cues {
  const system = messages
    .filter((m) => m.role === 'system')
    .map((m) => m.content)
    .join('\n');
  const users = messages.filter((m) => m.role === 'user').map((m) => m.content);
  // Every user message, in order: a re-ask ("That answer was rejected…") keeps the first one's lines.
  const read = users.map(parsePrompt);
  const p: ItemPrompt = Object.assign({}, ...read.map((r) => r.prompt));
  const context = p.context ?? {};
  const cues: Cues = {
    lastUser: users.at(-1) ?? '',
    system,
    items: (p.items ?? []).map(itemCue),
    element: 'none',
    themeOnly: false,
    obtained: p.combine ? 'crafted' : p.materials ? 'forged' : 'dropped',
    base: {},
  };
  if (p.count !== undefined) cues.count = p.count;
  if (context.location) cues.location = context.location;
  if (context.enemy) cues.enemy = context.enemy;
  const enemyElement = themeOf(context.enemyElement);
  if (enemyElement) cues.enemyElement = enemyElement;
  if (context.theme) cues.theme = context.theme;
  if (context.playerLevel) cues.playerLevel = context.playerLevel;
  if (p.namingStyle) cues.naming = p.namingStyle.trim().toLowerCase();
  if (p.materials) cues.materials = p.materials.map(ingredient);
  if (p.station) cues.station = p.station.name;
  if (p.request) cues.request = p.request;
  if (p.combine) cues.combine = combineCue(p, p.combine);
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
  const declared = themeOf(free.element);
  const lead = cues.enemyElement ?? declared ?? (cues.enemy ? elementOf(cues.enemy) : 'none');
  const room = lead !== 'none' ? lead : cues.location ? elementOf(cues.location) : 'none';
  cues.element = room;
  if (cues.element === 'none' && cues.theme) {
    cues.element = elementOf(cues.theme);
    cues.themeOnly = cues.element !== 'none';
  }
  const forged = cues.materials?.find((i) => i.element !== 'none')?.element;
  if (forged && (cues.element === 'none' || cues.themeOnly)) {
    cues.element = forged;
    cues.themeOnly = false;
  }
  if (cues.element === 'none' && cues.request) cues.element = elementOf(cues.request);
  if (cues.element === 'none' && !combine && !cues.items.length) cues.element = elementOf(users[0] ?? '');
  return cues;
}
