import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RARITY_COLORS } from '../../src/core/rarity-colors.ts';
import { fakeItem } from '../support/fake-server.ts';
import { type Harness, startHarness } from './harness.ts';

let harness: Harness;
let page: Page;

beforeAll(async () => {
  harness = await startHarness();
});
afterAll(() => harness?.close());
afterEach(async () => {
  await page?.close();
  expect(harness.takeProblems()).toEqual([]);
});

describe('a drop whose icon is still being painted', () => {
  it('shows a placeholder in the rarity colour at once, then swaps in the texture and emits iconready', async () => {
    const painting = fakeItem(41);
    const ready = fakeItem(42);
    const url = painting.icon?.url as string;
    harness.server.script('/v1/generate/items', {
      status: 200,
      body: { items: [{ ...painting, icon: { ...painting.icon, status: 'pending' } }, ready] },
    });
    const wait = { status: 202, body: { status: 'pending', retry_after_ms: 300 } };
    harness.server.script(url, wait, wait);
    page = await harness.open();
    const result = await page.evaluate(async () => {
      const t = window.lootsmithTest;
      const { lootsmith } = t.scene('arena');
      const started = performance.now();
      const arrived = new Promise<{ item: string; key: string; at: number; sameSprite: boolean }>((resolve) =>
        lootsmith.once('iconready', (e) =>
          resolve({
            item: e.item.id,
            key: e.key,
            at: performance.now() - started,
            sameSprite: e.sprite === drop.sprites[0],
          }),
        ),
      );
      const drop = await lootsmith.loot.drop({ x: 160, y: 120, count: 2 });
      const [first, second] = drop.sprites;
      const atDrop = {
        took: performance.now() - started,
        pending: first?.pending,
        icon: first?.icon?.texture.key,
        placeholderColor: first?.placeholder?.fillColor,
        placeholderVisible: first?.placeholder?.visible,
        secondLoaded: t.game.textures.exists(second?.icon?.texture.key ?? ''),
      };
      const event = await arrived;
      const key = first?.icon?.texture.key ?? '';
      return {
        atDrop,
        event,
        after: {
          pending: first?.pending,
          placeholder: first?.placeholder === undefined,
          key,
          loaded: t.game.textures.exists(key),
          width: t.game.textures.get(key).source[0]?.width,
          aboveGlow: first ? first.getIndex(first.icon as never) > first.getIndex(first.glow) : false,
        },
      };
    });
    expect(result.atDrop).toMatchObject({
      pending: true,
      icon: undefined,
      placeholderColor: RARITY_COLORS[painting.rarity],
      placeholderVisible: true,
      secondLoaded: true,
    });
    // The drop did not wait for the paint: two waits of at least 300 ms came after it.
    expect(result.event.at - result.atDrop.took).toBeGreaterThanOrEqual(550);
    expect(result.event).toMatchObject({ item: painting.id, sameSprite: true });
    expect(result.after).toMatchObject({
      pending: false,
      placeholder: true,
      loaded: true,
      width: 8,
      aboveGlow: true,
    });
    expect(result.after.key).toBe(result.event.key);
    // One request per wait, and one for the PNG: no polling storm.
    expect(harness.server.calls(url)).toHaveLength(3);
  });
});
