import type { FakeUpstream } from './fake-upstream.ts';

/** Which API the server speaks for each kind; unset is the spec's /v1 service. */
export interface Backends {
  chat?: 'v1' | 'openai';
  image?: 'v1' | 'openai' | 'sdapi' | 'comfyui';
}

/** Every pairing of a chat API and an image API the server supports. */
export const PAIRINGS: Array<Required<Backends>> = (['v1', 'openai'] as const).flatMap((chat) =>
  (['v1', 'openai', 'sdapi', 'comfyui'] as const).map((image) => ({ chat, image })),
);

/** Every adapter, each once: the hostile suites run against each. */
export const ADAPTERS: Array<Required<Backends>> = [
  { chat: 'v1', image: 'v1' },
  { chat: 'openai', image: 'openai' },
  { chat: 'openai', image: 'sdapi' },
  { chat: 'v1', image: 'comfyui' },
];

export const label = (b: Backends) => `chat ${b.chat ?? 'v1'} × images ${b.image ?? 'v1'}`;

/**
 * The variables that point the server's chat and image backends at the fake (or at `at.url`, a fault
 * proxy in front of it), each API at the path its users give (an OpenAI SDK's base URL ends in /v1),
 * with `key` as each one's credential (for sdapi inside user:password) and `at.timeoutMs` as each
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
  if (backends.chat === 'openai') {
    fake.chatApi = 'openai';
    Object.assign(env, {
      LOOTSMITH_CHAT_URL: `${url}/v1`,
      LOOTSMITH_CHAT_KEY: key,
      LOOTSMITH_CHAT_MODEL: 'fake-chat',
      ...timeout('LOOTSMITH_CHAT_TIMEOUT_MS'),
    });
  }
  const image = backends.image ?? 'v1';
  if (image !== 'v1')
    Object.assign(env, { LOOTSMITH_IMAGE_API: image, ...timeout('LOOTSMITH_IMAGE_TIMEOUT_MS') });
  if (image === 'openai') Object.assign(env, { LOOTSMITH_IMAGE_URL: `${url}/v1`, LOOTSMITH_IMAGE_KEY: key });
  if (image === 'sdapi')
    Object.assign(env, { LOOTSMITH_IMAGE_URL: url, LOOTSMITH_IMAGE_KEY: `lootsmith:${key}` });
  if (image === 'comfyui') Object.assign(env, { LOOTSMITH_IMAGE_URL: url, LOOTSMITH_IMAGE_KEY: key });
  if (image === 'sdapi') fake.keys.basic = `lootsmith:${key}`;
  else if (backends.chat === 'openai' || image !== 'v1') fake.keys.bearer = key;
  return env;
}
