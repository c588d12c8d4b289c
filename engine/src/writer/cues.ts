import type { ChatMessage, Element } from '@lootsmith/protocol';
import { readFreeContext } from './context.ts';
import { ELEMENT_CUES, type Theme } from './lexicon.ts';

export interface ItemCue {
  type?: string;
  subtype?: string;
  rarity?: string;
  level?: number;
  budget?: number;
  focus?: string;
}

export interface Ingredient {
  quantity: number;
  name: string;
  type?: string;
  subtype?: string;
  material?: string;
  element: Element;
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
  result: ItemCue;
}

/** What the conversation asks for, read from its plain-text cues. */
export interface Cues {
  /** Non-system text, lower case, used for theming. */
  theme: string;
  lastUser: string;
  system: string;
  count?: number;
  items: ItemCue[];
  location?: string;
  enemy?: string;
  themeWord?: string;
  playerLevel?: number;
  naming?: string;
  /** What a create-item request forges from ("Materials: …"), and what the player asked for. */
  materials?: Ingredient[];
  request?: string;
  /** The enemy's element when the request declares it ("enemy: Fire Imp (tier 3, fire)"). */
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
  base: ItemCue;
  combine?: CombineCue;
}

const RARITY = /\b(COMMON|UNCOMMON|RARE|EPIC|LEGENDARY|MYTHIC)\b/i;

function itemCue(line: string): ItemCue {
  const cue: ItemCue = {};
  const type = /\btype\s+([A-Z]+)/i.exec(line);
  if (type) cue.type = (type[1] as string).toUpperCase();
  const subtype = /\bsubtype:?\s+([a-z][a-z -]*?)(?:;|$)/i.exec(line);
  if (subtype) cue.subtype = (subtype[1] as string).trim().toLowerCase();
  const rarity = RARITY.exec(line);
  if (rarity) cue.rarity = (rarity[1] as string).toUpperCase();
  const level = /\blevel:?\s+(\d+)/i.exec(line);
  if (level) cue.level = Number(level[1]);
  const budget = /\b(?:stat |power )?budget:?\s+(\d+)/i.exec(line);
  if (budget) cue.budget = Number(budget[1]);
  const focus = /\bfocus:?\s+([a-z_ ]+?)(?:;|$)/i.exec(line);
  if (focus) cue.focus = (focus[1] as string).trim().toLowerCase();
  return cue;
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

/** "2 × Iron Ore (MATERIAL, iron, none)", or with a subtype: "1 × Old Blade (WEAPON, sword, iron, none)". */
function ingredient(text: string): Ingredient | undefined {
  const m = /^\s*(\d+)\s*[×x*]\s*([^(]+?)\s*(?:\(([^)]*)\))?\s*$/i.exec(text);
  if (!m) return undefined;
  const fields = (m[3] ?? '').split(',').map((s) => s.trim());
  const [type, subtype, material, element] =
    fields.length >= 4 ? fields : [fields[0], undefined, fields[1], fields[2]];
  const named = elementOf(`${m[2]} ${material ?? ''}`);
  const declared = element?.toLowerCase();
  return {
    quantity: Number(m[1]),
    name: (m[2] as string).trim(),
    ...(type ? { type: type.toUpperCase() } : {}),
    ...(subtype ? { subtype: subtype.toLowerCase() } : {}),
    ...(material ? { material: material.toLowerCase() } : {}),
    element: declared && declared !== 'none' && declared in ELEMENT_CUES ? (declared as Element) : named,
  };
}

function readContext(cues: Cues, text: string): void {
  for (const part of text.split(';')) {
    const [key, ...rest] = part.split(':');
    const value = rest.join(':').trim();
    const k = key?.trim().toLowerCase();
    if (k === 'location') cues.location = value;
    else if (k === 'enemy') {
      cues.enemy = value.replace(/\s*\([^)]*\)/, '');
      const declared = /\(([^)]*)\)/
        .exec(value)?.[1]
        ?.match(/[a-z]+/gi)
        ?.find((w) => w.toLowerCase() in ELEMENT_CUES);
      if (declared) cues.enemyElement = declared.toLowerCase() as Theme;
    } else if (k === 'station') cues.station = value;
    else if (k === 'theme') cues.themeWord = value;
    else if (k === 'player request') cues.request = value;
    else if (k === 'player level') {
      const level = Number.parseInt(value, 10);
      if (level > 0) cues.playerLevel = level;
    }
  }
}

function ingredients(text: string): Ingredient[] {
  return text
    .split(';')
    .map(ingredient)
    .filter((i): i is Ingredient => i !== undefined);
}

export function readCues(messages: readonly ChatMessage[]): Cues {
  const system = messages
    .filter((m) => m.role === 'system')
    .map((m) => m.content)
    .join('\n');
  const userTexts = messages.filter((m) => m.role !== 'system').map((m) => m.content);
  const lastUser = [...messages].reverse().find((m) => m.role === 'user')?.content ?? '';
  const cues: Cues = {
    theme: userTexts.join('\n').toLowerCase(),
    lastUser,
    system,
    items: [],
    element: 'none',
    themeOnly: false,
    obtained: 'dropped',
    base: {},
  };
  let combine: CombineCue | undefined;
  const lines: Array<[RegExp, (m: RegExpExecArray) => void]> = [
    [/^generate\s+(\d+)\s+items?/i, (m) => (cues.count = Number(m[1]))],
    [/^item\s+(\d+)\s*:(.*)$/i, (m) => (cues.items[Number(m[1]) - 1] = itemCue(m[2] as string))],
    [/^context:(.*)$/i, (m) => readContext(cues, m[1] as string)],
    [/^naming style:\s*(.+)$/i, (m) => (cues.naming = (m[1] as string).trim().toLowerCase())],
    [/^materials:\s*(.+)$/i, (m) => (cues.materials = ingredients(m[1] as string))],
    [
      /^combine:\s*(.+)$/i,
      (m) => {
        combine = { ingredients: ingredients(m[1] as string), result: {} };
      },
    ],
    [
      /^station:\s*(.+)$/i,
      (m) => {
        if (!combine) return;
        const [head, ...rest] = (m[1] as string).split(';');
        const made = /\((?:makes\s+)?([^)]*)\)/i.exec(head as string);
        combine.station = (head as string).replace(/\s*\([^)]*\)/, '').trim();
        if (made) combine.stationTypes = (made[1] as string).toUpperCase().match(/[A-Z]+/g) ?? [];
        const tool = rest.map((r) => /^\s*tool:\s*(.+)$/i.exec(r)?.[1]?.trim()).find(Boolean);
        if (tool && tool !== 'none') combine.tool = tool;
      },
    ],
    [
      /^other stations:\s*(.+)$/i,
      (m) => {
        if (!combine) return;
        combine.otherStations = (m[1] as string).split(';').map((part) => {
          const made = /\((?:makes\s+)?([^)]*)\)/i.exec(part);
          return {
            name: part.replace(/\s*\([^)]*\)/, '').trim(),
            types: (made?.[1] ?? '').toUpperCase().match(/[A-Z]+/g) ?? [],
          };
        });
      },
    ],
    [
      /^player intent:\s*(.*)$/i,
      (m) => {
        if (combine) combine.intent = (m[1] as string).trim();
      },
    ],
    [
      /^result:\s*(.*)$/i,
      (m) => {
        if (combine) combine.result = itemCue(m[1] as string);
      },
    ],
  ];
  // Every user message, in order: a re-ask ("That answer was rejected…") keeps the first one's cues.
  const userLines = messages.filter((m) => m.role === 'user').flatMap((m) => m.content.split('\n'));
  for (const line of userLines) {
    const trimmed = line.trim();
    for (const [pattern, apply] of lines) {
      const m = pattern.exec(trimmed);
      if (m) {
        apply(m);
        break;
      }
    }
  }
  cues.items = Array.from(cues.items, (item) => item ?? {});
  if (combine) cues.combine = combine;
  const free = readFreeContext(messages.filter((m) => m.role === 'user').map((m) => m.content));
  cues.location ||= free.location;
  cues.enemy ||= free.enemy?.replace(/\s*\([^)]*\)/, '');
  cues.themeWord ||= free.theme;
  cues.playerLevel ??= free.playerLevel ?? free.item.level;
  if (!cues.items.length && !combine) {
    cues.base = free.item;
    cues.count ??= free.count;
  }
  // The enemy and the room lead; the theme only colours what they leave plain.
  const declared = free.element && free.element in ELEMENT_CUES ? (free.element as Theme) : undefined;
  const lead = cues.enemyElement ?? declared ?? (cues.enemy ? elementOf(cues.enemy) : 'none');
  const room = lead !== 'none' ? lead : cues.location ? elementOf(cues.location) : 'none';
  cues.element = room;
  if (cues.element === 'none' && cues.themeWord) {
    cues.element = elementOf(cues.themeWord);
    cues.themeOnly = cues.element !== 'none';
  }
  const forged = cues.materials?.find((i) => i.element !== 'none')?.element;
  if (forged && (cues.element === 'none' || cues.themeOnly)) {
    cues.element = forged;
    cues.themeOnly = false;
  }
  if (cues.element === 'none' && cues.request) cues.element = elementOf(cues.request);
  const firstUser = messages.find((m) => m.role === 'user')?.content ?? '';
  if (cues.element === 'none' && !combine && !cues.items.length) cues.element = elementOf(firstUser);
  cues.obtained = combine ? 'crafted' : cues.materials ? 'forged' : 'dropped';
  return cues;
}
