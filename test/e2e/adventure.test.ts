import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import {
  hero,
  killEnemy,
  openGame,
  pickUpLoot,
  recordConsole,
  screenshot,
  useDemoRig,
  useStation,
  walkTo,
} from './support/demo.ts';

// The demo as a new player finishes it, with real mouse and keyboard input: fight bare-handed,
// forge and wear a weapon (and see the hits grow, and the weapon's own icon in the hero's hand),
// brew potions, find the Frost Door shut to bare hands, shatter it, and beat the Frost Giant in a
// real fight (dodging its stomps, drinking when hurt) in which every effect on the worn gear acts —
// then the victory screen, checking the server's store along the way.
const rig = useDemoRig();

const TILE = 32;
const panel = (page: Page) => page.evaluate(() => window.__lootsmithDemo.panel);
const goal = (page: Page) => page.evaluate(() => window.__lootsmithDemo.goal);

/**
 * Creates an item in the Forge panel at a station (walked to, then F there); returns its id (from
 * the result card).
 */
async function forge(
  page: Page,
  o: { station: string; type: string; materials: string[]; description: string; focus: string },
) {
  // The station's own panel opens (a combine at the Workbench); F forges there instead.
  await useStation(page, o.station);
  await page.keyboard.press('Escape');
  await page.keyboard.press('f');
  expect(await panel(page)).toBe('forge-panel');
  expect(await page.getAttribute('#forge-panel [data-role=station]', 'data-station')).toBe(o.station);
  // The demo's own game file allows 30 creations an hour (the shipped game 5).
  expect(await page.textContent('#forge-panel .limit')).toBe('Limit: 30 creations per hour');
  await page.selectOption('#forge-panel select[name=type]', o.type);
  for (const id of o.materials) await page.click(`#forge-panel [data-role=owned][data-item-id=${id}]`);
  await page.fill('#forge-panel textarea[name=description]', o.description);
  // One focus: clear the chosen chips, then pick this one.
  for (const chip of await page.$$('#forge-panel .chip.on')) await chip.click();
  await page.click(`#forge-panel .chip[data-focus=${o.focus}]`);
  await page.click('#forge-panel button[name=create]');
  await page.waitForSelector('#forge-panel .result .success', { timeout: 30_000 });
  const id = (await page.getAttribute('#forge-panel .result .item-card', 'data-item-id')) ?? '';
  await page.keyboard.press('Escape');
  // The result card shows as soon as the item is made; the bag follows when the inventory is read again.
  await page.waitForFunction(
    (itemId) => window.__lootsmithDemo.inventory().some((i) => i.id === itemId),
    id,
    {
      timeout: 10_000,
    },
  );
  return id;
}

/** Wears an item from the Bag panel: click its square, then the card's Wear button. */
async function wear(page: Page, itemId: string) {
  await page.keyboard.press('i');
  await page.click(`#inventory-panel .grid [data-item-id="${itemId}"]`);
  await page.click('#inventory-panel .details button[name=equip]');
  await page.waitForFunction((id) => window.__lootsmithDemo.worn().some((w) => w.id === id), itemId, {
    timeout: 10_000,
  });
}

const WORN = ['WEAPON', 'HELMET', 'CHEST', 'LEGS', 'BOOTS', 'GLOVES', 'SHIELD', 'ACCESSORY'];
/** Gear with an effect first (the fight measures every worn effect), then the most attack, defence and health. */
const power = (item: { stats: Array<{ name: string; value: number }>; effects: unknown[] }) =>
  1000 * item.effects.length +
  item.stats
    .filter((s) => ['attack', 'defense', 'health'].includes(s.name))
    .reduce((sum, s) => sum + s.value, 0);

/** Wears, slot by slot, the best item of the bag (by `power`). */
async function wearBest(page: Page) {
  const bag = await page.evaluate(() => window.__lootsmithDemo.inventory());
  const worn = new Set((await page.evaluate(() => window.__lootsmithDemo.worn())).map((w) => w.id));
  for (const slot of WORN) {
    const best = bag.filter((i) => i.type === slot).sort((a, b) => power(b) - power(a))[0];
    if (best && !worn.has(best.id)) {
      await wear(page, best.id);
      await page.keyboard.press('Escape');
    }
  }
}

const serverWorn = async (playerId: string) =>
  (await rig().server.core.deps.store.equipment(playerId)).map((w: { item_id: string }) => w.item_id);

it('plays from the first fight to the Frost Giant’s defeat, and the gear is what wins it', async () => {
  const page = await rig().browser.newPage({ viewport: { width: 1280, height: 720 } });
  const consoleMessages = recordConsole(page);
  // Where each drop says it happened: the place the HUD names, never a generic "Dungeon".
  const dropPlaces: string[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith('/v1/generate/items'))
      dropPlaces.push(JSON.parse(request.postData() ?? '{}').generation_context?.location);
  });
  await openGame(page, rig().server.url);
  const playerId = await page.evaluate(() => window.__lootsmithDemo.playerId);
  await page.waitForTimeout(700);
  await screenshot(page, 'adventure-00-start');

  // Only the Crafters' Hall is lit; the boss is nowhere to be seen.
  expect(await page.evaluate(() => window.__lootsmithDemo.revealed)).toEqual(['hall']);
  const giant = (await page.evaluate(() => window.__lootsmithDemo.enemies())).find(
    (e) => e.kind === 'frost_giant',
  );
  expect(giant?.visible).toBe(false);
  expect(await goal(page)).toMatch(/Defeat monsters/);

  // Away from the stations, crafting says where to go and makes nothing.
  await page.keyboard.press('c');
  expect(await panel(page)).toBe('crafting-panel');
  expect(await page.textContent('#crafting-panel [data-role=station]')).toMatch(
    /^Crafting needs a station\. Walk up to the Workbench, .* or the Enchanting Altar in the Crafters' Hall and press E\.$/,
  );
  expect(await page.isDisabled('#crafting-panel button[name=combine]')).toBe(true);
  await page.keyboard.press('Escape');

  // At a station, its prompt stands above it in place of its name (which the hero would cover).
  const forgeStation = (await page.evaluate(() => window.__lootsmithDemo.stations())).find(
    (s) => s.id === 'forge',
  );
  if (!forgeStation) throw new Error('no forge');
  await walkTo(page, { x: forgeStation.x, y: forgeStation.y + TILE }, 8);
  await page.waitForTimeout(300);
  await screenshot(page, 'adventure-01-station-prompt');
  const prompt = await page.evaluate(() => window.__lootsmithDemo.stationPrompt());
  expect(prompt).toMatchObject({ visible: true, text: 'E — use the Forge', namesHidden: ['forge'] });
  expect(prompt?.y).toBeLessThan(forgeStation.y);
  expect(prompt?.y).toBeLessThan((await hero(page)).y - TILE);
  // E there opens what the Forge does: forging, at the Forge (which needs crafting level 1).
  await page.keyboard.press('e');
  expect(await panel(page)).toBe('forge-panel');
  expect(await page.textContent('#forge-panel [data-role=station]')).toBe(
    'At the Forge — it makes weapons, shields and armour. It needs crafting level 1. Combine here instead',
  );
  await page.keyboard.press('Escape');

  // Bare-handed, every hit is the base attack's (doubled on a critical hit), and no sword shows.
  const bare = await hero(page);
  expect(bare.attack).toBe(2);
  expect(bare.gear).toEqual({});
  await killEnemy(page, 'slime');
  expect(dropPlaces).toEqual([await page.textContent('.room-name')]);
  await pickUpLoot(page);
  const bareHits = await page.evaluate(() => window.__lootsmithDemo.hits());
  expect(bareHits.length).toBeGreaterThan(0);
  for (const hit of bareHits) expect([bare.damage[0], bare.damage[1], bare.damage[1] * 2]).toContain(hit);

  // Forge a weapon at the Workbench and wear it: the hero's attack grows by the weapon's stats.
  const weaponId = await forge(page, {
    station: 'workbench',
    type: 'WEAPON',
    materials: ['iron_ore', 'iron_ore', 'oak_wood'],
    description: 'a heavy iron sword',
    focus: 'attack',
  });
  const weapon = (await page.evaluate(() => window.__lootsmithDemo.inventory())).find(
    (i) => i.id === weaponId,
  );
  if (!weapon) throw new Error('the forged weapon is not in the bag');
  const stat = (name: string) => weapon.stats.find((s) => s.name === name)?.value ?? 0;
  await wear(page, weaponId);
  // The hero holds the weapon's own icon once it has loaded.
  await page.waitForFunction(() => window.__lootsmithDemo.hero()?.gear.WEAPON === 'icon', null, {
    timeout: 15_000,
  });
  await page.waitForTimeout(400);
  await screenshot(page, 'adventure-02-wear-weapon');
  await page.keyboard.press('Escape');
  const armed = await hero(page);
  expect(armed.attack).toBe(bare.attack + stat('attack') + Math.floor(stat('magic') / 2));
  expect(armed.attack).toBeGreaterThan(bare.attack);
  expect(armed.damage[0]).toBeGreaterThan(bare.damage[1]);
  expect(await serverWorn(playerId)).toContain(weaponId);

  // The next fight hits harder: every new hit is within the armed range.
  const before = (await page.evaluate(() => window.__lootsmithDemo.hits())).length;
  await killEnemy(page, 'slime');
  await pickUpLoot(page);
  const armedHits = (await page.evaluate(() => window.__lootsmithDemo.hits())).slice(before);
  expect(armedHits.length).toBeGreaterThan(0);
  for (const hit of armedHits) expect(hit).toBeGreaterThanOrEqual(armed.damage[0]);

  // A shield from the Workbench and two potions from the Alchemy Table.
  const shieldId = await forge(page, {
    station: 'workbench',
    type: 'SHIELD',
    materials: ['oak_wood', 'leather_scraps'],
    description: 'a round oak shield',
    focus: 'defense',
  });
  for (const [materials, description] of [
    [['healing_herb', 'healing_herb'], 'a healing potion'],
    [['healing_herb', 'leather_scraps'], 'a bitter tonic'],
  ] as const)
    await forge(page, {
      station: 'alchemy_table',
      type: 'CONSUMABLE',
      materials: [...materials],
      description,
      focus: 'health',
    });
  await wear(page, shieldId);
  await page.keyboard.press('Escape');

  // The Crossroads' monsters give more loot; the hero hunts on (the nearest monster in sight; when
  // none is, it waits for one to respawn) until the bag holds gear with an effect, then wears the best
  // of everything found. About one tier-1 item in eight carries an effect, so the hunt may take a
  // while: loaded CI runs found none in 8 kills, or ran out of monsters in sight and stopped.
  for (const kind of ['rat', 'slime']) {
    await killEnemy(page, kind);
    await pickUpLoot(page);
  }
  const withEffects = async () =>
    (await page.evaluate(() => window.__lootsmithDemo.inventory())).some(
      (i) => WORN.includes(i.type) && i.effects.length > 0,
    );
  const huntUntil = Date.now() + 180_000;
  for (let kills = 0; kills < 30 && Date.now() < huntUntil && !(await withEffects()); ) {
    const me = await hero(page);
    const [prey] = (await page.evaluate(() => window.__lootsmithDemo.enemies()))
      .filter((e) => e.alive && e.visible && e.kind !== 'frost_giant')
      .sort((a, b) => Math.hypot(a.x - me.x, a.y - me.y) - Math.hypot(b.x - me.x, b.y - me.y));
    if (!prey) {
      await page.waitForTimeout(1_000);
      continue;
    }
    await killEnemy(page, prey.kind);
    await pickUpLoot(page);
    kills++;
  }
  await wearBest(page);

  // The Hero panel shows the worn gear and what it adds up to.
  await page.keyboard.press('h');
  expect(await panel(page)).toBe('hero-panel');
  await page.waitForTimeout(400);
  await screenshot(page, 'adventure-03-hero-panel');
  const attackShown = await page.textContent('#hero-panel [data-stat=Attack]');
  expect(attackShown).toContain(String((await hero(page)).attack));
  await page.keyboard.press('Escape');

  // East to the Frost Door, following the goal arrow: bare hands glance off; the weapon cracks it
  // blow by blow until it shatters.
  const door = await page.evaluate(() => window.__lootsmithDemo.door());
  if (!door) throw new Error('no door');
  expect((await hero(page)).attack).toBeGreaterThanOrEqual(door.needs);
  expect(await goal(page)).toMatch(/Explore east/);
  const arrow = await page.evaluate(() => window.__lootsmithDemo.arrow());
  expect(arrow?.visible).toBe(true);
  expect(Math.cos(arrow?.angle ?? Math.PI)).toBeGreaterThan(0);
  await screenshot(page, 'adventure-03-goal-arrow');
  await walkTo(page, { x: door.x - 3 * TILE, y: door.y });
  expect(await page.evaluate(() => window.__lootsmithDemo.revealed)).toContain('cold');
  await page.waitForTimeout(300);
  await screenshot(page, 'adventure-04-frost-door');
  const doorAt = async () => {
    const at = (await page.evaluate(() => window.__lootsmithDemo.door()))?.page;
    if (!at) throw new Error('no door');
    return at;
  };
  // Without the weapon (taken off in the Bag) the ice holds, and the door and goal line say why.
  const wielded = (await page.evaluate(() => window.__lootsmithDemo.worn())).find((w) => w.slot === 'WEAPON');
  if (!wielded) throw new Error('no weapon worn');
  await page.keyboard.press('i');
  await page.click(`#inventory-panel .grid [data-item-id="${wielded.id}"]`);
  await page.click('#inventory-panel .details button[name=unequip]');
  await page.waitForFunction((id) => !window.__lootsmithDemo.worn().some((w) => w.id === id), wielded.id);
  await page.keyboard.press('Escape');
  const unarmedAt = await doorAt();
  await page.mouse.click(unarmedAt.x, unarmedAt.y);
  await page.waitForFunction(() =>
    window.__lootsmithDemo.toasts().some((t) => t.detail?.includes('only cracks under a weapon')),
  );
  expect(await page.evaluate(() => window.__lootsmithDemo.door()?.hp)).toBe(door.hp);
  expect(await goal(page)).toMatch(/needs a weapon .*wear one from your Bag \(press I\)/);
  await wear(page, wielded.id);
  await page.keyboard.press('Escape');
  const armedAt = await doorAt();
  await page.mouse.click(armedAt.x, armedAt.y);
  await page.waitForFunction(() => window.__lootsmithDemo.door()?.open === true, null, { timeout: 30_000 });
  expect((await page.evaluate(() => window.__lootsmithDemo.door()))?.cracks).toBeGreaterThan(3);

  // Into the Frozen Throne: the giant wakes. Fight it, drinking the potion once hurt.
  await walkTo(page, { x: door.x + 3 * TILE, y: door.y });
  await page.waitForFunction(() => window.__lootsmithDemo.revealed.includes('throne'), null, {
    timeout: 10_000,
  });
  expect(await goal(page)).toMatch(/Defeat the Frost Giant/);
  // The worn effects, as the item cards show them.
  const worn = await page.evaluate(() => window.__lootsmithDemo.worn());
  const wornEffects = [...new Set(worn.flatMap((w) => w.effects.map((e) => e.id)))];
  expect(wornEffects.length).toBeGreaterThan(0);
  await page.keyboard.press('i');
  for (const w of worn.filter((w) => w.effects.length)) {
    await page.click(`#inventory-panel .grid [data-item-id="${w.id}"]`);
    for (const e of w.effects)
      expect(await page.isVisible(`#inventory-panel .details [data-effect=${e.id}]`)).toBe(true);
  }
  await page.waitForTimeout(400);
  await screenshot(page, 'adventure-04-effect-card');
  await page.keyboard.press('Escape');

  // The fight, with real input: click the giant; when its stomp winds up, step out of the ring (a key
  // held away from it); drink when hurt. A knocked-out hero wakes in the hall (the giant recovers)
  // and comes back. The statuses effects put on the giant are watched as it goes.
  let drank = false;
  let stomps = 0;
  let dodged = 0;
  let slowed = false;
  let burned = false;
  let fightStart: number | undefined;
  let fightEnd = 0;
  const gameNow = () => page.evaluate(() => performance.now());
  for (let round = 0; round < 600; round++) {
    const boss = (await page.evaluate(() => window.__lootsmithDemo.enemies())).find(
      (e) => e.kind === 'frost_giant',
    );
    if (!boss?.alive) break;
    if (boss.hp < boss.maxHp && fightStart === undefined) fightStart = await gameNow();
    fightEnd = await gameNow();
    slowed ||= boss.slowedBy > 0 && boss.speed < 50;
    burned ||= boss.burning;
    const me = await hero(page);
    const near = Math.hypot(me.x - boss.x, me.y - boss.y);
    // Near the end the hero takes the stomps (and drinks only when very low), so it is hurt when
    // the giant falls: a heal on kill then has health to give back.
    const endgame = boss.hp < boss.maxHp * 0.25;
    if (boss.stompComing) {
      stomps += 1;
      if (stomps === 1) await screenshot(page, 'adventure-05-stomp-coming');
      if (near < 140 && !endgame) {
        dodged += 1;
        const away = me.x <= boss.x ? 'a' : 'd';
        await page.keyboard.down(away);
        await page.waitForTimeout(800);
        await page.keyboard.up(away);
      }
      while ((await page.evaluate(() => window.__lootsmithDemo.enemies())).some((e) => e.stompComing))
        await page.waitForTimeout(100);
      continue;
    }
    // The first hurt drinks the best potion (the server spends it); later, drink when low. (Gear
    // rolled lucky can leave the hero above 80% all fight: issue 39's curve, not this test's to judge.)
    const potions = await page.isVisible('.hud-button[name=potion]');
    const low = me.hp < me.maxHp * (endgame ? 0.3 : 0.45);
    if (potions && (drank ? low : fightStart !== undefined && me.hp < me.maxHp)) {
      const bag = await page.evaluate(() => window.__lootsmithDemo.inventory());
      await page.click('.hud-button[name=potion]');
      await page.waitForFunction((hp) => (window.__lootsmithDemo.hero()?.hp ?? 0) > hp, me.hp, {
        timeout: 10_000,
      });
      if (!drank) {
        const potionsOf = (entries: Array<{ quantity: number; type?: string; item?: { type: string } }>) =>
          entries
            .filter((e) => (e.type ?? e.item?.type) === 'CONSUMABLE')
            .reduce((n, e) => n + e.quantity, 0);
        // The hero heals at once; the server spends the potion a moment later.
        await expect
          .poll(async () => potionsOf((await rig().server.core.players.inventory(playerId)).items))
          .toBe(potionsOf(bag) - 1);
        await screenshot(page, 'adventure-06-boss-fight');
      }
      drank = true;
    }
    if (near > 70) {
      if (boss.page.onScreen && boss.visible) await page.mouse.click(boss.page.x, boss.page.y);
      // Back from the hall after a knock-out: to the throne room's doorway first, then toward the
      // giant (which moves: a walk cut short is tried again next round).
      else {
        const doorway = { x: door.x + 3 * TILE, y: door.y };
        const far = Math.hypot(me.x - doorway.x, me.y - doorway.y) > 60 && me.x < doorway.x;
        await walkTo(page, far ? doorway : boss, 90).catch(() => {});
      }
    }
    await page.waitForTimeout(250);
  }
  expect(drank).toBe(true);
  // A real fight: it lasts, the giant stomps (telegraphed) and the hero can step out of it.
  expect(fightStart).toBeDefined();
  expect((fightEnd - (fightStart ?? fightEnd)) / 1000).toBeGreaterThan(15);
  expect(stomps).toBeGreaterThan(0);
  expect(dodged).toBeGreaterThan(0);
  // Every effect the worn gear shows did something measurable in play.
  const log = await page.evaluate(() => window.__lootsmithDemo.effectLog());
  for (const id of wornEffects) {
    expect(log?.[id]?.times, `${id} acted`).toBeGreaterThan(0);
    expect(log?.[id]?.total, `${id} did something`).toBeGreaterThan(0);
  }
  if (wornEffects.includes('frost_slow')) expect(slowed).toBe(true);
  if (wornEffects.includes('burn')) expect(burned).toBe(true);
  await page.waitForFunction(() => window.__lootsmithDemo.won, null, { timeout: 10_000 });
  await page.waitForFunction(() => window.__lootsmithDemo.panel === 'win-panel', null, { timeout: 15_000 });
  await page.waitForTimeout(600);
  await screenshot(page, 'adventure-07-victory');
  expect(await page.textContent('#win-panel')).toContain('The gear that won it');
  expect(await page.$$('#win-panel .win-gear li')).not.toHaveLength(0);

  const areaNames = await page.evaluate(() => window.__lootsmithDemo.areaNames);
  for (const place of dropPlaces) expect(areaNames).toContain(place);
  expect(consoleMessages.filter((m) => m.type() === 'error').map((m) => m.text())).toEqual([]);
}, 480_000);
