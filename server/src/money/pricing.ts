import type { ChatCompletionRequest } from '@lootsmith/protocol';
import type { Billed } from '../upstream/backends/types.ts';
import type { ChatPrice, ImagePrice, PriceList } from './prices.ts';

/**
 * Money as a whole number of billionths of the price list's currency: what a call of a few tokens
 * costs is a few hundred of them, and sums of them are exact (a JavaScript number holds 9 million
 * units of the currency exactly).
 */
export type Nanos = number;
export const NANOS = 1_000_000_000;

export const toNanos = (amount: number): Nanos => Math.round(amount * NANOS);
export const fromNanos = (nanos: Nanos) => nanos / NANOS;

/** The output tokens a chat call without `max_tokens` is reserved at (a model's longest answer). */
export const UNBOUNDED_OUTPUT_TOKENS = 128_000;

function imagePrice(price: ImagePrice, billed: Billed): number | undefined {
  if (typeof price === 'number') return price;
  const byQuality = price[billed.quality ?? '*'] ?? price['*'];
  if (byQuality === undefined || typeof byQuality === 'number') return byQuality;
  return byQuality[billed.size] ?? byQuality['*'];
}

/**
 * What a backend call costs by the price list: a chat call from the tokens its answer reported, an
 * image by its model, size and quality; the embedded engine costs nothing. `null` is unpriced: the
 * list has no price for that backend and model.
 */
export class Pricing {
  constructor(readonly list: PriceList) {}

  get currency() {
    return this.list.currency;
  }

  private chatPrice(api: string, model: string | undefined): ChatPrice | 'free' | undefined {
    if (api === 'embedded') return 'free';
    const models = this.list.chat[api];
    return (model === undefined ? undefined : models?.[model]) ?? models?.['*'];
  }

  /** A chat call's cost from the usage its answer reported (none reported: unpriced). */
  chat(
    api: string,
    model: string | undefined,
    usage: { prompt_tokens: number; completion_tokens: number } | undefined,
  ): Nanos | null {
    const price = this.chatPrice(api, model);
    if (price === 'free') return 0;
    if (!price || !usage) return null;
    return Math.round(
      (usage.prompt_tokens * price.input_per_1m + usage.completion_tokens * price.output_per_1m) * 1000,
    );
  }

  /**
   * The most a chat call may cost: each byte of what it sends is at most one token (the tokenizers
   * of OpenAI's and open models' APIs never make more tokens than bytes), and `max_tokens` come back.
   */
  chatMax(api: string, model: string | undefined, body: ChatCompletionRequest): Nanos | null {
    const price = this.chatPrice(api, model);
    if (price === 'free') return 0;
    if (!price) return null;
    const sent = Buffer.byteLength(JSON.stringify([body.messages, body.response_format ?? null]));
    const out = body.max_tokens ?? UNBOUNDED_OUTPUT_TOKENS;
    return Math.ceil((sent * price.input_per_1m + out * price.output_per_1m) * 1000);
  }

  /** One image's cost, known before it is painted. */
  image(api: string, billed: Billed): Nanos | null {
    if (api === 'embedded') return 0;
    const models = this.list.image[api];
    const price = (billed.model === undefined ? undefined : models?.[billed.model]) ?? models?.['*'];
    const amount = price === undefined ? undefined : imagePrice(price, billed);
    return amount === undefined ? null : toNanos(amount);
  }

  /** Whether every call of a backend and model has a price (what spend caps need to be exact). */
  prices(kind: 'chat' | 'image', api: string, model: string | undefined): boolean {
    if (api === 'embedded') return true;
    if (kind === 'chat') return !!this.chatPrice(api, model);
    const models = this.list.image[api];
    return (model === undefined ? undefined : models?.[model]) !== undefined || models?.['*'] !== undefined;
  }
}
