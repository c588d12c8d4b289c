import { z } from 'zod';
import { name, setting, url } from '../../../setting-values.ts';
import type { OptionsOf, Rules, SharedOptions } from '../description.ts';
import { Moderation } from './adapter.ts';

const settings = {
  moderationUrl: setting(
    'LOOTSMITH_MODERATION_URL',
    url.optional(),
    'an OpenAI-compatible moderation API, as an OpenAI SDK’s base URL (https://api.openai.com/v1): player text and generated text are also sent to its /moderations; a flagged text is refused (player) or written again (model)',
  ),
  moderationKey: setting('LOOTSMITH_MODERATION_KEY', z.string().min(1).optional(), 'its Bearer key'),
  moderationModel: setting(
    'LOOTSMITH_MODERATION_MODEL',
    name.default('omni-moderation-latest'),
    'its moderation model',
  ),
};

type Options = SharedOptions & OptionsOf<typeof settings>;

/** An OpenAI-compatible `/moderations`, asked about player and generated text when LOOTSMITH_MODERATION_URL is set. */
export const moderation = {
  settings,
  check({ onlyWith }: Pick<Rules, 'onlyWith'>) {
    onlyWith(['moderationKey'], 'moderationUrl');
  },
  open: (o: Options) =>
    o.moderationUrl
      ? new Moderation({
          url: o.moderationUrl,
          key: o.moderationKey,
          model: o.moderationModel,
          timeoutMs: o.upstreamTimeoutMs,
        })
      : undefined,
};
