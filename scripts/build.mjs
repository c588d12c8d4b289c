// `npm run build`: builds what is stale. The packages through `tsc -b` (incremental), the console, the
// plugin and the demo (and its test build) through Vite when a file they are built from is newer than
// their output. `--force`: all.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const force = process.argv.includes('--force');

function run(command, args) {
  const { status } = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (status !== 0) {
    console.error(`build: ${command} ${args.join(' ')} failed`);
    process.exit(status ?? 1);
  }
}

function newest(path) {
  const full = join(root, path);
  if (!existsSync(full)) return 0;
  const stat = statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(full).map((name) => newest(join(path, name))));
}

const stale = (inputs, output) => force || newest(output) < Math.max(...inputs.map(newest));

run('npx', [
  'tsc',
  '-b',
  ...(force ? ['--force'] : []),
  'protocol/tsconfig.build.json',
  'engine/tsconfig.build.json',
  'server/tsconfig.build.json',
]);
// The developer console ships inside the server package (server/dist/console).
if (stale(['server/console', 'protocol/src'], 'server/dist/console/index.html'))
  run('npx', ['vite', 'build', '--logLevel', 'warn', 'server/console']);
if (
  stale(
    ['protocol/src', 'plugin/src', 'plugin/scripts', 'plugin/package.json', 'plugin/vite.config.ts'],
    'plugin/dist/lootsmith.d.ts',
  )
)
  run('npm', ['run', 'build', '--silent', '-w', '@lootsmith/plugin']);
// The demo twice: as players get it (`demo-game/dist`, what `npm start` serves) and with the test
// hook the browser suites read (`test/e2e/dist`, what they serve).
const demo = ['demo-game/src', 'demo-game/index.html', 'demo-game/vite.config.ts', 'plugin/dist'];
if (stale(demo, 'demo-game/dist/index.html'))
  run('npm', ['run', 'build', '--silent', '-w', '@lootsmith/demo-game']);
if (stale(demo, 'test/e2e/dist/index.html'))
  run('npm', ['run', 'build:test', '--silent', '-w', '@lootsmith/demo-game']);
