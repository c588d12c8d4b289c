import { FormData } from 'undici';
import { type Attempt, AttemptFailed, base64Bytes, type Endpoint, jsonOf } from '../../http.ts';
import {
  avoidOf,
  type Billed,
  type ImageAsk,
  type ImageBackend,
  PAINT_LIMIT,
  type Painted,
  type ReferenceImage,
  wordingOf,
} from '../types.ts';

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

/** What the edit endpoint is told besides the icon: paint a new one in the look of the game's own. */
const REFERENCE_CUE =
  'Paint a new icon in the same art style as the reference images (palette, outline, shading, pixel size); do not copy their subjects';

/**
 * OpenAI Images (`POST {base}/images/generations`, Bearer key): the image as `data[0].b64_json`.
 * It has no negative prompt or seed, so what to avoid is said in the prompt's words; an icon asks
 * for a transparent background where the model has one (the GPT image models). With the game's
 * reference icons, a GPT image model is asked on `POST {base}/images/edits` instead (multipart, the
 * references as `image[]`, up to 16), which takes them as images to paint in the manner of; the
 * dall-e models take no references there (dall-e-2 edits one image, dall-e-3 none), so they
 * generate from words alone.
 */
export class OpenAIImages implements ImageBackend {
  readonly api = 'openai';

  constructor(
    private readonly endpoint: Endpoint,
    private readonly model: string,
  ) {}

  /** The size and quality asked: what OpenAI's price list prices an image by (dall-e-3's default quality is standard). */
  bills(ask: ImageAsk): Billed {
    const { model } = this;
    const quality = GPT_IMAGE.test(model)
      ? qualityOf(ask.steps)
      : model === 'dall-e-3'
        ? 'standard'
        : undefined;
    return { model, size: sizeOf(model, ask), ...(quality ? { quality } : {}) };
  }

  async paint(ask: ImageAsk, attempt: Attempt): Promise<Painted> {
    const model = this.model;
    const gpt = GPT_IMAGE.test(model);
    const avoid = avoidOf(ask);
    const references = gpt ? (ask.references ?? []).slice(0, 16) : [];
    const wording = references.length ? `${wordingOf(ask)}. ${REFERENCE_CUE}` : wordingOf(ask);
    const fields: Record<string, string | number> = {
      model,
      prompt: avoid ? `${wording}. Avoid: ${avoid}.` : wording,
      n: 1,
      size: sizeOf(model, ask),
      user: ask.client_id,
    };
    if (gpt) {
      fields.quality = qualityOf(ask.steps);
      fields.output_format = 'png';
      if (ask.icon) fields.background = 'transparent';
    } else fields.response_format = 'b64_json';
    const answer = references.length
      ? await this.endpoint.request(
          attempt,
          'POST',
          '/images/edits',
          PAINT_LIMIT,
          editForm(fields, references),
        )
      : await this.endpoint.request(attempt, 'POST', '/images/generations', PAINT_LIMIT, fields);
    const image = (jsonOf(answer) as { data?: Array<{ b64_json?: unknown }> }).data?.[0]?.b64_json;
    if (typeof image !== 'string') throw new AttemptFailed('response has no data[0].b64_json', true);
    return { bytes: base64Bytes(image) };
  }

  async close() {
    await this.endpoint.close();
  }
}

/** The edit endpoint's multipart body: the fields as text, each reference as an `image[]` file. */
function editForm(fields: Record<string, string | number>, references: readonly ReferenceImage[]): FormData {
  const form = new FormData();
  for (const r of references)
    form.append('image[]', new Blob([new Uint8Array(r.bytes)], { type: r.type }), r.name);
  for (const [name, value] of Object.entries(fields)) form.append(name, String(value));
  return form;
}
