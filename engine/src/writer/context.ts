import { type ItemLine, SPEC_RARITIES } from '@lootsmith/protocol';
import { SUBTYPE_TYPES, TYPE_SUBTYPES } from './lexicon.ts';
import type { Vocabulary } from './vocabulary.ts';

/** What a request says about where and why an item appears, in whatever form the developer wrote it. */
export interface FreeContext {
  location?: string;
  enemy?: string;
  theme?: string;
  playerLevel?: number;
  count?: number;
  element?: string;
  /** The item asked for: type, subtype, rarity, level, focus, budget. */
  item: ItemLine;
}

type Field =
  | 'location'
  | 'enemy'
  | 'theme'
  | 'playerLevel'
  | 'level'
  | 'rarity'
  | 'type'
  | 'subtype'
  | 'count'
  | 'focus'
  | 'element'
  | 'budget'
  | 'context';

/** Key names developers use, squashed to letters: `player_level`, `playerLevel` and `Player level` are one. */
const KEYS: Record<string, Field> = {};
const KEY_WORDS: Record<Field, string> = {
  location:
    'location zone area place room region biome map dungeon where locale realm site arena stage floor lair chamber',
  enemy:
    'enemy monster boss mob creature foe killed defeated slain source droppedby enemyname target opponent killedenemy victim',
  theme: 'theme mood tone setting genre aesthetic worldtheme',
  playerLevel: 'playerlevel characterlevel herolevel charlevel plevel partylevel',
  level: 'level lvl ilvl itemlevel',
  rarity: 'rarity quality grade rarityname',
  type: 'type slot category itemtype itemslot class',
  subtype: 'subtype weapontype armortype armourtype base basetype itemkind kind item want wants',
  count: 'count quantity number amount numitems howmany itemcount n',
  focus: 'focus primarystat statfocus mainstat emphasis',
  element: 'element damagetype affinity elementtype',
  budget: 'budget powerbudget statbudget power_budget',
  context: 'context generationcontext ctx situation request params parameters',
};
for (const [field, words] of Object.entries(KEY_WORDS) as Array<[Field, string]>)
  for (const w of words.split(' ')) KEYS[w] = field;

const squash = (key: string) => key.toLowerCase().replace(/[^a-z]/g, '');
const RARITY = new RegExp(`\\b(${SPEC_RARITIES.join('|')})\\b`, 'i');
const NUMBER_WORDS: Record<string, number> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  a: 1,
  an: 1,
};

/**
 * The subtype a text names: a subtype of the game's own words it holds ("a plasma cutter"), else its
 * last item word the writer knows ("a heavy two-handed axe" → axe).
 */
export function subtypeIn(text: string, vocab?: Vocabulary): string | undefined {
  const lower = ` ${text.toLowerCase().replace(/[^a-z]+/g, ' ')} `;
  const own = vocab?.types
    .filter((t) => t.ownSubtypes)
    .flatMap((t) => t.subtypes.map((s) => s.toLowerCase()))
    .sort((a, b) => b.length - a.length)
    .find((s) => lower.includes(` ${s} `) || lower.includes(` ${s}s `));
  if (own) return own;
  const words = text.toLowerCase().match(/[a-z]+/g) ?? [];
  for (let i = words.length - 1; i >= 0; i--) {
    const w = words[i] as string;
    if (SUBTYPE_TYPES[w]) return w;
    const singular = w.replace(/s$/, '');
    if (SUBTYPE_TYPES[singular]) return singular;
  }
  return undefined;
}

/** Words that name an item type in a developer's request. */
const TYPE_WORDS: Record<string, string> = {
  weapon: 'WEAPON',
  armor: 'CHEST',
  armour: 'CHEST',
  helmet: 'HELMET',
  head: 'HELMET',
  chest: 'CHEST',
  body: 'CHEST',
  legs: 'LEGS',
  boots: 'BOOTS',
  feet: 'BOOTS',
  gloves: 'GLOVES',
  hands: 'GLOVES',
  shield: 'SHIELD',
  offhand: 'SHIELD',
  accessory: 'ACCESSORY',
  jewelry: 'ACCESSORY',
  jewellery: 'ACCESSORY',
  trinket: 'ACCESSORY',
  consumable: 'CONSUMABLE',
  material: 'MATERIAL',
  reagent: 'MATERIAL',
  container: 'CONTAINER',
  equipment: 'EQUIPMENT',
};

/** The item type a value names: the type itself ("HELMET"), a word for it ("head") or a subtype ("axe"). */
function typeNamed(value: string): string | undefined {
  const w = squash(value);
  const upper = value.trim().toUpperCase();
  return (upper in TYPE_SUBTYPES ? upper : undefined) ?? TYPE_WORDS[w] ?? SUBTYPE_TYPES[w];
}

function setField(ctx: FreeContext, field: Field, raw: unknown): void {
  if (raw === null || raw === undefined) return;
  if (field === 'context' && typeof raw === 'object') {
    readObject(ctx, raw as Record<string, unknown>);
    return;
  }
  const text = typeof raw === 'string' ? raw.trim() : typeof raw === 'number' ? String(raw) : '';
  if (!text) return;
  const number = Number.parseInt(text, 10);
  switch (field) {
    case 'location':
      ctx.location ??= text;
      break;
    case 'enemy':
      ctx.enemy ??= text;
      break;
    case 'theme':
      ctx.theme ??= text;
      break;
    case 'playerLevel':
      if (number > 0) ctx.playerLevel ??= number;
      break;
    case 'level':
      if (number > 0) ctx.item.level ??= number;
      break;
    case 'rarity': {
      const r = RARITY.exec(text);
      if (r) ctx.item.rarity ??= (r[1] as string).toUpperCase();
      break;
    }
    case 'type': {
      const type = typeNamed(text);
      if (type) ctx.item.type ??= type;
      const sub = subtypeIn(text);
      if (sub && !TYPE_WORDS[sub]) ctx.item.subtype ??= sub;
      break;
    }
    case 'subtype': {
      const sub = subtypeIn(text);
      if (sub) ctx.item.subtype ??= sub;
      break;
    }
    case 'count':
      if (number > 0 && number <= 64) ctx.count ??= number;
      break;
    case 'focus':
      ctx.item.focus ??= text.toLowerCase();
      break;
    case 'element':
      ctx.element ??= text.toLowerCase();
      break;
    case 'budget':
      if (number > 0) ctx.item.budget ??= number;
      break;
    case 'context':
      readLines(ctx, text);
      break;
  }
}

function readObject(ctx: FreeContext, value: Record<string, unknown>, depth = 0): void {
  if (depth > 4) return;
  for (const [key, v] of Object.entries(value)) {
    const field = KEYS[squash(key)];
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      // An object under a known key ("enemy": {"name": …}) names that thing; otherwise look inside.
      const named = (v as Record<string, unknown>).name;
      if (field && field !== 'context' && typeof named === 'string') setField(ctx, field, named);
      else readObject(ctx, v as Record<string, unknown>, depth + 1);
    } else if (Array.isArray(v)) {
      const first = v.find((x) => x && typeof x === 'object');
      if (first) readObject(ctx, first as Record<string, unknown>, depth + 1);
      else if (field === 'theme' || field === 'location') setField(ctx, field, v.join(' '));
    } else if (field) setField(ctx, field, v);
  }
}

/** JSON objects inside a text: the whole message, or a fenced or inline `{…}`. */
export function jsonObjectsIn(text: string): Record<string, unknown>[] {
  const found: Record<string, unknown>[] = [];
  let start = text.indexOf('{');
  while (start >= 0 && found.length < 4) {
    let depth = 0;
    let end = -1;
    let inString = false;
    for (let i = start; i < text.length; i++) {
      const c = text[i];
      if (inString) {
        if (c === '\\') i++;
        else if (c === '"') inString = false;
      } else if (c === '"') inString = true;
      else if (c === '{') depth++;
      else if (c === '}' && --depth === 0) {
        end = i;
        break;
      }
    }
    if (end < 0) break;
    try {
      const value = JSON.parse(text.slice(start, end + 1)) as unknown;
      if (value && typeof value === 'object' && !Array.isArray(value))
        found.push(value as Record<string, unknown>);
      start = text.indexOf('{', end + 1);
    } catch {
      start = text.indexOf('{', start + 1);
    }
  }
  return found;
}

const PAIR = /^[\s\-*•>#]*["']?([A-Za-z][A-Za-z _-]{0,30}?)["']?\s*(?::|=|->|\s-\s)\s*(.+?)[\s,;]*$/;

/** `key: value` lines, also several on a line split by `;` ("Context: location: X; enemy: Y"). */
function readLines(ctx: FreeContext, text: string): void {
  for (const line of text.split(/\n|;|\|/)) {
    const m = PAIR.exec(line);
    if (!m) continue;
    const field = KEYS[squash(m[1] as string)];
    if (!field) continue;
    const value = (m[2] as string).replace(/^["']|["']$/g, '');
    if (field === 'context' && /:|=/.test(value)) readLines(ctx, value);
    else setField(ctx, field, value);
  }
}

const STOP =
  '(?=\\s+(?:in|inside|at|on|within|near|for|with|who|that|during|while|and|to|from|somewhere|today|earlier|just)\\b|[.,;:!?\\n)]|$)';
const PHRASE = "([A-Za-z][\\w'-]*(?:\\s+(?:of\\s+)?(?:the\\s+)?[A-Za-z][\\w'-]*){0,3}?)";
const PROSE_ENEMY = new RegExp(
  `\\b(?:dropped by|drops? from|looted from|loot from|killing|killed|slain|slaying|slew|defeating|defeated|defeat|kill|beating|beat|vanquished|fighting|fought|the corpse of|the body of)\\s+(?:an?\\s+|the\\s+|some\\s+)?${PHRASE}${STOP}`,
  'i',
);
const PROSE_LOCATION =
  /\b(?:in|inside|within|at|deep in|found in|located in|from)\s+(?:the\s+)?((?:[A-Z][\w'-]*)(?:\s+(?:of\s+)?(?:the\s+)?[A-Z][\w'-]*){0,3})/;
const PROSE_PLACE_WORDS =
  /\b(?:in|inside|within|at)\s+(?:the|a|an)\s+((?:[a-z'-]+\s+){0,2}(?:crypt|cave|caves|cavern|forest|swamp|marsh|bog|dungeon|castle|tower|temple|ruins|mine|mines|lair|desert|tundra|volcano|catacombs|sewers|keep|fortress|village|city|woods|jungle|peak|mountains?|glacier|abyss|citadel|sanctum|library|shrine|graveyard|cemetery|harbor|harbour|island|wastes?))\b/i;
const PROSE_THEME =
  /\b(?:theme|themed|setting|genre|mood)\s*(?:is|of|:|=)?\s*(?:an?\s+|the\s+)?["']?([a-z][a-z -]{2,40}?)["']?(?=[.,;!?\n]|\s+(?:game|world|setting|campaign)\b|$)|\b(?:for|in)\s+(?:an?|my)\s+([a-z][a-z -]{2,30}?)\s+(?:game|rpg|world|campaign|setting|roguelike|mmo)\b/i;
const PROSE_LEVEL =
  /\b(?:player|character|hero|party)\s+(?:is\s+)?(?:at\s+)?(?:level|lvl\.?)\s*(\d{1,3})|\blevel[- ]?(\d{1,3})\s+(?:player|character|hero|adventurer|party)|\b(?:level|lvl\.?|ilvl)\s*[:#]?\s*(\d{1,3})\b|\b(\d{1,3})(?:st|nd|rd|th)?[- ]level\b/i;
const PROSE_COUNT =
  /\b(?:generate|create|make|give me|roll|drop|write|design|invent)\s+(?:me\s+)?(\d{1,2}|one|two|three|four|five|six|seven|eight|a|an)\b/i;

function readProse(ctx: FreeContext, text: string): void {
  const enemy = PROSE_ENEMY.exec(text);
  if (enemy) ctx.enemy ??= (enemy[1] as string).trim();
  const place = PROSE_LOCATION.exec(text) ?? PROSE_PLACE_WORDS.exec(text);
  if (place) {
    const where = (place[1] as string).trim();
    if (!ctx.enemy?.toLowerCase().includes(where.toLowerCase())) ctx.location ??= where;
  }
  const theme = PROSE_THEME.exec(text);
  if (theme) ctx.theme ??= ((theme[1] ?? theme[2]) as string).trim();
  const level = PROSE_LEVEL.exec(text);
  if (level) {
    const n = Number(level[1] ?? level[2] ?? level[3] ?? level[4]);
    if (level[1] || level[2]) ctx.playerLevel ??= n;
    else ctx.item.level ??= n;
  }
  const rarity = RARITY.exec(text);
  if (rarity) ctx.item.rarity ??= (rarity[1] as string).toUpperCase();
  const count = PROSE_COUNT.exec(text);
  if (count) {
    const c = count[1] as string;
    const n = NUMBER_WORDS[c.toLowerCase()] ?? Number(c);
    if (n > 0 && n <= 64) ctx.count ??= n;
  }
  // Item words inside names ("Bone Priest", "Crystal Golem") name the enemy, not the item asked for.
  let rest = text.replace(PROSE_ENEMY, ' ').replace(/\b(?:in|inside|at)\s+the\s+[a-z ]+/gi, ' ');
  for (const name of [ctx.enemy, ctx.location]) if (name) rest = rest.split(name).join(' ');
  const sub = subtypeIn(rest);
  if (sub) ctx.item.subtype ??= sub;
  const type = (text.toLowerCase().match(/[a-z]+/g) ?? []).map((w) => TYPE_WORDS[w]).find(Boolean);
  if (type) ctx.item.type ??= type;
}

/**
 * Reads the context of a request from its user messages: JSON objects first, then `key: value`
 * lines, then prose. Earlier forms win where they disagree, since they are the most deliberate.
 */
export function readFreeContext(texts: readonly string[]): FreeContext {
  const ctx: FreeContext = { item: {} };
  for (const text of texts) for (const object of jsonObjectsIn(text)) readObject(ctx, object);
  for (const text of texts) readLines(ctx, text);
  for (const text of texts) readProse(ctx, text.replace(/\{[\s\S]*\}/g, ' '));
  if (ctx.item.subtype && !ctx.item.type) ctx.item.type = SUBTYPE_TYPES[ctx.item.subtype];
  return ctx;
}
