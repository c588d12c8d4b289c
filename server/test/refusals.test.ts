import { describe, expect, it } from 'vitest';
import { refusalAnswer, windowName } from '../src/http/errors.ts';
import { insufficientMaterials } from '../src/refusal.ts';

describe('a refusal answered at the edge', () => {
  it('names the window as long as it is', () => {
    expect(windowName(60_000)).toBe('minute');
    expect(windowName(3_600_000)).toBe('hour');
    expect(windowName(600_000)).toBe('10 minutes');
    expect(windowName(90_000)).toBe('90 seconds');
    expect(windowName(86_400_000)).toBe('day');
    expect(windowName(1500)).toBe('1500 ms');
  });

  it('asks to come back when the window resets', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    const answer = refusalAnswer(
      { code: 'rate_limit_exceeded', counts: 'drops', max: 20, windowMs: 600_000, resetAt: now + 41_500 },
      now,
    );
    expect(answer.status).toBe(429);
    expect(answer.extra.headers).toEqual({ 'retry-after': '42' });
    expect(answer.body()).toEqual({
      error: {
        code: 'rate_limit_exceeded',
        message: 'Drop limit reached: 20 drops of this enemy tier per 10 minutes; try again in 42 s',
        details: { retry_after: 42 },
      },
      reason: 'rate_limit_exceeded',
    });
    const calls = refusalAnswer(
      { code: 'rate_limit_exceeded', counts: 'requests', max: 30, windowMs: 60_000, resetAt: now - 5 },
      now,
    );
    expect(calls.message).toBe('Rate limit reached: 30 requests allowed here per minute; try again in 1 s');
  });

  it('answers a game rule with the status of its code, its reason and details', () => {
    const answer = refusalAnswer(insufficientMaterials([{ item_id: 'iron_ore', have: 1, need: 3 }]).refusal);
    expect(answer.status).toBe(400);
    expect(answer.extra.headers).toBeUndefined();
    expect(answer.body()).toEqual({
      error: {
        code: 'insufficient_materials',
        message: 'Not enough materials: iron_ore (have 1, need 3)',
        details: { missing: [{ item_id: 'iron_ore', have: 1, need: 3 }] },
      },
      reason: 'insufficient_materials',
    });
  });
});
