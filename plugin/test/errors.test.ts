import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY, isRetryable, retryDelay } from '../src/core/backoff.ts';
import {
  equippedIngredients,
  errorFromResponse,
  LootsmithError,
  parseRetryAfter,
} from '../src/core/errors.ts';

describe('errors', () => {
  it('reads code, status, reason and Retry-After from an error response', async () => {
    const res = new Response(
      JSON.stringify({
        error: { code: 'rate_limit_exceeded', message: 'Slow down' },
        reason: 'rate_limit_exceeded',
      }),
      { status: 429, headers: { 'retry-after': '120' } },
    );
    const error = await errorFromResponse(res);
    expect(error).toBeInstanceOf(LootsmithError);
    expect(error).toMatchObject({
      code: 'rate_limit_exceeded',
      status: 429,
      reason: 'rate_limit_exceeded',
      retryAfter: 120,
      message: 'Slow down',
    });
  });

  it('still gives a typed error when the body is not JSON', async () => {
    const error = await errorFromResponse(new Response('<html>bad gateway</html>', { status: 502 }));
    expect(error).toMatchObject({ code: 'http_502', status: 502, reason: undefined });
  });

  it('parses Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('3', now)).toBe(3);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:30 GMT', now)).toBe(30);
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
  });

  it('retries what the server never answered, never a code the server sent', () => {
    const at = (status: number, code: LootsmithError['code']) => new LootsmithError(code, '', { status });
    expect(isRetryable(at(0, 'network'))).toBe(true);
    expect(isRetryable(at(0, 'timeout'))).toBe(true);
    // A gateway in front of the server answered, without the server's error body.
    for (const status of [502, 503, 504]) expect(isRetryable(at(status, `http_${status}`))).toBe(true);
    // The server already retried the content service and re-asked the model before these.
    expect(isRetryable(at(502, 'generation_failed'))).toBe(false);
    expect(isRetryable(at(502, 'upstream_unavailable'))).toBe(false);
    expect(isRetryable(at(500, 'internal'))).toBe(false);
    expect(isRetryable(at(429, 'rate_limit_exceeded'))).toBe(false);
    expect(isRetryable(at(400, 'invalid_request'))).toBe(false);
    expect(isRetryable(at(0, 'aborted'))).toBe(false);
  });

  it('backs off exponentially within the cap and never sooner than Retry-After', () => {
    const policy = { ...DEFAULT_RETRY, baseDelayMs: 100, maxDelayMs: 1000 };
    expect(retryDelay(policy, 1, undefined, () => 1)).toBe(100);
    expect(retryDelay(policy, 3, undefined, () => 1)).toBe(400);
    expect(retryDelay(policy, 3, undefined, () => 0)).toBe(200);
    expect(retryDelay(policy, 10, undefined, () => 1)).toBe(1000);
    expect(retryDelay(policy, 1, 5, () => 1)).toBe(5000);
  });

  it('names the worn items of an item_equipped refusal, for the game to ask the player', async () => {
    const items = [{ item_id: 'itm_1', slot: 'WEAPON', name: 'Emberbite Axe' }];
    const refused = await errorFromResponse(
      new Response(
        JSON.stringify({
          error: { code: 'item_equipped', message: 'Emberbite Axe is equipped', details: { items } },
          reason: 'item_equipped',
        }),
        { status: 409 },
      ),
    );
    expect(refused).toMatchObject({ code: 'item_equipped', reason: 'item_equipped', status: 409 });
    expect(equippedIngredients(refused)).toEqual(items);
    expect(equippedIngredients(new LootsmithError('not_owned', 'no'))).toBeUndefined();
    expect(equippedIngredients(new Error('boom'))).toBeUndefined();
  });
});
