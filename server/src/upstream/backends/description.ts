import type { SettingsTable } from '@lootsmith/protocol';
import type { z } from 'zod';
import { type Answer, Endpoint } from '../http.ts';
import type { ChatBackend, ImageBackend } from './types.ts';

export type Kind = 'chat' | 'image';

/** Where warnings about backends go (the server's logger, once it has one). */
export interface WarnLog {
  warn(fields: Record<string, unknown>, message: string): void;
}

/** Where one kind of generation goes: an API, its address and key, and how much of it one instance uses. */
export interface BackendSpec<Api extends string = string> {
  /** A registered backend's `api`, or `embedded`: the engine this server starts on loopback (a `/v1` service). */
  api: Api | 'embedded';
  url?: string;
  key?: string;
  model?: string;
  /** Calls sent at once; the rest wait in the backend's queue. */
  concurrency: number;
  /** One attempt, from its turn to its last byte. */
  timeoutMs: number;
  /** Square side a backend that paints at its model's own size paints at. */
  paintSize?: number;
}

/** The chat and image backends, and the `/v1` fallback tried for either when it fails. */
export interface UpstreamConfig<
  Chat extends BackendSpec = BackendSpec,
  Image extends BackendSpec = BackendSpec,
> {
  chat: Chat;
  image: Image;
  fallback?: { url: string; key: string; timeoutMs: number };
  retries: number;
}

type Values<S extends SettingsTable> = { [K in keyof S]: z.output<S[K]['schema']> };
/** The values of a table of settings, as validated (one without a default may be absent). */
export type OptionsOf<S extends SettingsTable> = {
  [K in keyof S as undefined extends Values<S>[K] ? K : never]?: Values<S>[K];
} & { [K in keyof S as undefined extends Values<S>[K] ? never : K]: Values<S>[K] };

/** The settings every backend may read: the `/v1` service's (the default and the fallback) and each kind's. */
export interface SharedOptions {
  upstreamUrl?: string;
  upstreamKey?: string;
  upstreamTimeoutMs: number;
  textModel?: string;
  imageApi?: string;
  imageUrl?: string;
  imageKey?: string;
  imageModel?: string;
  imageSize?: number;
}

/** The settings as config validated them, by name, and its ways to refuse them (each names the variable). */
export interface Rules<O = SharedOptions & Record<string, unknown>> {
  o: O;
  fail(option: string, message: string): never;
  /** `option` must be set when `when` is. */
  requires(option: string, when: string): void;
  /** `options` may only be set when `needed` is (`what` says when, for a message). */
  onlyWith(options: string[], needed: string, what?: string): void;
  name(option: string): string;
}

export type Verdict = 'ok' | 'warn' | 'FAIL';

/** What one check found; `fix` says what the operator should do. */
export type Finding = { verdict: Verdict; what: string; fix?: string };

export interface CheckResult extends Finding {
  ms: number;
}

/** Runs one timed check of `lootsmith doctor` and prints its line. */
export type Check = (run: () => Promise<Finding>) => Promise<CheckResult>;

/** What a backend's doctor probe works with: its spec, and GETs at its address with its key. */
export interface ProbeKit {
  spec: BackendSpec;
  /** A GET as a check (reachable, key accepted); the answer when it passed. `hint` is the fix of a 404. */
  look(path: string, options?: { keyVariable?: string; hint?: string }): Promise<Answer | undefined>;
  /** A GET that is no check of its own. */
  get(path: string): Promise<Answer | Error>;
  /** The configured model (or `other`, set by its own variable) among `names`, as a check; `install` says how to get it. */
  present(names: string[], install: string, other?: { model: string; variable: string }): Promise<boolean>;
}

/** How a backend sends its key: `Authorization: Bearer key`, or HTTP Basic of a `user:password` key. */
export type Auth = 'bearer' | 'basic';

/** What every backend says of itself, whatever its kind. */
interface Described<Api extends string, S extends SettingsTable> {
  api: Api;
  /** How `lootsmith doctor` names it above its checks. */
  title(spec: BackendSpec): string;
  auth: Auth;
  /** Where its API lives below a server's root, as its users give the base URL (an OpenAI SDK's ends in /v1). */
  basePath: string;
  /** Its own settings: variables, schemas, lines of `lootsmith --help`. */
  settings: S;
  /** Rules between its settings, checked at start-up. */
  check?(rules: Rules<SharedOptions & OptionsOf<S>>): void;
  /** The variable an operator fixes when it refuses its key (default: its kind's, e.g. LOOTSMITH_IMAGE_KEY). */
  keyVariable?: string;
  /** `lootsmith doctor`'s checks before a real call (reachable, key accepted, model present): whether to go on. */
  probe?(kit: ProbeKit): Promise<boolean>;
}

/** A chat backend, chosen by its own settings; the registry's first is used when none is. */
export interface ChatBackendDescription<Api extends string = string, S extends SettingsTable = SettingsTable>
  extends Described<Api, S> {
  /** What chooses it, as `--help` names it (`LOOTSMITH_CHAT_URL`). */
  chosenBy: string;
  chosen?(o: SharedOptions & OptionsOf<S>): boolean;
  /** Used when the settings say nothing; without `timeoutMs`, LOOTSMITH_UPSTREAM_TIMEOUT_MS. */
  defaults: { concurrency: number; timeoutMs?: number };
  /** Its address, key and model from the settings. */
  where(rules: Rules<SharedOptions & OptionsOf<S>>): Pick<BackendSpec, 'api' | 'url' | 'key' | 'model'>;
  open(spec: BackendSpec, endpoint: Endpoint, log?: WarnLog): ChatBackend;
}

/** An image backend, chosen by `LOOTSMITH_IMAGE_API=<api>`. */
export interface ImageBackendDescription<
  Api extends string = string,
  S extends SettingsTable = SettingsTable,
  X extends object = object,
> extends Described<Api, S> {
  /** A short name for prose (`ComfyUI`). */
  name: string;
  help: {
    /** Its entry in the list of LOOTSMITH_IMAGE_API's values. */
    api: string;
    /** What LOOTSMITH_IMAGE_MODEL means for it. */
    model?: string;
    /** How its default URL is said, when it is not a fixed one. */
    url?: string;
    /** Said after its name among the Bearer-key APIs (`behind a proxy`), or its whole entry for Basic. */
    key?: string;
  };
  /** Used when the settings say nothing; without `timeoutMs`, LOOTSMITH_UPSTREAM_TIMEOUT_MS; `paintSize` for one that paints at its own size. */
  defaults: { url?: string; model?: string; concurrency: number; timeoutMs?: number; paintSize?: number };
  /** Its address, key and model when it is not simply the image settings or its defaults. */
  where?(rules: Rules<SharedOptions & OptionsOf<S>>): Pick<BackendSpec, 'api' | 'url' | 'key' | 'model'>;
  /** What it works out from its settings once, at start-up, kept in its spec (ComfyUI: the workflow). */
  prepare?(rules: Rules<SharedOptions & OptionsOf<S>>): X;
  open(spec: BackendSpec & X, endpoint: Endpoint, log?: WarnLog): ImageBackend;
}

/** An endpoint for a spec, its key sent as the backend sends it. */
export function endpointFor(spec: Pick<BackendSpec, 'url' | 'key' | 'concurrency'>, auth: Auth): Endpoint {
  return new Endpoint(spec.url as string, authorization(spec.key, auth), Math.max(spec.concurrency, 4));
}

export function authorization(key: string | undefined, auth: Auth): string | undefined {
  if (!key) return undefined;
  return auth === 'basic' ? `Basic ${Buffer.from(key).toString('base64')}` : `Bearer ${key}`;
}

/** A key as it travels (Basic carries it in base64), so a leak of either form is caught. */
export const secretForms = (key: string | undefined, auth: Auth) =>
  key && auth === 'basic' ? [key, Buffer.from(key).toString('base64')] : [key];
