import { type EffectLine, effectElements, effectParamCeiling, type ItemEffect } from '@lootsmith/protocol';
import type { Rng } from '../random.ts';
import type { Vocabulary } from './vocabulary.ts';

/** Words of an effect that tie it to an element: a fire item burns, a frost item slows. */
const ELEMENT_LEANS: Record<string, RegExp> = {
  fire: /burn|fire|flame|ember|ignite|plasma|heat/i,
  frost: /frost|slow|chill|cryo|freeze|ice/i,
  poison: /poison|venom|thorn|blight/i,
  shadow: /steal|drain|siphon|leech|shadow/i,
  holy: /heal|regenerat|restore|mend|patch|recharge/i,
  lightning: /arc|shock|spark|lightning|discharge/i,
};

// A game's catalogue lives as long as its vocabulary: its words are read once.
const effectWords = new WeakMap<EffectLine, string>();

/** How much an effect fits an item's element: its element's words in the effect's id, name or text (4, else 1). */
export function lean(effect: EffectLine, element: string, vocab: Vocabulary): number {
  let text = effectWords.get(effect);
  if (text === undefined) {
    text = `${effect.id} ${effect.name ?? ''} ${effect.text ?? ''}`.toLowerCase();
    effectWords.set(effect, text);
  }
  const own = ELEMENT_LEANS[element];
  if (own?.test(text)) return 4;
  const words = vocab.element(element)?.words ?? [];
  return words.some((w) => w.length > 2 && text.includes(w)) ? 4 : 1;
}

/** Whether an effect is one of an element's ("burn" is fire's): its element's words in its id, name or text. */
export const effectLeansTo = (effect: EffectLine, element: string, vocab: Vocabulary) =>
  lean(effect, element, vocab) > 1;

/**
 * Effects of the game's catalogue for one item: only those its type may carry, those the player
 * asked for (`wanted`, ids) first, then those of its element, each number between its least value
 * and the ceiling of the item's rarity and level.
 */
/** What a game's catalogue gives every item alike, worked out once per vocabulary. */
interface Catalogue {
  /** The elements of each effect of the catalogue. */
  elements: Map<EffectLine, string[]>;
  /** The effects an item of one type and element may carry (key `type element`). */
  pools: Map<string, EffectLine[]>;
  /** How much each effect fits an element (`lean`), by element. */
  leans: Map<string, Map<EffectLine, number>>;
}
const catalogues = new WeakMap<Vocabulary, Catalogue>();

function catalogueOf(vocab: Vocabulary): Catalogue {
  let catalogue = catalogues.get(vocab);
  if (!catalogue) {
    catalogue = {
      elements: new Map(vocab.effects.map((e) => [e, effectElements(e, vocab.elements)])),
      pools: new Map(),
      leans: new Map(),
    };
    catalogues.set(vocab, catalogue);
  }
  return catalogue;
}

/** `lean` of an effect of the catalogue, read once per element. */
function leanIn(catalogue: Catalogue, effect: EffectLine, element: string, vocab: Vocabulary): number {
  let leans = catalogue.leans.get(element);
  if (!leans) {
    leans = new Map();
    // Elements come from requests: a developer's own words must not grow it without end.
    if (catalogue.leans.size > 500) catalogue.leans.clear();
    catalogue.leans.set(element, leans);
  }
  let weight = leans.get(effect);
  if (weight === undefined) {
    weight = lean(effect, element, vocab);
    leans.set(effect, weight);
  }
  return weight;
}

export function effectsFor(
  vocab: Vocabulary,
  type: string,
  element: string,
  rarity: number,
  level: number,
  count: number,
  rng: Rng,
  wanted: readonly string[] = [],
): ItemEffect[] {
  // No effect whose element cancels out the item's, or another effect's (fire and frost do not mix).
  const catalogue = catalogueOf(vocab);
  const elementsOf = (e: EffectLine) => catalogue.elements.get(e) ?? [];
  const clashes = (a: string, b: string) =>
    vocab.element(a)?.opposes.includes(b) || vocab.element(b)?.opposes.includes(a);
  const fits = (e: EffectLine, with_: readonly string[]) =>
    !with_.length || !elementsOf(e).some((x) => with_.some((y) => clashes(x, y)));
  const key = `${type} ${element}`;
  let pool = catalogue.pools.get(key);
  if (!pool) {
    pool = vocab.effects.filter((e) => e.types?.includes(type) && (element === 'none' || fits(e, [element])));
    // Types and elements come from requests: a developer's own words must not grow it without end.
    if (catalogue.pools.size > 500) catalogue.pools.clear();
    catalogue.pools.set(key, pool);
  }
  if (!count) return [];
  // What the player asked for first, while it fits.
  const chosen: EffectLine[] = [];
  for (const id of wanted ?? []) {
    const asked = pool.find((e) => e.id === id);
    if (asked && !chosen.includes(asked) && chosen.length < count && fits(asked, chosen.flatMap(elementsOf)))
      chosen.push(asked);
  }
  for (;;) {
    if (chosen.length >= count) break;
    const taken = chosen.flatMap(elementsOf);
    const left = pool.filter((e) => !chosen.includes(e) && fits(e, taken));
    if (!left.length) break;
    const weights = left.map((e) => leanIn(catalogue, e, element, vocab));
    let roll = rng.range(
      0,
      weights.reduce((a, b) => a + b, 0),
    );
    let at = 0;
    while (at < left.length - 1 && roll >= (weights[at] as number)) {
      roll -= weights[at] as number;
      at++;
    }
    chosen.push(left[at] as EffectLine);
  }
  return chosen.map((effect) => ({
    id: effect.id,
    params: Object.fromEntries(
      Object.entries(effect.params ?? {}).map(([name, range]) => {
        const ceiling = effectParamCeiling(range, rarity, level);
        // Whole numbers, between the least value and the ceiling: a rarer, higher item reaches further.
        const value = Math.floor(range.min + (ceiling - range.min) * rng.range(0.6, 1));
        return [name, Math.max(range.min, Math.min(value, Math.floor(ceiling) || range.min))];
      }),
    ),
  }));
}
