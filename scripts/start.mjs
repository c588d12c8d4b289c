// `npm start`: the demo game, the API and the embedded engine on one port. Builds once if stale, then
// runs the compiled `lootsmith` command in this process (signals reach it for a graceful shutdown).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const build = spawnSync(process.execPath, [fileURLToPath(new URL('build.mjs', import.meta.url))], {
  stdio: 'inherit',
});
if (build.status !== 0) process.exit(build.status ?? 1);
process.env.LOOTSMITH_STATIC_DIR ??= fileURLToPath(new URL('../demo-game/dist', import.meta.url));
await import('../server/dist/cli.js');
