import {
  ChatCompletionRequest,
  ChatCompletionResponse,
  ImageGenerationRequest,
  ImageGenerationResponse,
} from '@lootsmith/protocol';
import { Pool } from 'undici';
import type { ZodType } from 'zod';
import { ApiError } from '../http/errors.ts';
import type { Metrics } from '../metrics.ts';

export interface UpstreamTarget {
  url: string;
  key: string;
}

export interface UpstreamOptions {
  primary: UpstreamTarget;
  fallback?: UpstreamTarget;
  timeoutMs: number;
  retries: number;
  metrics?: Metrics;
  /** Longest Retry-After the client waits out before moving on; longer answers count as a failure. */
  maxRetryAfterMs?: number;
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

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The `/v1` service client: keep-alive pool, timeouts, retries with jitter and Retry-After, fallback. */
export class UpstreamClient {
  private readonly targets: Target[];

  constructor(private readonly options: UpstreamOptions) {
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

  chat(body: ChatCompletionRequest, signal?: AbortSignal): Promise<ChatCompletionResponse> {
    return this.call(
      '/v1/chat/completions',
      ChatCompletionRequest.parse(body),
      ChatCompletionResponse,
      signal,
    );
  }

  image(body: ImageGenerationRequest, signal?: AbortSignal): Promise<ImageGenerationResponse> {
    const { generation_only: _json, ...rest } = body;
    return this.call(
      '/v1/image/generations',
      ImageGenerationRequest.parse(rest),
      ImageGenerationResponse,
      signal,
    );
  }

  async close() {
    await Promise.all(this.targets.map((t) => t.pool.close()));
  }

  private async call<T>(path: string, body: unknown, schema: ZodType<T>, signal?: AbortSignal): Promise<T> {
    let refused = false;
    for (const target of this.targets) {
      for (let attempt = 0; attempt <= this.options.retries; attempt++) {
        try {
          const result = await this.attempt(target, path, body, schema, signal);
          this.count(target, path, 'ok');
          return result;
        } catch (err) {
          if (err instanceof ApiError) throw err;
          if (signal?.aborted) throw new ApiError(499, 'aborted', 'The request was cancelled');
          const failure = err instanceof AttemptFailed ? err : new AttemptFailed(String(err), true);
          this.count(target, path, failure.keyRefused ? 'key_refused' : 'error');
          refused ||= failure.keyRefused;
          const maxWait = this.options.maxRetryAfterMs ?? 5_000;
          if (!failure.retryable || attempt === this.options.retries) break;
          if (failure.retryAfterMs !== undefined && failure.retryAfterMs > maxWait) break;
          const backoff = Math.min(2_000, 100 * 2 ** attempt);
          await sleep(failure.retryAfterMs ?? backoff / 2 + Math.random() * backoff);
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

  private async attempt<T>(
    target: Target,
    path: string,
    body: unknown,
    schema: ZodType<T>,
    signal?: AbortSignal,
  ) {
    let res: Awaited<ReturnType<Pool['request']>>;
    try {
      res = await target.pool.request({
        path: target.basePath + path,
        method: 'POST',
        headers: { authorization: `Bearer ${target.key}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
        headersTimeout: this.options.timeoutMs,
        bodyTimeout: this.options.timeoutMs,
        signal,
      });
    } catch (err) {
      throw new AttemptFailed(`network: ${(err as Error).message}`, true);
    }
    const text = await res.body.text().catch(() => {
      throw new AttemptFailed('body read failed', true);
    });
    const status = res.statusCode;
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
    if (status >= 400) {
      let message = `The content service rejected the request (status ${status})`;
      try {
        message = JSON.parse(text).error.message ?? message;
      } catch {}
      throw new ApiError(502, 'upstream_rejected', message);
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new AttemptFailed('response is not JSON', true);
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) throw new AttemptFailed('response does not match the /v1 schema', true);
    return parsed.data;
  }

  private count(target: Target, path: string, outcome: string) {
    this.options.metrics?.upstreamCalls.inc({ target: target.label, endpoint: path, outcome });
  }
}
