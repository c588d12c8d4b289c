import { type Attempt, AttemptFailed, base64Bytes, type Endpoint, jsonOf } from '../../http.ts';
import {
  avoidOf,
  type ImageAsk,
  type ImageBackend,
  PAINT_LIMIT,
  type Painted,
  paintSize,
  wordingOf,
} from '../types.ts';

/**
 * The AUTOMATIC1111 web UI API (`POST {base}/sdapi/v1/txt2img`), which Forge, SD.Next and
 * stable-diffusion.cpp's server speak too; HTTP Basic when the UI runs with `--api-auth user:password`.
 * It paints at its model's own size (`paintSide`) and answers `images[0]` in base64.
 */
export class SdapiImages implements ImageBackend {
  readonly api = 'sdapi';

  constructor(
    private readonly endpoint: Endpoint,
    private readonly paintSide: number,
    private readonly model?: string,
  ) {}

  async paint(ask: ImageAsk, attempt: Attempt): Promise<Painted> {
    const model = this.model;
    const body = {
      prompt: wordingOf(ask),
      negative_prompt: avoidOf(ask) ?? '',
      seed: ask.seed ?? -1,
      steps: ask.steps ?? 20,
      cfg_scale: 7,
      ...paintSize(ask, this.paintSide),
      batch_size: 1,
      n_iter: 1,
      send_images: true,
      save_images: false,
      // A checkpoint is switched to and kept (restoring it after every image would reload it each time).
      ...(model
        ? { override_settings: { sd_model_checkpoint: model }, override_settings_restore_afterwards: false }
        : {}),
    };
    const json = jsonOf(await this.endpoint.request(attempt, 'POST', '/sdapi/v1/txt2img', PAINT_LIMIT, body));
    const image = (json as { images?: unknown[] }).images?.[0];
    if (typeof image !== 'string') throw new AttemptFailed('response has no images[0]', true);
    return { bytes: base64Bytes(image) };
  }

  async close() {
    await this.endpoint.close();
  }
}
