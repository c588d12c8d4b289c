import { z } from 'zod';
import { AnswerKind } from './errors.ts';
import { PlayerId } from './generation.ts';

// The developer console's request log (`/api/v1/admin/requests…`) and its CSV exports.

/** A request's id in the log: what the console links to. */
export const RequestId = z.string().regex(/^[0-9a-f-]{36}$/, 'a request id as the log gives it (a UUID)');

/** The log's filters: each value is checked, and a bad one is refused (400) with what it should be. */
export const RequestsQuery = z.strictObject({
  player: PlayerId.optional(),
  /** The method and route pattern, as the log lists it: `POST /v1/generate/items`. */
  route: z
    .string()
    .regex(
      /^(GET|POST|PATCH|PUT|DELETE) \/[\w/:.-]{0,200}$/,
      'a method and route such as `POST /v1/generate/items`',
    )
    .optional(),
  kind: AnswerKind.optional(),
  /** An opaque position: the `next` of the page before. */
  after: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});
export type RequestsQuery = z.infer<typeof RequestsQuery>;

export const RequestSummary = z.object({
  id: z.string(),
  at: z.string(),
  method: z.string(),
  /** The method and route pattern: `POST /v1/generate/items`. */
  route: z.string(),
  status: z.int(),
  kind: AnswerKind,
  code: z.string().nullable(),
  player_id: z.string().nullable(),
  /** From the request's arrival to its answer. */
  ms: z.number(),
});
export type RequestSummary = z.infer<typeof RequestSummary>;

export const RequestsPage = z.object({
  requests: z.array(RequestSummary),
  next: z.string().nullable(),
  /** What the log keeps: the newest `max` requests, none older than `days`. */
  retention: z.object({ max: z.int(), days: z.int() }),
});
export type RequestsPage = z.infer<typeof RequestsPage>;

/** One backend call a request made: what it was asked and what came back (bounded). */
export const RequestCall = z.object({
  at: z.string(),
  /** `chat:openai`, `image:sdapi`, `chat:embedded`…, or `fallback`. */
  backend: z.string(),
  kind: z.enum(['chat', 'image']),
  model: z.string().nullable(),
  /** `ok`, or why it failed: `timeout`, `status_503`, `rejected`, `key_refused`, … */
  outcome: z.string(),
  status: z.int().nullable(),
  ms: z.number(),
  /** What it cost by the price list, in `currency`; `unpriced` without a price; null when it failed. */
  cost: z.union([z.number(), z.literal('unpriced')]).nullable(),
  /** Chat: the messages sent; image: the prompt, negative prompt and size. */
  prompt: z.unknown(),
  /** Chat: the answer's text (cut at 8 KB); image: its size, bytes and content type, never the bytes; a failure: why. */
  answer: z.unknown(),
  /** Whether the prompt or answer was cut to its bound. */
  truncated: z.boolean(),
});
export type RequestCall = z.infer<typeof RequestCall>;

export const RequestDetail = z.object({
  request: RequestSummary,
  /**
   * The JSON body as the server read it, as text, with any field named like a secret (`guest_secret`,
   * `token`, `password`, …) replaced and the server's own secrets scrubbed; headers are never kept.
   */
  body: z.string().nullable(),
  /** Whether the body was cut at 16 KB. */
  body_truncated: z.boolean(),
  currency: z.string(),
  calls: z.array(RequestCall),
  /** What it answered: the ids of the items it made or handed out, or its error. */
  result: z.object({
    items: z.array(z.object({ id: z.string(), known: z.boolean() })),
    error: z.object({ code: z.string(), message: z.string() }).nullable(),
  }),
});
export type RequestDetail = z.infer<typeof RequestDetail>;

export const RequestParams = z.strictObject({ request_id: RequestId });

/** The spend export's days: from and to, inclusive (UTC); the last 31 days by default. */
export const SpendExportQuery = z.strictObject({
  from: z.iso.date().optional(),
  to: z.iso.date().optional(),
  /** `route`: per day, route and backend (as the overview adds them up); `player`: per day and player. */
  by: z.enum(['route', 'player']).default('route'),
});
export type SpendExportQuery = z.infer<typeof SpendExportQuery>;

/** The items export: the newest first, filtered like the gallery by day. */
export const ItemsExportQuery = z.strictObject({
  from: z.iso.date().optional(),
  to: z.iso.date().optional(),
});
export type ItemsExportQuery = z.infer<typeof ItemsExportQuery>;

/** The requests export: the log's filters, every request they match (newest first, at most 100,000). */
export const RequestsExportQuery = RequestsQuery.omit({ after: true, limit: true });
export type RequestsExportQuery = z.infer<typeof RequestsExportQuery>;
