// `npm run bench`: every benchmark in one run, printed as a table and written to docs/BENCHMARKS.md.
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import type { BenchRow } from './row.ts';

interface Section {
  title: string;
  file: string;
  run: string;
  /** Whether `npx tsx --conditions=@lootsmith/source <file>` runs the section on its own. */
  alone: boolean;
  /** What the figures are held against, and where the goal comes from. */
  about: string;
}

const SECTIONS: Section[] = [
  {
    title: 'Server',
    file: './server.ts',
    alone: true,
    run: 'benchServer',
    about:
      'Goals from the server issue: added latency over calling the upstream directly (loopback, fast upstream) p50 under 1 ms and p99 under 5 ms; a crafting transaction p99 under 5 ms with 10,000 players of 100 items each in the store.',
  },
  {
    title: 'Engine',
    file: './engine.ts',
    alone: true,
    run: 'benchEngine',
    about:
      'Goals from the engine issue: median paint 512² ≤ 15 ms, 768² ≤ 30 ms; ≥ 2,000 JSON item completions/s.',
  },
  {
    title: 'Plugin',
    file: './plugin-size.ts',
    alone: true,
    run: 'benchPluginSize',
    about: 'Goal from the plugin issue: under 15 KB gzipped.',
  },
  {
    title: 'Loot pools',
    file: './pools.ts',
    alone: true,
    run: 'benchPools',
    about:
      'Goals from the loot pools issue, against a loopback stand-in for a hosted /v1 service that answers chat in 2 s and images in 1.5 s: with pools, drop to items in hand p50 ≤ 50 ms and p95 ≤ 250 ms while the pools keep up, the icon of a pooled item ready with the item, and at most 1.2 generations spent by the pools per item served; without pools the figure is what it is (seconds).',
  },
  {
    title: 'Scale-out',
    file: './scale.ts',
    alone: false,
    run: 'benchScale',
    about: 'One and two server instances over one PostgreSQL and Redis (skipped when they are not running).',
  },
];

/** The figure as a multiple of its goal: under 1 is inside a "less than" goal, over 1 beats an "at least". */
function ofGoal(row: BenchRow): string {
  const m = /^\s*([<>≤≥])\s*([\d.,]+)/.exec(row.goal);
  if (!m) return '';
  const goal = Number((m[2] as string).replaceAll(',', ''));
  return goal ? `${(row.value / goal).toFixed(2)}×` : '';
}

const fmt = (n: number) => (Number.isInteger(n) ? n.toLocaleString('en') : String(n));
const cell = (s: string) => s.replaceAll('|', '\\|');

async function runSection(section: Section): Promise<{ rows: BenchRow[]; error?: string; seconds: number }> {
  const started = performance.now();
  try {
    const mod = (await import(section.file)) as Record<string, () => Promise<BenchRow[]>>;
    const fn = mod[section.run];
    if (!fn) throw new Error(`${section.file} has no ${section.run}()`);
    const rows = await fn();
    return { rows, seconds: (performance.now() - started) / 1000 };
  } catch (err) {
    return { rows: [], error: (err as Error).message, seconds: (performance.now() - started) / 1000 };
  }
}

const cpus = os.cpus();
const machine = {
  cpu: cpus[0]?.model.trim() ?? 'unknown',
  cores: cpus.length,
  memory: `${Math.round(os.totalmem() / 2 ** 30)} GB`,
  node: process.version,
  os: `${os.type()} ${os.release()} ${os.arch()}`,
  load: os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(', '),
};
const date = new Date().toISOString();
console.log(
  `Lootsmith benchmarks — ${date}\n${machine.cpu}, ${machine.cores} cores, ${machine.memory}, Node ${machine.node}`,
);

const results: Array<{ section: Section; rows: BenchRow[]; error?: string; seconds: number }> = [];
for (const section of SECTIONS) {
  console.log(`\n${section.title}…`);
  const result = await runSection(section);
  results.push({ section, ...result });
  if (result.error) console.log(`  not measured: ${result.error}`);
  for (const row of result.rows)
    console.log(
      `  ${row.ok ? 'ok ' : 'MISS'} ${row.name}: ${fmt(row.value)} ${row.unit}${row.goal ? `  (goal ${row.goal}, ${ofGoal(row)})` : ''}`,
    );
}

const goals = results.flatMap((r) =>
  r.rows.filter((row) => row.goal).map((row) => ({ ...row, section: r.section.title })),
);
const md: string[] = [
  '# Benchmarks',
  '',
  `Written by \`npm run bench\` (\`tsx --conditions=@lootsmith/source test/bench/run.ts\`) on ${date}. Every figure below comes from this one run.`,
  '',
  '## Machine',
  '',
  '| | |',
  '|---|---|',
  `| CPU | ${machine.cpu} |`,
  `| cores | ${machine.cores} |`,
  `| memory | ${machine.memory} |`,
  `| Node | ${machine.node} |`,
  `| OS | ${machine.os} |`,
  `| load average at start (1, 5, 15 min) | ${machine.load} |`,
  '',
  'The machine is shared and small: load generators run on the same cores as what they measure, so',
  'throughput and tail latency are lower bounds of what a dedicated machine gives. Ratios taken side by',
  'side in the same run (server ÷ direct, server ÷ bare Fastify) cancel most of that.',
  '',
  '## Goals',
  '',
  '“× goal” is the figure divided by its goal: below 1 is inside a “less than” goal, above 1 beats an “at least” goal.',
  '',
  '| | figure | value | goal | × goal |',
  '|---|---|---|---|---|',
  ...goals.map(
    (g) =>
      `| ${g.ok ? 'ok' : '**missed**'} | ${cell(`${g.section}: ${g.name}`)} | ${fmt(g.value)} ${g.unit} | ${cell(g.goal)} | ${ofGoal(g)} |`,
  ),
  '',
];
for (const { section, rows, error, seconds } of results) {
  md.push(`## ${section.title}`, '', section.about, '');
  md.push(
    `Command: \`npm run bench\`${section.alone ? ` (this section alone: \`npx tsx --conditions=@lootsmith/source test/bench/${section.file.slice(2)}\`)` : ''}; took ${seconds.toFixed(0)} s.`,
    '',
  );
  if (error) {
    md.push(`Not measured in this run: ${cell(error)}`, '');
    continue;
  }
  if (!rows.length) {
    md.push('Not measured in this run (its services were not available).', '');
    continue;
  }
  md.push('| figure | value | goal | × goal | ok | how |', '|---|---|---|---|---|---|');
  for (const row of rows)
    md.push(
      `| ${cell(row.name)} | ${fmt(row.value)} ${row.unit} | ${cell(row.goal) || '—'} | ${ofGoal(row) || '—'} | ${row.goal ? (row.ok ? 'ok' : '**missed**') : '—'} | ${cell(row.how)} |`,
    );
  md.push('');
}
const out = fileURLToPath(new URL('../../docs/BENCHMARKS.md', import.meta.url));
writeFileSync(out, `${md.join('\n')}\n`);
console.log(`\nWrote ${out}`);
// Pools and servers are closed; exit anyway so a stray keep-alive timer cannot hold the run open.
process.exit(0);
