import { expect, it } from 'vitest';
import { drops, killEnemy, openGame, recordConsole, screenshot, useDemoRig } from './support/demo.ts';

// The thinnest end-to-end slice: a click kills an enemy, its drop reaches the scene with a loaded
// icon texture, and the server holds the item in the player's inventory.
const rig = useDemoRig();

it('drops loot into the scene and the inventory when an enemy is clicked to death', async () => {
  const page = await rig().browser.newPage({ viewport: { width: 1280, height: 800 } });
  const consoleMessages = recordConsole(page);
  await openGame(page, rig().server.url);
  const playerId = await page.evaluate(() => window.__lootsmithDemo.playerId);

  await killEnemy(page, 'slime');
  await page.waitForFunction(() => window.__lootsmithDemo.drops().length > 0, null, { timeout: 30_000 });
  const [drop] = await drops(page);
  await screenshot(page, 'skeleton-drop');

  expect(drop?.texture).toMatch(/icon/);
  expect(drop?.textureLoaded).toBe(true);
  expect(await page.evaluate((key) => window.__lootsmithDemo.textureExists(key), drop?.texture ?? '')).toBe(
    true,
  );

  const stored = await rig().server.core.players.inventory(playerId);
  expect(stored.items.map((e: { item: { id: string } }) => e.item.id)).toContain(drop?.itemId);
  expect(consoleMessages.filter((m) => m.type() === 'error').map((m) => m.text())).toEqual([]);
});
