import type { ChatMessage, Element } from '@lootsmith/protocol';
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
  material?: string;
  element: Element;
}

export interface CombineCue {
  ingredients: Ingredient[];
  station?: string;
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
  /** The request's sampling temperature: low keeps names plain and stats even, high makes them bolder. */
  temperature?: number;
  element: Element;
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

function ingredient(text: string): Ingredient | undefined {
  const m = /^\s*(\d+)\s*[×x*]\s*([^(]+?)\s*(?:\(([^)]*)\))?\s*$/i.exec(text);
  if (!m) return undefined;
  const [type, material, element] = (m[3] ?? '').split(',').map((s) => s.trim());
  const named = elementOf(`${m[2]} ${material ?? ''}`);
  const declared = element?.toLowerCase();
  return {
    quantity: Number(m[1]),
    name: (m[2] as string).trim(),
    ...(type ? { type: type.toUpperCase() } : {}),
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
    else if (k === 'enemy') cues.enemy = value.replace(/\s*\(tier \d+\)/i, '');
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
      /^station:\s*([^;]+)(?:;\s*tool:\s*(.+))?$/i,
      (m) => {
        if (!combine) return;
        combine.station = (m[1] as string).trim();
        if (m[2] && m[2].trim() !== 'none') combine.tool = m[2].trim();
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
  const themeText = [cues.themeWord, cues.location, cues.enemy].filter(Boolean).join(' ');
  cues.element = elementOf(themeText);
  const forged = cues.materials?.find((i) => i.element !== 'none')?.element;
  if (cues.element === 'none' && forged) cues.element = forged;
  if (cues.element === 'none' && cues.request) cues.element = elementOf(cues.request);
  const firstUser = messages.find((m) => m.role === 'user')?.content ?? '';
  if (cues.element === 'none' && !combine) cues.element = elementOf(firstUser);
  return cues;
}
