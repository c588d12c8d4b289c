import { writeCompletion } from '@lootsmith/engine';
import { GeneratedItemBatch, jsonSchemaOf } from '@lootsmith/protocol';
import { RegExpMatcher } from 'obscenity';
import { describe, expect, it } from 'vitest';
import { plainForm, TextFilter } from '../src/content/filter.ts';
import { itemTexts } from '../src/content/guard.ts';
import { loadGameDefinition } from '../src/game/definition.ts';

/** Texts the filter must refuse, written every way the security tests write them. */
const REFUSED = [
  'fuck',
  'fvck you',
  'f u c k',
  'fuuuuuck',
  'sh1t hole',
  'shit',
  'n1gger',
  'ni gg er',
  'n/i/g/g/e/r',
  'N\u0336i\u0336g\u0336g\u0336e\u0336r\u0336',
  'what a bitch',
  'asshole knight',
  'cunt',
  'a swastika flag',
  'nude woman',
];
/** Texts it must pass, the ones a word list would trip over among them. */
const PASSED = [
  'an iron sword, game item, fantasy',
  'an assassin in the cockpit of a starship',
  'grapeshot for the cannons, a novel by Dickens',
  'the therapist of the guild, a shiitake stew',
  "an Assassin's Blade from Scunthorpe, like a bastard sword, with a cockatrice feather",
  'Encrypted data: lost',
];

/** The texts of items the embedded writer makes: what the filter reads most. */
function generatedTexts(n: number): string[] {
  const schema = jsonSchemaOf(GeneratedItemBatch);
  const texts: string[] = [];
  for (let seed = 0; texts.length < n; seed++) {
    const answer = writeCompletion({
      messages: [
        {
          role: 'user',
          content: `Generate 2 items.\nItem 1: type: WEAPON; rarity: LEGENDARY; level: ${seed % 40}\nItem 2: type: CHEST; rarity: RARE; level: 9`,
        },
      ],
      response_format: { type: 'json_schema', json_schema: { name: 'items', schema } },
      seed,
    });
    for (const item of GeneratedItemBatch.parse(JSON.parse(answer.content)).items)
      for (const [, text] of itemTexts(item)) if (text) texts.push(text);
  }
  return texts;
}

describe('the text filter', () => {
  const filter = new TextFilter(loadGameDefinition().content_filter);

  it('refuses and passes what the word list says, however it is written', () => {
    for (const text of REFUSED) expect(filter.check(text), text).toBeDefined();
    for (const text of PASSED) expect(filter.check(text), text).toBeUndefined();
  });

  it('answers clean text at once, and every text exactly as obscenity’s own matcher does', () => {
    const matcher = (filter as unknown as { matcher: RegExpMatcher & { any?: RegExp } }).matcher;
    // The fast answer is on with the obscenity this project pins: a later one without it still works, slowly.
    expect(matcher.any).toBeInstanceOf(RegExp);
    const texts = [...REFUSED, ...PASSED, ...generatedTexts(1_500)].map(plainForm);
    let matched = 0;
    for (const text of texts) {
      const own = RegExpMatcher.prototype.getAllMatches.call(matcher, text);
      expect(matcher.getAllMatches(text), text).toEqual(own);
      if (own.length) matched++;
    }
    expect(matched).toBeGreaterThanOrEqual(REFUSED.length - 5);
  });
});
