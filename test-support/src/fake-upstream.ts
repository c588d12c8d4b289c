// One fake of every backend Lootsmith speaks, each as its public reference documents it:
// - the spec's /v1 service: POST /v1/chat/completions and /v1/image/generations (docs/SPEC.md);
// - OpenAI chat completions (platform.openai.com/docs/api-reference/chat/create): `user` for the
//   end user and 400 "Unrecognized request argument supplied" for unknown fields such as client_id,
//   401 "Incorrect API key provided", 404 model_not_found, structured outputs with strict-mode schema
//   checks (every object closed, every property required, 400 "… is not permitted" for unsupported
//   keywords), `message.refusal`, GET /v1/models; error bodies {error: {message, type, param, code}};
// - OpenAI Images (POST /v1/images/generations): `data[0].b64_json`, sizes 1024x1024…;
// - the AUTOMATIC1111 API (modules/api/api.py): POST /sdapi/v1/txt2img → {images, parameters, info},
//   one job at a time (its queue_lock), HTTP Basic from --api-auth with 401 {"detail": "Incorrect
//   username or password"}, GET /sdapi/v1/sd-models;
// - ComfyUI (server.py): POST /prompt → {prompt_id, number, node_errors} or 400 {error, node_errors},
//   GET /history/{id} ({} until done), GET /view?filename&subfolder&type, GET /system_stats,
//   GET /object_info/CheckpointLoaderSimple; one prompt executed at a time.
// Each can be slow (delays), down or wrong (modes, a script of modes, a hostile answer). The spec's
// /v1 calls can instead be relayed to a real /v1 service (the embedded engine: real items, real icons).
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { startEngine } from '@lootsmith/engine';
import { parsePrompt } from '@lootsmith/protocol';
import sharp from 'sharp';
import { listenOnLoopback } from './listen.ts';
import { TINY_PNG } from './png.ts';

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
    effects: [] as Array<{ id: string; params: Record<string, number> }>,
    value: 10,
    look: { noun: 'blade', materials: ['iron'], colors: [] as string[], features: [] as string[] },
  }));
}

/** What a hostile backend sends instead of the scripted answer: a raw answer, an "image" in the API's own
 * shape (base64 text, as the API carries it), or a body dripped a byte at a time. */
export type HostileAnswer =
  | { status: number; body: string | Buffer; headers?: Record<string, string>; afterMs?: number }
  | { image: string; afterMs?: number }
  | { trickle: string; everyMs: number };

/** The request a hostile answer is chosen for. */
export interface SeenRequest {
  path: string;
  /** Which kind of generation the request asks for, whatever the API. */
  kind: 'chat' | 'image';
  authorization: string;
  body: { messages?: Array<{ role: string; content: string }>; [key: string]: unknown };
  /** The image prompt, whatever the API (ComfyUI's is inside its workflow), or the chat messages. */
  prompt: string;
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

/** How an OpenAI-compatible chat server takes `response_format`: as OpenAI does, or less. */
export type StructuredSupport = 'json_schema' | 'json_object' | 'none' | 'ignores';

export interface FakeUpstream {
  url: string;
  mode: FakeMode;
  /** Milliseconds every successful answer waits before it is sent. */
  delayMs: number;
  /** Extra milliseconds before chat and image answers (a hosted model's pace; a GPU's time per image). */
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
  /** `openai`: /v1/chat/completions refuses what OpenAI refuses (client_id, unknown models). */
  chatApi: 'v1' | 'openai';
  structured: StructuredSupport;
  /** Models the OpenAI-style APIs, sdapi and ComfyUI have; another is refused as each refuses it. */
  models: string[];
  /** Credentials checked when set: a Bearer key (OpenAI, ComfyUI behind a proxy), user:password (sdapi). */
  keys: { bearer?: string; basic?: string };
  /** What the painting APIs (OpenAI Images, sdapi, ComfyUI) encode their pictures as. */
  imageFormat: 'png' | 'jpeg' | 'webp';
  /** Image jobs sdapi and ComfyUI run now, and the most seen at once (they paint one at a time). */
  painting: { now: number; most: number };
  /** Response formats asked of chat, in order (to see what was learnt). */
  formats: string[];
  /** When set, the spec's /v1 calls are answered by this /v1 service (after the pace) instead. */
  relay?: string;
  /** Relayed images are paced like a single GPU: one starts only when the one before is done. */
  oneImageAtATime?: boolean;
  /**
   * When set, relayed images wait for it after their pace: a test holds icons back until it has seen
   * what comes before them, however slow the machine.
   */
  imageGate?: Promise<unknown>;
  /** When set, chat answers wait for it after their pace: a test holds the model until callers have joined. */
  chatGate?: Promise<unknown>;
  close(): Promise<void>;
}

const GENERATIONS = new Set([
  '/v1/chat/completions',
  '/v1/image/generations',
  '/v1/images/generations',
  '/sdapi/v1/txt2img',
  '/prompt',
]);
/** Keywords OpenAI's strict mode refuses somewhere (lengths, bounds, patterns, formats). */
const NOT_PERMITTED = [
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'minItems',
  'maxItems',
  'pattern',
  'format',
];

/** Why OpenAI would refuse a schema in strict mode, or undefined when it would take it. */
export function strictRefusal(schema: unknown, context: string[] = []): string | undefined {
  if (!schema || typeof schema !== 'object') return undefined;
  const s = schema as Record<string, unknown>;
  const where = `In context=(${context.map((c) => `'${c}'`).join(', ')})`;
  for (const k of NOT_PERMITTED) if (k in s) return `${where}, '${k}' is not permitted.`;
  if (s.type === 'object' || s.properties) {
    if (s.additionalProperties !== false)
      return `${where}, 'additionalProperties' is required to be supplied and to be false.`;
    const keys = Object.keys((s.properties as object) ?? {});
    const required = (s.required as string[] | undefined) ?? [];
    const missing = keys.find((k) => !required.includes(k));
    if (missing)
      return `${where}, 'required' is required to be supplied and to be an array including every key in properties. Missing '${missing}'.`;
    for (const k of keys) {
      const inner = strictRefusal((s.properties as Record<string, unknown>)[k], [
        ...context,
        'properties',
        k,
      ]);
      if (inner) return inner;
    }
  }
  if (s.items) return strictRefusal(s.items, [...context, 'items']);
  for (const [i, v] of ((s.anyOf as unknown[]) ?? []).entries()) {
    const inner = strictRefusal(v, [...context, 'anyOf', String(i)]);
    if (inner) return inner;
  }
  return undefined;
}

/** The text a request asks for: a chat's messages, an image prompt, or the first text of a ComfyUI workflow. */
function promptOf(body: SeenRequest['body']): string {
  if (body.messages) return body.messages.map((m) => m.content).join('\n');
  if (typeof body.prompt === 'string') return body.prompt;
  const nodes = Object.values((body.prompt ?? {}) as Record<string, { inputs?: { text?: unknown } }>);
  return String(nodes.find((n) => typeof n.inputs?.text === 'string')?.inputs?.text ?? '');
}

/** A picture as a model paints an item: a red disc on a flat white background. */
async function painting(width: number, height: number, format: FakeUpstream['imageFormat']): Promise<Buffer> {
  const r = Math.min(width, height) / 4;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#fff"/><circle cx="${width / 2}" cy="${height / 2}" r="${r}" fill="#b02818"/></svg>`;
  return sharp(Buffer.from(svg)).toFormat(format).toBuffer();
}

export async function startFakeUpstream(mode: FakeMode = 'ok'): Promise<FakeUpstream> {
  /** When the single GPU is free again (`oneImageAtATime`). */
  let gpuFree = 0;
  const state: FakeUpstream = {
    url: '',
    mode,
    delayMs: 0,
    chatDelayMs: 0,
    imageDelayMs: 0,
    script: [],
    calls: { chat: 0, image: 0 },
    itemsFor,
    chatApi: 'v1',
    structured: 'json_schema',
    models: [
      'fake-chat',
      'gpt-image-1-mini',
      'v1-5-pruned-emaonly-fp16.safetensors',
      'sd_xl_base_1.0.safetensors',
    ],
    keys: {},
    imageFormat: 'png',
    painting: { now: 0, most: 0 },
    formats: [],
    close: async () => {},
  };
  /** The one-at-a-time GPU of sdapi and ComfyUI. */
  let gpu: Promise<unknown> = Promise.resolve();
  const onGpu = <T>(work: () => Promise<T>): Promise<T> => {
    const run = gpu.then(async () => {
      state.painting.now++;
      state.painting.most = Math.max(state.painting.most, state.painting.now);
      try {
        return await work();
      } finally {
        state.painting.now--;
      }
    });
    gpu = run.catch(() => {});
    return run;
  };
  /** ComfyUI's history: prompt id → its entry once executed; its images by file name. */
  const history = new Map<string, unknown>();
  const files = new Map<string, Buffer>();

  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const url = new URL(req.url ?? '/', 'http://fake');
    // ComfyUI serves every route under /api too; OpenRouter's base URL is …/api/v1.
    const path = url.pathname.replace(/^\/api(?=\/)/, '');
    state.lastAuth = req.headers.authorization;
    let body: SeenRequest['body'];
    try {
      body = JSON.parse(raw || '{}');
    } catch {
      body = {};
    }
    const family = path.startsWith('/sdapi/') ? 'sdapi' : path.startsWith('/v1/') ? 'openai' : 'comfyui';
    const send = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
      if (res.destroyed) return;
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(typeof payload === 'string' || Buffer.isBuffer(payload) ? payload : JSON.stringify(payload));
    };
    /** An error in the body shape of the API the path belongs to. */
    const fail = (status: number, message: string, extra: Record<string, unknown> = {}) => {
      if (family === 'sdapi')
        return send(status, { error: 'HTTPException', detail: message, body: '', errors: message });
      if (family === 'comfyui')
        return send(status, {
          error: { type: 'error', message, details: '', extra_info: {} },
          node_errors: {},
        });
      if (path === '/v1/image/generations' || state.chatApi === 'v1')
        return send(status, { error: { code: extra.code ?? 'error', message } });
      return send(status, {
        error: { message, type: 'invalid_request_error', param: null, code: null, ...extra },
      });
    };

    // Credentials, as each API checks them (ComfyUI has none of its own: a proxy's Bearer key).
    const auth = req.headers.authorization ?? '';
    if (
      family === 'sdapi' &&
      state.keys.basic &&
      auth !== `Basic ${Buffer.from(state.keys.basic).toString('base64')}`
    )
      return send(
        401,
        { error: 'HTTPException', detail: 'Incorrect username or password', body: '', errors: '' },
        { 'www-authenticate': 'Basic' },
      );
    if (family !== 'sdapi' && state.keys.bearer && auth !== `Bearer ${state.keys.bearer}`)
      return fail(
        401,
        `Incorrect API key provided: ${auth.slice(7, 10)}***. You can find your API key at https://platform.openai.com/account/api-keys.`,
        { code: 'invalid_api_key' },
      );

    // Read-only routes of the APIs (listings, ComfyUI's history and files).
    if (req.method === 'GET') {
      if (path === '/v1/models')
        return send(200, {
          object: 'list',
          data: state.models.map((id) => ({ id, object: 'model', created: 1, owned_by: 'fake' })),
        });
      if (path === '/sdapi/v1/sd-models')
        return send(
          200,
          state.models.map((m) => ({
            title: m,
            model_name: m.replace(/\.\w+$/, ''),
            hash: null,
            sha256: null,
            filename: `/models/${m}`,
            config: null,
          })),
        );
      if (path === '/system_stats')
        return send(200, { system: { os: 'posix', comfyui_version: 'fake' }, devices: [] });
      if (path === '/object_info/CheckpointLoaderSimple')
        return send(200, {
          CheckpointLoaderSimple: {
            input: { required: { ckpt_name: [state.models] } },
            output: ['MODEL', 'CLIP', 'VAE'],
          },
        });
      if (path.startsWith('/history/'))
        return send(200, history.has(path.slice(9)) ? { [path.slice(9)]: history.get(path.slice(9)) } : {});
      if (path === '/view') {
        const file = files.get(url.searchParams.get('filename') ?? '');
        if (!file || url.searchParams.get('type') !== 'output') return send(404, '');
        res.writeHead(200, { 'content-type': 'image/png' });
        return res.end(file);
      }
      return send(404, { detail: 'Not Found' });
    }
    if (path === '/queue') return send(200, '');
    if (!GENERATIONS.has(path)) return send(404, { detail: 'Not Found' });
    const kind = path === '/v1/chat/completions' ? 'chat' : 'image';
    const hostile = state.hostile?.({ path, kind, authorization: auth, body, prompt: promptOf(body) });
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
    if (hostile?.afterMs) await new Promise((r) => setTimeout(r, hostile.afterMs));
    if (hostile && 'status' in hostile) {
      if (res.destroyed) return;
      res.writeHead(hostile.status, { 'content-type': 'application/json', ...hostile.headers });
      return res.end(hostile.body);
    }

    const current = state.script.shift() ?? state.mode;
    const pace = state.delayMs + (kind === 'image' ? state.imageDelayMs : state.chatDelayMs);
    if (current === 'down') return req.socket.destroy();
    if (current === 'slow') return setTimeout(() => fail(500, 'late'), 3_000).unref();
    if (current === 'error500') return fail(500, 'boom', { code: 'internal' });
    if (current === 'rate429')
      return send(429, { error: { code: 'rate', message: 'slow down' } }, { 'retry-after': '0' });
    if (current === 'forbidden') return fail(401, 'bad key', { code: 'unauthorized' });

    if (state.relay && (path === '/v1/chat/completions' || path === '/v1/image/generations')) {
      const answer = await fetch(state.relay + path, {
        method: 'POST',
        headers: { authorization: auth, 'content-type': 'application/json' },
        body: raw,
      });
      const relayed = Buffer.from(await answer.arrayBuffer());
      let wait = pace;
      if (kind === 'image' && state.oneImageAtATime) {
        gpuFree = Math.max(Date.now(), gpuFree) + pace;
        wait = gpuFree - Date.now();
      }
      if (wait) await new Promise((r) => setTimeout(r, wait));
      if (kind === 'image' && state.imageGate) await state.imageGate;
      state.calls[kind]++;
      return send(answer.status, relayed, {
        'content-type': answer.headers.get('content-type') ?? 'application/json',
      });
    }

    if (kind === 'image') {
      const image = async (width: number, height: number) =>
        hostile && 'image' in hostile
          ? hostile.image
          : (await painting(width, height, state.imageFormat)).toString('base64');
      if (path === '/v1/image/generations') {
        if (pace) await new Promise((r) => setTimeout(r, pace));
        state.calls.image++;
        return send(200, {
          image: hostile && 'image' in hostile ? hostile.image : TINY_PNG.toString('base64'),
        });
      }
      if (path === '/v1/images/generations') {
        const unknown = Object.keys(body).find(
          (k) =>
            ![
              'model',
              'prompt',
              'n',
              'size',
              'quality',
              'background',
              'output_format',
              'output_compression',
              'moderation',
              'response_format',
              'style',
              'user',
            ].includes(k),
        );
        if (unknown)
          return fail(400, `Unknown parameter: '${unknown}'.`, { param: unknown, code: 'unknown_parameter' });
        if (!state.models.includes(String(body.model)))
          return fail(404, `The model \`${body.model}\` does not exist or you do not have access to it.`, {
            code: 'model_not_found',
          });
        if (pace) await new Promise((r) => setTimeout(r, pace));
        state.calls.image++;
        const [w, h] = String(body.size ?? '1024x1024')
          .split('x')
          .map(Number);
        return send(200, {
          created: 1,
          data: [{ b64_json: await image(w as number, h as number) }],
          background: body.background,
          output_format: 'png',
          size: body.size,
          quality: body.quality,
        });
      }
      if (path === '/sdapi/v1/txt2img') {
        if (typeof body.prompt !== 'string')
          return send(422, {
            detail: [{ loc: ['body', 'prompt'], msg: 'field required', type: 'value_error.missing' }],
          });
        const answer = await onGpu(async () => {
          if (pace) await new Promise((r) => setTimeout(r, pace));
          return image(Number(body.width ?? 512), Number(body.height ?? 512));
        });
        state.calls.image++;
        return send(200, { images: [answer], parameters: body, info: JSON.stringify({ seed: body.seed }) });
      }
      // ComfyUI: validate the graph as its validate_prompt would (the checkpoint must exist), queue it,
      // execute one prompt at a time, then keep its outputs in the history.
      const graph = body.prompt as
        | Record<string, { class_type?: string; inputs?: Record<string, unknown> }>
        | undefined;
      if (!graph || typeof graph !== 'object') return send(400, { error: 'no prompt', node_errors: [] });
      for (const [id, node] of Object.entries(graph))
        if (
          node.class_type === 'CheckpointLoaderSimple' &&
          !state.models.includes(String(node.inputs?.ckpt_name))
        )
          return send(400, {
            error: {
              type: 'prompt_outputs_failed_validation',
              message: 'Prompt outputs failed validation',
              details: '',
              extra_info: {},
            },
            node_errors: {
              [id]: {
                errors: [
                  {
                    type: 'value_not_in_list',
                    message: 'Value not in list',
                    details: `ckpt_name: '${node.inputs?.ckpt_name}' not in ${JSON.stringify(state.models)}`,
                    extra_info: {},
                  },
                ],
                dependent_outputs: [],
                class_type: 'CheckpointLoaderSimple',
              },
            },
          });
      const latent = Object.values(graph).find((n) => n.class_type === 'EmptyLatentImage')?.inputs ?? {};
      const promptId = randomUUID();
      send(200, { prompt_id: promptId, number: state.calls.image, node_errors: {} });
      void onGpu(async () => {
        if (pace) await new Promise((r) => setTimeout(r, pace));
        const filename = `lootsmith_${promptId.slice(0, 8)}_.png`;
        files.set(
          filename,
          Buffer.from(await image(Number(latent.width ?? 512), Number(latent.height ?? 512)), 'base64'),
        );
        state.calls.image++;
        history.set(promptId, {
          prompt: [state.calls.image, promptId, graph, {}, ['9']],
          outputs: { '9': { images: [{ filename, subfolder: '', type: 'output' }] } },
          status: { status_str: 'success', completed: true, messages: [] },
        });
      });
      return;
    }

    // Chat, as the spec's /v1 service or an OpenAI-compatible server answers it.
    const format = body.response_format as
      | { type?: string; json_schema?: { name?: string; schema?: unknown; strict?: boolean } }
      | undefined;
    state.formats.push(format?.type ?? 'none');
    if (state.chatApi === 'openai') {
      if ('client_id' in body) return fail(400, 'Unrecognized request argument supplied: client_id');
      if (!state.models.includes(String(body.model)))
        return fail(404, `The model \`${body.model}\` does not exist or you do not have access to it.`, {
          code: 'model_not_found',
        });
      if (
        format?.type === 'json_schema' &&
        (state.structured === 'json_object' || state.structured === 'none')
      )
        return fail(
          400,
          "Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model.",
          { param: 'response_format' },
        );
      if (format?.type === 'json_object' && state.structured === 'none')
        return fail(
          400,
          "Invalid parameter: 'response_format' of type 'json_object' is not supported with this model.",
          { param: 'response_format' },
        );
      if (format?.type === 'json_schema' && format.json_schema?.strict) {
        const refusal = strictRefusal(format.json_schema.schema);
        if (refusal)
          return fail(400, `Invalid schema for response_format '${format.json_schema.name}': ${refusal}`, {
            param: 'response_format',
          });
      }
    }
    if (pace) await new Promise((r) => setTimeout(r, pace));
    if (state.chatGate) await state.chatGate;
    state.calls.chat++;
    const prompt = (body.messages as Array<{ content: string }>).map((m) => m.content).join('\n');
    const combining = prompt.includes('Combine:');
    let content: string | null;
    const items = state.itemsFor(prompt, state.calls.chat);
    if (current === 'garbage') content = 'lorem ipsum }{ not json at all';
    // OpenAI's structured outputs refuse in `message.refusal`, with no content.
    else if (current === 'refuse')
      content = state.chatApi === 'openai' ? null : 'I cannot help with that request.';
    else if (current === 'invalid') content = JSON.stringify({ items: [{ name: 'x' }] });
    else if (current === 'senseless')
      content = JSON.stringify({
        sensible: false,
        message: 'Fire and frost cancel out.',
        suggestions: ['Try iron with ember essence'],
        item: null,
      });
    // A developer's own schema with a damage field (the game's own prompts name damage only in effects).
    else if (prompt.includes('"damage"') && !prompt.includes('Effects:'))
      content = JSON.stringify({ name: 'Frostbite', damage: 12 });
    else if (combining)
      content = JSON.stringify({ sensible: true, message: 'It works.', suggestions: [], item: items[0] });
    else content = JSON.stringify({ items });
    // A server that ignores the schema answers the gist in its own shape.
    if (state.structured === 'ignores' && state.chatApi === 'openai')
      content = `Here you go: ${JSON.stringify({ result: JSON.parse(content ?? 'null') })}`;
    const finish = current === 'truncated' ? 'length' : 'stop';
    if (current === 'truncated') content = (content ?? '').slice(0, 40);
    return send(200, {
      id: `chatcmpl-${state.calls.chat}`,
      object: 'chat.completion',
      created: 1,
      model: state.chatApi === 'openai' ? String(body.model) : 'fake',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content,
            ...(state.chatApi === 'openai'
              ? { refusal: content === null ? 'I’m sorry, I can’t help with that request.' : null }
              : {}),
          },
          logprobs: null,
          finish_reason: finish,
        },
      ],
      usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
      ...(state.chatApi === 'openai' ? { system_fingerprint: 'fp_fake', service_tier: 'default' } : {}),
    });
  });
  Object.assign(state, await listenOnLoopback(server));
  return state;
}

/** The fake as a hosted `/v1` service: the embedded engine's answers, each sent after a hosted model's pace. */
export type PacedUpstream = FakeUpstream & {
  /** The engine's key, for LOOTSMITH_UPSTREAM_KEY. */ key: string;
};

export async function startPacedUpstream(pace: {
  chatMs: number;
  imageMs: number;
  /** Paint like a single GPU: an image starts only when the one before is done. */
  oneImageAtATime?: boolean;
}): Promise<PacedUpstream> {
  const engine = await startEngine({ host: '127.0.0.1', port: 0 });
  const fake = await startFakeUpstream();
  const closeFake = fake.close;
  return Object.assign(fake, {
    relay: engine.url,
    chatDelayMs: pace.chatMs,
    imageDelayMs: pace.imageMs,
    oneImageAtATime: pace.oneImageAtATime ?? false,
    key: engine.key,
    async close() {
      await closeFake();
      await engine.close();
    },
  });
}
