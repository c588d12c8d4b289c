import type { IconPending, Item } from '@lootsmith/protocol';
import { type Booted, bootWithFake, PLAYER_SECRET } from '@lootsmith/test-support/boot';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { signPlayerToken } from '../src/auth.ts';

const auth = (who: string) => ({ authorization: `Bearer ${signPlayerToken(PLAYER_SECRET, who, 600)}` });
/** Asks for the icon until it is no longer pending (202), for at most `timeout` ms. */
const whenPainted = (t: Booted, url: string, timeout: number) =>
  vi.waitFor(
    async () => {
      const answer = await t.server.app.inject({ url });
      expect(answer.statusCode).not.toBe(202);
      return answer;
    },
    { timeout, interval: 50 },
  );

describe('icons after the item (LOOTSMITH_ICONS_AFTER_ITEM=1)', () => {
  let t: Booted;
  beforeAll(async () => {
    t = await bootWithFake({ LOOTSMITH_ICONS_AFTER_ITEM: '1', LOOTSMITH_UPSTREAM_TIMEOUT_MS: '10000' });
    t.fake.imageDelayMs = 600;
  });
  afterAll(() => t?.close());

  it('answers a drop before its icon is painted, says so, and serves 202 until the PNG is there', async () => {
    const images = t.fake.calls.image;
    const res = await t.server.app.inject({
      method: 'POST',
      url: '/v1/generate/items',
      headers: auth('iris'),
      payload: { client_id: 'iris', generation_context: { enemy: 'rat' }, items: [{ type: 'WEAPON' }] },
    });
    expect(res.statusCode).toBe(200);
    const [item] = res.json().items as Item[];
    expect(item?.icon?.status).toBe('pending');
    const url = item?.icon?.url as string;

    // Many players (or tabs) asking at once start one paint between them.
    const waits = await Promise.all(Array.from({ length: 5 }, () => t.server.app.inject({ url })));
    for (const w of waits) {
      expect(w.statusCode).toBe(202);
      expect(w.headers['cache-control']).toBe('no-store');
      expect(Number(w.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      const body = w.json() as IconPending;
      expect(body.status).toBe('pending');
      expect(body.retry_after_ms).toBeGreaterThan(0);
      expect(body.retry_after_ms).toBeLessThanOrEqual(1000);
    }
    const png = await whenPainted(t, url, 2_000);
    expect(png.statusCode).toBe(200);
    expect(png.headers['content-type']).toBe('image/png');
    expect(t.fake.calls.image - images).toBe(1);

    // The stored item never says pending: the inventory shows it as it is.
    const inventory = await t.server.app.inject({
      url: '/api/v1/player/iris/inventory',
      headers: auth('iris'),
    });
    const owned = (inventory.json().items as Array<{ item: Item }>).find((e) => e.item.id === item?.id);
    expect(owned?.item.icon).toEqual({ id: item?.icon?.id, url, prompt: item?.icon?.prompt });
  });

  it('paints again on the next ask after a failed paint, and answers 404 for icons it never described', async () => {
    t.fake.imageDelayMs = 0;
    // The chat answers; the paint behind it fails.
    t.fake.script = ['ok', 'error500'];
    const res = await t.server.app.inject({
      method: 'POST',
      url: '/v1/generate/items',
      headers: auth('ivo'),
      payload: { client_id: 'ivo', generation_context: { enemy: 'rat' }, items: [{ type: 'WEAPON' }] },
    });
    const [item] = res.json().items as Item[];
    expect(res.statusCode).toBe(200);
    const url = item?.icon?.url as string;
    const first = await t.server.app.inject({ url });
    // A failed paint is not tried again for 2 s, however often the icon is asked for.
    const images = t.fake.calls.image;
    const answer = first.statusCode === 202 ? await whenPainted(t, url, 5_000) : first;
    expect(t.fake.calls.image - images).toBe(1);
    expect(answer.statusCode).toBe(200);
    const unknown = await t.server.app.inject({ url: `/api/v1/icons/${'0'.repeat(32)}.png` });
    expect(unknown.statusCode).toBe(404);
  });
});
