import {
  type ChatCompletionRequest,
  ChatCompletionResponse,
  type IconArt,
  type ImageGenerationRequest,
  type ImageGenerationResponse,
} from '@lootsmith/protocol';
import { type CallerSignal, Cancel, onAbort } from '../cancel.ts';
import { ImageRefused, normaliseIcon, normaliseImage } from '../images/normalise.ts';
import type { Metrics } from '../metrics.ts';
import type { SpendGate } from '../money/caps.ts';
import { DEFAULT_PRICES } from '../money/prices.ts';
import { type Nanos, Pricing } from '../money/pricing.ts';
import { cancelled, Failed, refuse } from '../refusal.ts';
import { Secrets } from '../secrets.ts';
import type { BackendSpec, Kind, UpstreamConfig, WarnLog } from './backends/description.ts';
import { backendSecrets, keyVariableOf, openBackend } from './backends/registry.ts';
import type {
  Billed,
  ChatBackend,
  ImageAsk,
  ImageBackend,
  Painted,
  ReferenceImage,
} from './backends/types.ts';
import { type Attempt, AttemptFailed, deadlineExceeded, Rejected } from './http.ts';
import { checkImage } from './image.ts';
import { LeftQueue, type Priority, WorkQueue } from './queue.ts';
import { currentPayer, type Payer } from './spend.ts';

export type { Kind, WarnLog };

/** One backend of a kind, as the client calls it: behind its own queue, with its own deadline. */
export interface Target<B> {
  kind: Kind;
  /** `primary`, or `fallback` (the `/v1` service tried when the primary fails). */
  role: 'primary' | 'fallback';
  api: BackendSpec['api'];
  /** The model its settings name, when they name one. */
  model?: string;
  /** The variable an operator fixes when this backend refuses its key. */
  keyName: string;
  backend: B;
  queue: WorkQueue;
  timeoutMs: number;
}

/** One attempt at a backend, as `observe` is told of it when it ends (the console's figures). */
export interface UpstreamCall {
  /** `chat:openai`, `image:sdapi`, `chat:embedded`…, or `fallback` (the `/v1` fallback). */
  backend: string;
  kind: Kind;
  outcome: 'ok' | 'error' | 'key_refused' | 'rejected';
  /** From its turn in the backend's queue to its end. */
  ms: number;
  /** Whom the call was for: a player's id, or the server's own for its work. */
  clientId: string;
  /** A failed attempt's HTTP status, when the backend answered with one. */
  status?: number;
  /** Why a failed attempt failed, cleaned of secrets. */
  detail?: string;
  /** What a chat answer reported using. */
  usage?: { prompt_tokens: number; completion_tokens: number };
  /** The model the call was priced as. */
  model?: string;
  /** What a successful call cost by the price list (`null`: unpriced); failed attempts cost nothing known. */
  cost?: Nanos | null;
  /** The route of the request it was made for, and that request's player (none: the server's own work). */
  route?: string;
  player?: string;
  /**
   * The request's id in the request log, with what the call was asked (chat: the messages; image: the
   * prompt and size) and what came back (chat: the answer; image: its size, bytes and type; a
   * failure: why): references, serialised and bounded by the log off the request's path.
   */
  request?: { id: string; prompt: unknown; answer: unknown; model?: string };
}

/** What a call was asked and what came back, as the request log keeps it (see `UpstreamCall.request`). */
interface CallTrace<T> {
  prompt(): unknown;
  answer(result: T): unknown;
}

/** A backend as the console and its provenance name it: `chat:openai`, or `fallback`. */
export const backendLabel = (target: Pick<Target<unknown>, 'kind' | 'api' | 'role'>) =>
  target.role === 'fallback' ? 'fallback' : `${target.kind}:${target.api}`;

export interface CallOptions {
  /** Who is waiting: a player, an icon after its item, a raw forward, or a pool refill (served in that order). */
  priority?: Priority;
  /** Told what the call cost when it succeeds (an item's provenance, an icon's record). */
  meter?: (cost: Nanos | null) => void;
}

/** An icon to paint: the prompt, a seed from the item, the game's icon size and its art. */
export interface IconAsk {
  client_id: string;
  prompt: string;
  size: number;
  seed: number;
  /** The game's `art`: its avoid words and references go to the backend; palette, grid and outline are enforced on the answer. */
  art?: IconArt;
  references?: readonly ReferenceImage[];
}

export interface OpenOptions {
  /** The embedded engine's loopback address and key, when a kind uses it. */
  embedded?: { url: string; key: string };
  secrets?: Secrets;
  metrics?: Metrics;
  log?: WarnLog;
  /** Told of every attempt as it ends. */
  observe?: (call: UpstreamCall) => void;
  /** Longest Retry-After the client waits out before moving on; longer answers count as a failure. */
  maxRetryAfterMs?: number;
  /** What each call costs (the shipped list prices by default). */
  pricing?: Pricing;
  /** The spend caps every call is reserved against; none by default. */
  spending?: Spending;
}

/** The spend caps as the client asks them before each call (`SpendGate`). */
export type Spending = Pick<SpendGate, 'serve' | 'reserve'>;

/** Longest piece of a backend's error message passed on to a player or a log. */
const MESSAGE_LIMIT = 200;
/** Steps an icon is painted with (the spec's "below 15 is typically sufficient"). */
const ICON_STEPS = 12;

/** Waits `ms`, or less when `signal` fires first. */
const sleep = (ms: number, signal?: CallerSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    const stopListening = signal && onAbort(signal, done);
    function done() {
      clearTimeout(timer);
      stopListening?.();
      resolve();
    }
  });

/** Only the fields the protocol defines, so nothing else a backend adds (headers it echoes…) is passed on. */
function chatFields(res: ChatCompletionResponse, scrub: (text: string) => string): ChatCompletionResponse {
  return {
    id: scrub(res.id),
    object: 'chat.completion',
    created: res.created,
    model: scrub(res.model),
    choices: res.choices.map((c) => ({
      index: c.index,
      message: { role: 'assistant', content: c.message.content === null ? null : scrub(c.message.content) },
      finish_reason: c.finish_reason,
    })),
    ...(res.usage
      ? {
          usage: {
            prompt_tokens: res.usage.prompt_tokens,
            completion_tokens: res.usage.completion_tokens,
            total_tokens: res.usage.total_tokens,
          },
        }
      : {}),
  };
}

interface Core {
  chat: Target<ChatBackend>[];
  image: Target<ImageBackend>[];
  retries: number;
  secrets: Secrets;
  metrics?: Metrics;
  log?: WarnLog;
  observe?: (call: UpstreamCall) => void;
  maxRetryAfterMs: number;
  pricing: Pricing;
  spending?: Spending;
  /** What serves each kind once a spend cap is reached, when something does (`Spending.serve`). */
  capped?: { chat: Target<ChatBackend>[]; image: Target<ImageBackend>[] };
}

/** An attempt being made: whom for, charged to whom and since when (what `observe` is told). */
interface Attempting {
  clientId: string;
  payer?: Payer;
  started: number;
  /** What the request log is told of the call, when its request is logged. */
  trace?: CallTrace<never>;
}

/** What an attempt at a target costs: its most before it is made, and once it has succeeded (`null`: unpriced). */
interface Price<B, T> {
  most(target: Target<B>): Nanos | null;
  of(target: Target<B>, result: T): { model?: string; cost: Nanos | null };
}

/**
 * The chat and image backends behind one interface: each kind has its backend and, optionally, the
 * `/v1` fallback; each backend its own queue (a concurrency limit, a waiting player first), deadline,
 * retries with jitter and Retry-After. What comes back is checked, scrubbed of the server's secrets
 * and, for images, re-encoded by Lootsmith. `at(priority)` gives the same client at another priority.
 */
export class UpstreamClient {
  private constructor(
    private readonly core: Core,
    private readonly priority: Priority = 'player',
  ) {}

  /** Opens the configured backends (the embedded engine's address stands in for `embedded`). */
  static open(config: UpstreamConfig, options: OpenOptions = {}): UpstreamClient {
    const secrets = options.secrets ?? new Secrets(backendSecrets(config, options.embedded?.key));
    const queueOf = (kind: Kind, spec: BackendSpec) =>
      new WorkQueue(spec.concurrency, {
        waited: (priority, ms) =>
          options.metrics?.queueWait.observe({ kind, api: spec.api, priority }, ms / 1000),
      });
    const target = <B>(
      kind: Kind,
      spec: BackendSpec,
      role: 'primary' | 'fallback',
      backend: B,
    ): Target<B> => {
      const t: Target<B> = {
        kind,
        role,
        api: spec.api,
        model: spec.model,
        keyName: role === 'fallback' ? 'LOOTSMITH_FALLBACK_KEY' : keyVariableOf(kind, spec),
        backend,
        queue: queueOf(kind, spec),
        timeoutMs: spec.timeoutMs,
      };
      options.metrics?.watchQueue({ kind, api: spec.api, target: role }, t.queue);
      return t;
    };
    const fallback = config.fallback && { api: 'v1' as const, ...config.fallback, concurrency: 64 };
    const { embedded, log } = options;
    const chat = [target('chat', config.chat, 'primary', openBackend('chat', config.chat, embedded, log))];
    const image = [
      target('image', config.image, 'primary', openBackend('image', config.image, embedded, log)),
    ];
    if (fallback) {
      chat.push(target('chat', fallback, 'fallback', openBackend('chat', fallback)));
      image.push(target('image', fallback, 'fallback', openBackend('image', fallback)));
    }
    const serve = options.spending?.serve;
    // Past a spend cap, the embedded engine serves (free), or the fallback alone.
    const engine = (spec: BackendSpec): BackendSpec => ({
      api: 'embedded',
      concurrency: 64,
      timeoutMs: spec.timeoutMs,
    });
    const [chatEngine, imageEngine] = [engine(config.chat), engine(config.image)];
    const capped =
      serve === 'embedded'
        ? {
            chat: [target('chat', chatEngine, 'primary', openBackend('chat', chatEngine, embedded, log))],
            image: [
              target('image', imageEngine, 'primary', openBackend('image', imageEngine, embedded, log)),
            ],
          }
        : serve === 'fallback'
          ? {
              chat: chat.filter((t) => t.role === 'fallback'),
              image: image.filter((t) => t.role === 'fallback'),
            }
          : undefined;
    return new UpstreamClient({
      chat,
      image,
      spending: options.spending,
      capped,
      retries: config.retries,
      secrets,
      metrics: options.metrics,
      log: options.log,
      observe: options.observe,
      maxRetryAfterMs: options.maxRetryAfterMs ?? 5_000,
      pricing: options.pricing ?? new Pricing(DEFAULT_PRICES),
    });
  }

  /** The same backends, asked at another priority (a pool refill, an icon painted after its item). */
  at(priority: Priority): UpstreamClient {
    return new UpstreamClient(this.core, priority);
  }

  /** The backends of each kind, primary first (the doctor checks them one by one). */
  get targets(): { chat: Target<ChatBackend>[]; image: Target<ImageBackend>[] } {
    return { chat: this.core.chat, image: this.core.image };
  }

  /**
   * A chat completion with only the protocol's fields, every text scrubbed of the server's secrets;
   * `served_by: "fallback"` when the fallback answered.
   */
  async chat(
    body: ChatCompletionRequest,
    signal?: CallerSignal,
    options?: CallOptions,
  ): Promise<ChatCompletionResponse> {
    const scrub = (text: string) => this.core.secrets.scrub(text);
    const { pricing } = this.core;
    const price: Price<ChatBackend, ChatCompletionResponse> = {
      most: (target) => pricing.chatMax(target.api, body.model ?? target.model, body),
      of: (target, answer) => {
        const model = body.model ?? target.model;
        return { model, cost: pricing.chat(target.api, model, answer.usage) };
      },
    };
    const trace: CallTrace<ChatCompletionResponse> = {
      prompt: () => body.messages,
      answer: (answer) => ({ text: answer.choices[0]?.message.content ?? null, usage: answer.usage }),
    };
    return this.call('chat', body.client_id, signal, options, price, trace, async (target, attempt) => {
      const parsed = ChatCompletionResponse.safeParse(await target.backend.complete(body, attempt));
      if (!parsed.success) throw new AttemptFailed('response does not match a chat completion', true);
      return { ...chatFields(parsed.data, scrub), ...servedBy(target) };
    });
  }

  /**
   * An image for the spec's `/v1/image/generations`, at the size asked: a `/v1` answer that is a
   * PNG or JPEG of that size passes as it came (checked); anything else is re-encoded by Lootsmith.
   * `served_by: "fallback"` when the fallback answered.
   */
  async image(
    body: ImageGenerationRequest,
    signal?: CallerSignal,
    options?: CallOptions,
  ): Promise<ImageGenerationResponse> {
    const { generation_only: _json, ...rest } = body;
    const asked = body.width !== undefined || body.height !== undefined;
    const ask: ImageAsk = { ...rest, width: body.width ?? 512, height: body.height ?? 512 };
    return this.paint(ask, signal, options, async (painted, target) => {
      if (
        painted.base64 &&
        target.backend.answersAsSpec &&
        passesAsIs(painted.bytes, asked ? ask : undefined)
      )
        return { image: painted.base64, ...servedBy(target) };
      const png = await normaliseImage(painted.bytes, ask.width, ask.height);
      return { image: png.toString('base64'), ...servedBy(target) };
    });
  }

  /**
   * A game icon: whatever the backend painted, made Lootsmith's own `size`² PNG in the game's art
   * (see `normaliseIcon`); the backend is told the art's avoid words and given its references.
   */
  async icon(ask: IconAsk, signal?: CallerSignal, options?: CallOptions): Promise<Buffer> {
    const { size, art, references, ...rest } = ask;
    const image: ImageAsk = {
      ...rest,
      width: size,
      height: size,
      steps: ICON_STEPS,
      icon: true,
      // Only when the game has them: an API without a place for them is asked as it always was.
      ...(art?.avoid ? { avoid: art.avoid } : {}),
      ...(references?.length ? { references } : {}),
    };
    return this.paint(image, signal, options, (painted) => normaliseIcon(painted.bytes, size, art));
  }

  async close() {
    const backends = new Set([...this.core.chat, ...this.core.image].map((t) => t.backend));
    await Promise.all([...backends].map((b) => b.close()));
  }

  private paint<T>(
    ask: ImageAsk,
    signal: CallerSignal | undefined,
    options: CallOptions | undefined,
    accept: (painted: Painted, target: Target<ImageBackend>) => Promise<T>,
  ): Promise<T> {
    const of = (target: Target<ImageBackend>) => {
      const billed = billedAs(target, ask);
      return { model: billed.model, cost: this.core.pricing.image(target.api, billed) };
    };
    const price: Price<ImageBackend, T> = { most: (target) => of(target).cost, of };
    // What the backend answered, for the request log: never the bytes themselves.
    let answered: { bytes: number; content_type: string } | undefined;
    const trace: CallTrace<T> = {
      prompt: () => ({
        prompt: ask.prompt,
        ...(ask.negative_prompt ? { negative_prompt: ask.negative_prompt } : {}),
        ...(ask.avoid ? { avoid: ask.avoid } : {}),
        width: ask.width,
        height: ask.height,
        ...(ask.icon ? { icon: true } : {}),
      }),
      answer: () => ({ width: ask.width, height: ask.height, ...answered }),
    };
    return this.call('image', ask.client_id, signal, options, price, trace, async (target, attempt) => {
      const painted = await target.backend.paint(ask, attempt);
      answered = { bytes: painted.bytes.length, content_type: contentTypeOf(painted.bytes) };
      if (
        this.core.secrets.leaks(painted.bytes) ||
        (painted.base64 && this.core.secrets.leaks(painted.base64))
      )
        throw new AttemptFailed('image carries a secret', false);
      try {
        return await accept(painted, target);
      } catch (err) {
        if (err instanceof ImageRefused) throw new AttemptFailed(`image refused: ${err.message}`, true);
        throw err;
      }
    });
  }

  /**
   * Tries each backend of a kind in turn: a turn in its queue, then attempts with a deadline each,
   * retried with back-off while retryable and within twice the backend's timeout (waits in the queue
   * and Retry-After waits come on top). A 4xx about the request is passed on; the rest ends in a 502.
   */
  private async call<B, T>(
    kind: Kind,
    clientId: string,
    signal: CallerSignal | undefined,
    options: CallOptions | undefined,
    price: Price<B, T>,
    trace: CallTrace<T>,
    attemptOn: (target: Target<B>, attempt: Attempt) => Promise<T>,
  ): Promise<T> {
    const targets = this.core[kind] as unknown as Target<B>[];
    const payer = currentPayer();
    const tried = (list: Target<B>[]) =>
      this.tryEach(list, clientId, payer, signal, options, price, trace, attemptOn);
    const gate = this.core.spending;
    if (!gate) return (await tried(targets)).result;
    // Reserved at its most against the spend caps before anything is sent, settled to its cost after.
    const most = Math.max(...targets.map((t) => this.mostOf(t, price)));
    const settle = await gate.reserve(most, payer?.player);
    if (settle === 'capped') return (await tried(this.core.capped?.[kind] as unknown as Target<B>[])).result;
    let done: { result: T; cost: Nanos | null };
    try {
      done = await tried(targets);
    } catch (err) {
      await settle(0);
      throw err;
    }
    // A cost the answer did not say (no usage reported) is taken to be its most.
    await settle(done.cost ?? most);
    return done.result;
  }

  /** The most a call at a target may cost; refused when it has no price, which spend caps need. */
  private mostOf<B, T>(target: Target<B>, price: Price<B, T>): Nanos {
    const most = price.most(target);
    if (most !== null) return most;
    throw refuse(
      'forbidden',
      `The game's spend caps need a price for every call, and ${target.kind}:${target.api}${target.model ? ` model ${target.model}` : ''} has none: the operator adds it to LOOTSMITH_PRICES_FILE`,
    );
  }

  /**
   * Tries each backend of a kind in turn (see `call`): the result of the first that answers, and
   * what that attempt cost.
   */
  private async tryEach<B, T>(
    targets: Target<B>[],
    clientId: string,
    payer: Payer | undefined,
    signal: CallerSignal | undefined,
    options: CallOptions | undefined,
    price: Price<B, T>,
    trace: CallTrace<T>,
    attemptOn: (target: Target<B>, attempt: Attempt) => Promise<T>,
  ): Promise<{ result: T; cost: Nanos | null }> {
    const priority = options?.priority ?? this.priority;
    let refused: Target<B> | undefined;
    const failures: string[] = [];
    for (const target of targets) {
      let left = 2 * target.timeoutMs;
      for (let n = 0; n <= this.core.retries && left > 0; n++) {
        // A caller gone during a back-off (or before the first try) starts no new attempt.
        if (signal?.aborted) throw cancelled();
        const attempting: Attempting = {
          clientId,
          payer,
          started: 0,
          trace: payer?.request ? (trace as CallTrace<unknown> as CallTrace<never>) : undefined,
        };
        try {
          const result = await target.queue.run(priority, clientId, signal, () => {
            attempting.started = Date.now();
            return this.attempt(target, Math.min(left, target.timeoutMs), signal, attemptOn);
          });
          const { model, cost } = price.of(target, result);
          this.count(
            target,
            'ok',
            attempting,
            { usage: (result as { usage?: UpstreamCall['usage'] }).usage, model, cost },
            result,
          );
          options?.meter?.(cost);
          if (target.role === 'fallback') this.fellBack(target, failures);
          return { result, cost };
        } catch (err) {
          if (attempting.started) left -= Date.now() - attempting.started;
          if (err instanceof LeftQueue || signal?.aborted) throw cancelled();
          if (err instanceof Failed) throw err;
          if (err instanceof Rejected) throw this.rejected(target, err, attempting);
          const failure = err instanceof AttemptFailed ? err : new AttemptFailed(String(err), true);
          this.failed(target, failure, attempting);
          failures.push(`${target.kind} ${target.api}: ${this.clean(failure.message)}`);
          if (failure.extra.keyRefused) refused ??= target;
          if (!failure.retryable || n === this.core.retries) break;
          const wait = failure.extra.retryAfterMs;
          if (wait !== undefined && wait > this.core.maxRetryAfterMs) break;
          const backoff = Math.min(2_000, 100 * 2 ** n);
          await sleep(wait ?? backoff / 2 + Math.random() * backoff, signal);
        }
      }
    }
    if (refused)
      throw new Failed(
        'upstream_key_refused',
        `The content service refused the server’s API key: the operator should check ${refused.keyName}`,
      );
    throw new Failed('upstream_unavailable', 'The content service is unavailable; try again shortly');
  }

  /**
   * One attempt with a deadline on the whole exchange (every request of it). The timer and the
   * listener on the caller's signal are removed when it ends: nothing outlives it.
   */
  private async attempt<B, T>(
    target: Target<B>,
    deadlineMs: number,
    signal: CallerSignal | undefined,
    attemptOn: (target: Target<B>, attempt: Attempt) => Promise<T>,
  ): Promise<T> {
    // One signal for the deadline and the caller (AbortSignal.timeout and .any cost far more).
    const stop = new Cancel();
    const timer = setTimeout(() => stop.abort(deadlineExceeded), deadlineMs);
    const hangUp = () => stop.abort(signal?.reason);
    if (signal?.aborted) hangUp();
    const stopListening = signal && onAbort(signal, hangUp);
    try {
      return await attemptOn(target, { deadlineMs, deadline: Date.now() + deadlineMs, signal: stop });
    } catch (err) {
      if (stop.reason === deadlineExceeded && !(err instanceof AttemptFailed))
        throw new AttemptFailed(`no whole answer within ${deadlineMs} ms`, false);
      throw err;
    } finally {
      clearTimeout(timer);
      stopListening?.();
    }
  }

  /** A backend's message, short, printable and scrubbed of secrets. */
  private clean(text: string): string {
    return this.core.secrets.clean(text).trim().slice(0, MESSAGE_LIMIT);
  }

  /** What a player is told of a 4xx: the backend's own message, cleaned, without its catalogue (the log has it whole). */
  private rejected(target: Target<unknown>, err: Rejected, attempting: Attempting): Failed {
    const said = err.said ? this.clean(err.said) : '';
    const told = withoutCatalogue(said);
    this.count(target, 'rejected', attempting, { status: err.status, detail: said });
    this.core.log?.warn(
      { backend: `${target.kind}:${target.api}`, target: target.role, status: err.status, reason: said },
      'backend rejected the request',
    );
    const message = `The content service rejected the request (status ${err.status})`;
    return new Failed('upstream_rejected', told ? `${message}: ${told}` : message);
  }

  private failed(target: Target<unknown>, failure: AttemptFailed, attempting: Attempting) {
    const reason = this.clean(failure.message);
    this.count(target, failure.extra.keyRefused ? 'key_refused' : 'error', attempting, {
      status: failure.extra.status,
      detail: reason,
    });
    this.core.log?.warn(
      {
        backend: `${target.kind}:${target.api}`,
        target: target.role,
        ...(failure.extra.status ? { status: failure.extra.status } : {}),
        reason,
        ...(failure.extra.keyRefused ? { fix: `check ${target.keyName}` } : {}),
      },
      'backend call failed',
    );
  }

  /** A fallback served: never silently (the primary may be a real model and the fallback procedural). */
  private fellBack(target: Target<unknown>, failures: string[]) {
    this.core.metrics?.fallbacks.inc({ kind: target.kind });
    this.core.log?.warn(
      { kind: target.kind, failures: failures.slice(-3) },
      `the fallback /v1 service served this ${target.kind} call`,
    );
  }

  private count(
    target: Target<unknown>,
    outcome: UpstreamCall['outcome'],
    attempting: Attempting,
    said: Pick<UpstreamCall, 'status' | 'detail' | 'usage' | 'model' | 'cost'>,
    result?: unknown,
  ) {
    this.core.metrics?.upstreamCalls.inc({
      kind: target.kind,
      api: target.api,
      target: target.role,
      outcome,
    });
    this.core.observe?.({
      backend: backendLabel(target),
      kind: target.kind,
      outcome,
      ms: attempting.started ? Date.now() - attempting.started : 0,
      clientId: attempting.clientId,
      ...(attempting.payer ? { route: attempting.payer.route, player: attempting.payer.player } : {}),
      ...said,
      ...(attempting.trace && attempting.payer?.request
        ? { request: this.traced(target, attempting.payer.request, attempting.trace, outcome, said, result) }
        : {}),
    });
  }

  /** What the request log keeps of an attempt: its prompt, and its answer or why it failed. */
  private traced(
    target: Target<unknown>,
    id: string,
    trace: CallTrace<never>,
    outcome: UpstreamCall['outcome'],
    said: Pick<UpstreamCall, 'status' | 'detail' | 'model'>,
    result: unknown,
  ): NonNullable<UpstreamCall['request']> {
    const answer = outcome === 'ok' ? trace.answer(result as never) : { error: said.detail ?? outcome };
    // The model that answered: the one asked, else the one the answer names (a /v1 service's), else the backend's.
    const named = (result as { model?: unknown } | undefined)?.model;
    const model = said.model ?? (typeof named === 'string' ? named : undefined) ?? target.model;
    return { id, prompt: trace.prompt(), answer, ...(model ? { model } : {}) };
  }
}

/**
 * A backend's words about a request without the lists it may add of what it has (models, checkpoints,
 * values): "unknown model "x"; known: a, b" and "'x' not in ['a', 'b']" name the operator's catalogue.
 */
export function withoutCatalogue(text: string): string {
  return text
    .replace(/\s*\[[^\]]*[,'"][^\]]*\]/g, '')
    .replace(/[\s;,.]*\b(?:known|available|valid|supported|allowed)\b[\w\s]{0,20}:.*$/i, '')
    .trim();
}

/** The content type of an image's bytes, by their first bytes. */
function contentTypeOf(bytes: Buffer): string {
  if (bytes[0] === 0x89 && bytes[1] === 0x50) return 'image/png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8) return 'image/jpeg';
  if (bytes.subarray(8, 12).toString('latin1') === 'WEBP') return 'image/webp';
  return 'application/octet-stream';
}

/** What an image at a target is billed as: as its API says, else its model at the size asked. */
const billedAs = (target: Target<ImageBackend>, ask: ImageAsk): Billed =>
  target.backend.bills?.(ask) ?? { model: target.model, size: `${ask.width}x${ask.height}` };

/** The answer's metadata when the fallback served it (the spec's answers may gain keys). */
const servedBy = (target: Target<unknown>) =>
  target.role === 'fallback' ? { served_by: 'fallback' as const } : {};

/** Whether a `/v1` answer may be passed on as it came: a checked PNG or JPEG, of the size asked if one was. */
function passesAsIs(bytes: Buffer, asked: { width: number; height: number } | undefined): boolean {
  try {
    const facts = checkImage(bytes);
    return !asked || (facts.width === asked.width && facts.height === asked.height);
  } catch {
    return false;
  }
}
