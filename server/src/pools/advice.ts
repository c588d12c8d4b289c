import type { Config } from '../config.ts';

/** What a hosted model typically takes, in seconds: a chat completion, and one image. */
const HOSTED = { chatS: 2, imageS: 1.5 };

/**
 * The start-up warning of a server that asks a remote model for every drop (loot pools off): what a
 * drop will cost in time, and how to serve drops at once. Undefined with pools on, or when the
 * embedded engine makes everything (a drop then takes milliseconds).
 */
export function poolsAdvice(
  config: Pick<Config, 'pools' | 'upstream' | 'iconsAfterItem'>,
): string | undefined {
  const { chat, image } = config.upstream;
  if (config.pools || (chat.api === 'embedded' && image.api === 'embedded')) return undefined;
  const waits: string[] = [];
  let seconds = 0;
  if (chat.api !== 'embedded') {
    waits.push(`a chat completion (${chat.api}, about ${HOSTED.chatS} s hosted)`);
    seconds += HOSTED.chatS;
  }
  if (image.api !== 'embedded' && !config.iconsAfterItem) {
    const queued = image.concurrency === 1 ? ', one at a time for all players' : '';
    waits.push(`its icons (${image.api}, about ${HOSTED.imageS} s each${queued})`);
    seconds += HOSTED.imageS;
  }
  if (!waits.length) return undefined;
  return (
    `loot pools are off with a remote model: every drop waits for ${waits.join(' and ')}, ` +
    `about ${seconds} s for a one-item drop, more when players drop at once. LOOTSMITH_POOLS=1 serves ` +
    'drops at once from items generated ahead, within LOOTSMITH_POOL_BUDGET_PER_HOUR (docs/DEPLOY.md, "Loot pools")'
  );
}
