import type { ChatCompletionRequest } from '@lootsmith/protocol';
import { ImageGenerationResponse } from '@lootsmith/protocol';
import { type Attempt, AttemptFailed, base64Bytes, type Endpoint, jsonOf } from '../../http.ts';
import {
  type Billed,
  CHAT_LIMIT,
  type ChatBackend,
  type ImageAsk,
  type ImageBackend,
  type Painted,
} from '../types.ts';

/** Longest negative prompt the spec's request schema takes. */
const NEGATIVE_LIMIT = 2000;

/** Largest `/v1` image answer: 768² RGBA as PNG, in base64, with room. */
const V1_IMAGE_LIMIT = 8 * 1024 * 1024;

/** The spec's `/v1` service (hosted, or the embedded engine): chat and images, `client_id` in the body. */
export class V1Backend implements ChatBackend, ImageBackend {
  readonly api = 'v1';
  readonly answersAsSpec = true;

  constructor(
    private readonly endpoint: Endpoint,
    private readonly imageModel?: string,
  ) {}

  async complete(body: ChatCompletionRequest, attempt: Attempt): Promise<unknown> {
    return jsonOf(await this.endpoint.request(attempt, 'POST', '/v1/chat/completions', CHAT_LIMIT, body));
  }

  /** The model asked (a request may name one), at the size asked. */
  bills(ask: ImageAsk): Billed {
    const model = ask.model ?? this.imageModel;
    return { ...(model ? { model } : {}), size: `${ask.width}x${ask.height}` };
  }

  async paint(ask: ImageAsk, attempt: Attempt): Promise<Painted> {
    // An icon is asked as it always was (the painter reads every word): no seed, no extra wording.
    // The game's avoid words join the spec's negative_prompt; the spec takes no reference images.
    const negative = [ask.negative_prompt, ask.avoid].filter(Boolean).join(', ').slice(0, NEGATIVE_LIMIT);
    const model = ask.model ?? this.imageModel;
    const body = {
      client_id: ask.client_id,
      prompt: ask.prompt,
      ...(negative ? { negative_prompt: negative } : {}),
      width: ask.width,
      height: ask.height,
      ...(ask.steps === undefined ? {} : { steps: ask.steps }),
      ...(ask.icon || ask.seed === undefined ? {} : { seed: ask.seed }),
      ...(model ? { model } : {}),
    };
    const json = jsonOf(
      await this.endpoint.request(attempt, 'POST', '/v1/image/generations', V1_IMAGE_LIMIT, body),
    );
    const parsed = ImageGenerationResponse.safeParse(json);
    if (!parsed.success) throw new AttemptFailed('response does not match the /v1 schema', true);
    return { bytes: base64Bytes(parsed.data.image), base64: parsed.data.image };
  }

  async close() {
    await this.endpoint.close();
  }
}
