import { describe, expect, it } from 'vitest';
import { auth, engine, KEY } from './support.ts';

const image = { client_id: 'player-1', prompt: 'iron sword, game item' };
const chat = { client_id: 'player-1', messages: [{ role: 'user', content: 'Hello' }] };

describe('authentication and authorisation', () => {
  it('answers 401 for a missing or invalid key, before looking at the body', async () => {
    const app = await engine();
    const missing = await app.inject({ method: 'POST', url: '/v1/image/generations', payload: image });
    expect(missing.statusCode).toBe(401);
    expect(missing.json()).toEqual({ error: { code: 'missing_api_key', message: expect.any(String) } });
    const invalid = await app.inject({
      method: 'POST',
      url: '/v1/chat/completions',
      headers: auth('wrong-key-123'),
      payload: chat,
    });
    expect(invalid.statusCode).toBe(401);
    expect(invalid.json().error.code).toBe('invalid_api_key');
    const badBodyNoKey = await app.inject({
      method: 'POST',
      url: '/v1/chat/completions',
      headers: { 'content-type': 'application/json' },
      payload: '{not json',
    });
    expect(badBodyNoKey.statusCode).toBe(401);
    const noKeyNoClient = await app.inject({
      method: 'POST',
      url: '/v1/image/generations',
      payload: { prompt: 'x' },
    });
    expect(noKeyNoClient.statusCode).toBe(401);
  });

  it('answers 400 naming client_id when it is missing', async () => {
    const app = await engine();
    for (const url of ['/v1/image/generations', '/v1/chat/completions']) {
      const res = await app.inject({
        method: 'POST',
        url,
        headers: auth(),
        payload: { prompt: 'x', messages: [{ role: 'user', content: 'x' }] },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('missing_client_id');
      expect(res.json().error.message).toContain('client_id');
    }
    const alsoWrong = await app.inject({
      method: 'POST',
      url: '/v1/image/generations',
      headers: auth(),
      payload: { prompt: '', width: 9999, colour: 'red' },
    });
    expect(alsoWrong.json().error.code).toBe('missing_client_id');
  });

  it('answers 403 for a key without the permission', async () => {
    const app = await engine([{ key: KEY, permissions: ['chat'] }]);
    const res = await app.inject({
      method: 'POST',
      url: '/v1/image/generations',
      headers: auth(),
      payload: image,
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('permission_denied');
    const ok = await app.inject({
      method: 'POST',
      url: '/v1/chat/completions',
      headers: auth(),
      payload: chat,
    });
    expect(ok.statusCode).toBe(200);
    const models = await app.inject({ method: 'GET', url: '/v1/models', headers: auth() });
    expect(models.json().data.map((m: { id: string }) => m.id)).toEqual(['lootsmith-writer-1']);
  });

  it('answers 403 for a restricted client_id and serves the others', async () => {
    const app = await engine([{ key: KEY, restricted_clients: ['cheater'] }]);
    const blocked = await app.inject({
      method: 'POST',
      url: '/v1/chat/completions',
      headers: auth(),
      payload: { ...chat, client_id: 'cheater' },
    });
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json().error.code).toBe('client_restricted');
    const fine = await app.inject({
      method: 'POST',
      url: '/v1/chat/completions',
      headers: auth(),
      payload: chat,
    });
    expect(fine.statusCode).toBe(200);
    const usage = (await app.inject({ method: 'GET', url: '/v1/usage', headers: auth() })).json();
    expect(usage.clients.map((c: { client_id: string }) => c.client_id)).toEqual(['player-1']);
  });

  it('answers 403 when the key is out of credits', async () => {
    const app = await engine([{ key: KEY, credits: 1 }]);
    expect(
      (await app.inject({ method: 'POST', url: '/v1/chat/completions', headers: auth(), payload: chat }))
        .statusCode,
    ).toBe(200);
    const broke = await app.inject({
      method: 'POST',
      url: '/v1/chat/completions',
      headers: auth(),
      payload: chat,
    });
    expect(broke.statusCode).toBe(403);
    expect(broke.json().error.code).toBe('insufficient_credits');
  });

  it('keeps keys apart: each has its own balance and usage', async () => {
    const app = await engine([
      { key: 'dev-key-0001', name: 'development', credits: 5 },
      { key: 'prod-key-0001', name: 'production', credits: 100 },
    ]);
    await app.inject({
      method: 'POST',
      url: '/v1/chat/completions',
      headers: auth('dev-key-0001'),
      payload: chat,
    });
    const dev = (await app.inject({ method: 'GET', url: '/v1/usage', headers: auth('dev-key-0001') })).json();
    const prod = (
      await app.inject({ method: 'GET', url: '/v1/usage', headers: auth('prod-key-0001') })
    ).json();
    expect(dev).toMatchObject({
      key: 'development',
      credits_remaining: 4,
      totals: { requests: 1, credits_spent: 1 },
    });
    expect(prod).toMatchObject({ key: 'production', credits_remaining: 100, totals: { requests: 0 } });
  });
});
