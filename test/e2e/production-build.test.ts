import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type DemoRig, PRODUCTION_BUILD, recordConsole, startDemo, TEST_BUILD } from './support/demo.ts';

// The demo as players get it (`npm start` serves `demo-game/dist`): it runs, and the hook the other
// browser suites read, which only the test build installs, is in none of its files and not on its page.
let rig: DemoRig;

beforeAll(async () => {
  rig = await startDemo({}, PRODUCTION_BUILD);
});

afterAll(async () => {
  await rig?.close();
});

/** The scripts a build emitted that contain `text`, by file name. */
const scriptsWith = (build: string, text: string) =>
  readdirSync(join(build, 'assets')).filter(
    (name) => name.endsWith('.js') && readFileSync(join(build, 'assets', name), 'utf8').includes(text),
  );

it('leaves the test hook out of the production build, and only out of it', () => {
  for (const trace of ['__lootsmithDemo', 'installDemoHook']) {
    expect(scriptsWith(TEST_BUILD, trace), `${trace} in the test build`).not.toEqual([]);
    expect(scriptsWith(PRODUCTION_BUILD, trace), `${trace} in the production build`).toEqual([]);
  }
});

it('plays without the hook: the dungeon opens and window.__lootsmithDemo is not there', async () => {
  const page = await rig.browser.newPage({ viewport: { width: 1280, height: 800 } });
  const consoleMessages = recordConsole(page);
  await page.goto(rig.server.url);
  // The HUD names the room once the dungeon runs with the player's bag loaded.
  await page.waitForFunction(
    () => document.querySelector('.room-name')?.textContent === "Crafters' Hall",
    null,
    {
      timeout: 30_000,
    },
  );
  expect(await page.evaluate(() => '__lootsmithDemo' in window)).toBe(false);
  expect(consoleMessages.filter((m) => m.type() === 'error').map((m) => m.text())).toEqual([]);
});
