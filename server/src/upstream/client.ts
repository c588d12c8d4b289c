import {
  type ChatCompletionRequest,
  ChatCompletionResponse,
  type ImageGenerationRequest,
  ImageGenerationResponse,
} from '@lootsmith/protocol';
import { type Dispatcher, Pool } from 'undici';
import { type CallerSignal, Cancel, onAbort } from '../cancel.ts';
import { ApiError } from '../http/errors.ts';
import type { Metrics } from '../metrics.ts';
import { Secrets } from '../secrets.ts';
import { checkImage } from './image.ts';

export interface UpstreamTarget {
  url: string;
  key: string;
}

export interface UpstreamOptions {
  primary: UpstreamTarget;
  fallback?: UpstreamTarget;
  /** Deadline of one attempt, from sending to the last byte; a call's attempts get twice this in all. */
  timeoutMs: number;
  retries: number;
  /** Every secret of the server: none of them leaves in anything that came from upstream. */
  secrets?: Secrets;
  metrics?: Metrics;
  /** Longest Retry-After the client waits out before moving on; longer answers count as a failure. */
  maxRetryAfterMs?: number;
  /** Told of every attempt as it ends (the console's figures per backend). */
  observe?: (call: UpstreamCall) => void;
}

/** One attempt at a backend, as `observe` is told of it. */
export interface UpstreamCall {
  /** `primary` or `fallback`. */
  backend: string;
  endpoint: string;
  outcome: 'ok' | 'error' | 'key_refused' | 'rejected';
  ms: number;
  clientId: string | undefined;
  /** Why a failed attempt failed. */
  detail?: string;
  /** What an answer reported using (a chat completion's `usage`). */
  answer?: unknown;
}

class AttemptFailed extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly retryAfterMs?: number,
    readonly keyRefused = false,
  ) {
    super(message);
  }
}

interface Target extends UpstreamTarget {
  pool: Pool;
  basePath: string;
  label: string;
}

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
const cancelled = () => new ApiError(499, 'aborted', 'The request was cancelled');
/** The abort reason of an attempt that ran out of time (a caller hanging up has its own). */
const deadlineExceeded = new Error('deadline exceeded');

/** Largest answers read: a chat completion, an image (768² RGBA as PNG, in base64, with room), an error. */
export const BODY_LIMITS = { chat: 4 * 1024 * 1024, image: 8 * 1024 * 1024, error: 64 * 1024 };
/** Longest piece of an upstream error message passed on to a player. */
const MESSAGE_LIMIT = 200;

/** Reads a body up to `max` bytes; a longer one is cut off and the attempt fails. */
async function readLimited(body: Dispatcher.ResponseData['body'], max: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > max) {
      body.destroy();
      throw new AttemptFailed(`answer larger than ${max} bytes`, false);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size).toString('utf8');
}

/** Only the fields the protocol defines, so nothing else an upstream adds (headers it echoes…) is passed on. */
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

/** The `/v1` service client: keep-alive pool, timeouts, retries with jitter and Retry-After, fallback. */
export class UpstreamClient {
  private readonly targets: Target[];
  private readonly secrets: Secrets;

  constructor(private readonly options: UpstreamOptions) {
    this.secrets = options.secrets ?? new Secrets([options.primary.key, options.fallback?.key]);
    this.targets = [options.primary, options.fallback]
      .filter((t): t is UpstreamTarget => !!t)
      .map((t, i) => {
        const u = new URL(t.url);
        return {
          ...t,
          pool: new Pool(u.origin, { connections: 64, keepAliveTimeout: 30_000 }),
          basePath: u.pathname.replace(/\/+$/, ''),
          label: i === 0 ? 'primary' : 'fallback',
        };
      });
  }

  /** A chat completion with only the protocol's fields, every text scrubbed of the server's secrets. */
  async chat(
    body: ChatCompletionRequest,
    signal?: CallerSignal,
    /** Told which backend answered. */
    answered?: { backend?: string },
  ): Promise<ChatCompletionResponse> {
    const scrub = (text: string) => this.secrets.scrub(text);
    return this.call('/v1/chat/completions', body, BODY_LIMITS.chat, signal, answered, (json) => {
      const parsed = ChatCompletionResponse.safeParse(json);
      if (!parsed.success) throw new AttemptFailed('response does not match the /v1 schema', true);
      return chatFields(parsed.data, scrub);
    });
  }

  /** An image that decodes as the PNG or JPEG it claims to be, within the size limits; nothing else. */
  async image(body: ImageGenerationRequest, signal?: CallerSignal): Promise<ImageGenerationResponse> {
    const { generation_only: _json, ...rest } = body;
    return this.call('/v1/image/generations', rest, BODY_LIMITS.image, signal, undefined, (json) => {
      const parsed = ImageGenerationResponse.safeParse(json);
      if (!parsed.success) throw new AttemptFailed('response does not match the /v1 schema', true);
      const { image } = parsed.data;
      const bytes = Buffer.from(image, 'base64');
      // Canonical base64 only: Node's decoder skips what it cannot read, so encoding back tells.
      if (bytes.toString('base64') !== image) throw new AttemptFailed('image is not base64', true);
      try {
        checkImage(bytes);
      } catch (err) {
        throw new AttemptFailed(`image refused: ${(err as Error).message}`, true);
      }
      if (this.secrets.leaks(bytes) || this.secrets.leaks(image))
        throw new AttemptFailed('image carries a secret', false);
      return { image };
    });
  }

  async close() {
    await Promise.all(this.targets.map((t) => t.pool.close()));
  }

  private async call<T>(
    path: string,
    body: unknown,
    maxBytes: number,
    signal: CallerSignal | undefined,
    answered: { backend?: string } | undefined,
    accept: (json: unknown) => T,
  ): Promise<T> {
    let refused = false;
    // Attempts together get twice the timeout; waits a Retry-After asks for (each capped) come on top.
    let left = 2 * this.options.timeoutMs;
    for (const target of this.targets) {
      for (let attempt = 0; attempt <= this.options.retries && left > 0; attempt++) {
        // A caller gone during a back-off (or before the first try) starts no new attempt.
        if (signal?.aborted) throw cancelled();
        const started = Date.now();
        try {
          const json = await this.attempt(
            target,
            path,
            body,
            maxBytes,
            Math.min(left, this.options.timeoutMs),
            signal,
          ).finally(() => {
            left -= Date.now() - started;
          });
          const result = accept(json);
          this.count(target, path, 'ok', { started, body, answer: result });
          if (answered) answered.backend = target.label;
          return result;
        } catch (err) {
          if (err instanceof ApiError) {
            if (err.code === 'upstream_rejected') this.count(target, path, 'rejected', { started, body });
            throw err;
          }
          if (signal?.aborted) throw cancelled();
          const failure = err instanceof AttemptFailed ? err : new AttemptFailed(String(err), true);
          const detail = failure.message;
          this.count(target, path, failure.keyRefused ? 'key_refused' : 'error', { started, body, detail });
          refused ||= failure.keyRefused;
          const maxWait = this.options.maxRetryAfterMs ?? 5_000;
          if (!failure.retryable || attempt === this.options.retries) break;
          if (failure.retryAfterMs !== undefined && failure.retryAfterMs > maxWait) break;
          const backoff = Math.min(2_000, 100 * 2 ** attempt);
          await sleep(failure.retryAfterMs ?? backoff / 2 + Math.random() * backoff, signal);
        }
      }
    }
    if (refused)
      throw new ApiError(
        502,
        'upstream_key_refused',
        'The content service refused the server’s API key: the operator should check LOOTSMITH_UPSTREAM_KEY',
      );
    throw new ApiError(502, 'upstream_unavailable', 'The content service is unavailable; try again shortly');
  }

  /**
   * One request with a deadline on the whole exchange (a trickling answer cannot hold it open). The
   * timer and the listener on the caller's signal are removed when it ends: nothing outlives it.
   */
  private async attempt(
    target: Target,
    path: string,
    body: unknown,
    maxBytes: number,
    deadlineMs: number,
    signal?: CallerSignal,
  ): Promise<unknown> {
    // One signal for the deadline and the caller (AbortSignal.timeout and .any cost far more).
    const stop = new Cancel();
    const timer = setTimeout(() => stop.abort(deadlineExceeded), deadlineMs);
    const hangUp = () => stop.abort(signal?.reason);
    if (signal?.aborted) hangUp();
    const stopListening = signal && onAbort(signal, hangUp);
    try {
      return await this.exchange(target, path, body, maxBytes, deadlineMs, stop);
    } finally {
      clearTimeout(timer);
      stopListening?.();
    }
  }

  private async exchange(
    target: Target,
    path: string,
    body: unknown,
    maxBytes: number,
    deadlineMs: number,
    signal: Cancel,
  ): Promise<unknown> {
    let res: Dispatcher.ResponseData;
    try {
      res = await target.pool.request({
        path: target.basePath + path,
        method: 'POST',
        headers: { authorization: `Bearer ${target.key}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
        headersTimeout: deadlineMs,
        bodyTimeout: deadlineMs,
        signal,
      });
    } catch (err) {
      throw this.failure(err, signal, deadlineMs, 'network');
    }
    const status = res.statusCode;
    const declared = Number(res.headers['content-length']);
    const limit = status >= 400 ? BODY_LIMITS.error : maxBytes;
    if (declared > limit) {
      res.body.destroy();
      throw new AttemptFailed(`answer of ${declared} bytes is over the limit of ${limit}`, false);
    }
    // A declared length within the limit bounds the body (undici holds the server to it).
    const text = await (declared >= 0 ? res.body.text() : readLimited(res.body, limit)).catch((err) => {
      throw this.failure(err, signal, deadlineMs, 'body read');
    });
    if (status === 401 || status === 403) throw new AttemptFailed(`status ${status}`, false, undefined, true);
    if (status === 429 || status >= 500) {
      const header = res.headers['retry-after'];
      const seconds = Number(Array.isArray(header) ? header[0] : header);
      throw new AttemptFailed(
        `status ${status}`,
        true,
        Number.isFinite(seconds) ? seconds * 1000 : undefined,
      );
    }
    if (status >= 400) throw new ApiError(502, 'upstream_rejected', this.rejection(status, text));
    try {
      return JSON.parse(text);
    } catch {
      throw new AttemptFailed('response is not JSON', true);
    }
  }

  /** A timed-out attempt is not repeated on the same target (the fallback, if any, gets the time left). */
  private failure(err: unknown, signal: Cancel, deadlineMs: number, during: string): AttemptFailed {
    if (err instanceof AttemptFailed) return err;
    if (signal.reason === deadlineExceeded)
      return new AttemptFailed(`no whole answer within ${deadlineMs} ms`, false);
    return new AttemptFailed(`${during}: ${(err as Error).message}`, true);
  }

  /** What a player is told of a 4xx: the upstream's own message, short, printable and scrubbed of secrets. */
  private rejection(status: number, text: string): string {
    const said = `The content service rejected the request (status ${status})`;
    let message: unknown;
    try {
      message = JSON.parse(text).error.message;
    } catch {}
    if (typeof message !== 'string') return said;
    const clean = this.secrets.scrub(message.replace(/[^\P{C}]+/gu, ' ').trim()).slice(0, MESSAGE_LIMIT);
    return clean ? `${said}: ${clean}` : said;
  }

  private count(
    target: Target,
    path: string,
    outcome: UpstreamCall['outcome'],
    call: { started: number; body: unknown; detail?: string; answer?: unknown },
  ) {
    if (outcome !== 'rejected')
      this.options.metrics?.upstreamCalls.inc({ target: target.label, endpoint: path, outcome });
    this.options.observe?.({
      backend: target.label,
      endpoint: path,
      outcome,
      ms: Date.now() - call.started,
      clientId: (call.body as { client_id?: string }).client_id,
      detail: call.detail,
      answer: call.answer,
    });
  }
}
