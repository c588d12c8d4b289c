import type { SettingsTable } from '@lootsmith/protocol';
import { z } from 'zod';
import { name, setting, url, whole } from '../../setting-values.ts';
import { comfyui } from './comfyui/backend.ts';
import {
  type BackendSpec,
  type ChatBackendDescription,
  endpointFor,
  type ImageBackendDescription,
  type Kind,
  type OptionsOf,
  type Rules,
  secretForms,
  type UpstreamConfig,
  type WarnLog,
} from './description.ts';
import { moderation } from './moderation/backend.ts';
import { openaiChat } from './openai-chat/backend.ts';
import { openaiImages } from './openai-images/backend.ts';
import { sdapi } from './sdapi/backend.ts';
import type { ChatBackend, ImageBackend } from './types.ts';
import { v1Chat, v1Images } from './v1/backend.ts';

/** Every chat backend; the first is used unless another is chosen by its settings. */
export const CHAT_BACKENDS = [v1Chat, openaiChat] as const;
/** Every image backend, chosen by LOOTSMITH_IMAGE_API; the first is used when it is unset. */
export const IMAGE_BACKENDS = [v1Images, openaiImages, sdapi, comfyui] as const;
export { moderation };

export type ChatApi = (typeof CHAT_BACKENDS)[number]['api'];
export type ImageApi = (typeof IMAGE_BACKENDS)[number]['api'];

type Intersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;
type Prepared<D> = D extends { prepare: (...args: never[]) => infer X } ? X : Record<never, never>;

export type ChatSpec = BackendSpec<ChatApi>;
/** An image backend's spec, with what its backend prepared at start-up (ComfyUI's `workflow`). */
export type ImageSpec = BackendSpec<ImageApi> &
  Partial<Intersection<Prepared<(typeof IMAGE_BACKENDS)[number]>>>;
export type Upstream = UpstreamConfig<ChatSpec, ImageSpec>;

const chats: readonly ChatBackendDescription[] = CHAT_BACKENDS;
const images: readonly ImageBackendDescription[] = IMAGE_BACKENDS;
const [chatDefault] = CHAT_BACKENDS;
const [imageDefault] = IMAGE_BACKENDS;

/** `a`, `a and b`, `a, b and c`. */
const andList = (words: string[]) =>
  words.length > 1 ? `${words.slice(0, -1).join(', ')} and ${words.at(-1)}` : (words[0] ?? '');

/** Each value with the backends that have it: `1 for sdapi and comfyui, 4 for openai`. */
function perBackend<D>(list: readonly D[], value: (d: D) => unknown, label: (d: D) => string): string {
  const groups = new Map<unknown, string[]>();
  for (const d of list) {
    const v = value(d);
    if (v !== undefined) groups.set(v, [...(groups.get(v) ?? []), label(d)]);
  }
  return [...groups].map(([v, labels]) => `${v} for ${andList(labels)}`).join(', ');
}

const painters = images.filter((d) => d.defaults.paintSize);
const IMAGE_APIS = IMAGE_BACKENDS.map((d) => d.api) as [ImageApi, ...ImageApi[]];

/** The settings of the chat kind and of the upstream client, whichever backend serves it. */
const chatSettings = {
  upstreamRetries: setting(
    'LOOTSMITH_UPSTREAM_RETRIES',
    whole(0, 5).default(2),
    'retries of a failed call to any backend',
  ),
  chatConcurrency: setting(
    'LOOTSMITH_CHAT_CONCURRENCY',
    whole(1, 256).optional(),
    `chat calls one instance sends at once; more wait their turn, a waiting player first (default ${perBackend(
      chats,
      (d) => d.defaults.concurrency,
      (d) => d.chosenBy,
    )})`,
  ),
  chatTimeoutMs: setting(
    'LOOTSMITH_CHAT_TIMEOUT_MS',
    whole(100, 900_000).optional(),
    `one chat attempt, from its turn to the last byte (default ${perBackend(
      chats,
      (d) => d.defaults.timeoutMs,
      (d) => d.chosenBy,
    )}, else LOOTSMITH_UPSTREAM_TIMEOUT_MS)`,
  ),
};

/** The settings of the image kind, whichever backend serves it; their help lists what each backend does. */
const imageSettings = {
  imageApi: setting(
    'LOOTSMITH_IMAGE_API',
    z.enum(IMAGE_APIS, { error: `must be one of ${IMAGE_APIS.join(', ')}` }).optional(),
    `the image backend’s API: ${images.map((d) => d.help.api).join(', ')}; unset = the ${imageDefault.name} service`,
  ),
  imageUrl: setting(
    'LOOTSMITH_IMAGE_URL',
    url.optional(),
    `its base URL (default ${perBackend(
      images,
      (d) => d.defaults.url ?? d.help.url,
      (d) => d.api,
    )})`,
  ),
  imageKey: setting(
    'LOOTSMITH_IMAGE_KEY',
    z.string().min(1).optional(),
    `its key: a Bearer key (${images
      .filter((d) => d.auth === 'bearer')
      .map((d) => (d.help.key ? `${d.api} ${d.help.key}` : d.api))
      .join(', ')}), ${images
      .filter((d) => d.auth === 'basic')
      .map((d) => d.help.key)
      .join(', ')}`,
  ),
  imageModel: setting(
    'LOOTSMITH_IMAGE_MODEL',
    name.optional(),
    `its model: ${images.flatMap((d) => d.help.model ?? []).join('; ')}`,
  ),
};
const paintSettings = {
  imageSize: setting(
    'LOOTSMITH_IMAGE_SIZE',
    whole(256, 2048).optional(),
    `side of the square ${andList(painters.map((d) => d.name))} paint before Lootsmith resizes (default ${[...new Set(painters.map((d) => d.defaults.paintSize))].join(' or ')}; 1024 for SDXL)`,
  ),
  imageConcurrency: setting(
    'LOOTSMITH_IMAGE_CONCURRENCY',
    whole(1, 256).optional(),
    `images one instance asks at once; more wait their turn: a waiting player, then icons painted after their item, then pool refills (default ${perBackend(
      images,
      (d) => d.defaults.concurrency,
      (d) => d.api,
    )})`,
  ),
  imageTimeoutMs: setting(
    'LOOTSMITH_IMAGE_TIMEOUT_MS',
    whole(100, 900_000).optional(),
    `one image attempt, from its turn to the last byte (default ${perBackend(
      images,
      (d) => d.defaults.timeoutMs,
      (d) => d.api,
    )}, else LOOTSMITH_UPSTREAM_TIMEOUT_MS)`,
  ),
};

/** The settings of a list of backends, as one table (its type keeps every setting's own). */
const settingsOf = <L extends readonly { settings: SettingsTable }[]>(list: L) =>
  Object.assign({}, ...list.map((d) => d.settings)) as Intersection<L[number]['settings']>;

/** Every backend's settings and its kind's, in the order `lootsmith --help` lists them. */
export const BACKEND_SETTINGS = {
  ...settingsOf(CHAT_BACKENDS),
  ...chatSettings,
  ...imageSettings,
  ...settingsOf(IMAGE_BACKENDS),
  ...paintSettings,
  ...moderation.settings,
};

/** The backend of a kind that speaks `api` (`embedded` is the default backend, on loopback). */
export function backendOf(kind: 'chat', api: string): ChatBackendDescription;
export function backendOf(kind: 'image', api: string): ImageBackendDescription;
export function backendOf(kind: Kind, api: string): ChatBackendDescription | ImageBackendDescription;
export function backendOf(kind: Kind, api: string) {
  const list: readonly (ChatBackendDescription | ImageBackendDescription)[] =
    kind === 'chat' ? CHAT_BACKENDS : IMAGE_BACKENDS;
  const found = api === 'embedded' ? list[0] : list.find((d) => d.api === api);
  if (!found) throw new Error(`no ${kind} backend speaks ${api}`);
  return found;
}

/** The variable of a kind's key or model (`LOOTSMITH_IMAGE_KEY`). */
export const kindVariable = (kind: Kind, what: 'KEY' | 'MODEL') => `LOOTSMITH_${kind.toUpperCase()}_${what}`;

/** The variable an operator fixes when a kind's backend refuses its key. */
export const keyVariableOf = (kind: Kind, spec: BackendSpec) =>
  backendOf(kind, spec.api).keyVariable ?? kindVariable(kind, 'KEY');

/** The rules between the backends' settings, checked at start-up; each refusal names its variable. */
export function checkBackendSettings(rules: Rules) {
  const { o, fail } = rules;
  for (const d of chats) d.check?.(rules);
  moderation.check(rules);
  const own = images.flatMap((d) => Object.keys(d.settings).map((option) => ({ option, api: d.api })));
  rules.onlyWith(
    ['imageUrl', 'imageKey', 'imageModel', ...own.map((s) => s.option), 'imageSize'],
    'imageApi',
  );
  for (const { option, api } of own)
    if (o[option] !== undefined && o.imageApi !== api) fail(option, `needs ${rules.name('imageApi')}=${api}`);
  if (o.imageSize && !painters.some((d) => d.api === o.imageApi))
    fail(
      'imageSize',
      `has no effect unless ${rules.name('imageApi')} is ${painters.map((d) => d.api).join(' or ')}`,
    );
  for (const d of images) d.check?.(rules);
}

/** Where chat and images go, with each backend's defaults filled in. */
export function upstreamOf(rules: Rules): Upstream {
  const o = rules.o as Rules['o'] & OptionsOf<typeof BACKEND_SETTINGS>;
  const chosen = chats.find((d) => d.chosen?.(o)) ?? (chatDefault as ChatBackendDescription);
  const chat = {
    ...chosen.where(rules),
    concurrency: o.chatConcurrency ?? chosen.defaults.concurrency,
    timeoutMs: o.chatTimeoutMs ?? chosen.defaults.timeoutMs ?? o.upstreamTimeoutMs,
  } as ChatSpec;
  const d = backendOf('image', o.imageApi ?? imageDefault.api);
  const image = {
    ...(d.where?.(rules) ?? {
      api: d.api,
      url: o.imageUrl ?? d.defaults.url,
      key: o.imageKey,
      model: o.imageModel ?? d.defaults.model,
    }),
    concurrency: o.imageConcurrency ?? d.defaults.concurrency,
    timeoutMs: o.imageTimeoutMs ?? d.defaults.timeoutMs ?? o.upstreamTimeoutMs,
    ...(d.defaults.paintSize ? { paintSize: o.imageSize ?? d.defaults.paintSize } : {}),
    ...d.prepare?.(rules),
  } as ImageSpec;
  return {
    chat,
    image,
    fallback:
      o.fallbackUrl && o.fallbackKey
        ? { url: o.fallbackUrl, key: o.fallbackKey, timeoutMs: o.upstreamTimeoutMs }
        : undefined,
    retries: o.upstreamRetries,
  };
}

/** The embedded engine's loopback address and key, for a kind that uses it. */
export type Embedded = { url: string; key: string };

function located(spec: BackendSpec, embedded?: Embedded): BackendSpec {
  if (spec.api !== 'embedded') return spec;
  if (!embedded) throw new Error('the embedded engine is not running');
  return { ...spec, url: embedded.url, key: embedded.key };
}

/** A kind's backend for a spec, speaking to its address with its key as it sends it. */
export function openBackend(kind: 'chat', spec: BackendSpec, embedded?: Embedded, log?: WarnLog): ChatBackend;
export function openBackend(
  kind: 'image',
  spec: BackendSpec,
  embedded?: Embedded,
  log?: WarnLog,
): ImageBackend;
export function openBackend(kind: Kind, spec: BackendSpec, embedded?: Embedded, log?: WarnLog) {
  const at = located(spec, embedded);
  const d = backendOf(kind, spec.api);
  return d.open(at as never, endpointFor(at, d.auth), log);
}

/** The backends' credentials as they travel (sdapi's user:password also as its Basic header carries it). */
export function backendSecrets(config: UpstreamConfig, embeddedKey?: string): Array<string | undefined> {
  const { chat, image, fallback } = config;
  return [
    ...secretForms(chat.key, backendOf('chat', chat.api).auth),
    ...secretForms(image.key, backendOf('image', image.api).auth),
    fallback?.key,
    embeddedKey,
  ];
}
