import { readFileSync } from 'node:fs';

/** The package's `engines.node` (`package.json` sits beside both `src/` and `dist/`). */
const ENGINES = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    engines: { node: string };
  }
).engines.node;

/**
 * Why this Node cannot run Lootsmith, or undefined when it can. Below the oldest major `engines` allows,
 * better-sqlite3 crashes the process on the first database it opens (a segmentation fault on Node 20),
 * so the command says so first. A newer, untested major is let through: npm already warned at install.
 */
export function nodeRefusal(
  version: string = process.version,
  engines: string = ENGINES,
): string | undefined {
  const oldest = Math.min(...engines.split('||').map((range) => Number(/\d+/.exec(range)?.[0])));
  if (Number(/^v?(\d+)/.exec(version)?.[1]) >= oldest) return undefined;
  return `Lootsmith needs Node ${oldest} or later (its engines: ${engines}); this is Node ${version}.`;
}
