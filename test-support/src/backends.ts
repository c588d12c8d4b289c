import {
  CHAT_BACKENDS,
  type ChatApi,
  IMAGE_BACKENDS,
  type ImageApi,
} from '../../server/src/upstream/backends/registry.ts';
import type { FakeUpstream } from './fake-upstream.ts';

/** Which API the server speaks for each kind; unset is the registry's first (the spec's /v1 service). */
export interface Backends {
  chat?: ChatApi;
  image?: ImageApi;
}

const [chatDefault] = CHAT_BACKENDS;
const [imageDefault] = IMAGE_BACKENDS;
const chatApis = CHAT_BACKENDS.map((b) => b.api);

/** Every pairing of a chat API and an image API the server supports. */
export const PAIRINGS: Array<Required<Backends>> = chatApis.flatMap((chat) =>
  IMAGE_BACKENDS.map(({ api: image }) => ({ chat, image })),
);

/**
 * Every adapter, each once: the hostile suites run against each. Each image API goes with the chat
 * API of its name when there is one, else with the chat APIs in turn.
 */
export const ADAPTERS: Array<Required<Backends>> = IMAGE_BACKENDS.map(({ api: image }, i) => ({
  chat: chatApis.find((chat) => chat === image) ?? (chatApis[(i + 1) % chatApis.length] as ChatApi),
  image,
}));

export const label = (b: Backends) =>
  `chat ${b.chat ?? chatDefault.api} × images ${b.image ?? imageDefault.api}`;

/**
 * The variables that point the server's chat and image backends at the fake (or at `at.url`, a fault
 * proxy in front of it), each API at the path its users give (an OpenAI SDK's base URL ends in /v1),
 * with `key` as each one's credential (for HTTP Basic inside user:password) and `at.timeoutMs` as each
 * one's timeout. The fake is told to speak and check each API as its reference says.
 */
export function backendEnv(
  fake: FakeUpstream,
  backends: Backends,
  key: string,
  at: { url?: string; timeoutMs?: string } = {},
): Record<string, string> {
  const env: Record<string, string> = {};
  const url = at.url ?? fake.url;
  const timeout = (variable: string) => (at.timeoutMs ? { [variable]: at.timeoutMs } : {});
  const chat = CHAT_BACKENDS.find((b) => b.api === (backends.chat ?? chatDefault.api)) ?? chatDefault;
  const image = IMAGE_BACKENDS.find((b) => b.api === (backends.image ?? imageDefault.api)) ?? imageDefault;
  if (chat !== chatDefault) {
    fake.chatApi = chat.api;
    Object.assign(env, {
      LOOTSMITH_CHAT_URL: `${url}${chat.basePath}`,
      LOOTSMITH_CHAT_KEY: key,
      LOOTSMITH_CHAT_MODEL: 'fake-chat',
      ...timeout('LOOTSMITH_CHAT_TIMEOUT_MS'),
    });
  }
  if (image !== imageDefault)
    Object.assign(env, {
      LOOTSMITH_IMAGE_API: image.api,
      LOOTSMITH_IMAGE_URL: `${url}${image.basePath}`,
      LOOTSMITH_IMAGE_KEY: image.auth === 'basic' ? `lootsmith:${key}` : key,
      ...timeout('LOOTSMITH_IMAGE_TIMEOUT_MS'),
    });
  if (image.auth === 'basic') fake.keys.basic = `lootsmith:${key}`;
  else if (chat !== chatDefault || image !== imageDefault) fake.keys.bearer = key;
  return env;
}
