import { z } from 'zod';

/** Limits of the `/v1` service (docs/SPEC.md 8). */
export const IMAGE_LIMITS = {
  defaultSize: 512,
  maxSize: 768,
  minSize: 16,
  defaultSteps: 5,
  maxSteps: 50,
} as const;

/**
 * A player's id: the one rule of every place that names a player (a token's `sub`, a body's
 * `client_id` or `player_id`, a path, URL-encoded), so any player the server serves can be looked up,
 * blocked and budgeted. Up to 128 characters of any printable text (an email, a name with spaces); no
 * control, format or private-use characters, which logs and the console could not show as they are.
 */
export const PlayerId = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[^\p{Cc}\p{Cf}\p{Co}\p{Cs}\p{Zl}\p{Zp}]+$/u, 'printable characters only');
export type PlayerId = z.infer<typeof PlayerId>;

export const Prompt = z.string().trim().min(1).max(2000);

/** docs/SPEC.md 2.3, plus `seed` and `model` (a request may override the key's image settings). */
export const ImageGenerationRequest = z.strictObject({
  client_id: PlayerId,
  prompt: Prompt,
  negative_prompt: z.string().max(2000).optional(),
  height: z.int().min(IMAGE_LIMITS.minSize).max(IMAGE_LIMITS.maxSize).optional(),
  width: z.int().min(IMAGE_LIMITS.minSize).max(IMAGE_LIMITS.maxSize).optional(),
  steps: z.int().min(1).max(IMAGE_LIMITS.maxSteps).optional(),
  generation_only: z.boolean().optional(),
  seed: z
    .int()
    .min(0)
    .max(2 ** 32 - 1)
    .optional(),
  model: z.string().min(1).max(128).optional(),
});
export type ImageGenerationRequest = z.infer<typeof ImageGenerationRequest>;

/** docs/SPEC.md 2.4: clients must tolerate keys added later. */
export const ImageGenerationResponse = z.looseObject({
  image: z.string().min(1),
  /** Lootsmith's forward: set when its fallback service painted the image, not the configured backend. */
  served_by: z.literal('fallback').optional(),
});
export type ImageGenerationResponse = z.infer<typeof ImageGenerationResponse>;

export const ChatRole = z.enum(['system', 'user', 'assistant']);
export type ChatRole = z.infer<typeof ChatRole>;

export const ChatMessage = z.strictObject({
  role: ChatRole,
  content: z.string().max(100_000),
});
export type ChatMessage = z.infer<typeof ChatMessage>;

export const ResponseFormat = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('text') }),
  z.strictObject({ type: z.literal('json_object') }),
  z.strictObject({
    type: z.literal('json_schema'),
    json_schema: z.strictObject({
      name: z.string().max(64).optional(),
      description: z.string().max(1000).optional(),
      schema: z.record(z.string(), z.unknown()),
      strict: z.boolean().optional(),
    }),
  }),
]);
export type ResponseFormat = z.infer<typeof ResponseFormat>;

/** docs/SPEC.md 2.5, in the OpenAI convention so existing clients work unchanged. */
export const ChatCompletionRequest = z.strictObject({
  client_id: PlayerId,
  model: z.string().min(1).max(128).optional(),
  messages: z.array(ChatMessage).min(1).max(64),
  temperature: z.number().min(0).max(2).optional(),
  top_p: z.number().min(0).max(1).optional(),
  max_tokens: z.int().min(1).max(32_768).optional(),
  response_format: ResponseFormat.optional(),
  stream: z.boolean().optional(),
  seed: z
    .int()
    .min(0)
    .max(2 ** 32 - 1)
    .optional(),
  stop: z.union([z.string(), z.array(z.string()).max(4)]).optional(),
  // Sent by OpenAI SDKs; accepted so they work unchanged (one choice per request, penalties are hints).
  n: z.literal(1).optional(),
  user: z.string().max(256).optional(),
  presence_penalty: z.number().min(-2).max(2).optional(),
  frequency_penalty: z.number().min(-2).max(2).optional(),
  stream_options: z.strictObject({ include_usage: z.boolean().optional() }).optional(),
});
export type ChatCompletionRequest = z.infer<typeof ChatCompletionRequest>;

export const FinishReason = z.enum(['stop', 'length', 'content_filter']);

export const ChatCompletionResponse = z.looseObject({
  id: z.string(),
  object: z.literal('chat.completion'),
  created: z.int(),
  model: z.string(),
  choices: z
    .array(
      z.looseObject({
        index: z.int(),
        message: z.looseObject({ role: z.literal('assistant'), content: z.string().nullable() }),
        finish_reason: FinishReason.nullable(),
      }),
    )
    .min(1),
  usage: z
    .looseObject({
      prompt_tokens: z.int(),
      completion_tokens: z.int(),
      total_tokens: z.int(),
    })
    .optional(),
});
export type ChatCompletionResponse = z.infer<typeof ChatCompletionResponse>;

export const ModelList = z.looseObject({
  object: z.literal('list'),
  data: z.array(z.looseObject({ id: z.string(), object: z.literal('model'), owned_by: z.string() })),
});
export type ModelList = z.infer<typeof ModelList>;

export const UsageCounters = z.looseObject({
  requests: z.int(),
  images: z.int(),
  chat_completions: z.int(),
  tokens: z.int(),
  credits_spent: z.number(),
});
export type UsageCounters = z.infer<typeof UsageCounters>;

export const UsageResponse = z.looseObject({
  key: z.string(),
  credits_remaining: z.number().nullable(),
  totals: UsageCounters,
  clients: z.array(z.looseObject({ client_id: z.string(), ...UsageCounters.shape })),
});
export type UsageResponse = z.infer<typeof UsageResponse>;
