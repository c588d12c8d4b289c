import { UsageResponse } from '@lootsmith/protocol';
import { describe, expect, it } from 'vitest';
import { auth, engine, KEY } from './support.ts';

describe('usage', () => {
  it('counts requests, images, tokens and credits per key and per client_id', async () => {
    const app = await engine([{ key: KEY, name: 'staging', credits: 100 }]);
    const post = (url: string, payload: object) =>
      app.inject({ method: 'POST', url, headers: auth(), payload });
    await post('/v1/image/generations', { client_id: 'alice', prompt: 'ring', width: 32, height: 32 });
    await post('/v1/image/generations', { client_id: 'alice', prompt: 'gem', width: 32, height: 32 });
    const chat = await post('/v1/chat/completions', {
      client_id: 'bob',
      messages: [{ role: 'user', content: 'hi' }],
    });
    const usage = UsageResponse.parse(
      (await app.inject({ method: 'GET', url: '/v1/usage', headers: auth() })).json(),
    );
    expect(usage.key).toBe('staging');
    expect(usage.credits_remaining).toBe(97);
    expect(usage.totals).toMatchObject({ requests: 3, images: 2, chat_completions: 1, credits_spent: 3 });
    expect(usage.totals.tokens).toBe(chat.json().usage.total_tokens);
    expect(usage.clients.map((c) => [c.client_id, c.requests, c.images])).toEqual([
      ['alice', 2, 2],
      ['bob', 1, 0],
    ]);
  });

  it('serves an HTML usage page with the per-client_id table, with Bearer or Basic auth', async () => {
    const app = await engine();
    await app.inject({
      method: 'POST',
      url: '/v1/chat/completions',
      headers: auth(),
      payload: { client_id: '<script>x', messages: [{ role: 'user', content: 'hi' }] },
    });
    const page = await app.inject({ method: 'GET', url: '/v1/usage/page', headers: auth() });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('&lt;script&gt;x');
    expect(page.body).not.toContain('<script>x');
    const basic = await app.inject({
      method: 'GET',
      url: '/v1/usage/page',
      headers: { authorization: `Basic ${Buffer.from(`any:${KEY}`).toString('base64')}` },
    });
    expect(basic.statusCode).toBe(200);
    const anonymous = await app.inject({ method: 'GET', url: '/v1/usage/page' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.headers['www-authenticate']).toContain('Basic');
  });

  it('documents the API in OpenAPI at /docs', async () => {
    const app = await engine();
    const spec = (await app.inject({ method: 'GET', url: '/docs/json' })).json();
    expect(Object.keys(spec.paths)).toEqual(
      expect.arrayContaining([
        '/v1/image/generations',
        '/v1/chat/completions',
        '/v1/models',
        '/v1/usage',
        '/v1/usage/page',
      ]),
    );
    expect(
      spec.paths['/v1/image/generations'].post.requestBody.content['application/json'].schema.required,
    ).toEqual(['client_id', 'prompt']);
    const ui = await app.inject({ method: 'GET', url: '/docs' });
    expect(ui.statusCode).toBeLessThan(400);
  });
});
