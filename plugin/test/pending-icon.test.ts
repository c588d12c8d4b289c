import type { ItemIcon } from '@lootsmith/protocol';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LootsmithClient } from '../src/core/client.ts';
import type { LootsmithError } from '../src/core/errors.ts';
import { IconPendingError, PENDING_ICON, untilPainted } from '../src/core/pending-icon.ts';
import { type FakeServer, fakeItem, startFakeServer } from './support/fake-server.ts';

let server: FakeServer;
beforeEach(async () => {
  server = await startFakeServer();
});
afterEach(() => server.close());

const pending = (ms: number) => ({ status: 202, body: { status: 'pending', retry_after_ms: ms } });

/** A client that notes when each icon request went out. */
function timedClient() {
  const sent: number[] = [];
  const client = new LootsmithClient({
    baseUrl: server.url,
    playerId: 'p1',
    cache: false,
    fetch: (input, init) => {
      if (String(input).includes('/icons/')) sent.push(performance.now());
      return fetch(input, init);
    },
  });
  return { client, sent };
}

describe('an icon painted after its item', () => {
  it('is asked for again, one request at a time with growing waits, until the PNG comes', async () => {
    const icon = { ...(fakeItem(1).icon as ItemIcon), status: 'pending' as const };
    server.script(icon.url, pending(20), pending(20), pending(20));
    const { client, sent } = timedClient();
    // Five callers (a drop sprite, the bag, a tooltip…) share one sequence of requests.
    const images = await Promise.all(Array.from({ length: 5 }, () => client.icon(icon)));
    expect(new Set(images.map((i) => i.dataUrl)).size).toBe(1);
    expect(images[0]?.dataUrl).toMatch(/^data:image\/png;base64,/);
    expect(server.calls(icon.url)).toHaveLength(4);
    const gaps = sent.slice(1).map((t, i) => t - (sent[i] as number));
    // At least the server's estimate, and the client's own back-off: 250, 500, 1000 ms.
    expect(gaps).toHaveLength(3);
    for (const [i, gap] of gaps.entries())
      expect(gap).toBeGreaterThanOrEqual(PENDING_ICON.baseDelayMs * 2 ** i - 5);
  });

  it('waits at least as long as the server estimates', async () => {
    const icon = fakeItem(2).icon as ItemIcon;
    server.script(icon.url, pending(700));
    const { client, sent } = timedClient();
    await client.icon(icon);
    expect((sent[1] as number) - (sent[0] as number)).toBeGreaterThanOrEqual(695);
  });

  it('stops asking when the caller aborts', async () => {
    const icon = fakeItem(3).icon as ItemIcon;
    server.script(icon.url, ...Array.from({ length: 5 }, () => pending(20)));
    const { client } = timedClient();
    const abort = new AbortController();
    const waiting = client.icon(icon, {}, { signal: abort.signal }).catch((e: LootsmithError) => e);
    await vi.waitFor(() => expect(server.calls(icon.url).length).toBeGreaterThanOrEqual(1));
    abort.abort();
    expect(((await waiting) as LootsmithError).code).toBe('aborted');
    await new Promise((r) => setTimeout(r, 400));
    expect(server.calls(icon.url)).toHaveLength(1);
  });

  it('gives up with icon_pending after a bounded number of tries', async () => {
    vi.useFakeTimers();
    try {
      let tries = 0;
      const pendingError = async () => {
        tries++;
        throw new IconPendingError(10);
      };
      const result = untilPainted(pendingError, new AbortController().signal).catch((e: LootsmithError) => e);
      await vi.runAllTimersAsync();
      const error = (await result) as LootsmithError;
      expect(error.code).toBe('icon_pending');
      expect(tries).toBe(PENDING_ICON.attempts);
    } finally {
      vi.useRealTimers();
    }
  });
});
