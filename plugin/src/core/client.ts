import type {
  GameDefinition,
  IconPending,
  ImageGenerationResponse,
  ItemIcon,
  SessionResponse,
} from '@lootsmith/protocol';
import { DEFAULT_RETRY, isRetryable, type RetryPolicy, retryDelay, sleep } from './backoff.ts';
import { type CacheLimits, LootsmithCache } from './cache.ts';
import { base64DataUrl, pngDataUrl } from './data-url.ts';
import {
  abortedError,
  errorFromResponse,
  LootsmithError,
  parseRetryAfter,
  toLootsmithError,
  unreachableError,
} from './errors.ts';
import type {
  CombineResponse,
  CreateItemResponse,
  EquipmentResponse,
  InventoryResponse,
  Item,
  SlotName,
  UseItemResponse,
} from './game-types.ts';
import { InFlight } from './in-flight.ts';
import { IconPendingError, untilPainted } from './pending-icon.ts';
import {
  type CombineParams,
  type CreateItemParams,
  combineBody,
  createItemBody,
  type DropParams,
  generateItemsBody,
  hash,
  type IconPromptOptions,
  type ItemRef,
  imageBody,
  refId,
} from './requests.ts';

export interface LootsmithConfig {
  /** The Lootsmith server, e.g. `http://127.0.0.1:8787`. Default: the page's own origin. */
  baseUrl?: string;
  playerId: string;
  /**
   * Returns the player's bearer token; called again once after a 401. Default: a guest session
   * from `POST /api/v1/session` (fine for development; a real game asks its own game server).
   */
  getToken?: () => string | Promise<string>;
  retry?: Partial<RetryPolicy>;
  /** Per try; a try that takes longer fails with code `timeout` and is retried. Default 60 s (generation is slow). */
  timeoutMs?: number;
  /** IndexedDB cache bounds, or `false` for no cache. */
  cache?: Partial<CacheLimits> | false;
  fetch?: typeof fetch;
}

export interface Progress {
  stage: 'sending' | 'retrying';
  /** 1 for the first try. */
  attempt: number;
  /** Before a retry: how long the client waits, and why. */
  delayMs?: number;
  error?: LootsmithError;
}

export interface CallOptions {
  signal?: AbortSignal;
  onProgress?: (progress: Progress) => void;
}

/** An icon's image, ready for `textures.addBase64`; `id` is stable per image and names its texture. */
export interface IconImage {
  id: string;
  dataUrl: string;
  /** Whether it came from IndexedDB rather than the network. */
  cached: boolean;
}

interface Call {
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  auth?: boolean;
  bytes?: boolean;
  /** Requests sharing a key while one is in flight are sent once; `false` sends every call. */
  key?: string | false;
  idempotencyKey?: string;
}

const randomKey = () => crypto.randomUUID();

/** The wait a 202 asks for: `retry_after_ms` in its body (IconPending), else `Retry-After`. */
async function pendingFrom(res: Response): Promise<IconPendingError> {
  const body = (await res.json().catch(() => ({}))) as Partial<IconPending>;
  const seconds = parseRetryAfter(res.headers.get('retry-after'));
  const waitMs = typeof body.retry_after_ms === 'number' ? body.retry_after_ms : seconds && seconds * 1000;
  return new IconPendingError(waitMs);
}

/** The framework-free Lootsmith client: HTTP, tokens, retries, dedupe and cache. */
export class LootsmithClient {
  readonly playerId: string;
  readonly baseUrl: string;
  readonly #getToken: () => string | Promise<string>;
  readonly #retry: RetryPolicy;
  readonly #fetch: typeof fetch;
  readonly #timeoutMs: number;
  readonly #cache: LootsmithCache | undefined;
  readonly #inFlight = new InFlight<Progress>();
  #token: Promise<string> | undefined;

  constructor(config: LootsmithConfig) {
    this.playerId = config.playerId;
    this.baseUrl = (config.baseUrl ?? globalThis.location?.origin ?? '').replace(/\/+$/, '');
    this.#getToken = config.getToken ?? (() => this.#guestToken());
    this.#retry = { ...DEFAULT_RETRY, ...config.retry };
    this.#fetch = config.fetch ?? ((input, init) => fetch(input, init));
    this.#timeoutMs = config.timeoutMs ?? 60_000;
    if (config.cache !== false) this.#cache = new LootsmithCache(config.cache || {});
  }

  /** Requests currently on the wire (shared requests count once). */
  get pending() {
    return this.#inFlight.size;
  }

  async generateItems(params: DropParams, options: CallOptions = {}): Promise<Item[]> {
    const body = generateItemsBody(this.playerId, params);
    const dropKey = params.dropId && `drop:${this.playerId}:${params.dropId}`;
    const res = await this.#request<{ items?: Item[] }>(
      {
        method: 'POST',
        path: '/v1/generate/items',
        body,
        key: dropKey || false,
        // Stable for one dropId, so even a drop repeated after a reload is granted once.
        idempotencyKey: dropKey ? `lootsmith-drop-${hash(dropKey)}` : undefined,
      },
      options,
    );
    if (!Array.isArray(res?.items)) throw new LootsmithError('bad_response', 'The server sent no items');
    return res.items;
  }

  combine(params: CombineParams, options: CallOptions = {}): Promise<CombineResponse> {
    return this.#request(
      { method: 'POST', path: '/api/v1/crafting/combine', body: combineBody(this.playerId, params) },
      options,
    );
  }

  createItem(params: CreateItemParams, options: CallOptions = {}): Promise<CreateItemResponse> {
    const path = this.#playerPath('/create-item');
    return this.#request({ method: 'POST', path, body: createItemBody(params) }, options);
  }

  /** What the player wears: every slot of the game, and the worn items' stats summed. */
  equipment(options: CallOptions = {}): Promise<EquipmentResponse> {
    return this.#request({ method: 'GET', path: this.#playerPath('/equipment') }, options);
  }

  /** Wears an owned item in the slot of its type; answers the equipment after the change. */
  equip(item: ItemRef, options: CallOptions = {}): Promise<EquipmentResponse> {
    const body = { item_id: refId(item) };
    return this.#request({ method: 'POST', path: this.#playerPath('/equipment/equip'), body }, options);
  }

  unequip(slot: SlotName, options: CallOptions = {}): Promise<EquipmentResponse> {
    const body = { slot };
    return this.#request({ method: 'POST', path: this.#playerPath('/equipment/unequip'), body }, options);
  }

  /** Spends one owned consumable; every call is a use of its own (two calls drink two potions). */
  useItem(item: ItemRef, options: CallOptions = {}): Promise<UseItemResponse> {
    const body = { item_id: refId(item) };
    return this.#request({ method: 'POST', path: this.#playerPath('/use-item'), body, key: false }, options);
  }

  async inventory(options: CallOptions = {}): Promise<InventoryResponse> {
    const path = this.#playerPath('/inventory');
    const inventory = await this.#request<InventoryResponse>({ method: 'GET', path }, options);
    await this.#cache?.set(this.#inventoryKey(), inventory);
    return inventory;
  }

  /** The last inventory this player fetched, from IndexedDB: show it at once, then refresh. */
  cachedInventory(): Promise<InventoryResponse | undefined> {
    return this.#cache?.get<InventoryResponse>(this.#inventoryKey()) ?? Promise.resolve(undefined);
  }

  gameDefinition(options: CallOptions = {}): Promise<GameDefinition> {
    return this.#request({ method: 'GET', path: '/api/v1/game' }, options);
  }

  /** An item's icon (immutable, fetched once per device) or a new icon painted from a prompt. */
  icon(
    source: ItemIcon | string,
    prompt: IconPromptOptions = {},
    options: CallOptions = {},
  ): Promise<IconImage> {
    if (typeof source !== 'string') {
      const url = /^[a-z]+:/i.test(source.url) ? source.url : this.baseUrl + source.url;
      // An icon painted after its item answers 202 until it is there: asked again with back-off.
      return this.#cachedIcon(`icon:${source.id}`, options, async (call) =>
        pngDataUrl(
          await untilPainted(
            () => this.#send<Uint8Array>({ method: 'GET', path: url, auth: false, bytes: true }, call),
            call.signal ?? new AbortController().signal,
          ),
        ),
      );
    }
    const body = imageBody(this.playerId, source, prompt);
    const { client_id: _player, ...look } = body;
    return this.#cachedIcon(`prompt:${hash(JSON.stringify(look))}`, options, async (call) => {
      const request = { method: 'POST', path: '/v1/image/generations', body } as const;
      const res = await this.#send<ImageGenerationResponse>(request, call);
      if (typeof res?.image !== 'string')
        throw new LootsmithError('bad_response', 'The server sent no image');
      return base64DataUrl(res.image);
    });
  }

  #cachedIcon(id: string, options: CallOptions, load: (call: CallOptions) => Promise<string>) {
    return this.#inFlight.run(
      id,
      async (signal, onProgress): Promise<IconImage> => {
        const hit = await this.#cache?.get<string>(id);
        if (hit) return { id, dataUrl: hit, cached: true };
        const dataUrl = await load({ signal, onProgress });
        await this.#cache?.set(id, dataUrl);
        return { id, dataUrl, cached: false };
      },
      options.signal,
      options.onProgress,
    );
  }

  #playerPath(rest: string) {
    return `/api/v1/player/${encodeURIComponent(this.playerId)}${rest}`;
  }

  #inventoryKey() {
    return `inventory:${this.baseUrl}:${this.playerId}`;
  }

  #request<T>(call: Call, options: CallOptions): Promise<T> {
    const key = call.key ?? `${call.method} ${call.path} ${JSON.stringify(call.body ?? null)}`;
    if (key === false) return this.#send<T>(call, options);
    return this.#inFlight.run(
      key,
      (signal, onProgress) => this.#send<T>(call, { signal, onProgress }),
      options.signal,
      options.onProgress,
    );
  }

  /** One logical request: one Idempotency-Key, a token refresh on 401, retries where a retry can help. */
  async #send<T>(call: Call, { signal = new AbortController().signal, onProgress }: CallOptions): Promise<T> {
    // Only calls that change a player's state need one; the guest login does not.
    const idempotencyKey =
      call.method === 'POST' && call.auth !== false ? (call.idempotencyKey ?? randomKey()) : undefined;
    let refreshedToken = false;
    for (let attempt = 1; ; attempt++) {
      try {
        const headers: Record<string, string> = {};
        if (call.body !== undefined) headers['content-type'] = 'application/json';
        if (idempotencyKey) headers['idempotency-key'] = idempotencyKey;
        const token = call.auth === false ? undefined : this.#currentToken();
        if (token) headers.authorization = `Bearer ${await token}`;
        onProgress?.({ stage: 'sending', attempt });
        const url = call.path.startsWith('/') ? this.baseUrl + call.path : call.path;
        const timeout = AbortSignal.timeout(this.#timeoutMs);
        const res = await this.#fetch(url, {
          method: call.method,
          headers,
          body: call.body === undefined ? null : JSON.stringify(call.body),
          signal: AbortSignal.any([signal, timeout]),
        }).catch((e: unknown) => {
          if (signal.aborted) throw e;
          if (!timeout.aborted) throw unreachableError(url, e);
          throw new LootsmithError('timeout', `No answer within ${this.#timeoutMs} ms`, { cause: e });
        });
        if (res.status === 401 && call.auth !== false && !refreshedToken) {
          refreshedToken = true;
          // Concurrent calls that saw the same stale token ask the provider once between them.
          if (this.#token === token) this.#token = undefined;
          attempt--;
          continue;
        }
        if (!res.ok) throw await errorFromResponse(res);
        if (res.status === 202 && call.bytes) throw await pendingFrom(res);
        return (call.bytes ? new Uint8Array(await res.arrayBuffer()) : await res.json()) as T;
      } catch (e) {
        const error = toLootsmithError(e, signal);
        const delayMs = retryDelay(this.#retry, attempt, error.retryAfter);
        const giveUp =
          !isRetryable(error) || attempt >= this.#retry.attempts || delayMs > this.#retry.maxRetryAfterMs;
        if (giveUp || signal.aborted) throw signal.aborted ? abortedError(signal.reason) : error;
        onProgress?.({ stage: 'retrying', attempt: attempt + 1, delayMs, error });
        await sleep(delayMs, signal);
      }
    }
  }

  /** One token request at a time; a failed one is forgotten so the next call asks again. */
  #currentToken(): Promise<string> {
    if (!this.#token) {
      this.#token = Promise.resolve()
        .then(this.#getToken)
        .catch((e: unknown) => {
          this.#token = undefined;
          throw e instanceof LootsmithError ? e : new LootsmithError('token_failed', String(e), { cause: e });
        });
    }
    return this.#token;
  }

  async #guestToken(): Promise<string> {
    // The server makes a guest once and gives it a secret; the same guest logs in again with it.
    const key = `lootsmith:guest:${this.baseUrl}:${this.playerId}`;
    const guest_secret = readStored(key);
    const call = {
      method: 'POST',
      path: '/api/v1/session',
      body: { player_id: this.playerId, ...(guest_secret ? { guest_secret } : {}) },
      auth: false,
    } as const;
    const session = await this.#send<SessionResponse>(call, {});
    if (session.guest_secret) writeStored(key, session.guest_secret);
    return session.token;
  }
}

/** Guest secrets outlive the page in localStorage where there is one (a browser), else in memory. */
const remembered = new Map<string, string>();
function readStored(key: string): string | undefined {
  try {
    return globalThis.localStorage?.getItem(key) ?? remembered.get(key);
  } catch {
    return remembered.get(key);
  }
}
function writeStored(key: string, value: string) {
  remembered.set(key, value);
  try {
    globalThis.localStorage?.setItem(key, value);
  } catch {
    // Storage refused (a sandboxed frame): the secret lasts as long as the page.
  }
}
