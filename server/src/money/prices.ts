import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { CHAT_BACKENDS, IMAGE_BACKENDS } from '../upstream/backends/registry.ts';

/** An amount of the price list's currency: per image, or per million tokens. */
const Amount = z.number().min(0).max(1_000_000);
/** A model as its backend names it, or `*` for every model of that backend the list does not name. */
const Model = z.string().trim().min(1).max(256);

export const ChatPrice = z.strictObject({
  /** Per million tokens the backend reports as `prompt_tokens`. */
  input_per_1m: Amount,
  /** Per million tokens the backend reports as `completion_tokens`. */
  output_per_1m: Amount,
});
export type ChatPrice = z.infer<typeof ChatPrice>;

/** Per image of a size (`1024x1024`), or `*` for any size not named. */
const BySize = z.record(z.string().regex(/^(\d{2,5}x\d{2,5}|\*)$/, 'a size such as 1024x1024, or *'), Amount);
/**
 * One price for every image, or by quality (`low`, `medium`, `high`, `standard`, `hd`; `*` for a
 * model that takes none) then by size.
 */
export const ImagePrice = z.union([
  Amount,
  z.record(z.string().trim().min(1).max(32), z.union([Amount, BySize])),
]);
export type ImagePrice = z.infer<typeof ImagePrice>;

const chatApis = CHAT_BACKENDS.map((d) => d.api) as [string, ...string[]];
const imageApis = IMAGE_BACKENDS.map((d) => d.api) as [string, ...string[]];

/**
 * A price list: by backend API (`LOOTSMITH_IMAGE_API`'s values; chat is `openai` for any
 * OpenAI-compatible server, `v1` for the spec's service) and model. The embedded engine is free and
 * is never listed.
 */
export const PriceList = z.strictObject({
  /** The currency of every amount, as ISO 4217 names it. */
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/, 'a currency code such as USD')
    .default('USD'),
  chat: z.partialRecord(z.enum(chatApis), z.record(Model, ChatPrice)).default({}),
  image: z.partialRecord(z.enum(imageApis), z.record(Model, ImagePrice)).default({}),
});
export type PriceList = z.output<typeof PriceList>;

/**
 * Public list prices in US dollars of the models docs/BACKENDS.md recommends, as OpenAI published them
 * (https://openai.com/api/pricing/ and https://platform.openai.com/docs/pricing, read December 2025;
 * OpenRouter passes OpenAI's price on, https://openrouter.ai/openai/gpt-4o-mini). Prices change:
 * `LOOTSMITH_PRICES_FILE` overrides any of them and adds others. The GPT image models also bill the
 * prompt's text tokens, a few hundred an icon (under $0.001); the per-image price leaves them out.
 * Models on your own hardware (Ollama, llama.cpp, AUTOMATIC1111, ComfyUI) and a hosted `/v1` service
 * have no list price: their calls are unpriced until you give one.
 */
export const DEFAULT_PRICES: PriceList = {
  currency: 'USD',
  chat: {
    openai: {
      'gpt-4o-mini': { input_per_1m: 0.15, output_per_1m: 0.6 },
      'openai/gpt-4o-mini': { input_per_1m: 0.15, output_per_1m: 0.6 },
    },
  },
  image: {
    openai: {
      'gpt-image-1-mini': {
        low: { '1024x1024': 0.005, '1024x1536': 0.006, '1536x1024': 0.006 },
        medium: { '1024x1024': 0.011, '1024x1536': 0.015, '1536x1024': 0.015 },
        high: { '1024x1024': 0.036, '1024x1536': 0.052, '1536x1024': 0.052 },
      },
      'gpt-image-1': {
        low: { '1024x1024': 0.011, '1024x1536': 0.016, '1536x1024': 0.016 },
        medium: { '1024x1024': 0.042, '1024x1536': 0.063, '1536x1024': 0.063 },
        high: { '1024x1024': 0.167, '1024x1536': 0.25, '1536x1024': 0.25 },
      },
      'dall-e-3': {
        standard: { '1024x1024': 0.04, '1024x1792': 0.08, '1792x1024': 0.08 },
        hd: { '1024x1024': 0.08, '1024x1792': 0.12, '1792x1024': 0.12 },
      },
      'dall-e-2': { '*': { '256x256': 0.016, '512x512': 0.018, '1024x1024': 0.02 } },
    },
  },
};

type Issue = z.core.$ZodIssue;

/**
 * What is wrong, each at its path: a value that is one of several forms (a price, or prices by
 * quality) is told what is wrong with the form it came closest to, not merely "invalid input".
 */
function problems(
  issues: readonly Issue[],
  at: PropertyKey[] = [],
): Array<{ path: PropertyKey[]; message: string }> {
  return issues.flatMap((i) => {
    const path = [...at, ...i.path];
    if (i.code === 'invalid_union') {
      const closest = i.errors.find((branch) =>
        branch.some((b) => b.code !== 'invalid_type' || b.path.length),
      );
      if (closest) return problems(closest, path);
    }
    if (i.code === 'invalid_key' && i.issues.length) return problems(i.issues, path);
    return [{ path, message: i.message }];
  });
}

/**
 * The prices a server counts with: the defaults with a file's laid over them, model by model; a file
 * in another currency than the defaults' replaces them. Throws a message naming the file and the
 * path of each problem.
 */
export function loadPrices(file?: string): PriceList {
  if (!file) return DEFAULT_PRICES;
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`${file}: ${(err as Error).message}`);
  }
  const parsed = PriceList.safeParse(json);
  if (!parsed.success)
    throw new Error(
      `${file}: ${problems(parsed.error.issues)
        .map((p) => `${p.path.join('.') || '(file)'}: ${p.message}`)
        .join('; ')}`,
    );
  const own = parsed.data;
  if (own.currency !== DEFAULT_PRICES.currency) return own;
  const merged = (kind: 'chat' | 'image') =>
    Object.fromEntries(
      [...new Set([...Object.keys(DEFAULT_PRICES[kind]), ...Object.keys(own[kind])])].map((api) => [
        api,
        { ...DEFAULT_PRICES[kind][api], ...own[kind][api] },
      ]),
    );
  return { currency: own.currency, chat: merged('chat'), image: merged('image') };
}
