import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, extname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium } from '@lootsmith/test-support/browser';
import type { Browser, Page } from 'playwright-core';
import { build } from 'vite';
import { type FakeServer, startFakeServer } from '../support/fake-server.ts';

const PAGE_ROOT = fileURLToPath(new URL('page', import.meta.url));
const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.map': 'application/json',
};

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

/**
 * The Phaser packages the plugin is tested with, by version: the workspace's (the demo's), and the
 * oldest of each major the peer range allows, installed under aliases.
 */
export const PHASERS = { '4.2': 'phaser', '4.0': 'phaser-4.0', '3.80': 'phaser-3.80' } as const;
const require = createRequire(import.meta.url);

/**
 * Builds the test page with Vite into a temp dir, with `phaser` resolving to the given package, and
 * serves it from the fake server, so it is same-origin.
 */
export async function startHarness(phaser: (typeof PHASERS)[keyof typeof PHASERS] = PHASERS['4.2']) {
  const outDir = await mkdtemp(join(tmpdir(), 'lootsmith-plugin-page-'));
  await build({
    configFile: false,
    root: PAGE_ROOT,
    base: './',
    logLevel: 'warn',
    resolve: {
      alias: [{ find: /^phaser$/, replacement: dirname(require.resolve(`${phaser}/package.json`)) }],
    },
    // Minified: each test's fresh page parses Phaser again, and the full build takes half as long to.
    build: { outDir, emptyOutDir: true, minify: true, chunkSizeWarningLimit: 5000 },
  });
  const files: Parameters<FakeServer['serve']>[0] = {};
  for (const path of await filesUnder(outDir)) {
    files[`/${relative(outDir, path)}`] = {
      type: TYPES[extname(path)] ?? 'application/octet-stream',
      body: await readFile(path),
      // Cached, so pages after the first reuse Chromium's compiled code for the bundle.
      cache: true,
    };
  }
  const server = await startFakeServer();
  server.serve(files);
  let browser: Browser | undefined;
  try {
    browser = await launchChromium();
  } catch (e) {
    await server.close();
    throw e;
  }
  const opened = browser;
  // One browser context for the harness (a new context per page costs a renderer start on each test);
  // each page gets its own IndexedDB cache name, and `open` clears what the plugin keeps in localStorage.
  const context = await opened.newContext();

  // Phaser reports misuse (a texture key added twice, a missing texture) on the console, not by throwing.
  const problems: string[] = [];

  return {
    server,
    /** Page errors and console errors or warnings since the last call. */
    takeProblems: () => problems.splice(0),
    /** A fresh page with the game booted (WebGL unless asked) and Lootsmith configured against the fake server. */
    async open(config: { cacheName?: string; renderer?: 'canvas' } = {}): Promise<Page> {
      const page = await context.newPage();
      page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
      page.on('console', (m) => {
        // Chromium logs every non-2xx response; the tests script those on purpose.
        if (m.text().startsWith('Failed to load resource')) return;
        if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`);
      });
      await page.goto(config.renderer ? `${server.url}/?renderer=${config.renderer}` : server.url);
      await page.waitForFunction(() => window.lootsmithTest !== undefined);
      await page.evaluate(async (cacheName) => {
        localStorage.clear();
        await window.lootsmithTest.ready;
        window.lootsmithTest.configure({ cache: { name: cacheName } });
      }, config.cacheName ?? `page-${Math.random()}`);
      return page;
    },
    async close() {
      await opened.close();
      await server.close();
      await rm(outDir, { recursive: true, force: true });
    },
  };
}

export type Harness = Awaited<ReturnType<typeof startHarness>>;
