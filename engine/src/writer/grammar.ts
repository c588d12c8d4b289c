/** Nouns that name one thing in the plural ("boots", "greaves"): they take "these", "are", "a pair of". */
const PAIRED = new Set([
  'boots',
  'sabatons',
  'treads',
  'striders',
  'greaves',
  'legguards',
  'tassets',
  'leggings',
  'breeches',
  'trousers',
  'gauntlets',
  'gloves',
  'grips',
  'handguards',
  'fists',
  'bracers',
  'vambraces',
  'wraps',
  'handwraps',
  'robes',
  'vestments',
  'shears',
  'tongs',
  'lockpicks',
  'arrows',
  'bolts',
  'rations',
  'scraps',
  'warboots',
  'legplates',
  'mittens',
]);

/** Nouns that end in s and name one thing. */
const SINGULAR = new Set(['lens', 'chassis', 'harness', 'compass', 'canvas', 'apparatus']);

/** True when the noun phrase's head word is plural, as "iron greaves" or "leather scraps". */
export function isPlural(noun: string): boolean {
  const head = (noun.toLowerCase().match(/[a-z]+/g) ?? []).at(-1) ?? '';
  if (PAIRED.has(head)) return true;
  if (SINGULAR.has(head)) return false;
  return /[^s]s$/.test(head) && !/(ss|us|is|ous)$/.test(head) && head.length > 3;
}

/** "a" or "an" by sound: the written vowel, with the usual exceptions (an hour, a unique). */
export function article(word: string): 'a' | 'an' {
  const w = word.toLowerCase();
  if (/^(hour|honest|heir|honou?r)/.test(w)) return 'an';
  if (/^(uni|use|usu|eu|one|once)/.test(w)) return 'a';
  return /^[aeiou]/.test(w) ? 'an' : 'a';
}

/** "a frost-rimed helm", "an iron axe", "a pair of frost-rimed gauntlets", "some leather scraps". */
export function withArticle(phrase: string): string {
  if (isPlural(phrase)) {
    const head = (phrase.toLowerCase().match(/[a-z]+/g) ?? []).at(-1) ?? '';
    return PAIRED.has(head) && !/arrows|bolts|rations|scraps/.test(head)
      ? `a pair of ${phrase}`
      : `some ${phrase}`;
  }
  return `${article(phrase)} ${phrase}`;
}

/** Subject forms that agree with the noun: "This axe is" / "These boots are". */
export function agree(noun: string): {
  this: string;
  is: string;
  it: string;
  them: string;
  its: string;
  has: string;
} {
  return isPlural(noun)
    ? { this: 'These', is: 'are', it: 'they', them: 'them', its: 'their', has: 'have' }
    : { this: 'This', is: 'is', it: 'it', them: 'it', its: 'its', has: 'has' };
}

/** Place words that stay common nouns even capitalised: "the Dungeon", but "Ironhold". */
const COMMON_PLACES =
  /^(dungeon|cellar|crypt|cave|caves|cavern|forest|swamp|marsh|bog|castle|tower|temple|ruins|mine|mines|lair|desert|tundra|catacombs|sewers|keep|fortress|village|city|woods|jungle|mountains?|glacier|abyss|citadel|sanctum|library|shrine|graveyard|cemetery|harbou?r|island|wastes?|arena|vault|hall|forge|depths|pit)$/i;

/** A place as it stands in a sentence: "the Ember Forge", "the Shrine of Whispers", but "Giant's Throne", "Ironhold". */
export function placeName(location: string): string {
  const clean = location.replace(/^the\s+/i, '').trim();
  if (/^the\s/i.test(location)) return `the ${clean}`;
  const proper = /^[A-Z]/.test(clean) && !COMMON_PLACES.test(clean);
  if (clean.includes("'") || (proper && !clean.includes(' '))) return clean;
  return `the ${clean}`;
}

/** A verb in the third person that agrees with the noun: verb("carry", "boots") → "carry". */
export function verb(singular: string, noun: string): string {
  if (!isPlural(noun)) return singular;
  if (singular === 'has') return 'have';
  if (singular === 'is') return 'are';
  if (/^[a-z]ies$/.test(singular)) return singular.slice(0, -1);
  if (/ies$/.test(singular)) return singular.replace(/ies$/, 'y');
  if (/(ches|shes|sses|xes|zes|oes)$/.test(singular)) return singular.slice(0, -2);
  return singular.replace(/s$/, '');
}

export function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Title case that leaves the small words of a name alone: "Catacombs of Saint Ivo". */
export function titleCase(text: string): string {
  return text.replace(/(^|[\s-])([a-z]+)/g, (m, a: string, w: string) =>
    a && /^(of|the|and|in|on|at|a|an)$/.test(w) ? m : a + w.charAt(0).toUpperCase() + w.slice(1),
  );
}

/** "a, b and c". */
export function listOf(parts: readonly string[]): string {
  if (parts.length <= 1) return parts[0] ?? '';
  return `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
}

/** An item's name with its article by its head noun: "a Potion of the Wastes", "a pair of Iron Greaves". */
export function nameWithArticle(name: string): string {
  const head = name.split(/,| of /)[0] as string;
  if (!isPlural(head)) return `${article(name)} ${name}`;
  return withArticle(head).startsWith('a pair of') ? `a pair of ${name}` : `some ${name}`;
}
