// `npm start`: the demo game, the API and the embedded engine on one port. Builds once if stale, then
// runs the compiled `lootsmith` command as a child with the demo's own game definition
// (`demo-game/game.patch.json` over the fantasy RPG). SIGINT and SIGTERM are passed on to the child,
// and the child is killed if this process exits first, so stopping `npm start` stops the server.
import { spawn, spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeDemoGameFile } from './demo-game-file.mjs';

const build = spawnSync(process.execPath, [fileURLToPath(new URL('build.mjs', import.meta.url))], {
  stdio: 'inherit',
});
if (build.status !== 0) process.exit(build.status ?? 1);

const gameFile = process.env.LOOTSMITH_GAME_FILE ? undefined : writeDemoGameFile();
const server = spawn(process.execPath, [fileURLToPath(new URL('../server/dist/cli.js', import.meta.url))], {
  stdio: 'inherit',
  env: {
    ...process.env,
    LOOTSMITH_STATIC_DIR:
      process.env.LOOTSMITH_STATIC_DIR ?? fileURLToPath(new URL('../demo-game/dist', import.meta.url)),
    ...(gameFile ? { LOOTSMITH_GAME_FILE: gameFile } : {}),
  },
});

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'])
  process.on(signal, () => {
    if (server.exitCode === null) server.kill(signal);
  });
process.on('exit', () => {
  if (server.exitCode === null && server.signalCode === null) server.kill('SIGKILL');
  if (gameFile) rmSync(dirname(gameFile), { recursive: true, force: true });
});
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 128 : 1)));
