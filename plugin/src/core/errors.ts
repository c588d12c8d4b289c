import type { ErrorBody, ErrorCode, ErrorReason, ItemEquippedDetails } from '@lootsmith/protocol';

/**
 * Codes the client itself raises; any other code comes from the server's error body. `http_<status>`
 * is an answer without one (a proxy or gateway in front of the server answered).
 */
export type ClientErrorCode =
  | 'network'
  | 'timeout'
  | 'aborted'
  | 'bad_response'
  | 'not_configured'
  | 'no_icon'
  | 'texture_failed'
  | 'token_failed'
  | 'icon_pending'
  | `http_${number}`;

export interface LootsmithErrorInit {
  status?: number;
  reason?: ErrorReason | undefined;
  retryAfter?: number | undefined;
  details?: unknown;
  cause?: unknown;
}

/** The one error every Lootsmith call rejects with. */
export class LootsmithError extends Error {
  override readonly name = 'LootsmithError';
  /** The server's error code (e.g. `rate_limit_exceeded`, `upstream_unavailable`) or a {@link ClientErrorCode}. */
  readonly code: ErrorCode | ClientErrorCode;
  /** HTTP status; 0 when no response arrived. */
  readonly status: number;
  /** Game-rule reason, e.g. `insufficient_materials`, `skill_too_low`, `rate_limit_exceeded`. */
  readonly reason: ErrorReason | undefined;
  /** Seconds the server asked to wait before trying again. */
  readonly retryAfter: number | undefined;
  readonly details: unknown;

  constructor(code: ErrorCode | ClientErrorCode, message: string, init: LootsmithErrorInit = {}) {
    super(message, { cause: init.cause });
    this.code = code;
    this.status = init.status ?? 0;
    this.reason = init.reason;
    this.retryAfter = init.retryAfter;
    this.details = init.details;
  }
}

/**
 * The worn items a combine was refused for (code `item_equipped`): ask the player, and send the combine
 * again with `consumeEquipped: true` if they agree. Undefined for any other error.
 */
export function equippedIngredients(e: unknown): ItemEquippedDetails['items'] | undefined {
  if (!(e instanceof LootsmithError) || e.code !== 'item_equipped') return undefined;
  const items = (e.details as Partial<ItemEquippedDetails> | undefined)?.items;
  return Array.isArray(items) ? items : [];
}

/** Seconds from a `Retry-After` header, which may be a number of seconds or an HTTP date. */
export function parseRetryAfter(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}

export async function errorFromResponse(res: Response): Promise<LootsmithError> {
  const body = (await res.json().catch(() => ({}))) as Partial<ErrorBody>;
  return new LootsmithError(body.error?.code ?? `http_${res.status}`, body.error?.message ?? res.statusText, {
    status: res.status,
    reason: body.reason,
    retryAfter: parseRetryAfter(res.headers.get('retry-after')),
    details: body.error?.details,
  });
}

export const abortedError = (cause?: unknown) =>
  new LootsmithError('aborted', 'The request was aborted', { cause });

/**
 * fetch failed before any response. In a browser that is the server being down or unreachable, or
 * (the message cannot tell) CORS refusing this page's origin: the message names both fixes.
 */
export function unreachableError(url: string, cause: unknown): LootsmithError {
  const page = globalThis.location?.origin;
  const server = new URL(url, page).origin;
  const why = cause instanceof Error ? cause.message : String(cause);
  const fixes = page
    ? `Either it is not running at that address (check the plugin's baseUrl), or it does not allow pages from ${page}: start it with LOOTSMITH_CORS_ORIGINS=${page}.`
    : "Check that it is running and that the plugin's baseUrl points at it.";
  return new LootsmithError(
    'network',
    `Could not reach the Lootsmith server at ${server} (${why}). ${fixes}`,
    {
      cause,
    },
  );
}

/** Any thrown value as a LootsmithError; fetch's own failures become `network` or `aborted`. */
export function toLootsmithError(e: unknown, signal?: AbortSignal): LootsmithError {
  if (e instanceof LootsmithError) return e;
  if (signal?.aborted || (e instanceof Error && e.name === 'AbortError')) return abortedError(e);
  return new LootsmithError('network', e instanceof Error ? e.message : String(e), { cause: e });
}
