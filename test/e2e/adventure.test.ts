import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import {
  fastClock,
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

// The demo's curve, played by two scripted players with real mouse and keyboard input, the game's
// clock running three times as fast as the wall's (`fastClock`: input and the server keep real time).
// One rushes: forges a weapon and goes straight for the deep rooms — the Frost Door holds and the
// Ember Shrine knocks the hero out. One explores: fights bare-handed, forges and wears a weapon (the
// hits grow, the weapon's own icon in the hero's hand), brews potions, clears every room in turn
// wearing the best of its loot and drinking when low, cracks the Frost Door and beats the Frost Giant
// in a real fight (dodging its stomps, drinking when hurt) — after six minutes or more of game clock
// and at least one moment under half health — then the victory screen at three sizes.
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
const WEIGHT: Record<string, number> = { attack: 2, defense: 1, health: 0.5, speed: 0.5 };
/** What a player weighs gear by: attack counts double, then defence, health and speed; an effect 3. */
const power = (item: { stats: Array<{ name: string; value: number }>; effects: unknown[] }) =>
  3 * item.effects.length + item.stats.reduce((sum, s) => sum + s.value * (WEIGHT[s.name] ?? 0), 0);

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

/** The game clock runs this many times as fast as the wall's in both runs. */
const SPEED = 3;

const run = async (page: Page) => {
  const r = await page.evaluate(() => window.__lootsmithDemo.run());
  if (!r) throw new Error('no run');
  return r;
};
/** The middle of a room, in map pixels. */
async function centreOf(page: Page, room: string) {
  const area = (await page.evaluate(() => window.__lootsmithDemo.areas)).find((a) => a.id === room);
  if (!area) throw new Error(`no room ${room}`);
  return area;
}

/** What a run saw of the hero's health: the lowest share, and the potions drunk. */
interface Watch {
  lowest: number;
  drank: number;
}

/** Drinks the best potion (Q) when the hero is below `below` of its health and has one; true if it did. */
async function drinkIfLow(page: Page, watch: Watch, below = 0.45) {
  const me = await hero(page);
  watch.lowest = Math.min(watch.lowest, me.hp / me.maxHp);
  if (me.hp >= me.maxHp * below || !(await page.isVisible('.hud-button[name=potion]'))) return false;
  await page.keyboard.press('q');
  await page
    .waitForFunction((hp) => (window.__lootsmithDemo.hero()?.hp ?? 0) > hp, me.hp, { timeout: 10_000 })
    .catch(() => {});
  watch.drank += 1;
  return true;
}

/**
 * Fights one monster to the end as a player does: clicks it (walking into view first), drinks when
 * low. Returns false when the hero was knocked out instead.
 */
async function fight(page: Page, uid: string, watch: Watch): Promise<boolean> {
  const { knockOuts } = await run(page);
  for (let round = 0; round < 240; round++) {
    const enemy = (await page.evaluate(() => window.__lootsmithDemo.enemies())).find((e) => e.uid === uid);
    if (!enemy?.alive) return true;
    if ((await run(page)).knockOuts > knockOuts) return false;
    await drinkIfLow(page, watch);
    if (enemy.visible && enemy.page.onScreen) await page.mouse.click(enemy.page.x, enemy.page.y);
    else {
      // Out of sight: walk into view, a leg at a time, unless the hero fell meanwhile.
      const me = await hero(page);
      const toward = { x: (me.x + enemy.x) / 2, y: (me.y + enemy.y) / 2 };
      await walkTo(page, Math.hypot(me.x - enemy.x, me.y - enemy.y) > 300 ? toward : enemy, 90).catch(
        () => {},
      );
    }
    await page.waitForTimeout(200);
  }
  throw new Error(`the fight with ${uid} did not end`);
}

/**
 * Clears a room: walks in, then fights every monster in sight there, nearest first, and picks up
 * their loot. Returns false if the hero was knocked out.
 */
async function clearRoom(page: Page, room: string, watch: Watch): Promise<boolean> {
  const { knockOuts } = await run(page);
  await walkTo(page, await centreOf(page, room), 96).catch(() => {});
  for (let kills = 0; kills < 8; kills++) {
    if ((await run(page)).knockOuts > knockOuts) return false;
    const me = await hero(page);
    const [prey] = (await page.evaluate(() => window.__lootsmithDemo.enemies()))
      .filter((e) => e.alive && e.visible && e.kind !== 'frost_giant' && e.area === room)
      .sort((a, b) => Math.hypot(a.x - me.x, a.y - me.y) - Math.hypot(b.x - me.x, b.y - me.y));
    if (!prey) break;
    if (!(await fight(page, prey.uid, watch))) return false;
    await pickUpLoot(page);
  }
  return true;
}

/** Both players' first weapon: a sword forged at the Workbench from the starting materials. */
const FIRST_SWORD = {
  station: 'workbench',
  type: 'WEAPON',
  materials: ['iron_ore', 'iron_ore', 'oak_wood'],
  description: 'a heavy iron sword',
  focus: 'attack',
};

it('a player who rushes loses: the Frost Door holds for the Workbench’s weapon, the Ember Shrine knocks the hero out', async () => {
  const page = await rig().browser.newPage({ viewport: { width: 1280, height: 720 } });
  await fastClock(page, SPEED);
  await openGame(page, rig().server.url);
  const weaponId = await forge(page, FIRST_SWORD);
  await wear(page, weaponId);
  await page.keyboard.press('Escape');
  // Straight east past the Crossroads to the door: the Workbench's weapon is not enough.
  const door = await page.evaluate(() => window.__lootsmithDemo.door());
  if (!door) throw new Error('no door');
  const { attack } = await hero(page);
  expect(attack).toBeLessThan(door.needs);
  await walkTo(page, { x: door.x - 3 * TILE, y: door.y });
  const at = (await page.evaluate(() => window.__lootsmithDemo.door()))?.page;
  if (!at) throw new Error('no door');
  await page.mouse.click(at.x, at.y);
  await page.waitForFunction(
    (needs) =>
      window.__lootsmithDemo.toasts().some((t) => t.detail?.includes(`needs a weapon of ${needs}+ attack`)),
    door.needs,
  );
  expect((await page.evaluate(() => window.__lootsmithDemo.door()))?.open).toBe(false);
  expect(await goal(page)).toMatch(
    /The Frost Door needs a weapon of 12\+ attack .*(Bag|rooms north and south)/,
  );
  // Down to the Ember Shrine instead, to fight what is there: its monsters knock the hero out.
  const watch: Watch = { lowest: 1, drank: 0 };
  expect(await clearRoom(page, 'shrine', watch)).toBe(false);
  expect((await run(page)).knockOuts).toBeGreaterThanOrEqual(1);
  await page.waitForFunction(() =>
    window.__lootsmithDemo.toasts().some((t) => t.title === 'You were knocked out'),
  );
  await screenshot(page, 'adventure-rusher-knocked-out');
  const giant = (await page.evaluate(() => window.__lootsmithDemo.enemies())).find(
    (e) => e.kind === 'frost_giant',
  );
  expect(giant?.hp).toBe(giant?.maxHp);
  await page.close();
}, 300_000);

it('a player who explores every room, wears its best and drinks when low beats the Frost Giant after six minutes or more', async () => {
  const page = await rig().browser.newPage({ viewport: { width: 1280, height: 720 } });
  await fastClock(page, SPEED);
  const watch: Watch = { lowest: 1, drank: 0 };
  /** The game clock when each part of the run ended, for the log. */
  const stages: Record<string, number> = {};
  const consoleMessages = recordConsole(page);
  // Where each drop says it happened: the place the HUD names, never a generic "Dungeon".
  const dropPlaces: string[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith('/v1/generate/items'))
      dropPlaces.push(JSON.parse(request.postData() ?? '{}').generation_context?.location);
  });
  // Every answer of 500 or more, with the error code the server gave.
  const serverErrors: string[] = [];
  page.on('response', async (response) => {
    if (response.status() < 500) return;
    const code = await response.json().then(
      (b) => b?.error?.code,
      () => undefined,
    );
    serverErrors.push(
      `${response.request().method()} ${new URL(response.url()).pathname} ${response.status()} ${code}`,
    );
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
  const weaponId = await forge(page, FIRST_SWORD);
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

  // Every room in turn, deeper and deeper, wearing the best of each room's loot; a knocked-out hero
  // wakes in the hall and goes back. Then, while the door would hold, the rooms again (their monsters
  // come back) for better gear.
  for (const room of ['hall', 'crossroads', 'gallery', 'shrine']) {
    for (let tries = 0; tries < 3 && !(await clearRoom(page, room, watch)); tries++) await wearBest(page);
    await wearBest(page);
    stages[room] = (await run(page)).seconds;
  }
  const door = await page.evaluate(() => window.__lootsmithDemo.door());
  if (!door) throw new Error('no door');
  // (Their monsters come back two minutes of game clock after they fall: the hunt waits for them.)
  const huntUntil = Date.now() + 240_000;
  for (let round = 0; Date.now() < huntUntil && (await hero(page)).attack < door.needs; round++) {
    const room = round % 2 ? 'shrine' : 'gallery';
    const before = (await page.evaluate(() => window.__lootsmithDemo.inventory())).length;
    await clearRoom(page, room, watch);
    await wearBest(page);
    if ((await page.evaluate(() => window.__lootsmithDemo.inventory())).length === before)
      await page.waitForTimeout(5_000);
  }
  stages.hunt = (await run(page)).seconds;

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
  expect(await goal(page)).toMatch(
    /needs a weapon of 12\+ attack .*wear your best from your Bag \(press I\)/,
  );
  await wear(page, wielded.id);
  await page.keyboard.press('Escape');
  const armedAt = await doorAt();
  await page.mouse.click(armedAt.x, armedAt.y);
  await page.waitForFunction(() => window.__lootsmithDemo.door()?.open === true, null, { timeout: 30_000 });
  expect((await page.evaluate(() => window.__lootsmithDemo.door()))?.cracks).toBeGreaterThan(1);

  // Into the Frozen Throne: the giant wakes. Fight it, drinking the potion once hurt.
  await walkTo(page, { x: door.x + 3 * TILE, y: door.y });
  await page.waitForFunction(() => window.__lootsmithDemo.revealed.includes('throne'), null, {
    timeout: 10_000,
  });
  expect(await goal(page)).toMatch(/Defeat the Frost Giant/);
  // The worn effects, as the item cards show them.
  const worn = await page.evaluate(() => window.__lootsmithDemo.worn());
  const wornEffects = [...new Set(worn.flatMap((w) => w.effects.map((e) => e.id)))];
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
  // Bounded by rounds of about a third of a second: a weak hero's fight can take five minutes of game clock.
  for (let round = 0; round < 2400; round++) {
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
        await page.waitForTimeout(1000 / SPEED);
        await page.keyboard.up(away);
      }
      while ((await page.evaluate(() => window.__lootsmithDemo.enemies())).some((e) => e.stompComing))
        await page.waitForTimeout(100);
      continue;
    }
    // The first hurt drinks the best potion (the server spends it); later, drink when low. (Gear
    // rolled lucky can leave the hero above 80% all fight: issue 39's curve, not this test's to judge.)
    watch.lowest = Math.min(watch.lowest, me.hp / me.maxHp);
    const potions = await page.isVisible('.hud-button[name=potion]');
    const low = me.hp < me.maxHp * (endgame ? 0.3 : 0.45);
    if (potions && low) {
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
      watch.drank += 1;
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
    await page.waitForTimeout(100);
  }
  // Drank when low, in the giant's fight or before it; and was under half health at least once.
  expect(watch.drank).toBeGreaterThan(0);
  expect(watch.lowest).toBeLessThan(0.5);
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
  // Six minutes or more of game clock, as the victory screen says.
  const { seconds, knockOuts } = await run(page);
  const { attack, defense, maxHp } = await hero(page);
  console.log(
    'explorer',
    JSON.stringify({
      stages,
      fight: { fightStart, fightEnd },
      seconds,
      knockOuts,
      watch,
      attack,
      defense,
      maxHp,
    }),
  );
  expect(seconds).toBeGreaterThanOrEqual(360);
  const shown = (await page.textContent('#win-panel .win-stats dd')) ?? '';
  expect(Number(shown.split(':')[0])).toBeGreaterThanOrEqual(6);
  // The victory screen on two phones too: its buttons in view.
  const phones: Array<[number, number]> = [
    [390, 844],
    [360, 740],
  ];
  for (const [width, height] of phones) {
    await page.setViewportSize({ width, height });
    await page.waitForTimeout(500);
    await screenshot(page, `adventure-07-victory-${width}x${height}`);
    const button = await page.locator('#win-panel button[name=keep-playing]').boundingBox();
    expect((button?.y ?? height) + (button?.height ?? 1)).toBeLessThanOrEqual(height);
  }

  const areaNames = await page.evaluate(() => window.__lootsmithDemo.areaNames);
  for (const place of dropPlaces) expect(areaNames).toContain(place);
  // In a long run a drop may fail once with 502 generation_failed (the engine's item refused by the
  // rules' checks after its re-asks: seen in 1 of 8 runs, left open in issue 36's note); the game words
  // it for the player. Nothing else may fail, and the browser logs nothing else.
  if (serverErrors.length) console.log('explorer server errors', serverErrors);
  expect(serverErrors.filter((e) => e !== 'POST /v1/generate/items 502 generation_failed')).toEqual([]);
  expect(serverErrors.length).toBeLessThanOrEqual(1);
  const failedLoads = /^Failed to load resource: the server responded with a status of 502/;
  expect(
    consoleMessages
      .filter((m) => m.type() === 'error')
      .map((m) => m.text())
      .filter((text) => !(serverErrors.length && failedLoads.test(text))),
  ).toEqual([]);
}, 720_000);
