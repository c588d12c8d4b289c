import { key, name, setting, url, whole } from '../../../setting-values.ts';
import type {
  BackendSpec,
  ChatBackendDescription,
  ImageBackendDescription,
  SharedOptions,
} from '../description.ts';
import { V1Backend } from './adapter.ts';

/** The `/v1` service's settings: the default backend of both kinds, and the fallback of either. */
const settings = {
  upstreamUrl: setting(
    'LOOTSMITH_UPSTREAM_URL',
    url.optional(),
    'a hosted /v1 service, for chat and images unless LOOTSMITH_CHAT_URL / LOOTSMITH_IMAGE_API say otherwise; unset = the embedded engine on loopback',
  ),
  upstreamKey: setting(
    'LOOTSMITH_UPSTREAM_KEY',
    key.optional(),
    'its API key (never sent to players or logged)',
  ),
  fallbackUrl: setting(
    'LOOTSMITH_FALLBACK_URL',
    url.optional(),
    'a second /v1 service, tried for chat and for images when their backend fails',
  ),
  fallbackKey: setting('LOOTSMITH_FALLBACK_KEY', key.optional(), 'its API key'),
  upstreamTimeoutMs: setting(
    'LOOTSMITH_UPSTREAM_TIMEOUT_MS',
    whole(100, 600_000).default(30_000),
    'one attempt at a /v1 service, to its last byte; all attempts of a call (retries, fallback) get twice the timeout of their kind in total',
  ),
  textModel: setting(
    'LOOTSMITH_TEXT_MODEL',
    name.optional(),
    'model name asked of the /v1 service (default: its key’s default)',
  ),
};

const title = (spec: BackendSpec) =>
  spec.api === 'embedded' ? 'the embedded engine (procedural, offline)' : 'the /v1 service';

/** The hosted service of LOOTSMITH_UPSTREAM_URL, or the embedded engine the server starts when none is set. */
const service = (o: SharedOptions) =>
  o.upstreamUrl
    ? { api: 'v1' as const, url: o.upstreamUrl, key: o.upstreamKey }
    : { api: 'embedded' as const };

/** The spec's `/v1` chat: what the server uses unless another chat backend is chosen. */
export const v1Chat = {
  api: 'v1',
  title,
  auth: 'bearer',
  basePath: '',
  settings,
  keyVariable: 'LOOTSMITH_UPSTREAM_KEY',
  check({ requires }) {
    requires('fallbackKey', 'fallbackUrl');
    requires('upstreamKey', 'upstreamUrl');
  },
  chosenBy: 'a /v1 service',
  defaults: { concurrency: 64 },
  where: ({ o }) => ({ ...service(o), model: o.textModel }),
  open: (_spec, endpoint) => new V1Backend(endpoint),
} satisfies ChatBackendDescription<'v1', typeof settings>;

/** The spec's `/v1` images: the default image API, at LOOTSMITH_UPSTREAM_URL unless LOOTSMITH_IMAGE_URL says otherwise. */
export const v1Images = {
  api: 'v1',
  name: '/v1',
  title,
  auth: 'bearer',
  basePath: '',
  settings: {},
  keyVariable: 'LOOTSMITH_UPSTREAM_KEY',
  help: { api: 'v1 (the spec’s service)', url: 'LOOTSMITH_UPSTREAM_URL' },
  defaults: { concurrency: 64 },
  where({ o, fail, name }) {
    const at = o.imageUrl
      ? { api: 'v1' as const, url: o.imageUrl, key: o.imageKey ?? o.upstreamKey }
      : service(o);
    if (at.api === 'v1' && !at.key) fail('imageKey', `required when ${name('imageUrl')} is set`);
    return { ...at, model: o.imageModel };
  },
  open: (spec, endpoint) => new V1Backend(endpoint, spec.model),
} satisfies ImageBackendDescription<'v1', Record<never, never>>;
