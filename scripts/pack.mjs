// `npm run pack`: every publishable package as a tarball in dist/, built first by `npm run build`
// (what is stale; `npm run pack -- --force`: everything), so a build just made is packed as it is, not
// made again (and not rewritten under a suite that reads it). Versions move together: every package
// and every dependency between them share one.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const PACKAGES = ['protocol', 'engine', 'server', 'plugin'];
const manifests = PACKAGES.map((dir) => JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')));
const names = new Set(manifests.map((m) => m.name));
const version = manifests[0].version;
for (const m of manifests) {
  if (m.version !== version) throw new Error(`${m.name} is ${m.version}; every package must be ${version}`);
  for (const [dep, range] of Object.entries(m.dependencies ?? {}))
    if (names.has(dep) && range !== version)
      throw new Error(`${m.name} depends on ${dep}@${range}; it must be exactly ${version}`);
}

const build = spawnSync(process.execPath, [join(root, 'scripts/build.mjs'), ...process.argv.slice(2)], {
  cwd: root,
  stdio: ['ignore', 'ignore', 'inherit'],
});
if (build.status !== 0) process.exit(build.status ?? 1);

const out = join(root, 'dist');
rmSync(out, { recursive: true, force: true });
mkdirSync(out);
const { status } = spawnSync(
  'npm',
  // Built above: each package's prepack (its own full build) is not run again.
  [
    'pack',
    '--silent',
    '--ignore-scripts',
    '--pack-destination',
    out,
    ...PACKAGES.flatMap((dir) => ['-w', dir]),
  ],
  { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] },
);
if (status !== 0) process.exit(status ?? 1);
for (const file of readdirSync(out)) console.log(join('dist', file));
