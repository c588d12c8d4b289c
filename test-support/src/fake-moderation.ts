// A fake of OpenAI's moderation endpoint as its API reference documents it
// (platform.openai.com/docs/api-reference/moderations/create): POST /v1/moderations with a Bearer key,
// body {input: string | string[], model?}, answered {id, model, results: [{flagged, categories,
// category_scores}]}, one result per input in order; a wrong key gets 401 with the error body
// {error: {message, type, param, code}}. It flags any text containing one of `flag`'s words.
import { createServer } from 'node:http';
import { listenOnLoopback } from './listen.ts';

const CATEGORIES = ['harassment', 'hate', 'self-harm', 'sexual', 'violence'];

export interface FakeModeration {
  url: string;
  key: string;
  /** Words that make a text flagged, with the category it is flagged for. */
  flag: Record<string, string>;
  /** Texts asked about, in order. */
  seen: string[];
  down: boolean;
  close(): Promise<void>;
}

export async function startFakeModeration(key = 'moderation-key-0123456789'): Promise<FakeModeration> {
  const state: FakeModeration = { url: '', key, flag: {}, seen: [], down: false, close: async () => {} };
  const server = createServer(async (req, res) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (state.down)
      return send(503, { error: { message: 'overloaded', type: 'server_error', param: null, code: null } });
    if (req.method !== 'POST' || req.url !== '/v1/moderations')
      return send(404, {
        error: { message: 'not found', type: 'invalid_request_error', param: null, code: null },
      });
    if (req.headers.authorization !== `Bearer ${state.key}`)
      return send(401, {
        error: {
          message: 'Incorrect API key provided',
          type: 'invalid_request_error',
          param: null,
          code: 'invalid_api_key',
        },
      });
    const body = JSON.parse(raw || '{}') as { input?: string | string[]; model?: string };
    const inputs = typeof body.input === 'string' ? [body.input] : (body.input ?? []);
    state.seen.push(...inputs);
    send(200, {
      id: `modr-${state.seen.length}`,
      model: body.model ?? 'omni-moderation-latest',
      results: inputs.map((text) => {
        const hit = Object.entries(state.flag).find(([word]) => text.toLowerCase().includes(word));
        const categories = Object.fromEntries(CATEGORIES.map((c) => [c, hit?.[1] === c]));
        return {
          flagged: !!hit,
          categories,
          category_scores: Object.fromEntries(CATEGORIES.map((c) => [c, categories[c] ? 0.98 : 0.001])),
        };
      }),
    });
  });
  const listening = await listenOnLoopback(server);
  state.url = `${listening.url}/v1`;
  state.close = listening.close;
  return state;
}
