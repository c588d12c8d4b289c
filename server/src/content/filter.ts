import type { ContentFilter } from '@lootsmith/protocol';
import {
  DataSet,
  englishDataset,
  englishRecommendedTransformers,
  type MatchPayload,
  parseRawPattern,
  RegExpMatcher,
} from 'obscenity';

/** What may stand between the letters of a word spelt apart ("f u c k", "s.h.i.t", "n/i/g"). */
const APART = String.raw`[\s.\-_*·/\\|+~,:;'"]+`;
const APART_ALL = new RegExp(APART, 'gu');
/** Letters spaced or dotted apart: read again joined, so spacing hides nothing. */
const SPACED = new RegExp(String.raw`(?<![\p{L}\p{N}])\p{L}(?:${APART}\p{L}(?![\p{L}\p{N}])){2,}`, 'gu');
/** A word split into short pieces ("ni gg er"): read joined, refused only when the pieces make the word whole. */
const PIECES = new RegExp(
  String.raw`(?<![\p{L}\p{N}])\p{L}{1,3}(?:${APART}\p{L}{1,3}(?![\p{L}\p{N}])){2,}`,
  'gu',
);
/** A number standing alone ("+455 attack"): a number, not a word spelt in leetspeak. */
const NUMBER = /(?<![\p{L}\d])\d+(?![\p{L}\d])/gu;
/** A web address or e-mail: item text never needs one, and a planted one sends players elsewhere. */
const ADDRESS = /\bhttps?:\/\/|\bwww\.|[\w.-]+@[\w-]+\.\w|\b[\p{L}\d-]{2,}\.(?:[a-z]{2,})(?:\/|\b)(?!['’])/iu;
/** An address written so filters miss it: "hxxps://", "evil[.]example", "evil . example . com". */
const DEFANGED =
  /\bh[x*]{2}ps?:|[[({]\s*(?:\.|dot)\s*[\])}]|\b[\p{L}\d-]{2,}(?:\s+\.\s*|\s*\.\s+)[\p{L}\d-]{2,}(?:\s*\.\s*[\p{L}\d-]{2,})*\s*\.\s*(?:com|net|org|io|gg|ru|cn|xyz|info|biz|co|me|app|dev|site|online|example)\b/iu;
/** HTML or a script address: a game that draws item text as HTML would run it. A comparison ("<5", "a < b") is not. */
const MARKUP = /<\/?[a-z!?]|\b(?:javascript|vbscript)\s*:|\bdata\s*:\s*[a-z]+\/[\w+.-]+[;,]/iu;
/** Hate that needs no listed word: its slogans and number codes. */
const HATE =
  /\bsieg\s*heil\b|\bheil\s+hitler\b|(?<!\d)14\s*[/\s-]?\s*88(?!\d)|\bwhite\s+power\b|\bgas\s+the\s+jews\b/iu;
/** A message posing as the game's staff, or asking a player for a password. */
const PHISHING =
  /\[\s*(?:system|admin|administrator|moderator|mod|staff|support|gm|official)\s*\]|\b(?:send|give|enter|type|share|tell|dm|whisper|confirm|verify)\b.{0,30}\byour\s+(?:password|passcode|pin|login|credentials|account|e-?mail)\b/iu;

/** Words of many games the list would refuse for a word inside them (a "Scunthorpe"). */
const ORDINARY = ['cockpit', 'shiitake', 'cumin', 'dickinson', 'penistone', 'retardant'];

/** Cherokee capitals that look like Latin ones ("ᎠᎥᏟᏦ"): NFKC keeps them apart, so they are read as Latin here. */
const LOOKALIKE_CAPITALS: Record<string, string> = {
  Ꭰ: 'D',
  Ꭱ: 'R',
  Ꭲ: 'T',
  Ꭵ: 'i',
  Ꭹ: 'Y',
  Ꭺ: 'A',
  Ꭻ: 'J',
  Ꭼ: 'E',
  Ꮃ: 'W',
  Ꮇ: 'M',
  Ꮋ: 'H',
  Ꮐ: 'G',
  Ꮒ: 'h',
  Ꮓ: 'Z',
  Ꮢ: 'R',
  Ꮤ: 'W',
  Ꮥ: 'S',
  Ꮩ: 'V',
  Ꮪ: 'S',
  Ꮮ: 'L',
  Ꮯ: 'C',
  Ꮲ: 'P',
  Ꮶ: 'K',
  Ꮷ: 'd',
  Ᏼ: 'B',
};
/** The same letters in Cherokee's lower case too (a lower-cased text has them). */
const LOOKALIKES = new Map(
  Object.entries(LOOKALIKE_CAPITALS).flatMap(([cherokee, latin]) => [
    [cherokee, latin],
    [cherokee.toLowerCase(), latin],
  ]),
);
const LOOKALIKE = new RegExp(`[${[...LOOKALIKES.keys()].join('')}]`, 'gu');

/**
 * The form a text is checked in; the text itself is kept as written. Compatibility forms folded
 * (full-width "＋９９", ligatures), combining marks stripped (struck-through or stacked letters), and
 * look-alike letters read as the Latin ones.
 */
export function plainForm(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .normalize('NFKC')
    .replace(LOOKALIKE, (c) => LOOKALIKES.get(c) ?? c);
}

/**
 * Why a text was refused, as the console's record names it (`profanity`, `deny_list`, `web_address`):
 * the kind of word, never the word itself. `obscenity`'s list does not tell slurs from profanity.
 */
export interface Finding {
  reason: string;
}

/** What `RegExpMatcher` keeps privately (obscenity 0.4): its compiled terms and its transformers. */
interface MatcherInternals {
  blacklistedTerms?: Array<{ regExp: RegExp }>;
  blacklistMatcherTransformers?: unknown;
  applyTransformers?: (input: string, transformers: unknown) => [number[], string];
}

/**
 * `obscenity`'s matcher, with a fast answer for clean text (nearly all of it): its 119 terms, each a
 * regular expression it runs over the text in turn (about 20 µs for a short prompt), are first tried
 * as one alternation over the same transformed text (about half a microsecond). Only a text one of
 * them matches is matched term by term, for the whitelist and the term found. Should a later version
 * keep its terms elsewhere, every text is matched term by term.
 */
class Matcher extends RegExpMatcher {
  private readonly any: RegExp | undefined;

  constructor(options: ConstructorParameters<typeof RegExpMatcher>[0]) {
    super(options);
    const inside = this as unknown as MatcherInternals;
    const terms = inside.blacklistedTerms;
    if (!terms?.length || typeof inside.applyTransformers !== 'function') return;
    // Alternatives are one regular expression only while no term refers back to a group of its own.
    if (terms.some((t) => /\\[1-9k]/.test(t.regExp.source))) return;
    const flags = [...new Set(terms.map((t) => t.regExp.flags.replace('g', '')))];
    if (flags.length !== 1) return;
    this.any = new RegExp(terms.map((t) => `(?:${t.regExp.source})`).join('|'), flags[0]);
  }

  override getAllMatches(input: string, sorted?: boolean): MatchPayload[] {
    if (this.any) {
      const inside = this as unknown as Required<MatcherInternals>;
      const [, transformed] = inside.applyTransformers(input, inside.blacklistMatcherTransformers);
      if (!this.any.test(transformed)) return [];
    }
    return super.getAllMatches(input, sorted);
  }
}

/**
 * The text filter: `obscenity`'s English profanity and slur list with its recommended transformers
 * (look-alike characters, leetspeak, repeated letters), read on the text's plain form, with letters
 * spaced apart and words split into short pieces joined again, hate slogans and codes, markup, plus
 * the game's own allow and deny lists. Numbers standing alone are left out of the word check (item
 * text is full of them, and "455" is a number, not leetspeak).
 */
export class TextFilter {
  private readonly matcher: Matcher;
  private readonly dataset: DataSet<{ originalWord: string; game?: boolean }>;

  constructor(lists: Pick<ContentFilter, 'allow' | 'deny'>) {
    this.dataset = new DataSet<{ originalWord: string; game?: boolean }>().addAll(englishDataset);
    for (const word of lists.deny)
      this.dataset.addPhrase((p) =>
        p.setMetadata({ originalWord: word, game: true }).addPattern(parseRawPattern(word.toLowerCase())),
      );
    const built = this.dataset.build();
    this.matcher = new Matcher({
      ...built,
      whitelistedTerms: [
        ...(built.whitelistedTerms ?? []),
        ...ORDINARY,
        ...lists.allow.map((w) => w.toLowerCase()),
      ],
      ...englishRecommendedTransformers,
    });
  }

  /** The first thing wrong with a text a player or a model wrote, or undefined when it is clean. */
  check(text: string): Finding | undefined {
    if (MARKUP.test(text)) return { reason: 'markup' };
    const plain = plainForm(text);
    if (HATE.test(plain)) return { reason: 'hate_phrase' };
    const words = plain.replace(NUMBER, ' ');
    const joined = words.replace(SPACED, (run) => run.replace(APART_ALL, ''));
    for (const candidate of joined === words ? [words] : [words, joined]) {
      const [match] = this.matcher.getAllMatches(candidate);
      if (match) return this.finding(match);
    }
    for (const [run] of words.matchAll(PIECES)) {
      const whole = run.replace(APART_ALL, '');
      const match = this.matcher
        .getAllMatches(whole)
        .find((m) => m.startIndex === 0 && m.endIndex === whole.length - 1);
      if (match) return this.finding(match);
    }
    return undefined;
  }

  /**
   * `check`, and for text a model wrote (shown to players as the game's): no web address or e-mail
   * however written, and no message posing as staff or asking for a password.
   */
  checkGenerated(text: string): Finding | undefined {
    const found = this.check(text);
    if (found) return found;
    const plain = plainForm(text);
    if (ADDRESS.test(text) || DEFANGED.test(plain)) return { reason: 'web_address' };
    return PHISHING.test(plain) ? { reason: 'phishing' } : undefined;
  }

  private finding(match: MatchPayload): Finding {
    const game = this.dataset.getPayloadWithPhraseMetadata(match).phraseMetadata?.game;
    return { reason: game ? 'deny_list' : 'profanity' };
  }
}
