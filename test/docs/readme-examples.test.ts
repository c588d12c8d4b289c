// The code in the published READMEs, run as written: the plugin's in Chromium, in one game whose
// player is new, against a real Lootsmith server (the example game, embedded engine); the server's,
// engine's and protocol's in Node. Every block is found by its text and is either run or listed with
// the reason it is not, so a block added without either fails here, as does an example that stops
// working. What the READMEs leave to the reader (the game's own `toast`, `hero`, the enemy that
// died) is given, and recorded where the example calls it.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, extname, join, relative, resolve } from 'node:path';
import { buildEngineApp } from '@lootsmith/engine';
import { launchChromium } from '@lootsmith/test-support/browser';
import { loadKeysFile, runGameCommand } from '@lootsmith/test-support/internals';
import { loadConfig, type RunningServer, signDropGrant, signPlayerToken, startServer } from 'lootsmith';
import type { Browser, Page } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CodeBlock, codeBlocksOf } from './markdown.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const TSC = createRequire(import.meta.url).resolve('typescript/bin/tsc');
/** The READMEs' player. */
const PLAYER = 'player-42';
const PLAYER_SECRET = 'readme-examples-player-secret-0123456789';
const SERVER_KEY = 'readme-examples-server-key-0123456789';
/** Where the READMEs expect a server; the examples are pointed at the test's own. */
const README_URL = 'http://127.0.0.1:8787';

interface Outcome {
  /** The given functions the example called, with their arguments. */
  calls: Array<[string, unknown[]]>;
  /** The value of the entry's `result` expression, evaluated at the end of the block. */
  result: unknown;
}

interface ScenePlan {
  /** The names `setup` gives the example. */
  given?: string;
  /** Page code, `this` the scene, returning the given values. */
  setup?: string;
  /** An expression evaluated at the end of the block, in its scope. */
  result?: string;
  check(outcome: Outcome): void;
}

interface NodePlan {
  prelude?: string;
  /** Runs after the block, in its scope, and prints `README-RESULT <json>`. */
  epilogue: string;
  check(result: unknown): void;
}

type Plan =
  | { skip: string }
  /** Top-level code of the game's main module, placed in this order. */
  | { module: number }
  /** Run in a scene of the game (`this`), in one game whose player is new. */
  | { scene: ScenePlan }
  /** A Node module run from the workspace's sources, its listening ports made `0`. */
  | { node: NodePlan }
  /** Checked here, in the test process. */
  | { local(code: string): Promise<void> };

const inScene = (scene: ScenePlan): Plan => ({ scene });
const inNode = (node: NodePlan): Plan => ({ node });
const called = (outcome: Outcome, name: string) =>
  outcome.calls.filter(([n]) => n === name).map(([, a]) => a);

/** Each README's blocks, found by a piece of their text. */
const PLANS: Record<string, Array<{ find: string; plan: Plan }>> = {
  plugin: [
    { find: 'npm install @lootsmith/plugin', plan: { skip: 'test/consumer installs the tarball so' } },
    { find: 'plugins: { scene: [lootsmithScenePlugin] }', plan: { module: 2 } },
    { find: 'class Boot extends Phaser.Scene', plan: { module: 1 } },
    {
      find: "this.plugins.installScenePlugin('Lootsmith'",
      plan: inScene({
        // A game that did not list the plugin in its config.
        given: 'self',
        setup: `const self = await new Promise((done) => {
          class Late extends Phaser.Scene { constructor() { super('late'); } create() { done(this); } }
          new Phaser.Game({ type: Phaser.AUTO, width: 64, height: 64, banner: false, audio: { noAudio: true }, scene: [Late] });
        });
        return { self };`,
        result: 'this.lootsmith instanceof LootsmithPlugin && this.lootsmith !== dungeon.lootsmith',
        check: ({ result }) => expect(result).toBe(true),
      }),
    },
    {
      find: 'const { items, sprites } = await this.lootsmith.loot.drop({',
      plan: inScene({
        result: '({ items: items.length, sprites: sprites.map((s) => s.item.id) })',
        check: ({ result }) => {
          const { items, sprites } = result as { items: number; sprites: string[] };
          expect(items).toBe(2);
          expect(sprites).toHaveLength(2);
        },
      }),
    },
    {
      find: 'sprites[0].glow.setTint(0xffffff);',
      plan: inScene({
        given: 'sprites',
        setup: "return { sprites: (await this.lootsmith.loot.drop({ x, y, enemy: 'rat' })).sprites };",
        result: 'labels.length',
        check: ({ result }) => expect(result).toBe(1),
      }),
    },
    {
      find: 'await myGameServer.enemyDefeated(enemy.uid)',
      plan: inScene({
        result: 'items.length',
        check: ({ result, calls }) => {
          expect(result).toBeGreaterThan(0);
          expect(calls).toContainEqual(['myGameServer.enemyDefeated', [expect.any(String)]]);
        },
      }),
    },
    {
      find: '({ item, key, sprite }) => sparkle(sprite)',
      plan: inScene({
        result: "this.lootsmith.events.listenerCount('iconready')",
        check: ({ result }) => expect(result).toBe(1),
      }),
    },
    {
      find: 'await this.lootsmith.crafting.combine({',
      plan: inScene({
        result: '({ created: created.item.type })',
        check: (outcome) => {
          // A new player's combine succeeds: the example shows the result and needs no hint.
          expect(called(outcome, 'hint')).toEqual([]);
          expect(called(outcome, 'show')).toEqual([[expect.objectContaining({ type: 'WEAPON' })]]);
          expect(outcome.result).toEqual({ created: 'WEAPON' });
        },
      }),
    },
    {
      find: 'const worn = equippedIngredients(e);',
      plan: inScene({
        // A weapon the player crafted above, worn (a COMMON one: a dropped UNCOMMON weapon would ask a
        // crafting level the new player lacks, improved never coming out less rare).
        given: 'axe',
        setup: `const { items } = await this.lootsmith.inventory.list();
        const axe = items.find(({ item }) => item.type === 'WEAPON' && item.rarity === 'COMMON')?.item;
        await this.lootsmith.equipment.equip(axe);
        return { axe };`,
        result:
          "this.lootsmith.equipment.list().then(({ slots }) => slots.find((s) => s.slot === 'WEAPON')?.item)",
        check: (outcome) => {
          // Refused first, asked, then made with the player's yes: the worn axe left its slot.
          expect(called(outcome, 'askPlayer')).toEqual([
            [expect.stringMatching(/ is equipped — combine it anyway\?$/)],
          ]);
          expect(called(outcome, 'show')).toContainEqual([expect.objectContaining({ success: true })]);
          expect(outcome.result).toBeNull();
        },
      }),
    },
    {
      find: 'await this.lootsmith.equipment.equip(sword)',
      plan: inScene({
        // A weapon the player crafted above, and a potion brewed for the example.
        given: 'sword, potion',
        setup: `const { items } = await this.lootsmith.inventory.list();
        const brewed = await this.lootsmith.crafting.combine({
          ingredients: ['healing_herb', 'healing_herb'],
          station: 'alchemy_table',
          intent: 'a healing potion',
        });
        return { sword: items.find(({ item }) => item.type === 'WEAPON')?.item, potion: brewed.result_item };`,
        result: `({
          equipped: slots.find((s) => s.slot === 'WEAPON')?.item?.id === sword.id,
          unequipped: worn.slots.find((s) => s.slot === 'WEAPON')?.item === null,
          remaining,
          effects: effects.length,
        })`,
        check: ({ result }) =>
          expect(result).toEqual({
            equipped: true,
            unequipped: true,
            remaining: 0,
            effects: expect.any(Number),
          }),
      }),
    },
    {
      find: 'await this.lootsmith.icons.texture(item)',
      plan: inScene({
        given: 'item',
        setup:
          'return { item: (await this.lootsmith.inventory.list()).items.find(({ item }) => item.icon)?.item };',
        result: 'this.textures.exists(key) && this.textures.exists(potion)',
        check: ({ result }) => expect(result).toBe(true),
      }),
    },
    {
      find: "import type { CaveCrawl } from './lootsmith-game';",
      plan: {
        // Types, not code to run: it compiles against what `lootsmith types` writes for a game called
        // Cave Crawl, and its misspelt stat, as its comment says, does not.
        async local(code) {
          mkdirSync(join(ROOT, 'test-results'), { recursive: true });
          const dir = mkdtempSync(join(ROOT, 'test-results', 'readme-types-'));
          try {
            const file = join(dir, 'game.json');
            const fantasy = JSON.parse(readFileSync(join(ROOT, 'server/game/fantasy-rpg.json'), 'utf8'));
            writeFileSync(file, JSON.stringify({ ...fantasy, $schema: undefined, name: 'Cave Crawl' }));
            const out = join(dir, 'lootsmith-game.d.ts');
            expect(await runGameCommand(['types', file, '--out', out])).toBe(0);
            writeFileSync(
              join(dir, 'tsconfig.json'),
              JSON.stringify({
                extends: '../../tsconfig.base.json',
                compilerOptions: { lib: ['ES2023', 'DOM'], types: [] },
                include: ['*.ts'],
              }),
            );
            // The example as written and a copy with the stat misspelt, in one tsc run: every error
            // it reports is the copy's.
            writeFileSync(join(dir, 'game.ts'), `${code}\nexport { attack, worn };\n`);
            const misspelt = code.replace("s.name === 'attack'", "s.name === 'atack'");
            writeFileSync(join(dir, 'misspelt.ts'), `${misspelt}\nexport { attack, worn };\n`);
            const compiled = spawnSync(process.execPath, [TSC, '-p', 'tsconfig.json'], {
              cwd: dir,
              encoding: 'utf8',
              timeout: 90_000,
            });
            const errors = compiled.stdout.split('\n').filter((line) => /error TS\d+/.test(line));
            expect(compiled.status).not.toBe(0);
            expect(errors.length, compiled.stdout).toBeGreaterThan(0);
            expect(
              errors.filter((line) => !line.startsWith('misspelt.ts(')),
              'the example as written compiles',
            ).toEqual([]);
            expect(compiled.stdout).toContain('"atack"');
          } finally {
            rmSync(dir, { recursive: true, force: true });
          }
        },
      },
    },
    {
      find: 'await this.lootsmith.inventory.cached()',
      plan: inScene({
        result:
          '({ cached: cached !== undefined, items: inventory.items.length, stations: rules.stations.length })',
        check: ({ result }) =>
          expect(result).toEqual({ cached: true, items: expect.any(Number), stations: expect.any(Number) }),
      }),
    },
    {
      find: 'let busy = 0;',
      plan: inScene({
        result: '(await this.lootsmith.inventory.list(), busy)',
        check: (outcome) => {
          expect(outcome.result).toBe(0);
          expect(called(outcome, 'spinner.setVisible')).toEqual([[true], [false]]);
        },
      }),
    },
    {
      find: 'await this.lootsmith.crafting.createItem(recipe)',
      plan: inScene({
        given: 'recipe',
        setup: `return { recipe: { station: 'workbench', materials: [{ id: 'iron_ore', quantity: 50 }], type: 'WEAPON', description: 'a greatsword' } };`,
        check: (outcome) => expect(called(outcome, 'toast')).toContainEqual(['Not enough ore']),
      }),
    },
  ],
  server: [
    {
      find: '"consume_equipped": true',
      plan: { skip: 'a request body, quoted: server/test/combine-upgrade.test.ts sends it' },
    },
    {
      find: 'npm install lootsmith',
      plan: { skip: 'test/consumer installs the tarball and runs `npx lootsmith`' },
    },
    {
      find: 'LOOTSMITH_UPSTREAM_URL=https://content.example.com',
      plan: { skip: 'needs a hosted service and its key' },
    },
    {
      find: 'npx lootsmith init',
      plan: {
        skip: 'the commands: server/test/game-file.test.ts runs check and init, plugin/test/game-types.test.ts types',
      },
    },
    {
      find: "await app.register(lootsmith, { prefix: '/loot'",
      plan: inNode({
        epilogue: `const { port } = app.server.address() as { port: number };
        const token = signPlayerToken(process.env.PLAYER_SECRET as string, 'ana', 60);
        const inventory = await fetch(\`http://localhost:\${port}/loot/api/v1/player/ana/inventory\`, {
          headers: { authorization: \`Bearer \${token}\` },
        });
        console.log('README-RESULT', JSON.stringify({ status: inventory.status }));
        await app.close();`,
        check: (result) => expect(result).toEqual({ status: 200 }),
      }),
    },
    {
      find: 'await buildLootsmithApp({',
      plan: inNode({
        epilogue: `const { port } = app.server.address() as { port: number };
        console.log('README-RESULT', JSON.stringify(await (await fetch(\`http://localhost:\${port}/health\`)).json()));
        await app.close();`,
        check: (result) => expect(result).toEqual({ status: 'ok' }),
      }),
    },
  ],
  engine: [
    {
      find: 'npx lootsmith-engine --port 8788',
      plan: { skip: 'the command and its flags: engine/test/cli.test.ts' },
    },
    {
      find: 'const engine = await startEngine();',
      plan: inNode({
        epilogue: `const models = await fetch(\`\${engine.url}/v1/models\`, { headers: { authorization: \`Bearer \${engine.key}\` } });
        const health = await app.inject({ url: '/health' });
        console.log('README-RESULT', JSON.stringify({ models: models.status, health: health.statusCode }));
        await app.close();
        await engine.close();`,
        check: (result) => expect(result).toEqual({ models: 200, health: 200 }),
      }),
    },
    {
      find: '"restricted_clients": ["banned-player-7"]',
      plan: {
        // The keys file as written: it loads, and each of its keys opens the engine.
        async local(code) {
          const file = join(scratch, 'keys.json');
          writeFileSync(file, code);
          const keys = loadKeysFile(file);
          expect(keys.map((k) => k.name)).toEqual(['development', 'production']);
          const app = await buildEngineApp({ keys });
          try {
            for (const { key } of keys) {
              const res = await app.inject({
                url: '/v1/models',
                headers: { authorization: `Bearer ${key}` },
              });
              expect(res.statusCode).toBe(200);
            }
          } finally {
            await app.close();
          }
        },
      },
    },
    { find: '"object": "chat.completion"', plan: { skip: 'an answer of the engine, not something to run' } },
    { find: '"credits_remaining": 97', plan: { skip: 'an answer of the engine, not something to run' } },
    { find: 'Generate 2 items.', plan: { skip: 'a prompt the server sends, quoted' } },
    { find: 'Combine: 2 × "Iron Ore"', plan: { skip: 'a prompt the server sends, quoted' } },
  ],
  protocol: [
    { find: 'npm install @lootsmith/protocol', plan: { skip: 'installing is the consumer test’s' } },
    {
      find: 'CombineRequest.parse(untrusted)',
      plan: inNode({
        prelude: `const untrusted: unknown = { player_id: 'ana', ingredients: [{ item_id: 'iron_ore', quantity: 2 }] };`,
        epilogue: `console.log('README-RESULT', JSON.stringify({ player: body.player_id, schema: schema.type }));`,
        check: (result) => expect(result).toEqual({ player: 'ana', schema: 'object' }),
      }),
    },
  ],
};

interface Example {
  readme: string;
  index: number;
  block: CodeBlock;
  plan: Plan;
}

/** Each block of each README with the one plan that finds it; a block with none or two is an error. */
function examples(): Example[] {
  return Object.entries(PLANS).flatMap(([readme, plans]) => {
    const blocks = codeBlocksOf(readFileSync(join(ROOT, readme, 'README.md'), 'utf8'));
    for (const { find } of plans)
      if (blocks.filter((b) => b.code.includes(find)).length !== 1)
        throw new Error(`${readme}/README.md: "${find}" must find exactly one block`);
    return blocks.map((block, index) => {
      const found = plans.filter(({ find }) => block.code.includes(find));
      if (found.length !== 1)
        throw new Error(
          `${readme}/README.md, block ${index + 1} under "${block.heading}": add it to the plans of ${relative(ROOT, import.meta.filename)}\n${block.code}`,
        );
      return { readme, index, block, plan: (found[0] as { plan: Plan }).plan };
    });
  });
}

const ALL = examples();
const label = (e: Example) => `${e.readme}/README.md #${e.index + 1} (${e.block.heading})`;
const IMPORT = /^import .+ from '.+';\n/gm;

/** The game's main module: the README's module code, its scene blocks as functions, and the givens. */
function gameModule(): string {
  const modules = ALL.filter((e) => 'module' in e.plan).sort(
    (a, b) => (a.plan as { module: number }).module - (b.plan as { module: number }).module,
  );
  const code = (e: Example) => e.block.code.replaceAll(README_URL, lootsmith.url).replace(IMPORT, '');
  const imports = [...new Set(modules.flatMap((e) => [...e.block.code.matchAll(IMPORT)].map((m) => m[0])))];
  const imported = imports.flatMap((line) => line.split(' from ')[0]?.match(/[\w$]+(?=\s*(,|}|$))/g) ?? []);
  const wanted = [
    'LootsmithError',
    'LootsmithPlugin',
    'RARITY_COLORS',
    'equippedIngredients',
    'lootsmithScenePlugin',
  ].filter((name) => !imported.includes(name));
  const scenes = ALL.filter((e) => 'scene' in e.plan).map((e) => {
    const plan = (e.plan as { scene: ScenePlan }).scene;
    return `${e.index}: {
      setup: async function () { ${plan.setup ?? 'return {};'} },
      run: async function (given) {
        const { ${plan.given ?? ''} } = given;
        {
${code(e)}
          ;return (${plan.result ?? 'undefined'});
        }
      },
    },`;
  });
  return `${imports.join('')}${imported.includes('Phaser') ? '' : "import * as Phaser from 'phaser';\n"}
import { ${wanted.join(', ')} } from '@lootsmith/plugin';

const calls = [];
const record = (name) => (...args) => { calls.push([name, args]); };
const [show, hint, toast, log, fanfare, sparkle, applyStats, applyEffects, pickUp] =
  ['show', 'hint', 'toast', 'log', 'fanfare', 'sparkle', 'applyStats', 'applyEffects', 'pickUp'].map(record);
const spinner = { setVisible: record('spinner.setVisible') };
const askPlayer = async (...args) => { record('askPlayer')(...args); return true; };
const hero = { damage: 0, heal: record('hero.heal') };
const BASE_DAMAGE = 10;
const [x, y] = [240, 180];
const enemy = { x, y, uid: 'skeleton-1' };
const myGameServer = {
  async enemyDefeated(uid) {
    record('myGameServer.enemyDefeated')(uid);
    return (await fetch('/my-game/enemy-defeated?uid=' + uid)).json();
  },
};
/** The scene the README's Boot starts; the examples run in it. */
let dungeon;
let started;
const ready = new Promise((done) => (started = done));
class Dungeon extends Phaser.Scene {
  constructor() { super('Dungeon'); }
  create() { dungeon = this; started(this); }
}

${modules.map(code).join('\n')}

window.readme = {
  ready,
  calls,
  examples: {
${scenes.join('\n')}
  },
};
`;
}

let scratch: string;
let lootsmith: RunningServer;
let game: Server;
let browser: Browser | undefined;
let page: Page;
const gameRequests: string[] = [];
const children = new Set<ChildProcess>();

/** The game's origin: its built page, the token route its Boot scene asks, and the grants of its kills. */
function serveGame(dir: string): Promise<Server> {
  const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript' };
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://game');
    gameRequests.push(url.pathname);
    if (url.pathname === '/my-game/lootsmith-token')
      return res.end(signPlayerToken(PLAYER_SECRET, PLAYER, 3600));
    if (url.pathname === '/my-game/enemy-defeated') {
      const grant = signDropGrant(SERVER_KEY, { playerId: PLAYER, enemy: 'skeleton', level: 3 }, 60);
      return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ grant }));
    }
    const file = join(dir, url.pathname === '/' ? 'index.html' : url.pathname);
    let body: Buffer;
    try {
      if (!file.startsWith(dir)) throw new Error('outside the game');
      body = readFileSync(file);
    } catch {
      return res.writeHead(404).end();
    }
    res.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' }).end(body);
  });
  return new Promise((done) => server.listen(0, '127.0.0.1', () => done(server)));
}

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'lootsmith-readme-'));
  lootsmith = await startServer(
    loadConfig({
      LOOTSMITH_PORT: '0',
      LOOTSMITH_DATA_DIR: join(scratch, 'data'),
      LOOTSMITH_PLAYER_SECRET: PLAYER_SECRET,
      LOOTSMITH_SERVER_KEY: SERVER_KEY,
      LOOTSMITH_LOG_LEVEL: 'silent',
    }),
  );
  const pageDir = join(scratch, 'page');
  mkdirSync(pageDir);
  writeFileSync(
    join(pageDir, 'index.html'),
    '<!doctype html><script type="module" src="./main.ts"></script>',
  );
  writeFileSync(join(pageDir, 'main.ts'), gameModule());
  await build({
    configFile: false,
    root: pageDir,
    base: './',
    logLevel: 'warn',
    resolve: {
      alias: {
        '@lootsmith/plugin': join(ROOT, 'plugin/src/index.ts'),
        phaser: dirname(join(ROOT, 'node_modules/phaser/package.json')),
      },
    },
    build: { outDir: join(pageDir, 'dist'), minify: false, chunkSizeWarningLimit: 5000 },
  });
  game = await serveGame(join(pageDir, 'dist'));
  browser = await launchChromium();
  page = await browser.newPage();
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(`http://127.0.0.1:${(game.address() as AddressInfo).port}/`);
  await page.waitForFunction(() => (window as { readme?: unknown }).readme !== undefined);
  await page.evaluate(() => (window as unknown as { readme: { ready: Promise<unknown> } }).readme.ready);
  expect(problems).toEqual([]);
}, 120_000);

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await browser?.close();
  await new Promise((done) => (game ? game.close(done) : done(undefined)));
  await lootsmith?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** A Node example as a module in the workspace (so its imports resolve to the sources), run to its end. */
async function runInNode(example: Example, plan: NodePlan): Promise<unknown> {
  mkdirSync(join(ROOT, 'node_modules/.cache'), { recursive: true });
  const dir = mkdtempSync(join(ROOT, 'node_modules/.cache/readme-example-'));
  const file = join(dir, 'example.mts');
  const code = example.block.code.replace(/port: \d+/g, 'port: 0');
  writeFileSync(file, `${plan.prelude ?? ''}\n${code}\n;${plan.epilogue}\n`);
  try {
    const output = await new Promise<string>((done, fail) => {
      const child = spawn(process.execPath, ['--conditions=@lootsmith/source', '--import', 'tsx', file], {
        cwd: dir,
        env: { ...process.env, PLAYER_SECRET },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      children.add(child);
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (out += d));
      const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
      child.on('close', (code) => {
        clearTimeout(timer);
        children.delete(child);
        if (code === 0) done(out);
        else fail(new Error(`${label(example)} exited ${code}:\n${out.slice(-3000)}`));
      });
    });
    const line = output.split('\n').find((l) => l.startsWith('README-RESULT '));
    if (!line) throw new Error(`${label(example)} printed no result:\n${output.slice(-3000)}`);
    return JSON.parse(line.slice('README-RESULT '.length));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('the README examples', () => {
  it.for(ALL.filter((e) => !('module' in e.plan)).map((e) => [label(e), e] as const))(
    '%s',
    async ([, example], { skip }) => {
      const { plan } = example;
      if ('skip' in plan) return skip(plan.skip);
      if ('local' in plan) return plan.local(example.block.code);
      if ('node' in plan) return plan.node.check(await runInNode(example, plan.node));
      if (!('scene' in plan)) return;
      const outcome = await page.evaluate(async (index) => {
        interface PageExample {
          setup(this: unknown): Promise<Record<string, unknown>>;
          run(this: unknown, given: Record<string, unknown>): Promise<unknown>;
        }
        const { readme } = window as unknown as {
          readme: { ready: Promise<unknown>; calls: Outcome['calls']; examples: Record<number, PageExample> };
        };
        const scene = await readme.ready;
        const example = readme.examples[index] as PageExample;
        const given = await example.setup.call(scene);
        readme.calls.length = 0;
        const result = await example.run.call(given.self ?? scene, given);
        return { calls: [...readme.calls], result };
      }, example.index);
      plan.scene.check(outcome as Outcome);
    },
  );

  it('played as the player the game server logged in: the Boot scene’s getToken', () => {
    expect(gameRequests).toContain('/my-game/lootsmith-token');
  });
});
