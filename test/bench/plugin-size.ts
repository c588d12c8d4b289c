import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build, type Rolldown } from 'vite';
import type { BenchRow } from './row.ts';

const CONFIG = fileURLToPath(new URL('../../plugin/vite.config.ts', import.meta.url));
const GOAL_KB = 15;

/** Builds the plugin as it ships (minified ES module, Phaser external) in memory and weighs it. */
export async function benchPluginSize(): Promise<BenchRow[]> {
  const result = await build({
    configFile: CONFIG,
    logLevel: 'silent',
    build: { write: false, sourcemap: false },
  });
  const outputs = (Array.isArray(result) ? result : [result]) as Rolldown.RolldownOutput[];
  const code = outputs
    .flatMap((o) => o.output)
    .filter((o): o is Rolldown.OutputChunk => o.type === 'chunk')
    .map((chunk) => chunk.code)
    .join('\n');
  if (!/from\s*["']phaser["']/.test(code)) throw new Error('phaser is not external in the plugin bundle');
  const kb = (bytes: number) => Math.round((bytes / 1024) * 100) / 100;
  const gzipped = kb(gzipSync(code, { level: 9 }).length);
  const how = 'vite build of plugin/vite.config.ts (lib mode, minified, phaser external, idb-keyval bundled)';
  return [
    {
      name: 'plugin bundle, minified + gzipped',
      value: gzipped,
      unit: 'KB',
      goal: `< ${GOAL_KB} KB`,
      ok: gzipped < GOAL_KB,
      how: `${how}, gzip -9`,
    },
    { name: 'plugin bundle, minified', value: kb(code.length), unit: 'KB', goal: '', ok: true, how },
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) console.table(await benchPluginSize());
