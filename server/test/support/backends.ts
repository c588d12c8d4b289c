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
 * The variables that point the server's chat and image backends at the fake, each API at the path
 * its users give (an OpenAI SDK's base URL ends in /v1), with `key` as each one's credential (for
 * sdapi inside user:password). The fake is told to speak and check each API as its reference says.
 */
export function backendEnv(fake: FakeUpstream, backends: Backends, key: string): Record<string, string> {
  const env: Record<string, string> = {};
  if (backends.chat === 'openai') {
    fake.chatApi = 'openai';
    Object.assign(env, {
      LOOTSMITH_CHAT_URL: `${fake.url}/v1`,
      LOOTSMITH_CHAT_KEY: key,
      LOOTSMITH_CHAT_MODEL: 'fake-chat',
    });
  }
  const image = backends.image ?? 'v1';
  if (image === 'openai')
    Object.assign(env, {
      LOOTSMITH_IMAGE_API: 'openai',
      LOOTSMITH_IMAGE_URL: `${fake.url}/v1`,
      LOOTSMITH_IMAGE_KEY: key,
    });
  if (image === 'sdapi')
    Object.assign(env, {
      LOOTSMITH_IMAGE_API: 'sdapi',
      LOOTSMITH_IMAGE_URL: fake.url,
      LOOTSMITH_IMAGE_KEY: `lootsmith:${key}`,
    });
  if (image === 'comfyui')
    Object.assign(env, {
      LOOTSMITH_IMAGE_API: 'comfyui',
      LOOTSMITH_IMAGE_URL: fake.url,
      LOOTSMITH_IMAGE_KEY: key,
    });
  if (image === 'sdapi') fake.keys.basic = `lootsmith:${key}`;
  else if (backends.chat === 'openai' || image !== 'v1') fake.keys.bearer = key;
  return env;
}
