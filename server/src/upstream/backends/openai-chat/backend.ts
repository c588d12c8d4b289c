import { z } from 'zod';
import { name, setting, url } from '../../../setting-values.ts';
import type { ChatBackendDescription } from '../description.ts';
import { listedModels } from '../probe.ts';
import { OpenAIChat } from './adapter.ts';

const settings = {
  chatUrl: setting(
    'LOOTSMITH_CHAT_URL',
    url.optional(),
    'an OpenAI-compatible chat API for items and crafting, as an OpenAI SDK’s base URL: https://api.openai.com/v1, http://127.0.0.1:11434/v1 (Ollama), llama.cpp, vLLM, LM Studio, https://openrouter.ai/api/v1',
  ),
  chatKey: setting(
    'LOOTSMITH_CHAT_KEY',
    z.string().min(1).optional(),
    'its Bearer key (local servers have none)',
  ),
  chatModel: setting(
    'LOOTSMITH_CHAT_MODEL',
    name.optional(),
    'its model, e.g. gpt-4o-mini or llama3.1:8b (required with LOOTSMITH_CHAT_URL)',
  ),
};

/** Any OpenAI-compatible chat API (OpenAI, Ollama, llama.cpp, vLLM, LM Studio, OpenRouter), chosen by LOOTSMITH_CHAT_URL. */
export const openaiChat = {
  api: 'openai',
  title: () => 'OpenAI-compatible',
  auth: 'bearer',
  basePath: '/v1',
  settings,
  check({ o, requires, onlyWith, fail, name }) {
    requires('chatModel', 'chatUrl');
    onlyWith(['chatKey', 'chatModel'], 'chatUrl');
    if (o.chatUrl && o.textModel)
      fail('textModel', `has no effect with ${name('chatUrl')} (use ${name('chatModel')})`);
  },
  chosenBy: 'LOOTSMITH_CHAT_URL',
  chosen: (o) => !!o.chatUrl,
  defaults: { concurrency: 4, timeoutMs: 120_000 },
  where: ({ o }) => ({ api: 'openai', url: o.chatUrl, key: o.chatKey, model: o.chatModel }),
  open: (spec, endpoint, log) =>
    new OpenAIChat(endpoint, spec.model as string, (what) =>
      log?.warn({ backend: 'chat:openai', model: spec.model }, `chat backend ${what}`),
    ),
  async probe({ look, present, spec }) {
    const listing = await look('/models');
    return !!listing && present(listedModels(listing), `pull it (Ollama: ollama pull ${spec.model})`);
  },
} satisfies ChatBackendDescription<'openai', typeof settings>;
