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
