/** Measures of generated content, independent of how the writer works: they read only its output. */

const STOP = new Set(
  'the and with from into that this your their there about dungeon style level player theme'.split(' '),
);

/** Words of a context value worth finding again in an item: "Fire Imp (tier 3)" → fire, imp… (≥ 3 letters). */
export function contextWords(...values: Array<string | undefined>): string[] {
  const words = values.flatMap((v) => (v ?? '').toLowerCase().match(/[a-z]{3,}/g) ?? []);
  return [...new Set(words.filter((w) => !STOP.has(w) && w !== 'tier'))];
}

/** Whether any context word stands in the text as a word of its own (or as the head of a compound). */
export function mentionsContext(text: string, words: readonly string[]): boolean {
  const lower = text.toLowerCase();
  return words.some((w) => new RegExp(`\\b${w}`, 'i').test(lower));
}

/** The sentences of a text. */
export function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+/)
    .map((s) => s.trim())
    .filter((s) => s.length >= 12);
}

/** Sentences that stand more than once in a bag of texts, with their counts. */
export function repeatedSentences(texts: readonly string[]): Array<[string, number]> {
  const counts = new Map<string, number>();
  for (const text of texts) for (const s of sentences(text)) counts.set(s, (counts.get(s) ?? 0) + 1);
  return [...counts].filter(([, n]) => n > 1);
}

/**
 * Phrases (four words in a row) that two texts of one answer share, leaving out stat lists ("+12
 * attack" is a fact, not a phrase) and the given names (an enemy or a place is named on purpose).
 */
export function sharedPhrases(texts: readonly string[], names: readonly string[]): string[] {
  let named = 0;
  const grams = texts.map((text) => {
    let lower = text.toLowerCase().replace(/\+\d+%? [a-z]+(?: [a-z]+)?/g, ' ');
    for (const name of names) lower = lower.replaceAll(name.toLowerCase(), () => ` name${++named} `);
    const words = lower.match(/[a-z0-9'’]+/g) ?? [];
    return new Set(words.slice(3).map((_, i) => words.slice(i, i + 4).join(' ')));
  });
  const shared = new Set<string>();
  grams.forEach((a, i) => {
    for (const b of grams.slice(i + 1)) for (const g of a) if (b.has(g)) shared.add(g);
  });
  return [...shared];
}

/** Every string inside a JSON value, keys excluded. */
export function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsOf);
  if (value && typeof value === 'object') return Object.values(value).flatMap(stringsOf);
  return [];
}

/** Field names a game uses for stats. */
const STAT_FIELD =
  /attack|damage|power|armou?r|defen[cs]e|strength|dexterity|intelligence|agility|health|hp|mana|mp|bonus|amount|min|max/i;

/** Sum of the numbers a JSON value holds under stat-named fields (nested, e.g. `damage.min`). */
export function statTotal(value: unknown, statParent = false): number {
  if (Array.isArray(value)) return value.reduce((a: number, v) => a + statTotal(v, statParent), 0);
  if (!value || typeof value !== 'object') return 0;
  let total = 0;
  for (const [key, v] of Object.entries(value)) {
    const stat = STAT_FIELD.test(key) || statParent;
    if (typeof v === 'number' && stat && !/level|cost|price|tier/i.test(key)) total += v;
    else if (typeof v === 'object') total += statTotal(v, stat || /stats?|attributes/i.test(key));
  }
  return total;
}

export const mean = (xs: readonly number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

/** True when each value is above the one before it. */
export const strictlyRising = (xs: readonly number[]) =>
  xs.every((x, i) => i === 0 || x > (xs[i - 1] as number));

export const percent = (part: number, whole: number) => (whole ? (100 * part) / whole : 0);

/** The four-word phrases of a text, with stat lists ("+12 attack") and the given names left out. */
function phrasesOf(text: string, names: readonly string[]): Set<string> {
  let lower = text.toLowerCase().replace(/\+\d+%? [a-z]+(?: [a-z]+)?/g, ' ');
  for (const name of names) if (name) lower = lower.replaceAll(name.toLowerCase(), ' ');
  const words = lower.match(/[a-z0-9'’]+/g) ?? [];
  return new Set(words.slice(3).map((_, i) => words.slice(i, i + 4).join(' ')));
}

/**
 * Phrases (four words in a row) that recur across a player's bag: written in at least `least` of
 * its items' texts, stat lists and the given names (its enemies, places, item names) aside.
 */
export function recurringPhrases(texts: readonly string[], names: readonly string[], least = 3): string[] {
  const counts = new Map<string, number>();
  for (const text of texts) for (const p of phrasesOf(text, names)) counts.set(p, (counts.get(p) ?? 0) + 1);
  return [...counts].filter(([, n]) => n >= least).map(([p]) => p);
}

/** Monsters of fantasy writing: an item that names one the game does not have names a stranger. */
const MONSTERS = [
  'spider',
  'dragon',
  'wyvern',
  'wyrm',
  'drake',
  'troll',
  'goblin',
  'orc',
  'ogre',
  'lich',
  'kraken',
  'hydra',
  'basilisk',
  'griffin',
  'gryphon',
  'phoenix',
  'vampire',
  'werewolf',
  'minotaur',
  'harpy',
  'demon',
  'banshee',
  'golem',
];
/** Things with no hands to grip with. */
const GRIPLESS = /slime|ooze|jelly|wisp|blob|sludge|mist|swarm/;
const METAL = /iron|steel|bronze|copper|silver|gold|mithril|adamant|metal|brass|tin|alloy|titanium/;

/** What an item's text says that cannot be so of it, each as a short reason; empty when nothing. */
export function impossiblePhrases(
  item: {
    type: string;
    subtype: string;
    material: string;
    name: string;
    description: string;
    lore: string;
  },
  game: {
    enemies: ReadonlyArray<{ name: string }>;
    rarities: ReadonlyArray<{ id: string }>;
    item_types: ReadonlyArray<{ id: string; strikes?: boolean; consumable?: boolean; stackable?: boolean }>;
  },
  enemy?: string,
): string[] {
  const text = `${item.name}. ${item.description} ${item.lore}`;
  const lower = text.toLowerCase();
  const type = game.item_types.find((t) => t.id === item.type);
  const used = type?.consumable || type?.stackable;
  const held =
    type?.strikes ||
    /shield|buckler|targe|pavise|staff|wand|cutter|welder|driver|lance|hook|tool/.test(item.subtype);
  const out: string[] = [];
  if (/\bgrip\b|\bhilt\b/.test(lower) && !held) out.push(`a grip on a ${item.subtype}`);
  if (/\brust/.test(lower) && (used || !METAL.test(item.material)))
    out.push(`rust on ${item.material} ${item.subtype}`);
  if (enemy && GRIPLESS.test(enemy.toLowerCase()) && /\b(grip|hands?|fists?|fingers|clutch)\b/.test(lower))
    out.push(`hands of a ${enemy}`);
  const enemies = game.enemies.map((e) => e.name.toLowerCase()).join(' ');
  for (const m of MONSTERS)
    if (new RegExp(`\\b${m}`).test(lower) && !enemies.includes(m)) out.push(`a ${m} the game lacks`);
  for (const r of game.rarities)
    if (r.id.length > 2 && new RegExp(`\\b${r.id}\\b`).test(text)) out.push(`rarity written ${r.id}`);
  return out;
}
