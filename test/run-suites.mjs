// `npm test`: builds what the browser suites load, runs every Vitest project, and ends with one
// plain line totalling them all.
//
// The projects run in two lanes at once, so a machine of two cores is busy with both, and the lanes
// take about as long: the browser suites (one file at a time, each with its Chromium), then the
// reliability suites, in one; the unit suites, then the browser-plugin suite, in the other.
// `--also-on-node=22` (as `.ci/run` asks) adds, at the end of the second lane, runs on that other
// tested Node (scripts/node.sh), over the same node_modules: the unit suites, then the consumer test.
// The heap suites (memory, soak) run last, on their own, with nothing else running while they
// measure. Other arguments go to every Vitest run (a file filter, `-t`); with `--project`, one
// Vitest run of what they name.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { ensureChromium } from '@lootsmith/test-support/find-chromium';

const ALSO_ON = '--also-on-node=';
const otherNode = process.argv.find((a) => a.startsWith(ALSO_ON))?.slice(ALSO_ON.length);
const args = process.argv.slice(2).filter((a) => !a.startsWith(ALSO_ON));
/** A stage's lanes run side by side; a lane's Vitest runs, one after another. */
const STAGES = args.some((a) => a === '--project' || a.startsWith('--project='))
  ? [[[{ name: 'vitest', projects: [] }]]]
  : [
      [
        [{ name: 'browser+reliability', projects: ['browser', 'reliability'] }],
        [{ name: 'unit+browser-plugin', projects: ['unit', 'browser-plugin'] }],
      ],
      [[{ name: 'heap', projects: ['heap'] }]],
    ];
if (otherNode) {
  const dir = spawnSync('bash', ['scripts/node.sh', otherNode, '--dir'], { encoding: 'utf8' });
  if (dir.status !== 0) {
    console.error(dir.stderr);
    console.log('0 passed, 1 failed');
    process.exit(1);
  }
  // Its bin first on PATH: npx, Vitest and what the tests start run on it; anything npm compiles, for it.
  const node = dir.stdout.trim();
  const env = { ...process.env, PATH: `${node}/bin:${process.env.PATH}`, npm_config_nodedir: node };
  // Both at the end of the second lane: the first (browser and reliability suites) is the longer.
  const lane = STAGES[0].at(-1);
  lane.push(
    { name: `unit on node ${otherNode}`, projects: ['unit'], env },
    { name: `consumer on node ${otherNode}`, projects: ['browser'], files: ['test/consumer/'], env },
  );
}

ensureChromium();
if (spawnSync('npm', ['run', 'build'], { stdio: 'inherit' }).status !== 0) {
  console.log('0 passed, 1 failed');
  process.exit(1);
}
mkdirSync('test-results', { recursive: true });
const report = 'test-results/vitest.json';

/** One Vitest run, its lines prefixed with its name when lanes run side by side; resolves with its exit status. */
function runVitest(run, prefix) {
  const json = `test-results/vitest-${run.name.replace(/\W/g, '-')}.json`;
  rmSync(json, { force: true });
  const child = spawn(
    'npx',
    [
      'vitest',
      'run',
      ...run.projects.map((p) => `--project=${p}`),
      ...(run.files ?? []),
      ...args,
      '--passWithNoTests',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${json}`,
    ],
    { stdio: prefix ? ['ignore', 'pipe', 'pipe'] : 'inherit', env: run.env ?? process.env },
  );
  if (prefix)
    for (const stream of [child.stdout, child.stderr])
      createInterface({ input: stream }).on('line', (line) => console.log(`${run.name} | ${line}`));
  return new Promise((resolve) => {
    child.on('error', () => resolve({ json, status: 1 }));
    child.on('close', (code) => resolve({ json, status: code ?? 1 }));
  });
}

/** A lane's runs, one after another; resolves with their results. */
async function runInTurn(lane, prefix) {
  const results = [];
  for (const run of lane) results.push(await runVitest(run, prefix));
  return results;
}

const runs = [];
for (const stage of STAGES)
  runs.push(...(await Promise.all(stage.map((lane) => runInTurn(lane, stage.length > 1)))).flat());

// One report of every run, in the shape of one Vitest run's (test-results/vitest.json).
const merged = { numPassedTests: 0, numFailedTests: 0, numPendingTests: 0, numTodoTests: 0, testResults: [] };
let failed = 0;
for (const { json, status } of runs) {
  let result;
  try {
    result = existsSync(json) ? JSON.parse(readFileSync(json, 'utf8')) : undefined;
  } catch {
    result = undefined;
  }
  if (!result) {
    failed += 1;
    continue;
  }
  for (const key of Object.keys(result))
    if (typeof result[key] === 'number' && key !== 'startTime')
      merged[key] = (merged[key] ?? 0) + result[key];
  merged.startTime = Math.min(merged.startTime ?? result.startTime, result.startTime);
  merged.success = (merged.success ?? true) && result.success;
  merged.testResults.push(...result.testResults);
  // A run that failed without a failed test (an error outside the tests, an unhandled rejection).
  if (status !== 0 && result.numFailedTests === 0) failed += 1;
}
writeFileSync(report, JSON.stringify(merged));
const totals = {
  passed: merged.numPassedTests,
  failed: merged.numFailedTests + failed,
  skipped: merged.numPendingTests + merged.numTodoTests,
};
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(runs.every((r) => r.status === 0) && totals.failed === 0 ? 0 : 1);
