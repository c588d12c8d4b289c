import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, ConsoleMessage, Page } from 'playwright-core';
import { loadConfig } from '../../../server/src/config.ts';
import { type RunningServer, startServer } from '../../../server/src/server.ts';
import { launchChromium } from '../../support/browser.ts';

export const UPSTREAM_KEY = 'a-known-secret-key-123';
export const SCREENSHOTS = resolve('test-results/screenshots');
const DIST = resolve('demo-game/dist');

interface Point {
  x: number;
  y: number;
}

/** The parts of the demo's `window.__lootsmithDemo` hook the tests read. */
export interface DemoHook {
  playerId: string;
  ready: boolean;
  scenes: string[];
  busy: number;
  panel: string | undefined;
  craftingLevel: number;
  recipes: string[];
  hero(): { x: number; y: number; hp: number; page: Point } | undefined;
  enemies(): Array<{
    uid: string;
    kind: string;
    hp: number;
    alive: boolean;
    x: number;
    y: number;
    page: Point;
  }>;
  drops(): Array<{
    itemId: string;
    name: string;
    rarity: string;
    texture?: string;
    textureLoaded: boolean;
    pending: boolean;
    page: Point;
  }>;
  stations(): Array<{ id: string; page: Point }>;
  toPage(p: Point): Point;
  inventory(): Array<{ id: string; name: string; type: string; quantity: number }>;
  toasts(): Array<{ kind: string; title: string; detail?: string }>;
  textureExists(key: string): boolean;
  iconKey(itemId: string): string | undefined;
}

declare global {
  interface Window {
    __lootsmithDemo: DemoHook;
  }
}

/** A Lootsmith server (embedded engine, temporary data) serving the built demo, and a Chromium. */
export interface DemoRig {
  server: RunningServer;
  browser: Browser;
  close(): Promise<void>;
}

/** `env` adds server variables, e.g. a hosted upstream (`LOOTSMITH_UPSTREAM_URL`) instead of the engine. */
export async function startDemo(env: Record<string, string> = {}): Promise<DemoRig> {
  if (!existsSync(join(DIST, 'index.html')))
    throw new Error('demo-game/dist is missing: run `npm run build` first');
  mkdirSync(SCREENSHOTS, { recursive: true });
  const dataDir = mkdtempSync(join(tmpdir(), 'lootsmith-e2e-'));
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  const close = async () => {
    await browser?.close();
    await server?.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    server = await startServer(
      loadConfig({
        LOOTSMITH_PORT: '0',
        LOOTSMITH_DATA_DIR: dataDir,
        LOOTSMITH_STATIC_DIR: DIST,
        LOOTSMITH_UPSTREAM_KEY: UPSTREAM_KEY,
        LOOTSMITH_LOG_LEVEL: 'silent',
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

/** Console messages of one page, kept for assertions. */
export function recordConsole(page: Page): ConsoleMessage[] {
  const messages: ConsoleMessage[] = [];
  page.on('console', (m) => messages.push(m));
  page.on('pageerror', (e) =>
    messages.push({ type: () => 'error', text: () => `pageerror: ${e.message}` } as ConsoleMessage),
  );
  return messages;
}

/** Loads the game and waits until the dungeon runs with the inventory loaded. */
export async function openGame(page: Page, url: string) {
  await page.goto(url);
  await page.waitForFunction(() => window.__lootsmithDemo?.ready === true, null, { timeout: 30_000 });
}

export const enemies = (page: Page) => page.evaluate(() => window.__lootsmithDemo.enemies());
export const drops = (page: Page) => page.evaluate(() => window.__lootsmithDemo.drops());

/**
 * Clicks a living enemy of `kind` with the real mouse: the hero walks up and fights it until it
 * falls (clicking again only if the fight stalls). Returns its uid.
 */
export async function killEnemy(page: Page, kind: string): Promise<string> {
  const target = (await enemies(page)).find((e) => e.kind === kind && e.alive);
  if (!target) throw new Error(`No living ${kind} in the dungeon`);
  for (let click = 0; click < 4; click++) {
    const enemy = (await enemies(page)).find((e) => e.uid === target.uid);
    if (!enemy?.alive) return target.uid;
    await page.mouse.click(enemy.page.x, enemy.page.y);
    const fell = await page
      .waitForFunction(
        (uid) => !window.__lootsmithDemo.enemies().some((e) => e.uid === uid && e.alive),
        target.uid,
        {
          timeout: 15_000,
        },
      )
      .then(
        () => true,
        () => false,
      );
    if (fell) return target.uid;
  }
  throw new Error(`The ${kind} did not fall`);
}

export async function screenshot(page: Page, name: string) {
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
}
