import { type PacedUpstream, startPacedUpstream } from '@lootsmith/test-support/fake-upstream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  type DemoRig,
  drops,
  killEnemy,
  openGame,
  recordConsole,
  screenshot,
  startDemo,
} from './support/demo.ts';

// The demo against a slow hosted model (here the engine behind a 2.5 s paint): a drop lands at
// once with placeholders in the rarity colour, and each icon swaps in when it has been painted. The
// icons are held back until the test has seen the drop without them: on a busy machine the page can
// be slower than the paint.
let paced: PacedUpstream;
let rig: DemoRig;

beforeAll(async () => {
  paced = await startPacedUpstream({ chatMs: 200, imageMs: 2500 });
  rig = await startDemo({
    LOOTSMITH_UPSTREAM_URL: paced.url,
    LOOTSMITH_UPSTREAM_KEY: paced.key,
    LOOTSMITH_ICONS_AFTER_ITEM: '1',
  });
});

afterAll(async () => {
  await rig?.close();
  await paced?.close();
});

it('drops loot before its icons are painted, then swaps each icon in when it is ready', async () => {
  const page = await rig.browser.newPage({ viewport: { width: 1280, height: 800 } });
  const consoleMessages = recordConsole(page);
  await openGame(page, rig.server.url);
  // Icons asked for from here on wait until the test has seen their drop without them.
  let paint = () => {};
  paced.imageGate = new Promise<void>((release) => {
    paint = release;
  });
  // A drop can be only materials the player already holds, whose icons were painted long ago: then
  // the next monster, until a drop brings a new item.
  let landed: Awaited<ReturnType<typeof drops>>[number] | undefined;
  for (const kind of ['slime', 'rat', 'slime']) {
    const before = (await drops(page)).length;
    await killEnemy(page, kind);
    await page.waitForFunction((n) => window.__lootsmithDemo.drops().length > n, before, { timeout: 30_000 });
    landed = (await drops(page)).find((d) => d.pending);
    if (landed) break;
  }
  if (!landed) throw new Error('no drop brought a new item');
  expect(landed).toMatchObject({ pending: true, textureLoaded: false });
  await page.waitForTimeout(400);
  await screenshot(page, '12-icon-pending');
  paint();

  await page.waitForFunction(
    () => window.__lootsmithDemo.drops().every((d) => !d.pending && d.textureLoaded),
    null,
    { timeout: 30_000 },
  );
  await page.waitForTimeout(300);
  await screenshot(page, '13-icon-arrived');
  const arrived = (await drops(page)).find((d) => d.itemId === landed.itemId);
  expect(arrived).toMatchObject({ itemId: landed.itemId, pending: false, textureLoaded: true });
  expect(arrived?.texture).toMatch(/^lootsmith:g\d+:icon:[0-9a-f]{32}$/);
  const errors = consoleMessages.filter((m) => m.type() === 'error').map((m) => m.text());
  // Chromium logs nothing for a 202; any error here is a real one.
  expect(errors).toEqual([]);
}, 120_000);
