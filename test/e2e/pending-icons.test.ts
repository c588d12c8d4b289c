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
// once with placeholders in the rarity colour, and each icon swaps in when it has been painted.
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
  await killEnemy(page, 'slime');
  await page.waitForFunction(() => window.__lootsmithDemo.drops().length > 0, null, { timeout: 30_000 });
  const [landed] = await drops(page);
  if (!landed) throw new Error('no drop');
  expect(landed).toMatchObject({ pending: true, textureLoaded: false });
  await page.waitForTimeout(400);
  await screenshot(page, '12-icon-pending');

  await page.waitForFunction(
    () => window.__lootsmithDemo.drops().every((d) => !d.pending && d.textureLoaded),
    null,
    { timeout: 30_000 },
  );
  await page.waitForTimeout(300);
  await screenshot(page, '13-icon-arrived');
  const [arrived] = await drops(page);
  expect(arrived).toMatchObject({ itemId: landed.itemId, pending: false, textureLoaded: true });
  expect(arrived?.texture).toMatch(/^lootsmith:g\d+:icon:[0-9a-f]{32}$/);
  const errors = consoleMessages.filter((m) => m.type() === 'error').map((m) => m.text());
  // Chromium logs nothing for a 202; any error here is a real one.
  expect(errors).toEqual([]);
}, 120_000);
