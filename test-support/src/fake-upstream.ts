// One fake of every backend Lootsmith speaks, each as its public reference documents it:
// - the spec's /v1 service: POST /v1/chat/completions and /v1/image/generations (docs/SPEC.md);
// - OpenAI chat completions (platform.openai.com/docs/api-reference/chat/create): `user` for the
//   end user and 400 "Unrecognized request argument supplied" for unknown fields such as client_id,
//   401 "Incorrect API key provided", 404 model_not_found, structured outputs with strict-mode schema
//   checks (every object closed, every property required, 400 "… is not permitted" for unsupported
//   keywords), `message.refusal`, GET /v1/models; error bodies {error: {message, type, param, code}};
//   `usage` with the prompt's and the answer's tokens (counted about four bytes a token);
// - OpenAI Images (POST /v1/images/generations): `data[0].b64_json`, sizes 1024x1024…; and its
//   edits (POST /v1/images/edits, platform.openai.com/docs/api-reference/images/createEdit and the
//   openai-node SDK's ImageEditParams): multipart/form-data only, the images as `image[]` (up to 16
//   png, webp or jpg for the GPT image models; one square png for dall-e-2; no other model), sizes
//   1024x1024, 1536x1024, 1024x1536 or auto (256x256, 512x512, 1024x1024 for dall-e-2),
//   `response_format` for dall-e-2 only, `input_fidelity` not for gpt-image-1-mini;
// - the AUTOMATIC1111 API (modules/api/api.py): POST /sdapi/v1/txt2img → {images, parameters, info},
//   one job at a time (its queue_lock), HTTP Basic from --api-auth with 401 {"detail": "Incorrect
//   username or password"}, GET /sdapi/v1/sd-models; `alwayson_scripts` by script title, any case,
//   422 "always on script … not found" for one it lacks; the ControlNet extension's units
//   (sd-webui-controlnet, internal_controlnet/args.py and scripts/controlnet.py: enabled, module,
//   model, weight 0–2, image as base64 or a list of {image}), whose errors (no model, a model or
//   module it lacks, no image) the web UI prints in its console and paints on without the unit
//   (modules/scripts.py catches what an always-on script's `process` raises); GET
//   /controlnet/model_list and /controlnet/module_list;
// - ComfyUI (server.py): POST /prompt → {prompt_id, number, node_errors} or 400 {error, node_errors},
//   GET /history/{id} ({} until done), GET /view?filename&subfolder&type, GET /system_stats,
//   GET /object_info/CheckpointLoaderSimple; one prompt executed at a time; POST /upload/image
//   (multipart `image`, `type`, `subfolder`, `overwrite`) → {name, subfolder, type}, a clash renamed
//   "name (1).png" unless overwrite or the same bytes, 400 with no body without a file; a LoadImage
//   node whose image is not in the input folder refused as its VALIDATE_INPUTS does.
// The image APIs paint a red disc on white, or with `picture = 'smooth'` a smooth full-colour 1024²
// picture on white (what a real model paints), whatever size was asked.
// Each can be slow (delays), down or wrong (modes, a script of modes, a hostile answer). The spec's
// /v1 calls can instead be relayed to a real /v1 service (the embedded engine: real items, real icons).
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { startEngine } from '@lootsmith/engine';
import { parsePrompt } from '@lootsmith/protocol';
import sharp from 'sharp';
import { listenOnLoopback } from './listen.ts';
import { smoothPicture, TINY_PNG } from './png.ts';

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

/**
 * Writes items that obey the "Item N:" (or a craft's "Result:") lines of the pipeline's prompt, as a
 * well-behaved model would: nine tenths of the budget, the main stat (attack when the line names
 * none) the most its range allows, the rest as luck (the shipped fantasy game's stat every type carries).
 */
export function itemsFor(prompt: string, call: number) {
  const { items, result } = parsePrompt(prompt).prompt;
  const specs = items ?? (result ? [{ type: 'WEAPON' as const, ...result }] : []);
  const statsOf = ({ budget = 10, main }: (typeof specs)[number]) => {
    const total = Math.max(1, Math.floor(budget * 0.9));
    const name = main?.stat ?? 'attack';
    const value = main ? Math.min(main.most, total) : total;
    const spare = name === 'luck' ? 'health' : 'luck';
    return [{ name, value }, ...(total > value ? [{ name: spare, value: total - value }] : [])];
  };
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
    stats: statsOf(spec),
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
  /** The files of a multipart request (OpenAI's edits, ComfyUI's uploads), by field. */
  files?: Array<{ field: string; name: string; type: string; bytes: Buffer }>;
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

/**
 * The usage a chat API reports, counted as a BPE tokenizer roughly does: a token for every four bytes
 * of text (at least one), and 4 tokens of each message's framing in the prompt.
 */
export function usageOf(messages: Array<{ content: string }>, content: string | null) {
  const tokens = (text: string) => Math.max(1, Math.ceil(Buffer.byteLength(text) / 4));
  const prompt_tokens = messages.reduce((sum, m) => sum + tokens(m.content) + 4, 0);
  const completion_tokens = content === null ? 0 : tokens(content);
  return { prompt_tokens, completion_tokens, total_tokens: prompt_tokens + completion_tokens };
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
  /**
   * What the image APIs paint: a red disc on white at the size asked (and the /v1 service a tiny
   * PNG), or `smooth`: a 1024² full-colour picture with gradients and soft edges on white, as a
   * real model paints, whatever size was asked.
   */
  picture: 'disc' | 'smooth';
  /** The last requests that reached a generation or upload route (at most 200), to see what each API was told. */
  seen: SeenRequest[];
  /** What sdapi's console printed: errors of its always-on scripts, which it paints on without. */
  sdapiConsole: string[];
  /** ControlNet models and preprocessors sdapi's ControlNet extension has. */
  controlnet: { models: string[]; modules: string[] };
  /** ComfyUI's input folder: uploaded images by name. */
  comfyInputs: Map<string, Buffer>;
  /** Image jobs sdapi and ComfyUI run now, and the most seen at once (they paint one at a time). */
  painting: { now: number; most: number };
  /** Response formats asked of chat, in order (to see what was learnt). */
  formats: string[];
  /** The usage each chat answer reported, in order (what a price list charges). */
  usage: Array<ReturnType<typeof usageOf>>;
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
  '/v1/images/edits',
  '/sdapi/v1/txt2img',
  '/prompt',
]);
/** How many requests `seen` keeps (a soak test sends thousands). */
const SEEN_KEPT = 200;
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

/** A multipart body's fields (text) and files, parsed by the runtime's own fetch `Request.formData()`. */
async function multipart(raw: Buffer, contentType: string) {
  const form = await new Request('http://fake/', {
    method: 'POST',
    headers: { 'content-type': contentType },
    body: new Uint8Array(raw),
  }).formData();
  const fields: Record<string, string> = {};
  const files: NonNullable<SeenRequest['files']> = [];
  for (const [field, value] of form.entries()) {
    if (typeof value === 'string') fields[field] = value;
    else
      files.push({
        field,
        name: value.name,
        type: value.type,
        bytes: Buffer.from(await value.arrayBuffer()),
      });
  }
  return { fields, files };
}

/** What a file's first bytes say it is (OpenAI and ComfyUI look at the bytes, not the name). */
function sniff(bytes: Buffer): 'image/png' | 'image/jpeg' | 'image/webp' | undefined {
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'image/png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (
    bytes.subarray(0, 4).toString('latin1') === 'RIFF' &&
    bytes.subarray(8, 12).toString('latin1') === 'WEBP'
  )
    return 'image/webp';
  return undefined;
}

/** The fields the edit endpoint takes (openai-node's ImageEditParams), besides its images. */
const EDIT_FIELDS = [
  'prompt',
  'background',
  'input_fidelity',
  'mask',
  'model',
  'n',
  'output_compression',
  'output_format',
  'partial_images',
  'quality',
  'response_format',
  'size',
  'stream',
  'user',
];
const GPT_IMAGE = /^(gpt-image|chatgpt-image)/;

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
    picture: 'disc',
    seen: [],
    sdapiConsole: [],
    controlnet: {
      models: ['ip-adapter_sd15 [6a3f6166]', 'ip-adapter-plus_sdxl_vit-h [f1f1f1f1]'],
      modules: ['none', 'ip-adapter-auto', 'ip-adapter_clip_sd15', 'ip-adapter_clip_sdxl_plus_vith'],
    },
    comfyInputs: new Map(),
    painting: { now: 0, most: 0 },
    formats: [],
    usage: [],
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
  const outputs = new Map<string, Buffer>();

  /** Why ControlNet would not run a unit (the web UI prints it and paints on), or undefined. */
  const controlnetError = (unit: unknown): string | undefined => {
    const u = (unit ?? {}) as Record<string, unknown>;
    if (!u.enabled) return undefined;
    const module = String(u.module ?? 'none');
    const model = String(u.model ?? 'None');
    if (!state.controlnet.modules.includes(module))
      return `module(${module}) not found in supported modules.`;
    if (model.toLowerCase() === 'none') return 'You have not selected any ControlNet Model.';
    if (!state.controlnet.models.includes(model)) return `model(${model}) not found in supported models.`;
    const weight = Number(u.weight ?? 1);
    if (!(weight >= 0 && weight <= 2)) return 'weight: ensure this value is less than or equal to 2.0';
    const images = Array.isArray(u.image) ? u.image.map((i) => (i as { image?: unknown })?.image) : [u.image];
    if (!images.length || images.some((i) => typeof i !== 'string' || !i))
      return 'controlnet is enabled but no input image is given';
    if (images.some((i) => !sniff(Buffer.from(String(i), 'base64')))) return 'cannot identify image file';
    return undefined;
  };

  /** ComfyUI's POST /upload/image: the file into its input folder, renamed on a clash unless told to overwrite. */
  const comfyUpload = (
    fields: SeenRequest['body'],
    uploaded: NonNullable<SeenRequest['files']>,
    send: (status: number, payload: unknown) => void,
  ) => {
    const image = uploaded.find((f) => f.field === 'image');
    if (!image?.name) return send(400, '');
    const type = String(fields.type ?? 'input');
    const subfolder = String(fields.subfolder ?? '');
    if (subfolder.includes('..') || subfolder.startsWith('/') || image.name.includes('/'))
      return send(400, '');
    const overwrite = fields.overwrite === 'true' || fields.overwrite === '1';
    const dot = image.name.lastIndexOf('.');
    const [stem, ext] = dot > 0 ? [image.name.slice(0, dot), image.name.slice(dot)] : [image.name, ''];
    const at = (name: string) => (subfolder ? `${subfolder}/${name}` : name);
    let name = image.name;
    for (let i = 1; !overwrite && state.comfyInputs.has(at(name)); i++) {
      if (state.comfyInputs.get(at(name))?.equals(image.bytes)) break;
      name = `${stem} (${i})${ext}`;
    }
    if (type === 'input') state.comfyInputs.set(at(name), image.bytes);
    return send(200, { name, subfolder, type });
  };

  /** Why OpenAI's edit endpoint would refuse a request, in its words, or undefined when it takes it. */
  const editRefusal = (
    contentType: string,
    fields: SeenRequest['body'],
    images: NonNullable<SeenRequest['files']>,
  ): { status: number; message: string; extra: Record<string, unknown> } | undefined => {
    const invalid = (message: string, param: string | null, code: string | null = 'invalid_value') => ({
      status: 400,
      message,
      extra: { param, code },
    });
    if (!contentType.startsWith('multipart/form-data'))
      return invalid(
        `Invalid Content-Type header (${contentType || 'none'}), expected multipart/form-data. (HINT: If you're using curl, you can pass -H 'Content-Type: multipart/form-data')`,
        null,
        null,
      );
    const unknown =
      Object.keys(fields).find((k) => !EDIT_FIELDS.includes(k)) ??
      images.find((f) => f.field !== 'image' && f.field !== 'image[]' && f.field !== 'mask')?.field;
    if (unknown) return invalid(`Unknown parameter: '${unknown}'.`, unknown, 'unknown_parameter');
    const model = String(fields.model ?? 'gpt-image-1.5');
    const gpt = GPT_IMAGE.test(model);
    if (!gpt && model !== 'dall-e-2')
      return invalid(
        `Invalid value: '${model}'. Value must be 'dall-e-2' or a GPT image model (gpt-image-1, gpt-image-1-mini, gpt-image-1.5).`,
        'model',
      );
    if (!state.models.includes(model))
      return {
        status: 404,
        message: `The model \`${model}\` does not exist or you do not have access to it.`,
        extra: { param: null, code: 'model_not_found' },
      };
    if (typeof fields.prompt !== 'string' || !fields.prompt)
      return invalid("Missing required parameter: 'prompt'.", 'prompt', 'missing_required_parameter');
    const given = images.filter((f) => f.field === 'image' || f.field === 'image[]');
    if (!given.length)
      return invalid("Missing required parameter: 'image'.", 'image', 'missing_required_parameter');
    if (given.length > (gpt ? 16 : 1))
      return invalid(
        `Invalid 'image': too many images. ${gpt ? 'Up to 16 images are' : 'Only one image is'} supported for ${model}.`,
        'image',
      );
    for (const [i, f] of given.entries()) {
      const type = sniff(f.bytes);
      if (!type || (!gpt && type !== 'image/png'))
        return invalid(
          `Invalid file 'image[${i}]': unsupported mimetype ('${f.type || 'application/octet-stream'}'). Supported file formats are ${gpt ? "'image/jpeg', 'image/png', and 'image/webp'" : "'image/png'"}.`,
          'image',
          'invalid_image_format',
        );
    }
    const sizes = gpt ? ['1024x1024', '1536x1024', '1024x1536', 'auto'] : ['256x256', '512x512', '1024x1024'];
    if (fields.size !== undefined && !sizes.includes(String(fields.size)))
      return invalid(
        `Invalid value: '${fields.size}'. Supported values are: ${sizes.map((v) => `'${v}'`).join(', ')}.`,
        'size',
      );
    if (gpt && fields.response_format !== undefined)
      return invalid("Unknown parameter: 'response_format'.", 'response_format', 'unknown_parameter');
    if (!gpt)
      for (const k of [
        'background',
        'output_format',
        'output_compression',
        'input_fidelity',
        'partial_images',
      ])
        if (k in fields) return invalid(`Unknown parameter: '${k}'.`, k, 'unknown_parameter');
    if (model === 'gpt-image-1-mini' && fields.input_fidelity !== undefined)
      return invalid(
        "Invalid value: 'input_fidelity'. This parameter is not supported for gpt-image-1-mini.",
        'input_fidelity',
      );
    if (fields.background === 'transparent' && fields.output_format === 'jpeg')
      return invalid('Transparent background requires output_format png or webp.', 'background');
    return undefined;
  };

  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const bytes = Buffer.concat(chunks);
    const raw = bytes.toString('utf8');
    const url = new URL(req.url ?? '/', 'http://fake');
    // ComfyUI serves every route under /api too; OpenRouter's base URL is …/api/v1.
    const path = url.pathname.replace(/^\/api(?=\/)/, '');
    state.lastAuth = req.headers.authorization;
    const contentType = req.headers['content-type'] ?? '';
    let body: SeenRequest['body'] = {};
    let files: SeenRequest['files'];
    if (contentType.startsWith('multipart/form-data')) {
      try {
        ({ fields: body, files } = await multipart(bytes, contentType));
      } catch {
        files = [];
      }
    } else
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
      // OpenAI Images answers in OpenAI's shape whatever the chat API is.
      if (path === '/v1/image/generations' || (state.chatApi === 'v1' && !path.startsWith('/v1/images/')))
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
      if (path === '/controlnet/model_list') return send(200, { model_list: state.controlnet.models });
      if (path === '/controlnet/module_list')
        return send(200, { module_list: state.controlnet.modules, module_detail: {} });
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
        const file = outputs.get(url.searchParams.get('filename') ?? '');
        if (!file || url.searchParams.get('type') !== 'output') return send(404, '');
        res.writeHead(200, { 'content-type': 'image/png' });
        return res.end(file);
      }
      return send(404, { detail: 'Not Found' });
    }
    if (path === '/queue') return send(200, '');
    if (!GENERATIONS.has(path) && path !== '/upload/image') return send(404, { detail: 'Not Found' });
    const kind = path === '/v1/chat/completions' ? 'chat' : 'image';
    const seen: SeenRequest = {
      path,
      kind,
      authorization: auth,
      body,
      prompt: promptOf(body),
      ...(files ? { files } : {}),
    };
    state.seen.push(seen);
    if (state.seen.length > SEEN_KEPT) state.seen.shift();
    if (path === '/upload/image') return comfyUpload(body, files ?? [], send);
    const hostile = state.hostile?.(seen);
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
          : (state.picture === 'smooth'
              ? await smoothPicture(state.imageFormat)
              : await painting(width, height, state.imageFormat)
            ).toString('base64');
      if (path === '/v1/image/generations') {
        if (pace) await new Promise((r) => setTimeout(r, pace));
        state.calls.image++;
        const tiny = state.picture === 'smooth' ? await smoothPicture('png') : TINY_PNG;
        return send(200, {
          image: hostile && 'image' in hostile ? hostile.image : tiny.toString('base64'),
        });
      }
      if (path === '/v1/images/edits') {
        const refused = editRefusal(contentType, body, files ?? []);
        if (refused) return fail(refused.status, refused.message, refused.extra);
        if (pace) await new Promise((r) => setTimeout(r, pace));
        state.calls.image++;
        const [w, h] = (body.size && body.size !== 'auto' ? String(body.size) : '1024x1024')
          .split('x')
          .map(Number);
        return send(200, {
          created: 1,
          data: [{ b64_json: await image(w as number, h as number) }],
          background: body.background,
          output_format: body.output_format ?? 'png',
          size: body.size ?? 'auto',
          quality: body.quality ?? 'auto',
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
        const scripts = (body.alwayson_scripts ?? {}) as Record<string, { args?: unknown[] }>;
        for (const name of Object.keys(scripts))
          if (name.toLowerCase() !== 'controlnet')
            return send(422, {
              error: 'HTTPException',
              detail: `always on script ${name} not found`,
              body: '',
              errors: '',
            });
        for (const [name, script] of Object.entries(scripts))
          for (const [i, unit] of (script.args ?? []).entries()) {
            const said = controlnetError(unit);
            if (said) state.sdapiConsole.push(`Error running process: ${name} unit ${i}: ${said}`);
          }
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
      // The body validate_prompt answers for a node whose input fails: one error of its kind.
      const failed = (id: string, classType: string, type: string, message: string, details: string) =>
        send(400, {
          error: {
            type: 'prompt_outputs_failed_validation',
            message: 'Prompt outputs failed validation',
            details: '',
            extra_info: {},
          },
          node_errors: {
            [id]: {
              errors: [{ type, message, details, extra_info: {} }],
              dependent_outputs: [],
              class_type: classType,
            },
          },
        });
      for (const [id, node] of Object.entries(graph)) {
        const file = String(node.inputs?.image ?? '');
        if (node.class_type === 'LoadImage' && !state.comfyInputs.has(file))
          return failed(
            id,
            'LoadImage',
            'custom_validation_failed',
            'Custom validation failed for node',
            `image - Invalid image file: ${file}`,
          );
        if (
          node.class_type === 'CheckpointLoaderSimple' &&
          !state.models.includes(String(node.inputs?.ckpt_name))
        )
          return failed(
            id,
            'CheckpointLoaderSimple',
            'value_not_in_list',
            'Value not in list',
            `ckpt_name: '${node.inputs?.ckpt_name}' not in ${JSON.stringify(state.models)}`,
          );
      }
      const latent = Object.values(graph).find((n) => n.class_type === 'EmptyLatentImage')?.inputs ?? {};
      const promptId = randomUUID();
      send(200, { prompt_id: promptId, number: state.calls.image, node_errors: {} });
      void onGpu(async () => {
        if (pace) await new Promise((r) => setTimeout(r, pace));
        const filename = `lootsmith_${promptId.slice(0, 8)}_.png`;
        outputs.set(
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
    const reported = usageOf(body.messages as Array<{ content: string }>, content);
    state.usage.push(reported);
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
      usage: reported,
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
