import { ApiError, ERROR_CODES, requestError } from '@lootsmith/protocol';
import { Failed, type Refusal, Refused } from '../refusal.ts';

export { ApiError };

const UNITS: Array<[number, string]> = [
  [86_400_000, 'day'],
  [3_600_000, 'hour'],
  [60_000, 'minute'],
  [1000, 'second'],
];

/** A window's length in words: `minute`, `hour`, `10 minutes`, `1500 ms`. */
export function windowName(ms: number): string {
  for (const [size, unit] of UNITS) if (ms % size === 0) return ms === size ? unit : `${ms / size} ${unit}s`;
  return `${ms} ms`;
}

/**
 * The answer to a refusal: the status of its code, its body, and for a used-up window the seconds
 * until the window resets (`Retry-After` and `details.retry_after`).
 */
export function refusalAnswer(refusal: Refusal, now = Date.now()): ApiError {
  const { status } = ERROR_CODES[refusal.code];
  if (refusal.code !== 'rate_limit_exceeded')
    return new ApiError(status, refusal.code, refusal.message, { details: refusal.details });
  const retryAfter = Math.max(1, Math.ceil((refusal.resetAt - now) / 1000));
  const per = windowName(refusal.windowMs);
  const message =
    refusal.counts === 'requests'
      ? `Rate limit reached: ${refusal.max} requests allowed here per ${per}; try again in ${retryAfter} s`
      : `Drop limit reached: ${refusal.max} drops of this enemy tier per ${per}; try again in ${retryAfter} s`;
  return new ApiError(status, refusal.code, message, {
    details: { retry_after: retryAfter },
    headers: { 'retry-after': String(retryAfter) },
  });
}

/**
 * What a route's failure answers: a refusal, a failure, an ApiError, or the framework refusing the request
 * (bad JSON, a body over `bodyLimit`); undefined for a fault of the server itself (a 500).
 */
export function answerOf(err: unknown, bodyLimit: number): ApiError | undefined {
  if (err instanceof Refused) return refusalAnswer(err.refusal);
  if (err instanceof Failed)
    return new ApiError(ERROR_CODES[err.code].status, err.code, err.message, { details: err.details });
  if (err instanceof ApiError) return err;
  return err instanceof Error ? requestError(err, bodyLimit) : undefined;
}
