// Lootsmith as a stranger gets it: the packed tarballs installed in scratch folders outside the
// workspace (nothing linked into it) by npm under the Node that runs this suite (each tested Node in
// `.ci/run`), a TypeScript + Vite game of their own on Phaser 3 and on Phaser 4, `npx lootsmith` beside
// them on another origin, and the games played in Chromium. Needs the npm registry for phaser, vite,
// typescript and the server's dependencies.
import { type ChildProcess, spawn } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, extname, join, resolve } from 'node:path';
import type { CombineResponse } from '@lootsmith/protocol';
import { launchChromium } from '@lootsmith/test-support/browser';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const version = JSON.parse(readFileSync(join(ROOT, 'server/package.json'), 'utf8')).version as string;
const TARBALLS = {
  plugin: `lootsmith-plugin-${version}.tgz`,
  server: `lootsmith-${version}.tgz`,
  engine: `lootsmith-engine-${version}.tgz`,
  protocol: `lootsmith-protocol-${version}.tgz`,
};
const PLAYER_SECRET = 'consumer-test-player-secret-0123456789';
const MINUTES = 60_000;
/** The Phaser versions a game may bring: the one the official Phaser 3 templates install, and the latest 4. */
const PHASERS = ['3.90.0', '4.2.1'];
/**
 * The stranger's Node is the one running this suite: `.ci/run` runs it on Node 24 and again on Node 22
 * (scripts/node.sh installs either from the npm registry). It must be one the packages' `engines` allow.
 */
const NODE_BIN = dirname(process.execPath);
const ENGINES = JSON.parse(readFileSync(join(ROOT, 'server/package.json'), 'utf8')).engines.node as string;
const TESTED_MAJORS = ENGINES.split('||').map((range) => Number(/\d+/.exec(range)?.[0]));
const NODE_MAJOR = Number(process.versions.node.split('.')[0]);

/**
 * A stranger's environment: this suite's Node first on PATH (npm, npx and install scripts run on it),
 * none of the parent's npm_* variables (from `npm test`), and node-gyp pointed at that Node's own
 * headers should anything be compiled (the machine's npmrc may point it at another Node's).
 */
const cleanEnv = () => ({
  ...Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith('npm_') && k !== 'INIT_CWD'),
  ),
  PATH: `${NODE_BIN}:${process.env.PATH}`,
  npm_config_nodedir: dirname(NODE_BIN),
});

function run(command: string, args: string[], cwd: string, timeoutMs = 5 * MINUTES): Promise<string> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, { cwd, env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) done(output);
      else fail(new Error(`${command} ${args.join(' ')} in ${cwd} exited ${code}:\n${output.slice(-4000)}`));
    });
  });
}

/** Starts a command and resolves with the URL it logs in the line `ready` matches. */
function startListening(
  command: string,
  args: string[],
  cwd: string,
  env: Record<string, string>,
  ready = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/,
): Promise<{ url: string; child: ChildProcess; output: () => string }> {
  // Its own process group: `npx` runs the server as a grandchild, which a signal to npx alone would miss.
  const child = spawn(command, args, {
    cwd,
    env: { ...cleanEnv(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  return new Promise((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`${command} did not start:\n${output}`)), MINUTES);
    const read = (chunk: Buffer) => {
      output += chunk;
      const url = ready.exec(output)?.[1];
      if (url) {
        clearTimeout(timer);
        done({ url, child, output: () => output });
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.on('exit', (code) => fail(new Error(`${command} exited ${code}:\n${output}`)));
  });
}

/** SIGTERM to the child's process group, then SIGKILL if it has not exited within ten seconds. */
async function stop(child: ChildProcess) {
  const group = (signal: NodeJS.Signals) => {
    try {
      if (child.pid) process.kill(-child.pid, signal);
    } catch {
      // The group has already gone.
    }
  };
  const exited =
    child.exitCode !== null || child.signalCode !== null
      ? Promise.resolve()
      : new Promise((done) => child.once('exit', done));
  group('SIGTERM');
  const timer = setTimeout(() => group('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };

/** The built game on its own origin, as any static host would serve it. */
function serveStatic(dir: string): Promise<Server> {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const file = join(dir, path === '/' ? 'index.html' : path);
    if (!file.startsWith(dir) || !existsSync(file)) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    res.end(readFileSync(file));
  });
  return new Promise((done) => server.listen(0, '127.0.0.1', () => done(server)));
}

let scratch: string;
let serverDir: string;
const gameDirs = new Map<string, string>();
const installLogs: string[] = [];
const games: Server[] = [];
let browser: Browser | undefined;
const children: ChildProcess[] = [];

beforeAll(async () => {
  if (!TESTED_MAJORS.includes(NODE_MAJOR))
    throw new Error(
      `Node ${process.version} is not one the packages support (engines ${ENGINES}): run the suite on ` +
        'a tested Node, e.g. after eval "$(bash scripts/node.sh)"',
    );
  // Packing too runs on this Node (cleanEnv's PATH), as it would for a maintainer on a supported Node.
  await run('npm', ['run', 'pack', '--silent'], ROOT);
  scratch = mkdtempSync(join(tmpdir(), 'lootsmith-consumer-'));
  serverDir = join(scratch, 'my-game-server');
  cpSync(join(ROOT, 'server/examples'), serverDir, { recursive: true });
  for (const tarball of [TARBALLS.server, TARBALLS.engine, TARBALLS.protocol])
    copyFileSync(join(ROOT, 'dist', tarball), join(serverDir, tarball));
  for (const phaser of PHASERS) {
    const gameDir = join(scratch, `my-phaser-${phaser}-game`);
    gameDirs.set(phaser, gameDir);
    cpSync(join(import.meta.dirname, 'game'), gameDir, { recursive: true });
    copyFileSync(join(ROOT, 'dist', TARBALLS.plugin), join(gameDir, TARBALLS.plugin));
    writeFileSync(
      join(gameDir, 'package.json'),
      JSON.stringify({ name: `my-phaser-${phaser}-game`, private: true, type: 'module' }),
    );
  }
  // Nothing to allow: better-sqlite3 13 ships its compiled module in the package, and has no install script.
  writeFileSync(
    join(serverDir, 'package.json'),
    JSON.stringify({ name: 'my-game-server', private: true, type: 'module' }),
  );
  // No --legacy-peer-deps: npm checks the plugin's peer range against each Phaser.
  const install = async (dir: string, specs: string[]) =>
    installLogs.push(
      await run('npm', ['install', '--no-audit', '--no-fund', '--save-exact', ...specs], dir, 10 * MINUTES),
    );
  await Promise.all([
    ...PHASERS.map((phaser) =>
      install(gameDirs.get(phaser) as string, [
        `./${TARBALLS.plugin}`,
        `phaser@${phaser}`,
        'typescript@5.9.3',
        'vite@8.3.8',
      ]),
    ),
    install(serverDir, [
      `./${TARBALLS.server}`,
      `./${TARBALLS.engine}`,
      `./${TARBALLS.protocol}`,
      'fastify@5.12.8',
    ]),
  ]);
}, 20 * MINUTES);

afterAll(async () => {
  await browser?.close();
  await Promise.all(children.map(stop));
  await Promise.all(games.map((game) => new Promise((done) => game.close(done))));
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe('Lootsmith installed from its tarballs', () => {
  it(`installs on Node ${NODE_MAJOR} without a warning`, async () => {
    expect(await run('node', ['--version'], scratch)).toBe(`${process.version}\n`);
    // EBADENGINE, ERESOLVE, deprecations, install scripts npm would not run: a stranger sees none.
    expect(installLogs.join('\n')).not.toMatch(/npm warn|npm error/i);
  });

  it.each(PHASERS)(
    'type-checks a Phaser %s game against the plugin with real item types, and Vite builds it',
    async (phaser) => {
      const gameDir = gameDirs.get(phaser) as string;
      expect(
        JSON.parse(readFileSync(join(gameDir, 'node_modules/phaser/package.json'), 'utf8')).version,
      ).toBe(phaser);
      const declarations = readFileSync(
        join(gameDir, 'node_modules/@lootsmith/plugin/dist/lootsmith.d.ts'),
        'utf8',
      );
      expect(declarations).not.toMatch(/from ['"](@lootsmith\/protocol|zod)['"]/);
      await run(join(gameDir, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.json'], gameDir);
      // Without the directive's target error, tsc must fail: the check above cannot pass vacuously.
      const broken = join(gameDir, 'src/broken.ts');
      writeFileSync(
        broken,
        "import type { Item } from '@lootsmith/plugin';\nexport const n: number = ({} as Item).name;\n",
      );
      await expect(
        run(join(gameDir, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.json'], gameDir),
      ).rejects.toThrow(/Type 'string' is not assignable to type 'number'/);
      rmSync(broken);
      await run(join(gameDir, 'node_modules/.bin/vite'), ['build'], gameDir);
      expect(existsSync(join(gameDir, 'dist/index.html'))).toBe(true);
    },
  );

  it('plays a drop, a combine and an icon on Phaser 3 and 4 from other origins against `npx lootsmith` on the same Node', async () => {
    for (const phaser of PHASERS) games.push(await serveStatic(join(gameDirs.get(phaser) as string, 'dist')));
    const origins = games.map((game) => `http://127.0.0.1:${(game.address() as AddressInfo).port}`);
    const lootsmith = await startListening(
      'npx',
      ['--no-install', 'lootsmith'],
      serverDir,
      // Guest login is refused in production (issue 24): the games log in as guests of a development server.
      {
        LOOTSMITH_PORT: '0',
        LOOTSMITH_PLAYER_SECRET: PLAYER_SECRET,
        LOOTSMITH_CORS_ORIGINS: origins.join(','),
      },
      /Lootsmith serving .* at (http:\/\/127\.0\.0\.1:\d+)/,
    );
    children.push(lootsmith.child);
    expect(lootsmith.output()).toContain('content from the embedded engine');
    expect(lootsmith.output()).not.toMatch(/demo/i);

    browser = await launchChromium();
    for (const [i, phaser] of PHASERS.entries()) {
      const page = await browser.newPage();
      const problems: string[] = [];
      page.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()}`));
      page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
      page.on('requestfailed', (r) => problems.push(`failed: ${r.url()} ${r.failure()?.errorText}`));
      page.on('response', (r) => r.status() >= 400 && problems.push(`${r.status()}: ${r.url()}`));
      await page.goto(`${origins[i]}/?server=${encodeURIComponent(lootsmith.url)}`);
      // What the game's scene leaves on `window` (test/consumer/game/src/main.ts).
      type Played =
        | { error: string }
        | { phaser: string; names: string[]; sprites: number; crafted: CombineResponse; texture: boolean };
      const played = () => (window as { lootsmithResult?: Played }).lootsmithResult;
      await page.waitForFunction(played, null, { timeout: MINUTES });
      const result = await page.evaluate(played);
      expect(result).not.toHaveProperty('error');
      if (!result || 'error' in result) throw new Error(String(result?.error));
      expect(result.phaser).toBe(phaser);
      expect(result.names.length).toBeGreaterThan(0);
      expect(result.sprites).toBe(result.names.length);
      expect(result.crafted.success).toBe(true);
      expect(result.crafted.result_item?.name).toEqual(expect.any(String));
      expect(result.texture).toBe(true);
      expect(problems).toEqual([]);
      await page.close();
    }

    // An origin that is neither listed nor on this machine gets no CORS header: its pages cannot read answers.
    const stranger = 'https://stranger.example.com';
    const refused = await fetch(`${lootsmith.url}/api/v1/game`, { headers: { origin: stranger } });
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
    const allowed = await fetch(`${lootsmith.url}/api/v1/game`, {
      headers: { origin: origins[0] as string },
    });
    expect(allowed.headers.get('access-control-allow-origin')).toBe(origins[0]);
  });

  it('runs the documented examples: Lootsmith inside a Fastify game server, and built from code', async () => {
    const env = { PORT: '0', PLAYER_SECRET, LOOTSMITH_DATA_DIR: join(serverDir, 'example-data') };
    const embedded = await startListening('node', ['game-server.mjs'], serverDir, env);
    children.push(embedded.child);
    const login = await fetch(`${embedded.url}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'ana' }),
    });
    const { token } = (await login.json()) as { token: string };
    const inventory = await fetch(`${embedded.url}/loot/api/v1/player/ana/inventory`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(inventory.status).toBe(200);
    expect(((await inventory.json()) as { items: unknown[] }).items.length).toBeGreaterThan(0);
    await stop(embedded.child);

    const standalone = await startListening('node', ['standalone.mjs'], serverDir, env);
    children.push(standalone.child);
    expect(await (await fetch(`${standalone.url}/health`)).json()).toEqual({ status: 'ok' });
  });
});
