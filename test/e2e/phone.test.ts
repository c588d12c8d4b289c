import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import {
  drops,
  enemies,
  hero,
  openGame,
  pickUpLoot,
  recordConsole,
  screenshot,
  useDemoRig,
  useStation,
} from './support/demo.ts';

// The demo on phones in portrait, by touch: the interface spans the screen, every primary button
// can be tapped (it is inside the viewport and nothing covers its centre), the item card shows,
// and the hints speak of taps.
const rig = useDemoRig();

const RULE_REFUSAL = /^Failed to load resource: the server responded with a status of (400|429)/;

/** Asserts a real tap at the element's centre reaches it, and the element lies inside the viewport. */
async function expectTappable(page: Page, selector: string) {
  const element = await page.waitForSelector(selector, { state: 'visible' });
  await element.scrollIntoViewIfNeeded();
  const box = await element.boundingBox();
  const viewport = page.viewportSize();
  if (!box || !viewport) throw new Error(`${selector} has no box`);
  expect(box.x, `${selector} left`).toBeGreaterThanOrEqual(0);
  expect(box.y, `${selector} top`).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width, `${selector} right`).toBeLessThanOrEqual(viewport.width + 0.5);
  expect(box.y + box.height, `${selector} bottom`).toBeLessThanOrEqual(viewport.height + 0.5);
  const hit = await element.evaluate(
    (el, { x, y }) => {
      const top = document.elementFromPoint(x, y);
      return top === el || el.contains(top);
    },
    { x: box.x + box.width / 2, y: box.y + box.height / 2 },
  );
  expect(hit, `${selector} is covered at its centre`).toBe(true);
  return box;
}

const tap = async (page: Page, selector: string) => {
  const box = await expectTappable(page, selector);
  await page.touchscreen.tap(box.x + box.width / 2, box.y + box.height / 2);
};

const panel = (page: Page) => page.evaluate(() => window.__lootsmithDemo.panel);

for (const [width, height] of [
  [390, 844],
  [360, 740],
] as const) {
  it(`plays and crafts by touch at ${width}×${height}`, async () => {
    const context = await rig().browser.newContext({
      viewport: { width, height },
      isMobile: true,
      hasTouch: true,
    });
    const page = await context.newPage();
    const consoleMessages = recordConsole(page);
    await openGame(page, rig().server.url);
    await page.waitForTimeout(700);
    const name = `phone-${width}`;
    await screenshot(page, `${name}-01-dungeon`);

    // The interface spans the screen and nothing runs off its sides; hints are for touch.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    for (const selector of ['.hud-stats', '.hud-place', '.hints', '.hud-buttons']) {
      const box = await page.locator(selector).boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= width, `${selector} inside`).toBe(true);
    }
    expect(await page.isVisible('.touch-hint')).toBe(true);
    expect(await page.isVisible('.keys-hint')).toBe(false);
    expect(await page.locator('.hud-button kbd').first().isVisible()).toBe(false);
    for (const button of ['inventory', 'hero', 'crafting', 'forge'])
      await expectTappable(page, `.hud-button[name=${button}]`);
    // The HP bar and the room name are on screen and under no button.
    for (const selector of ['.hud-stats .bar', '.room-name', '.objective']) {
      const box = await page.locator(selector).first().boundingBox();
      if (!box) throw new Error(`no ${selector}`);
      expect(box.y + box.height, `${selector} on screen`).toBeLessThanOrEqual(height);
      const covered = await page.evaluate(
        ({ x, y }) => document.elementFromPoint(x, y)?.closest('button') !== null,
        { x: box.x + box.width / 2, y: box.y + box.height / 2 },
      );
      expect(covered, `${selector} under a button`).toBe(false);
    }
    expect(await page.textContent('.room-name')).toBe("Crafters' Hall");

    // A tap just past the floor's edge (into the dark below the hall) walks to the floor nearest it.
    const start = await hero(page);
    const offFloor = 21.4 * 32;
    await page.touchscreen.tap(start.page.x, start.page.y + offFloor - start.y);
    await expect.poll(async () => (await hero(page)).y, { timeout: 10_000 }).toBe(20.5 * 32);

    // A tap on a slime walks the hero to it and fights; the loot is taken by tapping it.
    const slime = (await enemies(page)).find((e) => e.kind === 'slime' && e.visible && e.page.onScreen);
    if (!slime) throw new Error('no slime on screen');
    await page.touchscreen.tap(slime.page.x, slime.page.y);
    await page.waitForFunction(
      (uid) => !window.__lootsmithDemo.enemies().some((e) => e.uid === uid && e.alive),
      slime.uid,
      { timeout: 30_000 },
    );
    await page.waitForFunction(() => window.__lootsmithDemo.drops().length > 0, null, { timeout: 30_000 });
    expect((await drops(page)).length).toBeGreaterThan(0);
    await pickUpLoot(page);

    // Forge: tap the Workbench (its own panel combines), then forge there; the Create button stays
    // in reach while the form scrolls.
    expect(await useStation(page, 'workbench', true)).toBe('crafting-panel');
    await tap(page, '#crafting-panel button[name=switch]');
    expect(await panel(page)).toBe('forge-panel');
    expect(await page.getAttribute('#forge-panel [data-role=station]', 'data-station')).toBe('workbench');
    await tap(page, '#forge-panel [data-role=owned][data-item-id=iron_ore]');
    await tap(page, '#forge-panel [data-role=owned][data-item-id=oak_wood]');
    await page.selectOption('#forge-panel select[name=type]', 'WEAPON');
    await page.fill('#forge-panel textarea[name=description]', 'a short iron sword');
    await screenshot(page, `${name}-02-forge`);
    await tap(page, '#forge-panel button[name=create]');
    await page.waitForSelector('#forge-panel .result .success', { timeout: 30_000 });
    // The result comes up into view by itself (the player need not scroll for it).
    const result = await page.locator('#forge-panel .result .success').boundingBox();
    expect(result && result.y >= 0 && result.y + result.height <= height, 'the result is in view').toBe(true);
    await screenshot(page, `${name}-02-forged`);
    const swordId = (await page.getAttribute('#forge-panel .result .item-card', 'data-item-id')) ?? '';
    // A potion from the Alchemy Table: the toolbar's Potion button shows its count in full (one more
    // than before: the way here may already have dropped one).
    const potionsBefore = await page.evaluate(() =>
      Number(
        document.querySelector('.hud-button[name=potion] .count')?.textContent?.match(/×(\d+)/)?.[1] ?? 0,
      ),
    );
    await tap(page, '#forge-panel .close');
    expect(await useStation(page, 'alchemy_table', true)).toBe('crafting-panel');
    await tap(page, '#crafting-panel button[name=switch]');
    await page.selectOption('#forge-panel select[name=type]', 'CONSUMABLE');
    await tap(page, '#forge-panel [data-role=owned][data-item-id=healing_herb]');
    await page.fill('#forge-panel textarea[name=description]', 'a healing potion');
    await tap(page, '#forge-panel button[name=create]');
    await page.waitForSelector('#forge-panel .result .success', { timeout: 30_000 });
    await tap(page, '#forge-panel .close');
    await expectTappable(page, '.hud-button[name=potion]');
    const count = await page.evaluate(() => {
      const button = document.querySelector('.hud-button[name=potion]')?.getBoundingClientRect();
      const shown = document.querySelector('.hud-button[name=potion] .count');
      const box = shown?.getBoundingClientRect();
      return { text: shown?.textContent, inside: !!box && !!button && box.right <= button.right - 1 };
    });
    expect(count).toEqual({ text: ` ×${potionsBefore + 1}`, inside: true });

    // Bag: tapping an item shows its card inside the screen, with its Wear button in reach.
    await tap(page, '.hud-button[name=inventory]');
    expect(await panel(page)).toBe('inventory-panel');
    await tap(page, `#inventory-panel .grid [data-item-id="${swordId}"]`);
    const card = await expectTappable(page, '#inventory-panel .details .item-card');
    expect(card.height).toBeGreaterThan(80);
    await screenshot(page, `${name}-03-bag`);
    await tap(page, '#inventory-panel .details button[name=equip]');
    await page.waitForFunction((id) => window.__lootsmithDemo.worn().some((w) => w.id === id), swordId, {
      timeout: 10_000,
    });
    await tap(page, '#inventory-panel .close');

    // Hero: the slots, the stats and the worn weapon's Take off button.
    await tap(page, '.hud-button[name=hero]');
    expect(await panel(page)).toBe('hero-panel');
    await tap(page, '#hero-panel .gear-slot[data-slot=WEAPON]');
    await expectTappable(page, '#hero-panel button[name=unequip]');
    await expectTappable(page, '#hero-panel .hero-stats');
    await screenshot(page, `${name}-04-hero`);
    await tap(page, '#hero-panel .close');

    // Craft: two items in the tray, and Combine is in reach and works.
    await tap(page, '.hud-button[name=crafting]');
    expect(await panel(page)).toBe('crafting-panel');
    await tap(page, '#crafting-panel [data-role=owned][data-item-id=leather_scraps]');
    await tap(page, '#crafting-panel [data-role=owned][data-item-id=frost_shard]');
    await page.fill('#crafting-panel input[name=intent]', 'warm gloves');
    await screenshot(page, `${name}-05-craft`);
    await tap(page, '#crafting-panel button[name=combine]');
    await page.waitForSelector('#crafting-panel .result .success, #crafting-panel .result .failure', {
      timeout: 30_000,
    });
    await tap(page, '#crafting-panel .close');
    expect(await panel(page)).toBeUndefined();

    // Messages sit above the toolbar, never over its buttons, one short one at a time (read at one
    // instant: toasts come and go).
    const toasts = await page.evaluate(() => {
      const toolbar = document.querySelector('.hud-buttons')?.getBoundingClientRect();
      const shown = [...document.querySelectorAll('.toast')]
        .map((toast) => toast.getBoundingClientRect())
        .filter((box) => box.height > 0);
      return {
        shown: shown.length,
        overlaps: shown.filter((box) => toolbar && box.bottom > toolbar.top).length,
        tallest: Math.max(0, ...shown.map((box) => box.height)),
      };
    });
    expect(toasts.overlaps).toBe(0);
    expect(toasts.shown).toBeLessThanOrEqual(1);
    expect(toasts.tallest).toBeLessThan(height * 0.1);
    await screenshot(page, `${name}-06-after`);

    const errors = consoleMessages.filter((m) => m.type() === 'error').map((m) => m.text());
    expect(errors.filter((text) => !RULE_REFUSAL.test(text))).toEqual([]);
    await context.close();
  }, 180_000);
}
