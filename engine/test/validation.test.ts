import { describe, expect, it } from 'vitest';
import { auth, engine } from './support.ts';

const base = { client_id: 'p1', prompt: 'iron sword' };

describe('invalid requests get 400 naming the field, and change nothing', () => {
  it.each([
    [{ client_id: 'p1' }, 'prompt'],
    [{ ...base, prompt: '' }, 'prompt'],
    [{ ...base, prompt: '   ' }, 'prompt'],
    [{ ...base, width: 769 }, 'width'],
    [{ ...base, width: 0 }, 'width'],
    [{ ...base, height: 1000 }, 'height'],
    [{ ...base, height: 256.5 }, 'height'],
    [{ ...base, width: '512' }, 'width'],
    [{ ...base, steps: 51 }, 'steps'],
    [{ ...base, steps: 2.5 }, 'steps'],
    [{ ...base, seed: -1 }, 'seed'],
    [{ ...base, generation_only: 'yes' }, 'generation_only'],
    [{ ...base, colour: 'red' }, 'colour'],
  ])('image body %j → 400 about %s', async (payload, field) => {
    const app = await engine();
    const res = await app.inject({ method: 'POST', url: '/v1/image/generations', headers: auth(), payload });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toContain(field);
    const usage = (await app.inject({ method: 'GET', url: '/v1/usage', headers: auth() })).json();
    expect(usage.totals.requests).toBe(0);
  });

  it.each([
    [{ client_id: 'p1' }, 'messages'],
    [{ client_id: 'p1', messages: [] }, 'messages'],
    [{ client_id: 'p1', messages: [{ role: 'wizard', content: 'hi' }] }, 'messages.0.role'],
    [{ client_id: 'p1', messages: [{ role: 'user' }] }, 'messages.0.content'],
    [{ client_id: 'p1', messages: [{ role: 'user', content: 'x' }], temperature: 3 }, 'temperature'],
    [{ client_id: 'p1', messages: [{ role: 'user', content: 'x' }], max_tokens: 0 }, 'max_tokens'],
    [
      { client_id: 'p1', messages: [{ role: 'user', content: 'x' }], response_format: { type: 'yaml' } },
      'response_format',
    ],
    [{ client_id: 'p1', messages: [{ role: 'user', content: 'x' }], model: 'gpt-9' }, 'model'],
  ])('chat body %j → 400 about %s', async (payload, field) => {
    const app = await engine();
    const res = await app.inject({ method: 'POST', url: '/v1/chat/completions', headers: auth(), payload });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toContain(field);
  });

  it('names the known models when the model is unknown', async () => {
    const app = await engine();
    const res = await app.inject({
      method: 'POST',
      url: '/v1/chat/completions',
      headers: auth(),
      payload: { client_id: 'p1', model: 'gpt-9', messages: [{ role: 'user', content: 'x' }] },
    });
    expect(res.json().error.message).toContain('lootsmith-writer-1');
  });

  it('answers 400 for a body that is not JSON, not an object, or too large', async () => {
    const app = await engine(undefined, 4096);
    const notJson = await app.inject({
      method: 'POST',
      url: '/v1/image/generations',
      headers: { ...auth(), 'content-type': 'application/json' },
      payload: '{"client_id": "p1", prompt',
    });
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json().error).toMatchObject({
      code: 'invalid_json',
      message: expect.stringContaining('body'),
    });
    const text = await app.inject({
      method: 'POST',
      url: '/v1/image/generations',
      headers: { ...auth(), 'content-type': 'text/plain' },
      payload: 'a sword please',
    });
    expect(text.statusCode).toBe(400);
    const array = await app.inject({
      method: 'POST',
      url: '/v1/image/generations',
      headers: auth(),
      payload: [1, 2],
    });
    expect(array.statusCode).toBe(400);
    const huge = await app.inject({
      method: 'POST',
      url: '/v1/image/generations',
      headers: auth(),
      payload: { client_id: 'p1', prompt: 'x'.repeat(10_000) },
    });
    expect(huge.statusCode).toBe(400);
    expect(huge.json().error).toMatchObject({
      code: 'body_too_large',
      message: expect.stringContaining('body'),
    });
  });

  it('answers 404 in the same error shape for unknown routes', async () => {
    const app = await engine();
    const res = await app.inject({ method: 'GET', url: '/v1/nothing', headers: auth() });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe('not_found');
  });
});
