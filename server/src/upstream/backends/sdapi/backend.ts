import type { ImageBackendDescription } from '../description.ts';
import { parsedBody } from '../probe.ts';
import { SdapiImages } from './adapter.ts';

/** The AUTOMATIC1111 web UI API, which Forge, SD.Next and stable-diffusion.cpp's server speak too. */
export const sdapi = {
  api: 'sdapi',
  name: 'sdapi',
  title: () => 'sdapi (AUTOMATIC1111, Forge, SD.Next, stable-diffusion.cpp)',
  // `--api-auth user:password`
  auth: 'basic',
  basePath: '',
  settings: {},
  help: {
    api: 'sdapi (AUTOMATIC1111, Forge, SD.Next, stable-diffusion.cpp)',
    model: 'a checkpoint title for sdapi (default: the one loaded)',
    key: 'user:password for HTTP Basic on sdapi (--api-auth)',
  },
  defaults: { url: 'http://127.0.0.1:7860', concurrency: 1, timeoutMs: 180_000, paintSize: 512 },
  check({ o, fail }) {
    if (o.imageApi === 'sdapi' && o.imageKey && !o.imageKey.includes(':'))
      fail('imageKey', 'must be user:password for sdapi (as given to --api-auth)');
  },
  open: (spec, endpoint) => new SdapiImages(endpoint, spec.paintSize as number, spec.model),
  async probe({ look, present, spec }) {
    const listing = await look('/sdapi/v1/sd-models', {
      keyVariable: 'LOOTSMITH_IMAGE_KEY (user:password)',
      hint: 'start the web UI with --api (stable-diffusion.cpp: its sd-server)',
    });
    if (!listing) return false;
    if (!spec.model) return true;
    const models = (parsedBody(listing) as Array<{ title?: string; model_name?: string }>) ?? [];
    return present(
      models.flatMap((m) => [m.title, m.model_name].filter((n): n is string => !!n)),
      'put the checkpoint in models/Stable-diffusion',
    );
  },
} satisfies ImageBackendDescription<'sdapi', Record<never, never>>;
