import { BoundedMap } from '@lootsmith/protocol';
import { z } from 'zod';
import { Cancel } from '../../../cancel.ts';
import { type Attempt, AttemptFailed, Endpoint, jsonOf } from '../../http.ts';
import { untracked } from '../../spend.ts';

/** An OpenAI-compatible moderation endpoint (`POST {url}/moderations`), as `LOOTSMITH_MODERATION_*` set it. */
export interface ModerationSettings {
  url: string;
  key?: string;
  model: string;
  timeoutMs: number;
}

const Answer = z.looseObject({
  results: z.array(
    z.looseObject({ flagged: z.boolean(), categories: z.record(z.string(), z.boolean().nullable()) }),
  ),
});

/** A moderation endpoint that could not be asked: what it would have said is unknown, so nothing passes. */
export class ModerationUnavailable extends Error {}

/** Verdicts kept, by exact text, so a text repeated (a drop's theme, a re-sent prompt) is asked about once. */
const VERDICTS_KEPT = 5_000;
const VERDICT_TTL_MS = 10 * 60_000;
/** Longer texts are asked about each time: the kept verdicts stay within about 10 MB. */
const VERDICT_TEXT_MAX = 2_000;

/**
 * Asks an OpenAI-compatible `/moderations` (OpenAI's, or any server speaking it) about texts, one
 * result per text in order: the categories it flagged, none for a clean text.
 */
export class Moderation {
  private readonly endpoint: Endpoint;
  private readonly verdicts = new BoundedMap<string, { categories: string[]; until: number }>(VERDICTS_KEPT);

  constructor(private readonly settings: ModerationSettings) {
    this.endpoint = new Endpoint(settings.url, settings.key ? `Bearer ${settings.key}` : undefined, 16);
  }

  async flagged(texts: string[]): Promise<string[][]> {
    const now = Date.now();
    const verdicts = new Map<string, string[]>();
    for (const text of texts) {
      const kept = this.verdicts.get(text);
      if (kept && kept.until > now) verdicts.set(text, kept.categories);
    }
    const unknown = [...new Set(texts.filter((text) => !verdicts.has(text)))];
    const answers = await this.ask(unknown);
    unknown.forEach((text, i) => {
      const categories = answers[i] ?? [];
      verdicts.set(text, categories);
      if (text.length <= VERDICT_TEXT_MAX)
        this.verdicts.set(text, { categories, until: now + VERDICT_TTL_MS });
    });
    return texts.map((text) => verdicts.get(text) ?? []);
  }

  private async ask(texts: string[]): Promise<string[][]> {
    if (!texts.length) return [];
    const stop = new Cancel();
    const timer = setTimeout(() => stop.abort(new Error('deadline exceeded')), this.settings.timeoutMs);
    const attempt: Attempt = {
      deadlineMs: this.settings.timeoutMs,
      deadline: Date.now() + this.settings.timeoutMs,
      signal: stop,
    };
    try {
      const body = { model: this.settings.model, input: texts };
      // Screening is the server's own call, not the player's spend: a refused text is given back.
      const answer = await untracked(() =>
        this.endpoint.request(attempt, 'POST', '/moderations', 1024 * 1024, body),
      );
      const parsed = Answer.safeParse(jsonOf(answer));
      if (!parsed.success || parsed.data.results.length !== texts.length)
        throw new AttemptFailed('the answer is not a moderation of every text', false);
      return parsed.data.results.map((r) => {
        if (!r.flagged) return [];
        const categories = Object.entries(r.categories).flatMap(([c, on]) => (on ? [c] : []));
        return categories.length ? categories : ['flagged'];
      });
    } catch (err) {
      throw new ModerationUnavailable(`the moderation endpoint failed: ${(err as Error).message}`);
    } finally {
      clearTimeout(timer);
    }
  }

  close() {
    return this.endpoint.close();
  }
}
