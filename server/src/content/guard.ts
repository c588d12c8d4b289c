import { type ContentFilter, type GeneratedItem, ITEM_KEYS } from '@lootsmith/protocol';
import type { AdminStore, ModerationRecord } from '../admin/store.ts';
import { Failed, refuse } from '../refusal.ts';
import { type Moderation, ModerationUnavailable } from '../upstream/backends/moderation/adapter.ts';
import type { TextFilter } from './filter.ts';

/** Longest piece of a refused text kept in the record the developer reads. */
const EXCERPT = 200;
/** A model's text may not repeat this many words of a player's text in a row (a planted message). */
const COPIED_WORDS = 8;

/** The texts of a request, each with the field it came from. */
export type Texts = Array<[field: string, text: string | undefined]>;

const words = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
function runs(text: string): Set<string> {
  const w = words(text);
  const out = new Set<string>();
  for (let i = 0; i + COPIED_WORDS <= w.length; i++) out.add(w.slice(i, i + COPIED_WORDS).join(' '));
  return out;
}

/** The texts of a generated item that players see, by field: the game's own text fields too. */
export function itemTexts(item: GeneratedItem, at = ''): Texts {
  return [
    [`${at}name`, item.name],
    [`${at}subtype`, item.subtype],
    [`${at}material`, item.material],
    [`${at}description`, item.description],
    [`${at}lore`, item.lore],
    ...(item.color ? ([[`${at}color`, item.color]] as Texts) : []),
    ...Object.entries(item).flatMap(
      ([key, value]): Texts =>
        typeof value === 'string' && !ITEM_KEYS.includes(key) ? [[`${at}${key}`, value]] : [],
    ),
  ];
}

/**
 * What players write and what is shown to them: player text is screened before anything is spent
 * (refused `content_refused`, consuming nothing), a model's text before it is stored (re-asked, never
 * stored); every refusal is recorded with who, when and why, and a player refused often loses free
 * text for a while (`content_filter.restrict_after`).
 */
export class ContentGuard {
  constructor(
    private readonly deps: {
      store: { admin: Pick<AdminStore, 'moderation' | 'recordModeration'> };
      filter: TextFilter;
      rules: ContentFilter;
      /** The game file's own ids and names, lower case (`gameNames`). */
      ownNames: ReadonlySet<string>;
      moderation?: Moderation;
    },
  ) {}

  /**
   * Refuses a player's text that fails the filter or the moderation endpoint; records why.
   * `textRefusedAt`: when the player's text was last refused, as the request's reservation read it
   * (`Reserved`); without it the record is read.
   */
  async screenPlayer(playerId: string, fields: Texts, textRefusedAt?: number | null): Promise<void> {
    // A game's own name (an enemy, a station, a location) is not free text: it never restricts anyone.
    const texts = fields.filter(
      (f): f is [string, string] => !!f[1] && !this.deps.ownNames.has(f[1].trim().toLowerCase()),
    );
    if (!texts.length) return;
    await this.assertNotRestricted(playerId, texts, textRefusedAt);
    const found = await this.findings(texts, (text) => this.deps.filter.check(text));
    if (!found.length) return;
    await this.record(playerId, 'player_text', 'refused', found);
    const [first] = found as [Found];
    throw refuse(
      'content_refused',
      `${first.field}: the text is not allowed here (${first.reason}); nothing was changed`,
      { field: first.field, reason: first.reason },
    );
  }

  /**
   * What is wrong with a model's texts, as problems a re-ask can act on (each recorded): the
   * filter, web addresses, the moderation endpoint, and long runs copied from the player's words.
   */
  async review(playerId: string | null, fields: Texts, playerWords: string[] = []): Promise<string[]> {
    const texts = fields.filter((f): f is [string, string] => !!f[1]);
    const copied = new Set(playerWords.flatMap((w) => [...runs(w)]));
    const found = await this.findings(texts, (text) => {
      const finding = this.deps.filter.checkGenerated(text);
      if (finding) return finding;
      return [...runs(text)].some((r) => copied.has(r)) ? { reason: 'copied_player_text' } : undefined;
    });
    if (!found.length) return [];
    await this.record(playerId, 'generated_text', 'regenerated', found);
    return found.map(
      (f) => `${f.field}: rewrite this text in your own words (${f.reason}); keep it fit for every player`,
    );
  }

  /** Refused while the player's own texts were refused `refusals` times within the game's window. */
  private async assertNotRestricted(
    playerId: string,
    texts: Array<[string, string]>,
    textRefusedAt: number | null | undefined,
  ) {
    const { refusals, hours } = this.deps.rules.restrict_after;
    const since = Date.now() - hours * 3_600_000;
    // No refusal since the window opened: nothing in the record can restrict the player.
    if (textRefusedAt === null || (textRefusedAt !== undefined && textRefusedAt < since)) return;
    // Each row counts its refusals, so the newest `refusals` rows hold every one of the window's that matters.
    const recent = await this.deps.store.admin.moderation({ playerId, kind: 'player_text', limit: refusals });
    const inWindow = recent.filter((e) => e.at >= since).reduce((sum, e) => sum + e.count, 0);
    if (inWindow < refusals) return;
    // Recorded too: a player who keeps writing while restricted stays restricted.
    const [[field, text]] = texts as [[string, string]];
    await this.record(playerId, 'player_text', 'restricted', [{ field, text, reason: 'repeat_offender' }]);
    throw refuse(
      'player_restricted',
      `Player ${playerId} had ${refusals} texts refused within ${hours} h: free text is off for now`,
      { refusals, hours },
    );
  }

  private async findings(
    texts: Array<[string, string]>,
    check: (text: string) => { reason: string } | undefined,
  ): Promise<Found[]> {
    const found: Found[] = [];
    for (const [field, text] of texts) {
      const finding = check(text);
      if (finding) found.push({ field, text, reason: finding.reason });
    }
    if (found.length || !this.deps.moderation) return found;
    let flagged: string[][];
    try {
      flagged = await this.deps.moderation.flagged(texts.map(([, text]) => text));
    } catch (err) {
      if (!(err instanceof ModerationUnavailable)) throw err;
      // Nothing unchecked is shown: with the endpoint down, text waits (nothing was changed).
      throw new Failed('upstream_unavailable', 'The moderation service is unavailable; try again shortly');
    }
    texts.forEach(([field, text], i) => {
      const categories = flagged[i] ?? [];
      if (categories.length) found.push({ field, text, reason: `moderation:${categories.join(',')}` });
    });
    return found;
  }

  /** Into the console's record (`moderation_events`): who, when, which field, why and what was done. */
  private async record(
    playerId: string | null,
    kind: ModerationRecord['kind'],
    action: string,
    found: Found[],
  ) {
    const at = Date.now();
    for (const f of found)
      await this.deps.store.admin.recordModeration({
        playerId,
        at,
        kind,
        field: f.field,
        excerpt: f.text.slice(0, EXCERPT),
        reason: f.reason,
        action,
      });
  }
}

interface Found {
  field: string;
  text: string;
  reason: string;
}
