import { defaultClientConditions, defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';
import { nodeRefusal } from './server/src/node-version.ts';

// On a Node older than `engines` allows (the machine's Node 20, say), better-sqlite3 crashes every suite
// that opens a database: say which Node to run them on instead.
const refusal = nodeRefusal();
if (refusal) throw new Error(`${refusal} Run the suites after: eval "$(bash scripts/node.sh)"`);

// Workspace packages resolve to their TypeScript sources (the `@lootsmith/source` export condition),
// so tests never run against a stale build.
const SOURCE = '@lootsmith/source';

/** The reliability suites that measure the server's heap (project `heap`). */
const HEAP = ['test/reliability/memory.test.ts', 'test/reliability/soak.test.ts'];

/**
 * A reliability test's bound: 3 minutes in `npm test`; 15 in the full form (`npm run test:reliability`),
 * whose fuzzers run 2,000 to 10,500 cases a test, on a loaded machine of two cores.
 */
const RELIABILITY_TIMEOUT = process.env.LOOTSMITH_RELIABILITY === 'full' ? 900_000 : 180_000;

export default defineConfig({
  resolve: { conditions: [SOURCE, ...defaultClientConditions] },
  ssr: { resolve: { conditions: [SOURCE, ...defaultServerConditions] } },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: [
            '{protocol,engine,server,plugin,demo-game}/test/**/*.test.ts',
            'test/docs/readme-links.test.ts',
            'test/docs/engines.test.ts',
          ],
          exclude: ['**/test/browser/**', '**/node_modules/**'],
          environment: 'node',
          testTimeout: 20_000,
          // The files share one module graph (a third less time, most of it imports): none mocks a
          // module or leaves a global changed, and each starts the servers and stores it uses.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'browser',
          include: [
            'test/e2e/**/*.test.ts',
            'test/consumer/**/*.test.ts',
            'test/docs/readme-examples.test.ts',
          ],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
      {
        extends: true,
        test: {
          // The plugin in Chromium against a fake server, on each Phaser: `npm test` runs it in the other
          // lane from the browser project's, after the unit suites.
          name: 'browser-plugin',
          include: ['{plugin,demo-game}/test/browser/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'reliability',
          include: ['test/reliability/**/*.test.ts'],
          exclude: [...HEAP, '**/node_modules/**'],
          environment: 'node',
          // Suites boot servers and child processes: one file at a time.
          fileParallelism: false,
          testTimeout: RELIABILITY_TIMEOUT,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          // The reliability suites that measure the heap: `npm test` runs them alone, after the rest.
          name: 'heap',
          include: HEAP,
          environment: 'node',
          fileParallelism: false,
          testTimeout: RELIABILITY_TIMEOUT,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
