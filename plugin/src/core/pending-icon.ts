import { sleep } from './backoff.ts';
import { LootsmithError } from './errors.ts';

/** How long to keep asking for an icon that is still being painted (the icon URL answers 202). */
export const PENDING_ICON = { attempts: 12, baseDelayMs: 250, maxDelayMs: 8_000 };

/** The 202 of an icon URL, as the client raises it: `waitMs` is the server's estimate. */
export class IconPendingError extends LootsmithError {
  constructor(readonly waitMs: number | undefined) {
    super('icon_pending', 'The icon is still being painted', { status: 202 });
  }
}

/**
 * Loads an icon, waiting while the server paints it: one request at a time, each wait at least the
 * server's estimate and doubling from `baseDelayMs`, so a slow paint costs a handful of requests.
 */
export async function untilPainted<T>(load: () => Promise<T>, signal: AbortSignal): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await load();
    } catch (e) {
      if (!(e instanceof IconPendingError)) throw e;
      if (attempt >= PENDING_ICON.attempts)
        throw new LootsmithError('icon_pending', `The icon was still being painted after ${attempt} tries`, {
          status: 202,
        });
      const backoff = PENDING_ICON.baseDelayMs * 2 ** (attempt - 1);
      await sleep(Math.min(PENDING_ICON.maxDelayMs, Math.max(e.waitMs ?? 0, backoff)), signal);
    }
  }
}
