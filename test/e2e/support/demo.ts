import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { launchChromium } from '@lootsmith/test-support/browser';
import { loadConfig, type RunningServer, startServer } from 'lootsmith';
import type { Browser, ConsoleMessage, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { writeDemoGameFile } from '../../../scripts/demo-game-file.mjs';

export const UPSTREAM_KEY = 'a-known-secret-key-123';
export const SCREENSHOTS = resolve('test-results/screenshots');
/** The demo as players get it (`vite build`): no test hook. */
export const PRODUCTION_BUILD = resolve('demo-game/dist');
/** The demo with the `window.__lootsmithDemo` hook the suites read (`vite build --mode test`). */
export const TEST_BUILD = resolve('test/e2e/dist');

interface Point {
  x: number;
  y: number;
}

/** A page point, and whether it lies inside the canvas now (the camera follows the hero). */
type PagePoint = Point & { onScreen: boolean };

/** The demo's `window.__lootsmithDemo` hook (`demo-game/src/demo-hook.ts`): read only, fresh copies. */
export interface DemoHook {
  readonly playerId: string;
  readonly ready: boolean;
  readonly panel: string | undefined;
  readonly craftingLevel: number;
  readonly revealed: string[];
  readonly won: boolean;
  readonly goal: string;
  /** The run so far: game-clock seconds since it began, kills and knock-outs. */
  run(): { seconds: number; kills: number; knockOuts: number } | undefined;
  hero():
    | {
        x: number;
        y: number;
        hp: number;
        maxHp: number;
        attack: number;
        defense: number;
        speed: number;
        damage: [number, number];
        /** How each worn slot shows on the hero: the item's own icon, or the slot's shape. */
        gear: Record<string, 'icon' | 'shape'>;
        page: PagePoint;
      }
    | undefined;
  hits(): number[];
  /** How often each effect acted in play, and how much it did. */
  effectLog(): Record<string, { times: number; total: number }> | undefined;
  worn(): Array<{
    slot: string;
    id: string;
    name: string;
    effects: Array<{ id: string; params: Record<string, number> }>;
  }>;
  enemies(): Array<{
    uid: string;
    kind: string;
    hp: number;
    maxHp: number;
    alive: boolean;
    visible: boolean;
    x: number;
    y: number;
    /** The room (or corridor) it stands in. */
    area: string | undefined;
    speed: number;
    slowedBy: number;
    burning: boolean;
    stompComing: boolean;
    page: PagePoint;
  }>;
  door():
    | { open: boolean; cracks: number; hp: number; needs: number; x: number; y: number; page: PagePoint }
    | undefined;
  arrow(): { visible: boolean; angle: number } | undefined;
  drops(): Array<{
    itemId: string;
    name: string;
    rarity: string;
    texture?: string;
    textureLoaded: boolean;
    pending: boolean;
    x: number;
    y: number;
    page: PagePoint;
  }>;
  stations(): Array<{ id: string; x: number; y: number; page: PagePoint }>;
  stationPrompt():
    | { visible: boolean; text: string; x: number; y: number; namesHidden: string[]; page: PagePoint }
    | undefined;
  readonly areaNames: readonly string[];
  /** Each room's (and corridor's) id and middle, in map pixels. */
  readonly areas: ReadonlyArray<{ id: string; x: number; y: number }>;
  route(x: number, y: number): PagePoint[];
  inventory(): Array<{
    id: string;
    name: string;
    type: string;
    quantity: number;
    stats: Array<{ name: string; value: number }>;
    effects: Array<{ id: string; params: Record<string, number> }>;
  }>;
  toasts(): Array<{ kind: string; title: string; detail?: string }>;
  textureExists(key: string): boolean;
}

declare global {
  interface Window {
    readonly __lootsmithDemo: DemoHook;
  }
}

/** A Lootsmith server (embedded engine, temporary data) serving the built demo, and a Chromium. */
export interface DemoRig {
  server: RunningServer;
  browser: Browser;
  close(): Promise<void>;
}

/**
 * `env` adds server variables, e.g. a hosted upstream (`LOOTSMITH_UPSTREAM_URL`) instead of the
 * engine, or another game file than the demo's own (what `npm start` serves); `build` is the demo
 * build served (the test build unless a suite checks the production one).
 */
export async function startDemo(env: Record<string, string> = {}, build = TEST_BUILD): Promise<DemoRig> {
  if (!existsSync(join(build, 'index.html')))
    throw new Error(`${relative('.', build)} is missing: run \`npm run build\` first`);
  mkdirSync(SCREENSHOTS, { recursive: true });
  const dataDir = mkdtempSync(join(tmpdir(), 'lootsmith-e2e-'));
  const gameFile = env.LOOTSMITH_GAME_FILE ? undefined : writeDemoGameFile();
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  const close = async () => {
    await browser?.close();
    await server?.close();
    rmSync(dataDir, { recursive: true, force: true });
    if (gameFile) rmSync(dirname(gameFile), { recursive: true, force: true });
  };
  try {
    server = await startServer(
      loadConfig({
        LOOTSMITH_PORT: '0',
        LOOTSMITH_DATA_DIR: dataDir,
        LOOTSMITH_STATIC_DIR: build,
        LOOTSMITH_UPSTREAM_KEY: UPSTREAM_KEY,
        LOOTSMITH_LOG_LEVEL: 'silent',
        ...(gameFile ? { LOOTSMITH_GAME_FILE: gameFile } : {}),
        ...env,
      }),
    );
    browser = await launchChromium();
    return { server, browser, close };
  } catch (e) {
    await close();
    throw e;
  }
}

/** Starts a demo rig (`env` as for `startDemo`) before the file's tests and closes it after them; the result reads it. */
export function useDemoRig(env: Record<string, string> = {}): () => DemoRig {
  let rig: DemoRig | undefined;
  beforeAll(async () => {
    rig = await startDemo(env);
  });
  afterAll(async () => {
    await rig?.close();
  });
  return () => {
    if (!rig) throw new Error('the demo rig did not start');
    return rig;
  };
}

/** Console messages of one page, kept for assertions. */
export function recordConsole(page: Page): ConsoleMessage[] {
  const messages: ConsoleMessage[] = [];
  page.on('console', (m) => messages.push(m));
  page.on('pageerror', (e) =>
    messages.push({ type: () => 'error', text: () => `pageerror: ${e.message}` } as ConsoleMessage),
  );
  return messages;
}

/**
 * Runs the page's clock `speed` times as fast as the wall's (`performance.now` and the animation
 * frames' time, which the game's clock, its tweens and timers follow), so minutes of play fit in a
 * test; input and the network keep the wall's time. Call before the page loads the game.
 */
export async function fastClock(page: Page, speed: number) {
  await page.addInitScript((speed) => {
    const wall = performance.now.bind(performance);
    const start = wall();
    const game = (t: number) => start + (t - start) * speed;
    performance.now = () => game(wall());
    const frame = window.requestAnimationFrame.bind(window);
    window.requestAnimationFrame = (callback) => frame((t) => callback(game(t)));
  }, speed);
}

/** Loads the game and waits until the dungeon runs with the inventory loaded. */
export async function openGame(page: Page, url: string) {
  await page.goto(url);
  await page.waitForFunction(() => window.__lootsmithDemo?.ready === true, null, { timeout: 30_000 });
}

export const enemies = (page: Page) => page.evaluate(() => window.__lootsmithDemo.enemies());
export const drops = (page: Page) => page.evaluate(() => window.__lootsmithDemo.drops());

export const hero = async (page: Page) => {
  const h = await page.evaluate(() => window.__lootsmithDemo.hero());
  if (!h) throw new Error('no hero');
  return h;
};

/** Whether a real click at this page point would land on the game's canvas (not on a button or panel). */
const onCanvas = (page: Page, p: Point) =>
  page.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.tagName === 'CANVAS', p);

/**
 * Waits until the camera has caught up with the hero (its page point holds still), so a page point
 * read now is where a click lands: in a slow browser the camera trails the hero for seconds.
 */
async function cameraStill(page: Page) {
  let last = (await hero(page)).page;
  for (let tick = 0; tick < 40; tick++) {
    await page.waitForTimeout(100);
    const now = (await hero(page)).page;
    if (now.x === last.x && now.y === last.y) return;
    last = now;
  }
}

/**
 * Walks the hero to a map point with real clicks: along the route, it clicks the farthest waypoint
 * that is on screen and not under the interface, until the hero is there.
 */
export async function walkTo(page: Page, to: Point, within = 24) {
  // Each leg ends when the hero stops: at its aim, or in a fight on the way (the demo's monsters
  // take a while to fall), so a walk through a busy room takes more legs than its waypoints.
  for (let leg = 0; leg < 24; leg++) {
    await cameraStill(page);
    const at = await hero(page);
    if (Math.hypot(at.x - to.x, at.y - to.y) <= within) return;
    const route = await page.evaluate(({ x, y }) => window.__lootsmithDemo.route(x, y), to);
    if (!route.length) throw new Error(`no way from (${at.x}, ${at.y}) to (${to.x}, ${to.y})`);
    let aim: Point | undefined;
    for (const point of route.toReversed())
      if (point.onScreen && (await onCanvas(page, point))) {
        aim = point;
        break;
      }
    if (!aim) throw new Error('no step of the route is on screen');
    await page.mouse.click(aim.x, aim.y);
    // Until the hero stops walking (or a fight stops it).
    let last = at;
    for (let tick = 0; tick < 60; tick++) {
      await page.waitForTimeout(250);
      const now = await hero(page);
      if (Math.hypot(now.x - last.x, now.y - last.y) < 1) break;
      last = now;
    }
  }
  throw new Error(`the hero did not reach (${to.x}, ${to.y})`);
}

/**
 * Uses a station as a player does: walks into view of it, then clicks it (taps it on a touch
 * screen); the hero walks up and the station's own panel opens. Returns the panel's id.
 */
export async function useStation(page: Page, id: string, touch = false): Promise<string> {
  const find = async () => {
    const station = (await page.evaluate(() => window.__lootsmithDemo.stations())).find((s) => s.id === id);
    if (!station) throw new Error(`no station ${id}`);
    return station;
  };
  const station = await find();
  await walkTo(page, { x: station.x, y: station.y + 32 }, 72);
  await cameraStill(page);
  const { page: at } = await find();
  if (touch) await page.touchscreen.tap(at.x, at.y);
  else await page.mouse.click(at.x, at.y);
  await page.waitForFunction(() => window.__lootsmithDemo.panel !== undefined, null, { timeout: 15_000 });
  return (await page.evaluate(() => window.__lootsmithDemo.panel)) as string;
}

/**
 * Clicks a living enemy of `kind` with the real mouse, walking into view of it first: the hero
 * walks up and fights it until it falls (clicking again if the fight stalls). Returns its uid.
 */
export async function killEnemy(page: Page, kind: string): Promise<string> {
  const target = (await enemies(page)).find((e) => e.kind === kind && e.alive);
  if (!target) throw new Error(`No living ${kind} in the dungeon`);
  for (let click = 0; click < 6; click++) {
    const enemy = (await enemies(page)).find((e) => e.uid === target.uid);
    if (!enemy?.alive) return target.uid;
    if (!enemy.visible || !enemy.page.onScreen || !(await onCanvas(page, enemy.page))) {
      await walkTo(page, enemy, 90);
      continue;
    }
    await page.mouse.click(enemy.page.x, enemy.page.y);
    const fell = await page
      .waitForFunction(
        (uid) => !window.__lootsmithDemo.enemies().some((e) => e.uid === uid && e.alive),
        target.uid,
        { timeout: 15_000 },
      )
      .then(
        () => true,
        () => false,
      );
    if (fell) return target.uid;
  }
  throw new Error(`The ${kind} did not fall`);
}

/** Walks over every drop on the floor (each waits to land first); resolves once none are left. */
export async function pickUpLoot(page: Page) {
  await page.waitForTimeout(800);
  for (let round = 0; round < 6; round++) {
    const [drop] = await drops(page);
    if (!drop) return;
    if (!drop.page.onScreen || !(await onCanvas(page, drop.page))) await walkTo(page, drop, 90);
    const at = (await drops(page)).find((d) => d.itemId === drop.itemId);
    if (at?.page.onScreen && (await onCanvas(page, at.page))) await page.mouse.click(at.page.x, at.page.y);
    await page
      .waitForFunction((id) => !window.__lootsmithDemo.drops().some((d) => d.itemId === id), drop.itemId, {
        timeout: 10_000,
      })
      .catch(() => {});
  }
  const left = await drops(page);
  if (left.length)
    throw new Error(
      `loot left on the floor: ${JSON.stringify(left.map(({ name, x, y, page }) => ({ name, x, y, page })))}, hero at ${JSON.stringify(await hero(page))}`,
    );
}

export async function screenshot(page: Page, name: string) {
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
}
