import { createHash, randomInt, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { FormData } from 'undici';
import { Cancel, onAbort } from '../../../cancel.ts';
import { type Attempt, AttemptFailed, type Endpoint, expectOk, jsonOf, Rejected } from '../../http.ts';
import {
  avoidOf,
  type ImageAsk,
  type ImageBackend,
  PAINT_LIMIT,
  type Painted,
  paintSize,
  type ReferenceImage,
  wordingOf,
} from '../types.ts';

/** The example workflow shipped in the package: SD 1.5 checkpoint → KSampler → SaveImage. */
export const DEFAULT_WORKFLOW = fileURLToPath(
  new URL('../../../../examples/comfyui-workflow.json', import.meta.url),
);

/**
 * What a workflow's `{{name}}` placeholders may stand for; `prompt` is required. `reference` is the
 * `image` of a LoadImage node: the name of one of the game's reference icons once uploaded.
 */
const PLACEHOLDERS = [
  'prompt',
  'negative_prompt',
  'seed',
  'width',
  'height',
  'steps',
  'model',
  'reference',
] as const;
type Placeholder = (typeof PLACEHOLDERS)[number];
/** What fills each placeholder; `reference` takes the uploaded names, the n-th `{{reference}}` the n-th (in turn). */
type Values = Record<Exclude<Placeholder, 'reference'>, string | number> & { reference?: readonly string[] };

/** An API-format ComfyUI workflow (node id → `{class_type, inputs}`) and the placeholders it uses. */
export interface Workflow {
  graph: Record<string, { class_type: string; inputs: Record<string, unknown> }>;
  uses: Set<Placeholder>;
}

/** First back-off between looks at `/history/{id}`, and the longest. */
const POLL_MS = { first: 100, max: 1_000 };

/**
 * Reads and checks a workflow file; the error says what to fix. A reference workflow (used when the
 * game has `art.references`) must load them with `{{reference}}`; the plain one must not.
 */
export function loadWorkflow(path: string, kind: 'plain' | 'reference' = 'plain'): Workflow {
  let graph: unknown;
  try {
    graph = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new Error(`cannot read ${path}: ${(err as Error).message}`);
  }
  if (!graph || typeof graph !== 'object' || Array.isArray(graph))
    throw new Error(`${path} is not a JSON object`);
  if ('nodes' in graph && 'links' in graph)
    throw new Error(`${path} is a UI workflow: export it with "Save (API Format)" (enable dev mode options)`);
  const nodes = Object.values(graph as Record<string, unknown>);
  if (!nodes.length || !nodes.every((n) => n && typeof n === 'object' && 'class_type' in n && 'inputs' in n))
    throw new Error(`${path} is not an API-format workflow (node id → {class_type, inputs})`);
  const uses = new Set<Placeholder>();
  for (const m of JSON.stringify(graph).matchAll(/\{\{(\w+)\}\}/g)) {
    const name = m[1] as Placeholder;
    if (!PLACEHOLDERS.includes(name))
      throw new Error(`${path}: unknown placeholder {{${name}}} (known: ${PLACEHOLDERS.join(', ')})`);
    uses.add(name);
  }
  if (!uses.has('prompt')) throw new Error(`${path} has no {{prompt}} placeholder`);
  const loads = Object.values(graph as Workflow['graph']).some(
    (n) => n.class_type === 'LoadImage' && n.inputs?.image === '{{reference}}',
  );
  if (kind === 'reference' && !loads)
    throw new Error(`${path} has no LoadImage node whose image is "{{reference}}"`);
  if (kind === 'plain' && uses.has('reference'))
    throw new Error(
      `${path} loads {{reference}}: give it as LOOTSMITH_COMFYUI_REFERENCE_WORKFLOW (used when the game has art.references), and a workflow without one here`,
    );
  return { graph: graph as Workflow['graph'], uses };
}

/** The workflow with its placeholders filled: a string that is one placeholder takes the value's type. */
export function fillWorkflow(workflow: Workflow, values: Values): Workflow['graph'] {
  let references = 0;
  const filled = (name: Placeholder) => {
    if (name !== 'reference') return values[name];
    const names = values.reference ?? [];
    return names[references++ % names.length] ?? '';
  };
  const fill = (v: unknown): unknown => {
    if (typeof v === 'string') {
      const whole = /^\{\{(\w+)\}\}$/.exec(v);
      if (whole) return filled(whole[1] as Placeholder);
      return v.replace(/\{\{(\w+)\}\}/g, (_, name: Placeholder) => String(filled(name)));
    }
    if (Array.isArray(v)) return v.map(fill);
    if (v && typeof v === 'object')
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, fill(x)]));
    return v;
  };
  return fill(workflow.graph) as Workflow['graph'];
}

interface HistoryEntry {
  outputs?: Record<string, { images?: Array<{ filename?: string; subfolder?: string; type?: string }> }>;
  status?: { status_str?: string; completed?: boolean; messages?: unknown[] };
}

/**
 * ComfyUI: the workflow with its placeholders filled is queued (`POST /prompt`), its result awaited by
 * polling `GET /history/{prompt_id}` with back-off, and the first saved image fetched from `GET /view`.
 * When the ask has the game's references and the operator gave a reference workflow, that one is
 * queued instead, each reference first uploaded to ComfyUI's input folder (`POST /upload/image`) under
 * a name from its content, once, and named in its `{{reference}}` LoadImage nodes.
 * ComfyUI has no key of its own; a Bearer key is sent when given (a proxy in front of it).
 */
export class ComfyImages implements ImageBackend {
  readonly api = 'comfyui';
  /** ComfyUI's session id of this server (its websocket messages would be addressed to it). */
  private readonly clientId = randomUUID();
  /** The names ComfyUI gave the references uploaded so far, by content. */
  private readonly uploaded = new Map<string, string>();

  constructor(
    private readonly endpoint: Endpoint,
    private readonly workflow: Workflow,
    private readonly paintSide: number,
    private readonly model?: string,
    private readonly referenceWorkflow?: Workflow,
  ) {}

  async paint(ask: ImageAsk, attempt: Attempt): Promise<Painted> {
    const { model } = this;
    const references = this.referenceWorkflow ? (ask.references ?? []) : [];
    const workflow = references.length ? (this.referenceWorkflow as Workflow) : this.workflow;
    if (workflow.uses.has('model') && !model)
      throw new Rejected(400, 'the workflow has a {{model}} placeholder: set LOOTSMITH_IMAGE_MODEL');
    const names = [];
    for (const reference of references) names.push(await this.upload(reference, attempt));
    const graph = fillWorkflow(workflow, {
      prompt: wordingOf(ask),
      negative_prompt: avoidOf(ask) ?? '',
      seed: ask.seed ?? randomInt(2 ** 32 - 1),
      steps: ask.steps ?? 20,
      model: model ?? '',
      reference: names,
      ...paintSize(ask, this.paintSide),
    });
    const queued = await this.endpoint.request(attempt, 'POST', '/prompt', 64 * 1024, {
      prompt: graph,
      client_id: this.clientId,
    });
    if (queued.status === 400) {
      // An input folder emptied since would refuse the names: they are uploaded again next time.
      this.uploaded.clear();
      throw new Rejected(400, workflowError(queued.body));
    }
    const id = (jsonOf(queued) as { prompt_id?: unknown }).prompt_id;
    if (typeof id !== 'string' || !/^[\w-]{1,64}$/.test(id))
      throw new AttemptFailed('no prompt_id in the answer', true);
    try {
      const image = await this.finished(id, attempt);
      const query = new URLSearchParams({
        filename: image.filename ?? '',
        subfolder: image.subfolder ?? '',
        type: image.type ?? 'output',
      });
      const view = expectOk(await this.endpoint.request(attempt, 'GET', `/view?${query}`, PAINT_LIMIT));
      return { bytes: view.body };
    } catch (err) {
      if (attempt.signal.aborted) void this.forget(id);
      throw err;
    }
  }

  async close() {
    await this.endpoint.close();
  }

  /** A reference in ComfyUI's input folder (`POST /upload/image`): the name a LoadImage node loads it by. */
  private async upload(reference: ReferenceImage, attempt: Attempt): Promise<string> {
    const hash = createHash('sha256').update(reference.bytes).digest('hex').slice(0, 16);
    const known = this.uploaded.get(hash);
    if (known) return known;
    const form = new FormData();
    const extension = reference.type.slice('image/'.length).replace('jpeg', 'jpg');
    form.append(
      'image',
      new Blob([new Uint8Array(reference.bytes)], { type: reference.type }),
      `lootsmith-${hash}.${extension}`,
    );
    form.append('type', 'input');
    // The name comes from the content, so a file already there under it is this very image.
    form.append('overwrite', 'true');
    const answer = jsonOf(await this.endpoint.request(attempt, 'POST', '/upload/image', 64 * 1024, form)) as {
      name?: unknown;
      subfolder?: unknown;
    };
    if (typeof answer.name !== 'string' || !answer.name)
      throw new AttemptFailed('the upload of a reference image answered no name', true);
    const name =
      typeof answer.subfolder === 'string' && answer.subfolder
        ? `${answer.subfolder}/${answer.name}`
        : answer.name;
    this.uploaded.set(hash, name);
    return name;
  }

  /** Waits for the prompt's history entry; its first saved image. */
  private async finished(id: string, attempt: Attempt) {
    for (let wait = POLL_MS.first; ; wait = Math.min(POLL_MS.max, wait * 1.5)) {
      const history = jsonOf(
        await this.endpoint.request(attempt, 'GET', `/history/${id}`, 4 * 1024 * 1024),
      ) as Record<string, HistoryEntry>;
      const entry = history?.[id];
      if (entry?.status?.status_str === 'error')
        throw new AttemptFailed(
          `the workflow failed: ${JSON.stringify(entry.status.messages ?? []).slice(0, 300)}`,
          false,
        );
      const images = Object.values(entry?.outputs ?? {}).flatMap((o) => o.images ?? []);
      const saved = images.find((i) => i.type !== 'temp') ?? images[0];
      if (saved?.filename) return saved;
      if (entry?.status?.completed) throw new AttemptFailed('the workflow finished without an image', false);
      await sleep(wait, attempt);
    }
  }

  /** Takes a prompt nobody waits for any more out of ComfyUI's queue (best effort, two seconds). */
  private async forget(id: string) {
    const signal = new Cancel();
    const timer = setTimeout(() => signal.abort(), 2_000);
    await this.endpoint
      .request({ deadline: Date.now() + 2_000, deadlineMs: 2_000, signal }, 'POST', '/queue', 1024, {
        delete: [id],
      })
      .catch(() => {})
      .finally(() => clearTimeout(timer));
  }
}

/** What ComfyUI says of a workflow it refuses: `error.message` and its details, or the node errors. */
function workflowError(body: Buffer): string | undefined {
  try {
    const json = JSON.parse(body.toString('utf8')) as {
      error?: { message?: string; details?: string };
      node_errors?: Record<string, { errors?: Array<{ message?: string; details?: string }> }>;
    };
    const node = Object.values(json.node_errors ?? {}).flatMap((n) => n.errors ?? [])[0];
    return [json.error?.message, json.error?.details, node?.message, node?.details]
      .filter(Boolean)
      .join(': ');
  } catch {
    return undefined;
  }
}

/** Waits `ms`, or less when the attempt ends first. */
const sleep = (ms: number, attempt: Attempt) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    const stop = onAbort(attempt.signal, done);
    function done() {
      clearTimeout(timer);
      stop();
      resolve();
    }
  });
