import { z } from 'zod';
import { setting } from '../../../setting-values.ts';
import type { ImageBackendDescription } from '../description.ts';
import { parsedBody } from '../probe.ts';
import { type IpAdapter, SdapiImages } from './adapter.ts';

/** A ControlNet name as the web UI lists it: printable, and not the extension's own word for none. */
const controlNetName = (what: string, example: string) =>
  z
    .string()
    .trim()
    .min(1)
    .max(256)
    .refine((v) => !/\p{Cc}/u.test(v) && v.toLowerCase() !== 'none', {
      error: `must be ${what} as the web UI lists it (e.g. "${example}")`,
    });

const settings = {
  sdapiIpAdapter: setting(
    'LOOTSMITH_SDAPI_IP_ADAPTER',
    controlNetName('an IP-Adapter ControlNet model', 'ip-adapter_sd15 [6a3f6166]')
      .refine((v) => /ip[-_ ]?adapter/i.test(v), {
        error:
          'must name an IP-Adapter model as GET /controlnet/model_list lists it (e.g. "ip-adapter_sd15 [6a3f6166]")',
      })
      .optional(),
    'the ControlNet IP-Adapter model sdapi paints the game\'s art.references through, as GET /controlnet/model_list names it (e.g. "ip-adapter_sd15 [6a3f6166]"); needs the ControlNet extension (built into Forge); unset: references are not sent',
  ),
  sdapiIpAdapterModule: setting(
    'LOOTSMITH_SDAPI_IP_ADAPTER_MODULE',
    controlNetName('a ControlNet preprocessor', 'ip-adapter_clip_sd15').optional(),
    'its preprocessor, as GET /controlnet/module_list names it (default ip-adapter-auto, which picks the one that fits the model; Forge: e.g. "CLIP-ViT-H (IPAdapter)")',
  ),
  sdapiIpAdapterWeight: setting(
    'LOOTSMITH_SDAPI_IP_ADAPTER_WEIGHT',
    z.coerce
      .number({ error: 'must be a number from 0 to 2' })
      .min(0, 'must be at least 0')
      .max(2, 'must be at most 2')
      .optional(),
    "how strongly the references steer the picture, 0 to 2 (default 0.6: the game's look, not its subjects)",
  ),
};

/** The IP-Adapter unit's defaults: the extension's own choice of preprocessor, a style-strength weight. */
const IP_ADAPTER_DEFAULTS = { module: 'ip-adapter-auto', weight: 0.6 };

/** The AUTOMATIC1111 web UI API, which Forge, SD.Next and stable-diffusion.cpp's server speak too. */
export const sdapi = {
  api: 'sdapi',
  name: 'sdapi',
  title: () => 'sdapi (AUTOMATIC1111, Forge, SD.Next, stable-diffusion.cpp)',
  // `--api-auth user:password`
  auth: 'basic',
  basePath: '',
  settings,
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
  prepare({ o, onlyWith }): { ipAdapter?: IpAdapter } {
    onlyWith(['sdapiIpAdapterModule', 'sdapiIpAdapterWeight'], 'sdapiIpAdapter');
    if (!o.sdapiIpAdapter) return {};
    return {
      ipAdapter: {
        model: o.sdapiIpAdapter,
        module: o.sdapiIpAdapterModule ?? IP_ADAPTER_DEFAULTS.module,
        weight: o.sdapiIpAdapterWeight ?? IP_ADAPTER_DEFAULTS.weight,
      },
    };
  },
  open: (spec, endpoint) => new SdapiImages(endpoint, spec.paintSize as number, spec.model, spec.ipAdapter),
  async probe({ look, get, present, spec }) {
    const listing = await look('/sdapi/v1/sd-models', {
      keyVariable: 'LOOTSMITH_IMAGE_KEY (user:password)',
      hint: 'start the web UI with --api (stable-diffusion.cpp: its sd-server)',
    });
    if (!listing) return false;
    const models = (parsedBody(listing) as Array<{ title?: string; model_name?: string }>) ?? [];
    const checkpoint =
      !spec.model ||
      (await present(
        models.flatMap((m) => [m.title, m.model_name].filter((n): n is string => !!n)),
        'put the checkpoint in models/Stable-diffusion',
      ));
    // The web UI paints on without a ControlNet unit it cannot run, so its model is looked for here.
    const { ipAdapter } = spec as typeof spec & { ipAdapter?: IpAdapter };
    if (!ipAdapter) return checkpoint;
    const answer = await get('/controlnet/model_list');
    const listed =
      answer instanceof Error || answer.status >= 400
        ? []
        : ((parsedBody(answer) as { model_list?: string[] })?.model_list ?? []);
    const found = await present(
      listed,
      'install the ControlNet extension (built into Forge) and put the model in models/ControlNet',
      { model: ipAdapter.model, variable: 'LOOTSMITH_SDAPI_IP_ADAPTER' },
    );
    return checkpoint && found;
  },
} satisfies ImageBackendDescription<'sdapi', typeof settings, { ipAdapter?: IpAdapter }>;
