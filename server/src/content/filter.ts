import type { ContentFilter } from '@lootsmith/protocol';
import {
  DataSet,
  englishDataset,
  englishRecommendedTransformers,
  parseRawPattern,
  RegExpMatcher,
} from 'obscenity';

/** Letters spaced or dotted apart ("f u c k", "s.h.i.t"): read again joined, so spacing hides nothing. */
const SPACED = /(?<![\p{L}\p{N}])\p{L}(?:[\s.\-_*·]+\p{L}(?![\p{L}\p{N}])){2,}/gu;
/** A number standing alone ("+455 attack"): a number, not a word spelt in leetspeak. */
const NUMBER = /(?<![\p{L}\d])\d+(?![\p{L}\d])/gu;
/** A web address or e-mail: item text never needs one, and a planted one sends players elsewhere. */
const ADDRESS = /\bhttps?:\/\/|\bwww\.|[\w.-]+@[\w-]+\.\w|\b[\p{L}\d-]{2,}\.(?:[a-z]{2,})(?:\/|\b)(?!['’])/iu;

/** HTML or a script address: a game that draws item text as HTML would run it. A comparison ("<5", "a < b") is not. */
const MARKUP = /<\/?[a-z!?]|\b(?:javascript|vbscript)\s*:|\bdata\s*:\s*[a-z]+\/[\w+.-]+[;,]/iu;

/**
 * Why a text was refused, as the console's record names it (`profanity`, `deny_list`, `web_address`):
 * the kind of word, never the word itself. `obscenity`'s list does not tell slurs from profanity.
 */
export interface Finding {
  reason: string;
}

/**
 * The text filter: `obscenity`'s English profanity and slur list with its recommended transformers
 * (look-alike characters, leetspeak, repeated letters), letters spaced apart joined again, plus the
 * game's own allow and deny lists. Numbers standing alone are left out (item text is full of them,
 * and "455" is a number, not leetspeak).
 */
export class TextFilter {
  private readonly matcher: RegExpMatcher;
  private readonly dataset: DataSet<{ originalWord: string; game?: boolean }>;

  constructor(lists: Pick<ContentFilter, 'allow' | 'deny'>) {
    this.dataset = new DataSet<{ originalWord: string; game?: boolean }>().addAll(englishDataset);
    for (const word of lists.deny)
      this.dataset.addPhrase((p) =>
        p.setMetadata({ originalWord: word, game: true }).addPattern(parseRawPattern(word.toLowerCase())),
      );
    const built = this.dataset.build();
    this.matcher = new RegExpMatcher({
      ...built,
      whitelistedTerms: [...(built.whitelistedTerms ?? []), ...lists.allow.map((w) => w.toLowerCase())],
      ...englishRecommendedTransformers,
    });
  }

  /** The first thing wrong with a text a player or a model wrote, or undefined when it is clean. */
  check(text: string): Finding | undefined {
    if (MARKUP.test(text)) return { reason: 'markup' };
    const words = text.replace(NUMBER, ' ');
    const joined = words.replace(SPACED, (run) => run.replace(/[\s.\-_*·]+/g, ''));
    for (const candidate of joined === words ? [words] : [words, joined]) {
      if (!this.matcher.hasMatch(candidate)) continue;
      const [match] = this.matcher.getAllMatches(candidate);
      const game = match && this.dataset.getPayloadWithPhraseMetadata(match).phraseMetadata?.game;
      return { reason: game ? 'deny_list' : 'profanity' };
    }
    return undefined;
  }

  /** `check`, and for text a model wrote: no web address or e-mail either. */
  checkGenerated(text: string): Finding | undefined {
    return this.check(text) ?? (ADDRESS.test(text) ? { reason: 'web_address' } : undefined);
  }
}
