// The demo's screenshots in docs/demo/ (`npm run demo:screenshots`): a new hero at each station, a
// refusal in the game's words, and the hero in gear (a set the game server grants, as a quest reward
// would, and the server wears), on a laptop (1280×720, mouse and keys) and two phones (390×844 and
// 360×740, touch). Played with real input through the demo's read-only hook, as the end-to-end suites
// play; what it shows is what a player sees.
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { openGame, startDemo, useStation } from './support/demo.ts';

const OUT = resolve('docs/demo');
const SIZES = [
  { width: 1280, height: 720, touch: false },
  { width: 390, height: 844, touch: true },
  { width: 360, height: 740, touch: true },
] as const;
const STATIONS = ['workbench', 'forge', 'alchemy_table', 'enchanting_altar'];
/** The set the game server grants for the gear shots: one of each worn type, rarer towards the head. */
const GEAR = [
  { type: 'WEAPON', rarity: 'EPIC' },
  { type: 'SHIELD', rarity: 'RARE' },
  { type: 'HELMET', rarity: 'LEGENDARY' },
  { type: 'CHEST', rarity: 'RARE' },
  { type: 'LEGS', rarity: 'UNCOMMON' },
  { type: 'BOOTS', rarity: 'UNCOMMON' },
  { type: 'GLOVES', rarity: 'RARE' },
] as const;
const SERVER = { kind: 'server' } as const;

async function shot(page: Page, name: string) {
  await page.waitForTimeout(400);
  await page.screenshot({ path: join(OUT, `${name}.png`) });
  console.log(`docs/demo/${name}.png`);
}

mkdirSync(OUT, { recursive: true });
const rig = await startDemo();
try {
  for (const { width, height, touch } of SIZES) {
    const size = `${width}x${height}`;
    const context = await rig.browser.newContext({
      viewport: { width, height },
      ...(touch ? { isMobile: true, hasTouch: true } : {}),
    });
    const page = await context.newPage();
    const press = (selector: string) => (touch ? page.tap(selector) : page.click(selector));
    await openGame(page, rig.server.url);
    await shot(page, `${size}-1-dungeon`);
    for (const [i, station] of STATIONS.entries()) {
      await useStation(page, station, touch);
      await shot(page, `${size}-2${'abcd'[i]}-${station.replace('_', '-')}`);
      await press('.panel .close');
    }
    // The Forge asks crafting level 1 of a new hero: the refusal in the game's words.
    await useStation(page, 'forge', touch);
    await press('#forge-panel [data-role=owned][data-item-id=iron_ore]');
    await page.fill('#forge-panel textarea[name=description]', 'a heavy iron helm');
    await press('#forge-panel button[name=create]');
    await page.waitForSelector('#forge-panel .failure', { timeout: 30_000 });
    await page.locator('#forge-panel .failure').scrollIntoViewIfNeeded();
    await shot(page, `${size}-3-refusal`);
    await press('.panel .close');

    // Geared up: the game server grants a set and wears it; the game shows it once it reads again.
    const { core } = rig.server;
    const player = await page.evaluate(() => window.__lootsmithDemo.playerId);
    const { items } = await core.drops.generate(SERVER, {
      client_id: player,
      generation_context: { enemy: 'skeleton', player_level: 8 },
      items: GEAR.map((g) => ({ ...g })),
    });
    for (const item of items) await core.equipment.equip(SERVER, player, { item_id: item.id });
    await page.reload();
    await page.waitForFunction(() => window.__lootsmithDemo?.ready === true, null, { timeout: 30_000 });
    await page.waitForFunction(() => window.__lootsmithDemo.hero()?.gear.WEAPON === 'icon', null, {
      timeout: 30_000,
    });
    await shot(page, `${size}-4a-hero-in-gear`);
    await press('.hud-button[name=hero]');
    await page.waitForSelector('#hero-panel');
    await shot(page, `${size}-4b-hero-panel`);
    await press('.panel .close');
    await press('.hud-button[name=inventory]');
    await page.waitForSelector('#inventory-panel .grid img.ready');
    await shot(page, `${size}-4c-bag`);
    if (!touch) {
      // The hero close up: the same player's game at four device pixels to a pixel, around the hero.
      const close = await rig.browser.newContext({
        viewport: { width, height },
        deviceScaleFactor: 4,
        storageState: await context.storageState(),
      });
      const zoomed = await close.newPage();
      await openGame(zoomed, rig.server.url);
      await zoomed.waitForFunction(() => window.__lootsmithDemo.hero()?.gear.WEAPON === 'icon');
      await zoomed.waitForTimeout(600);
      const at = await zoomed.evaluate(() => window.__lootsmithDemo.hero()?.page);
      if (!at) throw new Error('no hero');
      await zoomed.screenshot({
        path: join(OUT, `${size}-4a-hero-close-up.png`),
        clip: { x: at.x - 40, y: at.y - 48, width: 80, height: 72 },
      });
      await close.close();
    }
    await context.close();
  }
} finally {
  await rig.close();
}
