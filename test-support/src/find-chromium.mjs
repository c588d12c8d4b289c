// Finds the system Chromium; installs Debian's package when allowed (root with apt-get).
import { execFileSync, spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';

const CANDIDATES = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/snap/bin/chromium',
];

function executable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export function findChromium() {
  const fromEnv = process.env.LOOTSMITH_CHROMIUM;
  if (fromEnv) {
    if (!executable(fromEnv)) throw new Error(`LOOTSMITH_CHROMIUM=${fromEnv} is not an executable file`);
    return fromEnv;
  }
  return CANDIDATES.find(executable) ?? null;
}

export function ensureChromium() {
  const found = findChromium();
  if (found) return found;
  const isRoot = process.getuid?.() === 0;
  const hasApt = spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0;
  if (isRoot && hasApt) {
    console.log('Chromium not found: installing Debian package "chromium" with apt-get…');
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    execFileSync('apt-get', ['install', '-y', '-qq', 'chromium'], { stdio: 'inherit', env });
    const installed = findChromium();
    if (installed) return installed;
  }
  throw new Error(
    'No Chromium found for the browser tests. Install it (Debian/Ubuntu: `sudo apt-get install chromium`) ' +
      'or point LOOTSMITH_CHROMIUM at a Chromium or Chrome executable.',
  );
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(ensureChromium());
