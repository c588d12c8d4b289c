import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// A game's own code, typed by what `lootsmith types` writes from its game file: a consumer project
// against the plugin's published declaration file (dist/lootsmith.d.ts, built here), compiled by tsc.

const ROOT = resolve(import.meta.dirname, '../..');
const require = createRequire(import.meta.url);
const TSC = require.resolve('typescript/bin/tsc');
const TSX = require.resolve('tsx');
mkdirSync(join(ROOT, 'test-results'), { recursive: true });
const project = mkdtempSync(join(ROOT, 'test-results', 'game-types-'));
afterAll(() => rmSync(project, { recursive: true, force: true }));

const run = (args: string[]) =>
  spawnSync(process.execPath, args, { cwd: project, encoding: 'utf8', timeout: 90_000 });

/** The game's own code: uses its stats, types and fields; `extra` is one more line. */
const gameCode = (extra = '') => `import type { InventoryResponse, Item } from '@lootsmith/plugin';
import type { SalvageRun } from './lootsmith-game';

export function shielding(item: Item<SalvageRun>): number {
  return item.stats.find((s) => s.name === 'shielding')?.value ?? 0;
}
export const worn = (item: Item<SalvageRun>) => item.type === 'SUIT' && (item.durability ?? 0) > 10;
// Registered: the plugin's own answers are the game's items too.
export const implants = (inv: InventoryResponse) => inv.items.filter((e) => e.item.type === 'IMPLANT');
${extra}
`;

describe('lootsmith types', () => {
  it('types a game’s code by its game file: a misspelt stat, type or field is a compile error', {
    timeout: 120_000,
  }, () => {
    const types = run([
      '--conditions=@lootsmith/source',
      '--import',
      TSX,
      join(ROOT, 'server/src/cli.ts'),
      'types',
      join(ROOT, 'server/game/space-salvage.json'),
    ]);
    expect(types.status, types.stderr).toBe(0);
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        extends: '../../tsconfig.base.json',
        compilerOptions: { lib: ['ES2023', 'DOM'], types: [] },
        include: ['*.ts'],
      }),
    );
    // The game's code as it should be, and a copy with each misspelling, in one tsc run: every error
    // it reports is the copy's, and it names each misspelling.
    writeFileSync(join(project, 'game.ts'), gameCode());

    const misspelt = [
      [
        "export const s = (i: Item<SalvageRun>) => i.stats.find((s) => s.name === 'shieldng');",
        '\'"shieldng"\'',
      ],
      ["export const t = (i: Item<SalvageRun>) => i.type === 'WEAPON';", '\'"WEAPON"\''],
      ['export const d = (i: Item<SalvageRun>) => i.durabilty;', "'durabilty'"],
    ];
    writeFileSync(join(project, 'broken.ts'), gameCode(misspelt.map(([line]) => line).join('\n')));
    const compiled = run([TSC, '-p', 'tsconfig.json']);
    expect(compiled.status).not.toBe(0);
    const errors = compiled.stdout.split('\n').filter((line) => /error TS\d+/.test(line));
    expect(
      errors.filter((line) => !line.startsWith('broken.ts(')),
      'the code as it should be compiles',
    ).toEqual([]);
    for (const [line, error] of misspelt) expect(compiled.stdout, line).toContain(error);
  });
});
