import { type Dispatcher, FormData, Pool } from 'undici';
import type { Cancel } from '../cancel.ts';
import { mayHaveSent, noteSent } from './spend.ts';

/** A failed attempt: retried (when `retryable`) on the same backend, then the next backend is tried. */
export class AttemptFailed extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly extra: { retryAfterMs?: number; keyRefused?: boolean; status?: number } = {},
  ) {
    super(message);
  }
}

/** A backend's 4xx about the request itself: not retried, passed on to the player as a 502 `upstream_rejected`. */
export class Rejected extends Error {
  constructor(
    readonly status: number,
    /** What the backend said, as it said it (the client scrubs and shortens it). */
    readonly said: string | undefined,
  ) {
    super(`status ${status}${said ? `: ${said}` : ''}`);
  }
}

/** One attempt's deadline (from its turn in the queue to its last byte) and cancellation. */
export interface Attempt {
  deadlineMs: number;
  /** When the attempt's time is up. */
  deadline: number;
  signal: Cancel;
}

/** The abort reason of an attempt that ran out of time (a caller hanging up has its own). */
export const deadlineExceeded = new Error('deadline exceeded');

export const ERROR_BODY_LIMIT = 64 * 1024;

export interface Answer {
  status: number;
  headers: Dispatcher.ResponseData['headers'];
  body: Buffer;
}

/** Reads a body up to `max` bytes; a longer one is cut off and the attempt fails. */
async function readLimited(body: Dispatcher.ResponseData['body'], max: number): Promise<Buffer> {
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
  return Buffer.concat(chunks, size);
}

/** What a backend's error body says: `error.message`, `error` or `detail` (OpenAI, ComfyUI, FastAPI), if any. */
export function saidIn(body: Buffer): string | undefined {
  let json: unknown;
  try {
    json = JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
  const o = json as { error?: unknown; detail?: unknown; message?: unknown };
  const candidates = [
    (o.error as { message?: unknown } | undefined)?.message,
    o.error,
    o.detail,
    (o.detail as Array<{ msg?: unknown }> | undefined)?.[0]?.msg,
    o.message,
  ];
  return candidates.find((c): c is string => typeof c === 'string' && c.length > 0);
}

/**
 * One HTTP origin and base path with a keep-alive pool and the backend's credential. Requests carry
 * the attempt's deadline on the whole exchange, so a trickling answer cannot hold one open.
 */
export class Endpoint {
  private readonly pool: Pool;
  private readonly basePath: string;
  readonly origin: string;

  constructor(
    url: string,
    private readonly authorization: string | undefined,
    connections = 64,
  ) {
    const u = new URL(url);
    this.origin = u.origin;
    this.basePath = u.pathname.replace(/\/+$/, '');
    this.pool = new Pool(u.origin, { connections, keepAliveTimeout: 30_000 });
  }

  /**
   * Sends a request with a JSON body, or a multipart one when `json` is undici's `FormData` (it writes
   * its boundary); the answer is read up to `maxBytes` (64 KB for an error status).
   */
  async request(
    attempt: Attempt,
    method: 'GET' | 'POST',
    path: string,
    maxBytes: number,
    json?: unknown,
  ): Promise<Answer> {
    const form = json instanceof FormData;
    const left = Math.max(1, attempt.deadline - Date.now());
    let res: Dispatcher.ResponseData;
    try {
      res = await this.pool.request({
        path: this.basePath + path,
        method,
        headers: {
          ...(this.authorization ? { authorization: this.authorization } : {}),
          ...(json === undefined || form ? {} : { 'content-type': 'application/json' }),
        },
        body: json === undefined ? undefined : form ? json : JSON.stringify(json),
        headersTimeout: left,
        bodyTimeout: left,
        signal: attempt.signal,
      });
    } catch (err) {
      // A request that may have reached the backend counts as spent, answered or not.
      if (mayHaveSent(err)) noteSent();
      throw failure(err, attempt, 'network');
    }
    noteSent();
    const limit = res.statusCode >= 400 ? ERROR_BODY_LIMIT : maxBytes;
    const declared = Number(res.headers['content-length']);
    if (declared > limit) {
      res.body.destroy();
      throw new AttemptFailed(`answer of ${declared} bytes is over the limit of ${limit}`, false);
    }
    // A declared length within the limit bounds the body (undici holds the server to it).
    const body = await (declared >= 0
      ? res.body.arrayBuffer().then(Buffer.from)
      : readLimited(res.body, limit)
    ).catch((err) => {
      throw failure(err, attempt, 'body read');
    });
    return { status: res.statusCode, headers: res.headers, body };
  }

  async close() {
    await this.pool.close();
  }
}

/** A timed-out attempt is not repeated on the same backend (the fallback, if any, gets its own time). */
function failure(err: unknown, attempt: Attempt, during: string): AttemptFailed {
  if (err instanceof AttemptFailed) return err;
  if (attempt.signal.reason === deadlineExceeded)
    return new AttemptFailed(`no whole answer within ${attempt.deadlineMs} ms`, false);
  return new AttemptFailed(`${during}: ${(err as Error).message}`, true);
}

/**
 * The statuses every API shares: a refused key, a busy or broken backend (retried, Retry-After
 * honoured), a request it rejects. Returns the answer when it is a success.
 */
export function expectOk(answer: Answer): Answer {
  const { status } = answer;
  if (status === 401 || status === 403)
    throw new AttemptFailed(`status ${status}: ${saidIn(answer.body) ?? 'key refused'}`, false, {
      keyRefused: true,
      status,
    });
  if (status === 429 || status >= 500) {
    const header = answer.headers['retry-after'];
    const seconds = Number(Array.isArray(header) ? header[0] : header);
    throw new AttemptFailed(
      `status ${status}${saidIn(answer.body) ? `: ${saidIn(answer.body)}` : ''}`,
      true,
      {
        retryAfterMs: Number.isFinite(seconds) ? seconds * 1000 : undefined,
        status,
      },
    );
  }
  if (status >= 400) throw new Rejected(status, saidIn(answer.body));
  if (status < 200 || status >= 300) throw new AttemptFailed(`status ${status}`, true, { status });
  return answer;
}

/** The JSON of a successful answer; anything else is a failed (retryable) attempt. */
export function jsonOf(answer: Answer): unknown {
  try {
    return JSON.parse(expectOk(answer).body.toString('utf8'));
  } catch (err) {
    if (err instanceof AttemptFailed || err instanceof Rejected) throw err;
    throw new AttemptFailed('response is not JSON', true);
  }
}

/** Decodes canonical base64 only: Node's decoder skips what it cannot read, so encoding back tells. */
export function base64Bytes(text: string): Buffer {
  const bytes = Buffer.from(text, 'base64');
  if (!bytes.length || bytes.toString('base64') !== text)
    throw new AttemptFailed('image is not base64', true);
  return bytes;
}
