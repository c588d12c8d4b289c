// `engines` says what is tested: the Nodes pinned in scripts/node.sh, which `.ci/run` runs the suites on
// (Node 24) and the unit suites and the consumer test on (Node 22), and no other major.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const PUBLISHED = ['protocol', 'engine', 'server', 'plugin'];
const enginesOf = (dir: string) =>
  (JSON.parse(readFileSync(join(ROOT, dir, 'package.json'), 'utf8')) as { engines?: { node?: string } })
    .engines?.node;
const PINS = [
  ...readFileSync(join(ROOT, 'scripts/node.sh'), 'utf8').matchAll(/^NODE_\d+=(\d+)\.(\d+)\.(\d+)$/gm),
].map((m) => m.slice(1, 4).map(Number) as [number, number, number]);

/** The `^major[.minor[.patch]]` alternatives of a range, as [major, minor, patch] floors. */
function caretRanges(range: string): [number, number, number][] {
  return range.split('||').map((part) => {
    const m = /^\s*\^(\d+)(?:\.(\d+))?(?:\.(\d+))?\s*$/.exec(part);
    if (!m) throw new Error(`engines ${range}: expected ^major.minor alternatives`);
    return [Number(m[1]), Number(m[2] ?? 0), Number(m[3] ?? 0)];
  });
}

describe('engines', () => {
  it('is one range, in the root and every published package', () => {
    const root = enginesOf('.');
    expect(root).toEqual(expect.any(String));
    for (const dir of PUBLISHED) expect(enginesOf(dir), dir).toBe(root);
  });

  it('allows exactly the majors of the pinned Nodes, each pin included', () => {
    expect(PINS.length).toBeGreaterThan(0);
    const floors = caretRanges(enginesOf('.') as string);
    expect(floors.map(([major]) => major).sort()).toEqual(PINS.map(([major]) => major).sort());
    for (const pin of PINS) {
      const floor = floors.find(([major]) => major === pin[0]) as [number, number, number];
      const atLeast = pin[1] > floor[1] || (pin[1] === floor[1] && pin[2] >= floor[2]);
      expect(atLeast, `Node ${pin.join('.')} within ^${floor.join('.')}`).toBe(true);
    }
  });
});
