import { type ZodError, z } from 'zod';

/** Who said no, for the developer's figures: the game's rules or the content checks (else a caller's mistake). */
type Refusal = 'game' | 'content';
const reason = (status: number, refusal: Refusal = 'game') => ({ status, reason: true, refusal }) as const;
const rule = (status: number) => ({ status, refusal: 'game' }) as const;

/**
 * Every code an error body of the server or the engine can carry, with the status it is sent with.
 * Adding a code is one line here. `reason`: a game rule, named again in the body's `reason`
 * (docs/SPEC.md 4.3.1). `refusal`: the game's rules or the content checks working as they should
 * (the console counts these apart from errors); any other 4xx is the caller's mistake.
 */
export const ERROR_CODES = {
  // A request that cannot be read or does not match its schema.
  invalid_request: { status: 400 },
  missing_client_id: { status: 400 },
  invalid_json: { status: 400 },
  /** The engine answers 400: it refuses every unreadable body alike. */
  invalid_content_type: { status: 415 },
  /** The engine answers 400: it refuses every unreadable body alike. */
  body_too_large: { status: 413 },
  bad_url: { status: 400 },
  not_found: { status: 404 },
  // Who is calling, and what they may do.
  unauthorized: { status: 401 },
  token_expired: { status: 401 },
  /** Issued before the player was blocked: every such token stays refused. */
  token_revoked: rule(401),
  /** Guest login for a player that exists, without its guest secret. */
  guest_secret_required: { status: 403 },
  forbidden: { status: 403 },
  dev_login_disabled: { status: 403 },
  console_disabled: { status: 403 },
  chat_disabled: { status: 403 },
  player_blocked: rule(403),
  grant_required: rule(403),
  grant_invalid: rule(403),
  grant_expired: rule(403),
  grant_mismatch: rule(403),
  grant_used: rule(409),
  // The engine's keys (docs/SPEC.md 5).
  missing_api_key: { status: 401 },
  invalid_api_key: { status: 401 },
  permission_denied: { status: 403 },
  client_restricted: { status: 403 },
  insufficient_credits: { status: 403 },
  unknown_model: { status: 400 },
  // Names the game definition does not know.
  unknown_enemy: { status: 400 },
  unknown_station: { status: 400 },
  unknown_item: { status: 400 },
  unknown_slot: { status: 400 },
  unknown_type: { status: 400 },
  too_many_items: rule(400),
  // Game rules.
  insufficient_materials: reason(400),
  skill_too_low: reason(400),
  not_owned: reason(400),
  not_equippable: reason(400),
  wrong_slot: reason(400),
  not_consumable: reason(400),
  /** A craft (combine or create-item) would use up an item the player wears, and the request did not say `consume_equipped`. */
  item_equipped: reason(409),
  rate_limit_exceeded: reason(429),
  budget_exceeded: reason(429),
  /** A spend cap in money (the game's daily or monthly, or a player's daily) is reached; `details.cap` names it. */
  spend_cap_reached: rule(429),
  /** A player's text the content filter (or the moderation endpoint) refuses; nothing was changed. */
  content_refused: reason(400, 'content'),
  /** A player refused too often (`content_filter.restrict_after`): free text is off for a while. */
  player_restricted: { status: 403, refusal: 'content' },
  // The work itself.
  aborted: { status: 499 },
  internal: { status: 500 },
  generation_failed: { status: 502 },
  upstream_unavailable: { status: 502 },
  upstream_key_refused: { status: 502 },
  upstream_rejected: { status: 502 },
} as const satisfies Record<string, { status: number; reason?: true; refusal?: Refusal }>;

type Codes = typeof ERROR_CODES;
export type ErrorCode = keyof Codes;
export const ErrorCode = z.enum(Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]]);

/** Game-rule reasons an error body may carry beside its code (docs/SPEC.md 4.3.1). */
export type ErrorReason = { [C in ErrorCode]: Codes[C] extends { reason: true } ? C : never }[ErrorCode];
export const ERROR_REASONS = ErrorCode.options.filter(
  (c): c is ErrorReason => 'reason' in ERROR_CODES[c],
) as readonly ErrorReason[];
export const ErrorReason = z.enum(ERROR_REASONS as [ErrorReason, ...ErrorReason[]]);

const isReason = (code: ErrorCode): code is ErrorReason => 'reason' in ERROR_CODES[code];

/**
 * What an answer was, for the figures: the game's rules or the content checks refusing (normal
 * play), the caller's mistake, or an error of the server or a backend (every 5xx, and only those:
 * what an error rate counts). A 2xx answer with a code is a refusal the game gives in its body (a
 * combine the judge found senseless), or a replay (`REPLAYED`).
 */
export const AnswerKind = z.enum(['ok', 'game_refusal', 'content_refusal', 'client_error', 'error']);
export type AnswerKind = z.infer<typeof AnswerKind>;

/**
 * The code the figures give an answer replayed for a repeated `Idempotency-Key`: the first answer
 * again, which did nothing new (no second drop or craft to count).
 */
export const REPLAYED = 'replayed';

export function answerKind(status: number, code: string | null): AnswerKind {
  if (status >= 500) return 'error';
  if (status < 400) return code && code !== REPLAYED ? 'game_refusal' : 'ok';
  const known = Object.hasOwn(ERROR_CODES, code ?? '') ? ERROR_CODES[code as ErrorCode] : undefined;
  const refusal = known && 'refusal' in known ? known.refusal : undefined;
  return refusal === 'game' ? 'game_refusal' : refusal === 'content' ? 'content_refusal' : 'client_error';
}

/** `details` of an `item_equipped` refusal: the worn items a combine would have used up. */
export const ItemEquippedDetails = z.object({
  items: z.array(z.object({ item_id: z.string(), slot: z.string(), name: z.string() })),
});
export type ItemEquippedDetails = z.infer<typeof ItemEquippedDetails>;

/** The one error body of every Lootsmith and engine response. */
export const ErrorBody = z.looseObject({
  error: z.looseObject({
    code: ErrorCode,
    message: z.string(),
    details: z.unknown().optional(),
  }),
  reason: ErrorReason.optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

/** The error body of a code; a game-rule code is also its `reason`. */
export function errorBody(code: ErrorCode, message: string, details?: unknown): ErrorBody {
  return {
    error: { code, message, ...(details === undefined ? {} : { details }) },
    ...(isReason(code) ? { reason: code } : {}),
  };
}

/** An error with its HTTP status: what the server's and the engine's error handlers send. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly extra: { details?: unknown; headers?: Record<string, string> } = {},
  ) {
    super(message);
  }

  body(): ErrorBody {
    return errorBody(this.code, this.message, this.extra.details);
  }
}

/**
 * One 400 for a value that fails its schema: every issue in the message and in `details`, each
 * named by its path (under `where`, e.g. `body`). A missing client_id comes first, with its own
 * code (docs/SPEC.md 5).
 */
export function invalidRequest(error: ZodError, where?: string): ApiError {
  const at = (path: PropertyKey[]) => [...(where ? [where] : []), ...path.map(String)].join('.');
  const missing = (i: ZodError['issues'][number]) =>
    i.code === 'invalid_type' && i.message.includes('received undefined');
  const clientIdMissing = (i: ZodError['issues'][number]) =>
    i.path.length === 1 && i.path[0] === 'client_id' && missing(i);
  const issues = [...error.issues].sort((a, b) => Number(clientIdMissing(b)) - Number(clientIdMissing(a)));
  const details = issues.map((i) => {
    const path = at(i.path);
    if (i.code === 'unrecognized_keys')
      return { path, message: `unknown field: ${i.keys.map((k) => at([...i.path, k])).join(', ')}` };
    if (missing(i)) return { path, message: `${path || 'body'} is required` };
    return { path, message: `${path || 'body'}: ${i.message}` };
  });
  const first = issues[0];
  return new ApiError(
    400,
    first && clientIdMissing(first) ? 'missing_client_id' : 'invalid_request',
    details.map((d) => d.message).join('; ') || 'invalid request body',
    { details },
  );
}

/**
 * Parses a request's body, query or path with its schema; an ApiError 400 naming every invalid
 * field otherwise. No body at all reads as `{}`, so the error names the missing fields.
 */
export function parseRequest<T>(schema: z.ZodType<T>, value: unknown, where?: string): T {
  const result = schema.safeParse(value === undefined ? {} : value);
  if (!result.success) throw invalidRequest(result.error, where);
  return result.data;
}

/**
 * The HTTP framework's own refusals of a request (Fastify's error codes: a body that is not JSON,
 * too large, of another type) in the one error shape, with the framework's status; undefined for
 * anything that is not a client's mistake.
 */
export function requestError(
  error: { code?: unknown; statusCode?: unknown; message: string },
  bodyLimit: number,
): ApiError | undefined {
  const status = typeof error.statusCode === 'number' ? error.statusCode : 500;
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError(status, 'body_too_large', `body: larger than ${bodyLimit} bytes`);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError(
        status,
        'invalid_content_type',
        'body: send JSON with Content-Type: application/json',
      );
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ApiError(status, 'invalid_json', 'body: empty, expected a JSON object');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new ApiError(status, 'invalid_json', `body: not valid JSON (${error.message})`);
  }
  if (error instanceof SyntaxError || (status === 400 && /JSON/i.test(error.message)))
    return new ApiError(400, 'invalid_json', `body: not valid JSON (${error.message})`);
  if (status >= 400 && status < 500) return new ApiError(status, 'invalid_request', error.message);
  return undefined;
}
