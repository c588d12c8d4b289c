import { describe, expect, it } from 'vitest';
import { auth, engine, KEY } from './support.ts';

describe('credits', () => {
  it('debits exactly once per success under 50 concurrent requests against one key', async () => {
    const app = await engine([{ key: KEY, credits: 10 }]);
    const requests = Array.from({ length: 50 }, (_, i) =>
      app.inject({
        method: 'POST',
        url: i % 2 ? '/v1/chat/completions' : '/v1/image/generations',
        headers: auth(),
        payload:
          i % 2
            ? { client_id: `p${i % 5}`, messages: [{ role: 'user', content: `hello ${i}` }] }
            : { client_id: `p${i % 5}`, prompt: `gem ${i}`, width: 64, height: 64 },
      }),
    );
    const statuses = (await Promise.all(requests)).map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 403)).toHaveLength(40);
    const usage = (await app.inject({ method: 'GET', url: '/v1/usage', headers: auth() })).json();
    expect(usage.credits_remaining).toBe(0);
    expect(usage.totals.credits_spent).toBe(10);
    expect(usage.totals.requests).toBe(10);
    expect(
      usage.clients.reduce((sum: number, c: { credits_spent: number }) => sum + c.credits_spent, 0),
    ).toBe(10);
  });

  it('never runs out with unlimited credits (null)', async () => {
    const app = await engine([{ key: KEY, credits: null }]);
    const responses = await Promise.all(
      Array.from({ length: 20 }, () =>
        app.inject({
          method: 'POST',
          url: '/v1/chat/completions',
          headers: auth(),
          payload: { client_id: 'p', messages: [{ role: 'user', content: 'hi' }] },
        }),
      ),
    );
    expect(responses.every((r) => r.statusCode === 200)).toBe(true);
    const usage = (await app.inject({ method: 'GET', url: '/v1/usage', headers: auth() })).json();
    expect(usage).toMatchObject({
      credits_remaining: null,
      totals: { credits_spent: 20, chat_completions: 20 },
    });
  });

  it('charges nothing for a rejected request', async () => {
    const app = await engine([{ key: KEY, credits: 3 }]);
    await app.inject({
      method: 'POST',
      url: '/v1/image/generations',
      headers: auth(),
      payload: { client_id: 'p', prompt: 'x', width: 9999 },
    });
    const usage = (await app.inject({ method: 'GET', url: '/v1/usage', headers: auth() })).json();
    expect(usage.credits_remaining).toBe(3);
  });
});
