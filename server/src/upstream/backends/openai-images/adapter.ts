import { type Attempt, AttemptFailed, base64Bytes, type Endpoint, jsonOf } from '../../http.ts';
import { avoidOf, type ImageAsk, type ImageBackend, PAINT_LIMIT, type Painted, wordingOf } from '../types.ts';

/** The GPT image models: they take `quality`, `background` and `output_format`, and always answer base64. */
const GPT_IMAGE = /^(gpt-image|chatgpt-image)/;

/** Quality from the spec's `steps` (its knob of clarity against time): under 15 is low, as the spec says suffices. */
const qualityOf = (steps = 5) => (steps < 15 ? 'low' : steps < 35 ? 'medium' : 'high');

/** The smallest size the model offers that covers the ask, in the ask's orientation. */
function sizeOf(model: string, ask: ImageAsk): string {
  const wide = ask.width > ask.height;
  const tall = ask.height > ask.width;
  if (model === 'dall-e-2') {
    const side = [256, 512, 1024].find((s) => s >= Math.max(ask.width, ask.height)) ?? 1024;
    return `${side}x${side}`;
  }
  if (model === 'dall-e-3') return wide ? '1792x1024' : tall ? '1024x1792' : '1024x1024';
  return wide ? '1536x1024' : tall ? '1024x1536' : '1024x1024';
}

/**
 * OpenAI Images (`POST {base}/images/generations`, Bearer key): the image as `data[0].b64_json`.
 * It has no negative prompt or seed, so what to avoid is said in the prompt's words; an icon asks
 * for a transparent background where the model has one (the GPT image models).
 */
export class OpenAIImages implements ImageBackend {
  readonly api = 'openai';

  constructor(
    private readonly endpoint: Endpoint,
    private readonly model: string,
  ) {}

  async paint(ask: ImageAsk, attempt: Attempt): Promise<Painted> {
    const model = this.model;
    const avoid = avoidOf(ask);
    const body: Record<string, unknown> = {
      model,
      prompt: avoid ? `${wordingOf(ask)}. Avoid: ${avoid}.` : wordingOf(ask),
      n: 1,
      size: sizeOf(model, ask),
      user: ask.client_id,
    };
    if (GPT_IMAGE.test(model)) {
      body.quality = qualityOf(ask.steps);
      body.output_format = 'png';
      if (ask.icon) body.background = 'transparent';
    } else body.response_format = 'b64_json';
    const json = jsonOf(
      await this.endpoint.request(attempt, 'POST', '/images/generations', PAINT_LIMIT, body),
    );
    const image = (json as { data?: Array<{ b64_json?: unknown }> }).data?.[0]?.b64_json;
    if (typeof image !== 'string') throw new AttemptFailed('response has no data[0].b64_json', true);
    return { bytes: base64Bytes(image) };
  }

  async close() {
    await this.endpoint.close();
  }
}
