import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { auth, engine, KEY } from './support.ts';

interface Fake {
  url: string;
  requests: Array<{ authorization: string | undefined; body: Record<string, unknown> }>;
  close(): Promise<void>;
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map((s) => {
      s.closeAllConnections();
      return new Promise((resolve) => s.close(resolve));
    }),
  );
});

/** A tiny OpenAI-compatible chat server, the kind llama.cpp or Ollama serve; `mode` picks how it answers. */
async function fakeBackend(mode: 'ok' | 'error' | 'garbage' | 'hang'): Promise<Fake> {
  const requests: Fake['requests'] = [];
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => {
      raw += chunk;
    });
    req.on('end', () => {
      requests.push({ authorization: req.headers.authorization, body: JSON.parse(raw) });
      if (mode === 'hang') return;
      if (req.url !== '/v1/chat/completions' || mode === 'error') {
        res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"model crashed"}');
        return;
      }
      if (mode === 'garbage') {
        res.writeHead(200, { 'content-type': 'text/plain' }).end('not a completion');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id: 'x',
          object: 'chat.completion',
          created: 1,
          model: 'tiny-llama',
          choices: [
            {
              index: 0,
              message: { role: 'assistant', content: 'Greetings from the real model.' },
              finish_reason: 'stop',
            },
          ],
          usage: { prompt_tokens: 7, completion_tokens: 6, total_tokens: 13 },
        }),
      );
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function closedPortUrl(): Promise<string> {
  const fake = await fakeBackend('ok');
  servers.pop();
  await fake.close();
  return fake.url;
}

const chat = { client_id: 'p1', messages: [{ role: 'user', content: 'Hello there' }] };

describe('OpenAI-compatible text backend', () => {
  it('sends the conversation to the backend with its key and model, and relays the answer', async () => {
    const fake = await fakeBackend('ok');
    const app = await engine([
      { key: KEY, text: { backend: { base_url: fake.url, model: 'tiny-llama', api_key: 'backend-secret' } } },
    ]);
    const res = await app.inject({
      method: 'POST',
      url: '/v1/chat/completions',
      headers: auth(),
      payload: { ...chat, temperature: 0.3 },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      model: 'tiny-llama',
      choices: [{ message: { content: 'Greetings from the real model.' } }],
      usage: { total_tokens: 13 },
    });
    expect(fake.requests[0]).toMatchObject({
      authorization: 'Bearer backend-secret',
      body: { model: 'tiny-llama', temperature: 0.3, messages: chat.messages },
    });
  });

  it.each(['error', 'garbage'] as const)(
    'falls back to the procedural writer when the backend answers %s',
    async (mode) => {
      const fake = await fakeBackend(mode);
      const app = await engine([
        {
          key: KEY,
          credits: 5,
          text: { backend: { base_url: fake.url, model: 'tiny-llama' }, fallback: 'procedural' },
        },
      ]);
      const res = await app.inject({
        method: 'POST',
        url: '/v1/chat/completions',
        headers: auth(),
        payload: chat,
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().model).toBe('lootsmith-writer-1');
      expect(fake.requests).toHaveLength(1);
      const usage = (await app.inject({ method: 'GET', url: '/v1/usage', headers: auth() })).json();
      expect(usage.credits_remaining).toBe(4);
    },
  );

  it('falls back when the backend does not answer within its timeout', async () => {
    const fake = await fakeBackend('hang');
    const app = await engine([
      { key: KEY, text: { backend: { base_url: fake.url, model: 'tiny-llama', timeout_ms: 300 } } },
    ]);
    const res = await app.inject({
      method: 'POST',
      url: '/v1/chat/completions',
      headers: auth(),
      payload: chat,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().model).toBe('lootsmith-writer-1');
    expect(fake.requests).toHaveLength(1);
  });

  it('falls back when the backend is down', async () => {
    const app = await engine([
      { key: KEY, text: { backend: { base_url: await closedPortUrl(), model: 'tiny-llama' } } },
    ]);
    const res = await app.inject({
      method: 'POST',
      url: '/v1/chat/completions',
      headers: auth(),
      payload: chat,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().choices[0].message.content.length).toBeGreaterThan(0);
  });

  it('answers 502 and charges nothing when the backend is down and there is no fallback', async () => {
    const app = await engine([
      {
        key: KEY,
        credits: 5,
        text: { backend: { base_url: await closedPortUrl(), model: 'tiny-llama' }, fallback: 'none' },
      },
    ]);
    const res = await app.inject({
      method: 'POST',
      url: '/v1/chat/completions',
      headers: auth(),
      payload: chat,
    });
    expect(res.statusCode).toBe(502);
    expect(res.json().error.code).toBe('upstream_unavailable');
    const usage = (await app.inject({ method: 'GET', url: '/v1/usage', headers: auth() })).json();
    expect(usage).toMatchObject({ credits_remaining: 5, totals: { requests: 0, credits_spent: 0 } });
  });

  it('answers 502 without charge when the backend fails and there is no fallback, also when streaming', async () => {
    const fake = await fakeBackend('error');
    const app = await engine([
      {
        key: KEY,
        credits: 1,
        text: { backend: { base_url: fake.url, model: 'tiny-llama' }, fallback: 'none' },
      },
    ]);
    const res = await app.inject({
      method: 'POST',
      url: '/v1/chat/completions',
      headers: auth(),
      payload: { ...chat, stream: true },
    });
    expect(res.statusCode).toBe(502);
    const again = await app.inject({
      method: 'POST',
      url: '/v1/chat/completions',
      headers: auth(),
      payload: { ...chat, model: 'lootsmith-writer-1' },
    });
    expect(again.statusCode).toBe(200);
  });
});
