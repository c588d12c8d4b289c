import { type Attempt, AttemptFailed, base64Bytes, type Endpoint, jsonOf } from '../../http.ts';
import {
  avoidOf,
  type ImageAsk,
  type ImageBackend,
  PAINT_LIMIT,
  type Painted,
  paintSize,
  type ReferenceImage,
  wordingOf,
} from '../types.ts';

/** The operator's IP-Adapter: a ControlNet model the web UI has, its preprocessor and its weight. */
export interface IpAdapter {
  model: string;
  module: string;
  weight: number;
}

/**
 * One IP-Adapter unit of the ControlNet extension (sd-webui-controlnet, Forge's built-in one), given
 * through `alwayson_scripts.controlnet.args`: the game's references as its input images, one base64
 * text, or for several the extension's list of `{image}` (an IP-Adapter unit takes many at once).
 */
function ipAdapterUnit(ip: IpAdapter, references: readonly ReferenceImage[]) {
  const images = references.map((r) => r.bytes.toString('base64'));
  return {
    enabled: true,
    module: ip.module,
    model: ip.model,
    weight: ip.weight,
    image: images.length === 1 ? images[0] : images.map((image) => ({ image })),
    resize_mode: 'Crop and Resize',
    guidance_start: 0,
    guidance_end: 1,
    control_mode: 'Balanced',
    pixel_perfect: false,
  };
}

/**
 * The AUTOMATIC1111 web UI API (`POST {base}/sdapi/v1/txt2img`), which Forge, SD.Next and
 * stable-diffusion.cpp's server speak too; HTTP Basic when the UI runs with `--api-auth user:password`.
 * It paints at its model's own size (`paintSide`) and answers `images[0]` in base64. The game's
 * references go to an IP-Adapter unit only when the operator named one (`ipAdapter`): the web UI
 * runs an always-on script it lacks as an error in its console and paints without it.
 */
export class SdapiImages implements ImageBackend {
  readonly api = 'sdapi';

  constructor(
    private readonly endpoint: Endpoint,
    private readonly paintSide: number,
    private readonly model?: string,
    private readonly ipAdapter?: IpAdapter,
  ) {}

  async paint(ask: ImageAsk, attempt: Attempt): Promise<Painted> {
    const { model, ipAdapter } = this;
    const references = ask.references ?? [];
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
      ...(ipAdapter && references.length
        ? { alwayson_scripts: { controlnet: { args: [ipAdapterUnit(ipAdapter, references)] } } }
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
