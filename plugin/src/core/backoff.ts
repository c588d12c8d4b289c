import type { LootsmithError } from './errors.ts';
import { abortedError } from './errors.ts';

export interface RetryPolicy {
  /** Total tries, the first one included. */
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** A longer Retry-After than this is not waited for: the error goes to the game instead. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  attempts: 3,
  baseDelayMs: 300,
  maxDelayMs: 4000,
  maxRetryAfterMs: 10_000,
};

/**
 * Decided by code: only failures the server never answered are sent again. Every code it answers
 * with is final, 5xx included (it already retried the content service and its fallback, and
 * re-asked the model, before answering `upstream_unavailable` or `generation_failed`); 4xx are the
 * caller's to fix (429 included: a rate limit is a game event, not a glitch).
 */
const RETRYABLE: ReadonlySet<LootsmithError['code']> = new Set([
  'network',
  'timeout',
  'http_502',
  'http_503',
  'http_504',
]);

export const isRetryable = (e: LootsmithError) => RETRYABLE.has(e.code);

/** Milliseconds before retry number `retry` (1-based): exponential with jitter, never sooner than Retry-After. */
export function retryDelay(policy: RetryPolicy, retry: number, retryAfter?: number, random = Math.random) {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  return Math.max(ceiling * (0.5 + random() / 2), (retryAfter ?? 0) * 1000);
}

export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortedError(signal.reason));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
}
