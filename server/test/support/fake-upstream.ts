import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { deflateSync } from 'node:zlib';
import { parsePrompt } from '@lootsmith/protocol';

export type FakeMode =
  | 'ok'
  | 'down'
  | 'slow'
  | 'error500'
  | 'rate429'
  | 'garbage'
  | 'invalid'
  | 'truncated'
  | 'refuse'
  | 'senseless'
  | 'forbidden';

/** A tiny valid PNG (1×1), so icons decode. */
export const TINY_PNG = (() => {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const b of buf) c = (crcTable[(c ^ b) & 0xff] as number) ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([len, body, sum]);
  };
  const ihdr = Buffer.from([0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0]);
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.from([0, 200, 80, 40, 255]))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
})();

/** Writes items that obey the "Item N:" (or a craft's "Result:") lines of the pipeline's prompt, as a well-behaved model would. */
export function itemsFor(prompt: string, call: number) {
  const { items, result } = parsePrompt(prompt).prompt;
  const specs = items ?? (result ? [{ type: 'WEAPON' as const, ...result }] : []);
  return specs.map((spec, i) => ({
    name: `Fake Blade ${call}-${i}`,
    type: spec.type ?? 'WEAPON',
    subtype: spec.subtype ?? 'sword',
    rarity: spec.rarity ?? 'COMMON',
    level: spec.level ?? 1,
    element: 'none',
    material: 'iron',
    description: 'A plain test blade.',
    lore: 'Forged for a test suite.',
    stats: [{ name: 'attack', value: Math.max(1, Math.floor((spec.budget ?? 10) * 0.9)) }],
    affixes: [] as Array<{ name: string; effect: string }>,
    value: 10,
  }));
}

/** What a hostile upstream sends instead of the scripted answer; `trickle` drips a body a byte at a time. */
export type HostileAnswer =
  | { status: number; body: string | Buffer; headers?: Record<string, string>; afterMs?: number }
  | { trickle: string; everyMs: number };

/** The request a hostile answer is chosen for. */
export interface SeenRequest {
  path: string;
  authorization: string;
  body: { messages?: Array<{ role: string; content: string }>; [key: string]: unknown };
}

/** A chat completion whose one message is `content`, with `extra` fields beside the standard ones. */
export function completion(content: string, extra: Record<string, unknown> = {}) {
  return JSON.stringify({
    id: 'chatcmpl-hostile',
    object: 'chat.completion',
    created: 1,
    model: 'fake',
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
    ...extra,
  });
}

export interface FakeUpstream {
  url: string;
  mode: FakeMode;
  /** Milliseconds every successful answer waits before it is sent. */
  delayMs: number;
  /** Extra milliseconds before chat and image answers (a hosted model's pace). */
  chatDelayMs: number;
  imageDelayMs: number;
  /** Modes for the next calls, taken in order before `mode` applies. */
  script: FakeMode[];
  calls: { chat: number; image: number };
  lastAuth?: string;
  /** When set and it returns an answer, that answer is sent instead (a misbehaving model or service). */
  hostile?: (request: SeenRequest) => HostileAnswer | undefined;
  /** Writes the items of a well-behaved answer: change a field to test one rule at a time. */
  itemsFor: typeof itemsFor;
  close(): Promise<void>;
}

export async function startFakeUpstream(mode: FakeMode = 'ok'): Promise<FakeUpstream> {
  const state: FakeUpstream = {
    url: '',
    mode,
    delayMs: 0,
    chatDelayMs: 0,
    imageDelayMs: 0,
    script: [],
    calls: { chat: 0, image: 0 },
    itemsFor,
    close: async () => {},
  };
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    state.lastAuth = req.headers.authorization;
    const body = JSON.parse(raw || '{}');
    const hostile = state.hostile?.({
      path: req.url ?? '',
      authorization: req.headers.authorization ?? '',
      body,
    });
    if (hostile && 'trickle' in hostile) {
      res.writeHead(200, { 'content-type': 'application/json' });
      let at = 0;
      const drip = setInterval(() => {
        if (at >= hostile.trickle.length || res.destroyed) {
          clearInterval(drip);
          res.end();
        } else res.write(hostile.trickle[at++]);
      }, hostile.everyMs);
      res.on('close', () => clearInterval(drip));
      return;
    }
    if (hostile) {
      if (hostile.afterMs) await new Promise((r) => setTimeout(r, hostile.afterMs));
      if (res.destroyed) return;
      res.writeHead(hostile.status, { 'content-type': 'application/json', ...hostile.headers });
      return res.end(hostile.body);
    }
    const current = state.script.shift() ?? state.mode;
    const pace =
      state.delayMs + (req.url === '/v1/image/generations' ? state.imageDelayMs : state.chatDelayMs);
    if (pace) await new Promise((r) => setTimeout(r, pace));
    const send = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(typeof payload === 'string' ? payload : JSON.stringify(payload));
    };
    if (current === 'down') return req.socket.destroy();
    if (current === 'slow') return setTimeout(() => send(500, { error: 'late' }), 3_000).unref();
    if (current === 'error500') return send(500, { error: { code: 'internal', message: 'boom' } });
    if (current === 'rate429')
      return send(429, { error: { code: 'rate', message: 'slow down' } }, { 'retry-after': '0' });
    if (current === 'forbidden') return send(401, { error: { code: 'unauthorized', message: 'bad key' } });
    if (req.url === '/v1/image/generations') {
      state.calls.image++;
      return send(200, { image: TINY_PNG.toString('base64') });
    }
    state.calls.chat++;
    const prompt = (body.messages as Array<{ content: string }>).map((m) => m.content).join('\n');
    const combining = prompt.includes('Combine:');
    let content: string;
    const items = state.itemsFor(prompt, state.calls.chat);
    if (current === 'garbage') content = 'lorem ipsum }{ not json at all';
    else if (current === 'refuse') content = 'I cannot help with that request.';
    else if (current === 'invalid') content = JSON.stringify({ items: [{ name: 'x' }] });
    else if (current === 'senseless')
      content = JSON.stringify({
        sensible: false,
        message: 'Fire and frost cancel out.',
        suggestions: ['Try iron with ember essence'],
        item: null,
      });
    else if (combining)
      content = JSON.stringify({ sensible: true, message: 'It works.', suggestions: [], item: items[0] });
    else content = JSON.stringify({ items });
    const finish = current === 'truncated' ? 'length' : 'stop';
    if (current === 'truncated') content = content.slice(0, 40);
    return send(200, {
      id: `chatcmpl-${state.calls.chat}`,
      object: 'chat.completion',
      created: 1,
      model: 'fake',
      choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: finish }],
      usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () =>
    new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    });
  return state;
}
