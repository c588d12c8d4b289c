import type { ImageBackendDescription } from '../description.ts';
import { listedModels } from '../probe.ts';
import { OpenAIImages } from './adapter.ts';

/** OpenAI Images (`POST {base}/images/generations`), and any API that speaks it. */
export const openaiImages = {
  api: 'openai',
  name: 'OpenAI Images',
  title: () => 'OpenAI-compatible',
  auth: 'bearer',
  basePath: '/v1',
  settings: {},
  help: { api: 'openai (OpenAI Images)', model: 'gpt-image-1-mini by default for openai' },
  // OpenAI's cheapest image model.
  defaults: {
    url: 'https://api.openai.com/v1',
    model: 'gpt-image-1-mini',
    concurrency: 4,
    timeoutMs: 120_000,
  },
  open: (spec, endpoint) => new OpenAIImages(endpoint, spec.model as string),
  async probe({ look, present }) {
    const listing = await look('/models');
    return !!listing && present(listedModels(listing), 'a GPT image model your account has');
  },
} satisfies ImageBackendDescription<'openai', Record<never, never>>;
