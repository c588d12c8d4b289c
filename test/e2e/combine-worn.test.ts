import type { Item } from '@lootsmith/protocol';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { openGame, recordConsole, screenshot, useDemoRig, useStation } from './support/demo.ts';

// Combining or forging from what the hero wears, at a desk and on a phone: the demo asks first, a no
// changes nothing, and only a yes sends the combine that uses the worn axe up.
const rig = useDemoRig();

const AXE_ID = (player: string) => `itm_worn_axe_${player.slice(0, 12)}`;

/** A worn axe with Burn, as the player of the bug report had. */
function wornAxe(player: string): Item {
  return {
    id: AXE_ID(player),
    name: 'Emberbite Axe',
    type: 'WEAPON',
    subtype: 'axe',
    rarity: 'UNCOMMON',
    level: 3,
    element: 'fire',
    material: 'iron',
    description: 'An iron axe whose edge smoulders.',
    lore: 'Forged in a village smithy.',
    stats: [{ name: 'attack', value: 12 }],
    effects: [{ id: 'burn', params: { damage: 1, seconds: 2 } }],
    value: 40,
    icon: null,
    created_at: '2026-01-01T00:00:00.000Z',
  };
}

async function serverState(player: string) {
  const { core } = rig().server;
  const worn = await core.deps.store.equipment(player);
  const stacks = await core.deps.store.stacks(player);
  return {
    weapon: worn.find((w) => w.slot === 'WEAPON')?.item_id ?? null,
    held: new Map(stacks.map((s) => [s.item_id, s.quantity])),
  };
}

/** Everything of the dialog is on screen, and a real tap at each button's centre reaches it. */
async function expectOnScreen(page: Page) {
  const viewport = page.viewportSize();
  if (!viewport) throw new Error('no viewport');
  for (const selector of [
    'dialog.confirm',
    'dialog.confirm button[name=yes]',
    'dialog.confirm button[name=no]',
  ]) {
    const box = await page.locator(selector).boundingBox();
    if (!box) throw new Error(`${selector} has no box`);
    expect(box.x, `${selector} left`).toBeGreaterThanOrEqual(0);
    expect(box.y, `${selector} top`).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width, `${selector} right`).toBeLessThanOrEqual(viewport.width);
    expect(box.y + box.height, `${selector} bottom`).toBeLessThanOrEqual(viewport.height);
    if (selector.includes('button')) {
      expect(box.height, `${selector} is big enough to tap`).toBeGreaterThanOrEqual(44);
      const hit = await page.evaluate(
        ({ x, y, selector }) => {
          const top = document.elementFromPoint(x, y);
          return top !== null && top === document.querySelector(selector);
        },
        { x: box.x + box.width / 2, y: box.y + box.height / 2, selector },
      );
      expect(hit, `${selector} is covered at its centre`).toBe(true);
    }
  }
}

for (const [width, height, touch] of [
  [1280, 800, false],
  [390, 844, true],
] as const) {
  it(`asks before combining worn gear at ${width}×${height}`, async () => {
    const context = await rig().browser.newContext({
      viewport: { width, height },
      ...(touch ? { isMobile: true, hasTouch: true } : {}),
    });
    const page = await context.newPage();
    const consoleMessages = recordConsole(page);
    const press = (selector: string) => (touch ? page.tap(selector) : page.click(selector));
    await openGame(page, rig().server.url);
    const player = await page.evaluate(() => window.__lootsmithDemo.playerId);

    // The hero wears an axe with Burn; the Enchanting Altar needs crafting level 3.
    const { core } = rig().server;
    await core.players.update(player, { crafting_level: 3 });
    await core.deps.store.grantLoot(player, [wornAxe(player)], [], 'test');
    await core.deps.store.equip(player, 'WEAPON', AXE_ID(player));
    await page.reload();
    await page.waitForFunction(() => window.__lootsmithDemo?.ready === true, null, { timeout: 30_000 });
    expect((await page.evaluate(() => window.__lootsmithDemo.worn())).map((w) => w.id)).toContain(
      AXE_ID(player),
    );
    const before = await serverState(player);

    // Forging from the worn axe asks first, and a no keeps it (the Altar's link to its Forge panel).
    expect(await useStation(page, 'enchanting_altar', touch)).toBe('crafting-panel');
    await press('#crafting-panel button[name=switch]');
    await page.waitForSelector('#forge-panel [data-role=owned]');
    await press(`#forge-panel [data-role=owned][data-item-id="${AXE_ID(player)}"]`);
    await press('#forge-panel button[name=create]');
    await page.waitForSelector('dialog.confirm[open]', { timeout: 15_000 });
    expect(await page.textContent('dialog.confirm .confirm-question')).toBe(
      'Emberbite Axe is equipped — forge it anyway?',
    );
    await expectOnScreen(page);
    await press('dialog.confirm button[name=no]');
    await page.waitForSelector('#forge-panel [data-role=kept]');
    expect(await page.textContent('#forge-panel [data-role=kept]')).toBe(
      'Nothing forged: Emberbite Axe stays equipped.',
    );
    await screenshot(page, `combine-worn-${width}-00-forge-kept`);
    expect(await serverState(player)).toEqual(before);
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => window.__lootsmithDemo.panel === undefined);

    const combine = async () => {
      // The Altar's own panel: an enchant (a combine there).
      expect(await useStation(page, 'enchanting_altar', touch)).toBe('crafting-panel');
      expect(await page.textContent('#crafting-panel button[name=combine]')).toBe('Enchant');
      await press(`#crafting-panel [data-role=owned][data-item-id="${AXE_ID(player)}"]`);
      await press('#crafting-panel [data-role=owned][data-item-id=ember_essence]');
      await page.fill('#crafting-panel input[name=intent]', 'burn hotter and glow green');
      await press('#crafting-panel button[name=combine]');
      await page.waitForSelector('dialog.confirm[open]', { timeout: 15_000 });
    };

    // Asked, and a no keeps everything as it was.
    await combine();
    expect(await page.textContent('dialog.confirm .confirm-question')).toBe(
      'Emberbite Axe is equipped — combine it anyway?',
    );
    await expectOnScreen(page);
    await page.waitForTimeout(300);
    await screenshot(page, `combine-worn-${width}-01-asked`);
    await press('dialog.confirm button[name=no]');
    await page.waitForSelector('#crafting-panel [data-role=kept]');
    expect(await page.isVisible('dialog.confirm')).toBe(false);
    expect(await page.textContent('#crafting-panel [data-role=kept]')).toBe(
      'Nothing combined: Emberbite Axe stays equipped.',
    );
    expect(await serverState(player)).toEqual(before);
    // Escape answers the dialog alone: the crafting panel stays open under it.
    await press('#crafting-panel button[name=combine]');
    await page.waitForSelector('dialog.confirm[open]');
    await page.keyboard.press('Escape');
    await page.waitForSelector('dialog.confirm', { state: 'detached' });
    expect(await page.evaluate(() => window.__lootsmithDemo.panel)).toBe('crafting-panel');
    expect(await serverState(player)).toEqual(before);

    // A yes sends it with the player's say-so: the axe is used up, its slot empties, Burn stays.
    await press('#crafting-panel button[name=combine]');
    await page.waitForSelector('dialog.confirm[open]');
    await press('dialog.confirm button[name=yes]');
    await page.waitForSelector('#crafting-panel .result .success, #crafting-panel .result .failure', {
      timeout: 30_000,
    });
    await page.waitForTimeout(500);
    await screenshot(page, `combine-worn-${width}-02-combined`);
    const made = await page.getAttribute('#crafting-panel .result .item-card', 'data-item-id');
    const after = await serverState(player);
    expect(after.weapon).toBeNull();
    expect(after.held.has(AXE_ID(player))).toBe(false);
    expect(after.held.get(made ?? '')).toBe(1);
    const [item] = (await core.players.resolve([made ?? ''])).values();
    expect(item).toMatchObject({ type: 'WEAPON', subtype: 'axe' });
    expect(item?.effects.map((e) => e.id)).toContain('burn');
    await expect
      .poll(() => page.evaluate(() => window.__lootsmithDemo.worn().map((w) => w.slot)))
      .not.toContain('WEAPON');

    // Chromium's line for each refusal (409) is the only console error.
    const errors = consoleMessages.filter((m) => m.type() === 'error').map((m) => m.text());
    expect(errors.filter((t) => !/status of 409/.test(t))).toEqual([]);
    await context.close();
  }, 120_000);
}
