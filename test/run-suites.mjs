// `npm test`: builds what the browser suites load, runs every Vitest project,
// and ends with one plain line totalling them all.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { ensureChromium } from '@lootsmith/test-support/find-chromium';

const run = (cmd, args) => spawnSync(cmd, args, { stdio: 'inherit' }).status ?? 1;

ensureChromium();
if (run('npm', ['run', 'build']) !== 0) {
  console.log('0 passed, 1 failed');
  process.exit(1);
}
mkdirSync('test-results', { recursive: true });
const report = 'test-results/vitest.json';
const status = run('npx', [
  'vitest',
  'run',
  ...process.argv.slice(2),
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${report}`,
]);
let totals = { passed: 0, failed: 0, skipped: 0 };
try {
  const json = JSON.parse(readFileSync(report, 'utf8'));
  totals = {
    passed: json.numPassedTests,
    failed: json.numFailedTests + (status !== 0 && json.numFailedTests === 0 ? 1 : 0),
    skipped: json.numPendingTests + json.numTodoTests,
  };
} catch {
  totals.failed = 1;
}
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(status === 0 && totals.failed === 0 ? 0 : 1);
