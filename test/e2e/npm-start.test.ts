import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';

// `npm start` (scripts/start.mjs): the server it runs serves the demo's own game file, and stopping
// `npm start` stops the server with it.
let start: ChildProcess | undefined;
let dataDir: string | undefined;

afterEach(() => {
  if (start?.exitCode === null && start.signalCode === null) start.kill('SIGKILL');
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** Resolves with the URL the server says it listens at. */
function listening(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    const read = (chunk: Buffer) => {
      out += chunk.toString();
      const url = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1];
      if (url) resolve(url);
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.once('exit', (code) => reject(new Error(`npm start exited (${code}) before listening:\n${out}`)));
  });
}

const reachable = (url: string) =>
  fetch(`${url}/api/v1/game`).then(
    () => true,
    () => false,
  );

it('serves the demo game file, and SIGTERM to npm start stops its server', async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'lootsmith-start-'));
  start = spawn(process.execPath, ['scripts/start.mjs'], {
    env: { ...process.env, LOOTSMITH_PORT: '0', LOOTSMITH_DATA_DIR: dataDir, LOOTSMITH_GAME_FILE: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const url = await listening(start);
  const game = await (await fetch(`${url}/api/v1/game`)).json();
  expect(game.create_item.per_hour).toBe(30);

  const exited = new Promise((resolve) => start?.once('exit', resolve));
  start.kill('SIGTERM');
  await exited;
  // The server was a child of npm start: it is gone too.
  await expect.poll(() => reachable(url), { timeout: 10_000 }).toBe(false);
}, 120_000);
