// `npm run bench`: every benchmark in one run, printed as a table and written to docs/BENCHMARKS.md.
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { type Plan, queryPlans } from './plans.ts';
import { type Profiles, profileServers, type RouteProfile } from './profile.ts';
import type { BenchRow } from './row.ts';

interface Section {
  title: string;
  file: string;
  run: string;
  /** Whether `npx tsx --conditions=@lootsmith/source <file>` runs the section on its own. */
  alone: boolean;
  /** What to add to that command to run this section only (a file that holds two). */
  args?: string;
  /** What the figures are held against, and where the goal comes from. */
  about: string;
}

/**
 * What the CPU of an inventory read and of an image forward buys beyond a bare route or hop, from
 * `node --cpu-prof` of this checkout (issue 36): shares of the server's busy time, which hold better than
 * microseconds on a loaded machine. Written by hand; re-profile (`test/bench/profile.ts`) when the path changes.
 */
const MICROSECONDS = [
  '**What each remaining microsecond buys** (issue 36; shares of the server’s busy CPU in `node --cpu-prof` profiles of this path at 32 connections, SQLite). An inventory read: about a third is writing the answer to the socket and much of the rest Fastify’s own parsing, routing and hooks, as for the bare route; what Lootsmith adds is the inventory version read that makes a change on any instance visible at once (one indexed statement for all the reads of one event-loop turn, about 7%), the console’s count of each player request (in memory; a read answered well is no longer written as a row of the player’s recent requests, about 5 µs of SQLite a read, nor of the request log), the access log line (5–9%, most of it the batched file write; pino-pretty’s parse, copy and date format around it were a quarter of the read before issue 36), the cached token check and the path’s validation (about 4%), security headers and CORS (about 2.5%), Fastify’s per-request child logger (about 1.5%), the last secret check on the answer (about 1%). The answer itself is assembled once per inventory version and served from memory.',
  '',
  'An image forward: about a fifth is the two socket writes the bare hop makes too (to the upstream, to the player) and about 7% reading the upstream’s answer (undici’s parser); what Lootsmith adds is the reservation (BEGIN IMMEDIATE, the player’s limit and last refusal read, two upserts, COMMIT: about 10% with its SAVEPOINTs, shared by the reservations of one event-loop turn under load, about ten at 32 connections; the two tables it writes are keyed by their primary key alone on SQLite since this stop, one b-tree each where a rowid table kept two, 69 → 52 µs a reservation alone in a scratch loop; the reservation row below moves between about 45 and 75 µs from run to run on this machine, for this checkout and the last alike), the check of the upstream PNG (about 4%, half of it creating the zlib inflater; fflate inflates a 64² icon’s data in 15.7 µs against zlib’s 10, so it stays), screening the prompt (the text filter, 6 µs for a short prompt since it tries obscenity’s 119 terms as one alternation first; the player’s recent refusals are read only for a player whose text was refused within the restriction window, since the reservation reads when that last happened with the limit: the read of every forward was a statement of its own, about 5% of the forward’s CPU), the body’s validation and the token (about 4%), the console’s figures (about 3%) and its request log (the request and its call kept, written once a second: 57 of 460 µs of CPU per forward in an A/B of two servers, one with LOOTSMITH_REQUEST_LOG_MAX=0). Issue 36 took out pino-pretty on the access line (about 5%) and prom-client’s label hashing of the queue wait (about 2%). One call at a time, the added latency is that CPU in series, on cold caches: timed inside the handler (SQLite, medians of 1,500 calls), about 0.13 ms before the handler (hooks, body, token), 0.13–0.19 ms the reservation, 0.02 ms the screen, and around the upstream’s round trip (0.3–0.4 ms from inside Lootsmith against 0.15–0.25 ms from the load generator; the bare hop takes 0.48 ms from its first hook to its answer, round trip included) about 0.18 ms of Lootsmith’s own (the client’s queue, the answer’s parse, the PNG check, the call’s accounting). The reservation runs before the upstream call and the PNG check after it, so the added p50 stays above 1.5× a bare hop’s while they stay on the path: the exact budgets keep the one, security the other.',
];

const SECTIONS: Section[] = [
  {
    title: 'Hot path against a bare hop',
    file: './forward.ts',
    alone: true,
    run: 'benchForward',
    about: [
      'Goals from issue 16, held against what a user would otherwise deploy: a bare key-holding hop (Fastify with `@fastify/reply-from`, one static bearer token, the upstream key swapped in) over the same instant upstream, measured side by side in one run. Forwarded image call: added p50 ≤ 1.5× the bare hop’s, added p99 ≤ 2× the bare hop’s, throughput ≥ 0.8× the bare hop’s. Inventory route: ≥ 0.6× a bare Fastify route sending the same JSON; over PostgreSQL + Redis ≥ 0.4×.',
      '',
      'Every server is a process of its own, started as a user starts it (`lootsmith` with info logging to a file); the upstream is another process answering every image call at once with the same 64×64 PNG of the embedded painter; the load generator is this process. Lootsmith’s figures include everything it does on the path: player token, body validation, the per-player image limit and daily budget reserved in the store, the upstream answer read, checked as a PNG (CRCs, inflate) and for secrets, the last secret check on the answer, one log line. The last rows are what the checks of an upstream image and the reservation cost on their own: a bare hop does neither, and both stay (the checks are a security requirement; the reservation is what keeps budgets exact across instances and a crash from giving away images).',
      '',
      ...MICROSECONDS,
    ].join('\n'),
  },
  {
    title: 'Server',
    file: './server.ts',
    alone: true,
    run: 'benchServer',
    about:
      'Goal from the server issue: a crafting transaction p99 under 5 ms with 10,000 players of 100 items each in the store.',
  },
  {
    title: 'Engine',
    file: './engine.ts',
    alone: true,
    run: 'benchEngine',
    about: [
      'Goals from the engine issue: median paint 512² ≤ 15 ms, 768² ≤ 30 ms; from issue 36, ≥ 5,000 JSON item completions/s (5,666/s before the writer grew, 1,388/s when that issue was filed).',
      '',
      'What a JSON item completion’s time buys (issue 36, shares of `node --cpu-prof` of this benchmark’s loop): a game’s vocabulary, a schema’s filler and the system message are each made once and no longer show; reading the request’s own lines (protocol’s `parsePrompt` and `mergePrompt` of the user message) is about a quarter, the items’ plans (stats, material, focus) about a sixth, their texts (lore, description, name) about a fifth, effects from the game’s catalogue about 8%, the seeded random streams about 9%, garbage collection about 8%.',
    ].join('\n'),
  },
  {
    title: 'Content filter',
    file: './content-filter.ts',
    alone: true,
    run: 'benchContentFilter',
    about:
      'From the security issue (24): what screening a generated item’s texts costs before it is stored (profanity and slurs through `obscenity` with its look-alike, leetspeak and repeat transformers, letters spaced apart joined again, the game’s allow and deny lists, web addresses). A model takes seconds per item; the filter must stay well under a millisecond.',
  },
  {
    title: 'Icon normalisation',
    file: './icons.ts',
    alone: true,
    run: 'benchIconNormalise',
    about:
      "Goal from the art issue (38): icon normalisation stays ≤ 30 ms for a 1024² image, with and without a game's `art`. Every icon a painting backend answers passes through it (decode, clear the flat background, trim, fit, and with art the pixel grid, the nearest palette colour, hard alpha and the outline, then a PNG of exact colours).",
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
    args: 'stream',
    about:
      'Goals from the loot pools issue, against a loopback stand-in for a hosted /v1 service that answers chat in 2 s and images in 1.5 s: with pools, drop to items in hand p50 ≤ 50 ms and p95 ≤ 250 ms while the pools keep up, the icon of a pooled item ready with the item, and at most 1.2 generations spent by the pools per item served; without pools the figure is what it is (seconds).',
  },
  {
    title: 'Loot pools: a play session',
    file: './pools.ts',
    alone: true,
    run: 'benchPoolSession',
    args: 'session',
    about:
      "Goals from the warming issue: a fresh game, five heroes logging in, an idle minute, then kills as their levels rise through the rooms of the game's map, against the paced stand-in (chat 2 s, images 1.5 s) and against a one-at-a-time image backend (2 s an image): drop to items in hand p50 ≤ 50 ms and p95 ≤ 250 ms over every drop after the first minute, and at most 1.5 generations per item served, warming ahead included. Pools keep their guarantees (tests: server/test/pools*.test.ts).",
  },
  {
    title: "Loot pools: a stranger's play",
    file: './pools.ts',
    alone: true,
    run: 'benchPoolStranger',
    args: 'stranger',
    about:
      "Goals from issue 36 (item 7): not the demo's route but a stranger's. Five heroes log in together, an idle minute, then each, from level 1, fights every non-boss enemy of the default game in turn whatever its tier (30 drops each, a hero's turn every 400 ms, each drop's location the room the game file puts the enemy in), against the paced stand-in (chat 2 s, images 1.5 s): drop to items in hand p50 ≤ 50 ms and p95 ≤ 250 ms over every drop, and at most 1.5 generations per item served, warming included. `LOOTSMITH_BENCH_IDLE_S` shortens the idle minute while developing.",
  },
  {
    title: 'A one-at-a-time image backend',
    file: './backends.ts',
    alone: true,
    run: 'benchBackends',
    about:
      'From the backends issue: 10 players dropping loot every 3 s against a single-GPU image backend (an sdapi fake painting one image at a time, 2 s each), pools on and off: how long a drop takes and when its icon arrives. The backend is asked one image at a time (LOOTSMITH_IMAGE_CONCURRENCY defaults to 1 for sdapi), a waiting player first, icons painted after their item next, pool refills last.',
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

/** Where the hot path keeps per-player state, and what a crash can lose: the design, not a measurement. */
const STATE_SECTION = [
  '## Per-player state: what is kept in memory, and what a crash can lose',
  '',
  'What must not be lost or be wrong across instances is written in one store transaction before the work it pays for; what is kept in memory is a copy that is checked, or a fact that cannot change:',
  '',
  '| state | where | a crash loses | why that is acceptable |',
  '|---|---|---|---|',
  '| daily budgets (`daily_items`, `daily_images`), drop limits, the image (30/min) and chat (10/min) limits, spent drop grants | the store, in **a committed transaction before the model call** (`Store.reserve`): on SQLite the reservations made while the event loop is busy share one `BEGIN IMMEDIATE` commit (group commit), each in its own savepoint; on PostgreSQL the same group commit: the reservations asked for while the previous group is out are taken by one call of `lootsmith_reserve_group` (one round trip, one commit, each reservation in its own subtransaction) whose upserts lock their rows and check the limit against the latest value; the limit is read from the player’s record inside it | nothing: no request is answered before its reservation has committed | budgets and limits must be exact under concurrency and across instances sharing SQLite or PostgreSQL (`races`, `multi-instance`, `security-loot`); a commit per group of requests costs little, a count kept in memory could not be exact on two instances |',
  '| create-item limit (5/h) | the store (`@fastify/rate-limit` over it), or Redis with several instances (one script call) | nothing | as before this issue |',
  '| verified player tokens | memory, up to 50,000, each until its `exp` (a map in `server/src/auth.ts`, filled after fast-jwt has checked the signature) | nothing (it is a cache) | a token is valid or not by its signature and expiry alone |',
  '| players known to exist | memory, up to 100,000 ids | nothing | players are never deleted; blocking is read from the record inside each reservation |',
  '| assembled inventory JSON | memory, up to 10,000 players, each with the `inventory_version` it was made from | nothing | every read checks the version in the store, and every change to stacks, items, recipes or XP raises it in the same transaction, so a change on any instance is seen at once. The checks are **group reads**: the players asked for during one turn of the event loop (on PostgreSQL, while the previous group read is out) are read by one statement (one round trip), which starts after every call it answers was made, so each sees every change committed before it was asked |',
  '| log lines | memory, up to 12 KB or 100 ms; the one line per request is written after the answer by a logger without redaction (its fields are fixed and carry no header), every line still passes the secret scrub | the last ≤ 100 ms of log lines | logs are for people; no guarantee rests on them |',
  '| metrics | memory; the request counter and latency histogram are plain numbers per route, handed to prom-client only when /metrics is read | the counters since start | Prometheus counters restart from zero by design |',
  '',
  'Nothing is written behind: the one kind of count that could be (the per-minute image limit) is reserved in the same transaction as the daily image budget, which must be exact across instances, so keeping it apart would add work rather than save it.',
  '',
];

function planSection(plans: Plan[] | { error: string }): string[] {
  const md = [
    '## Query plans of the hot statements',
    '',
    '`EXPLAIN QUERY PLAN` (SQLite) and `EXPLAIN` (PostgreSQL, with sequential scans discouraged so the plan is the one a table of real size gets) of every statement on the forward and inventory paths, on the migrated schema, in this run; the statements inside PostgreSQL’s `lootsmith_reserve_group` (each reservation’s takes) are explained by `auto_explain` during a call.',
    '',
  ];
  if ('error' in plans) return [...md, `Not measured in this run: ${cell(plans.error)}`, ''];
  md.push('| store | statement | plan |', '|---|---|---|');
  for (const p of plans)
    md.push(`| ${p.store} | \`${cell(p.statement)}\` | ${cell(p.plan) || '(no read: an insert)'} |`);
  md.push('');
  return md;
}

function profileTable(profile: RouteProfile): string[] {
  return [
    `${profile.route}: ${profile.requests.toLocaleString('en')} requests profiled, ${profile.usPerRequest} µs of busy CPU each (the profiler’s own cost included).`,
    '',
    '| self time | function |',
    '|---|---|',
    ...profile.top.map((e) => `| ${e.percent}% | ${cell(e.frame)} |`),
    '',
  ];
}

function profileSection(profiles: Profiles | { error: string }): string[] {
  const md = [
    '## Profiles',
    '',
    'Where the server process spends its CPU under load: `node --cpu-prof` (a sample every 250 µs) of a `lootsmith` process over SQLite, 32 connections of one route for a few seconds after a warm-up; self time by function, as a share of the time the process was not idle. `writev` (the socket writes) looks larger than it is: the profiler counts the time a process waits in the system call while the process it woke (the load generator or the upstream, on the same two cores) runs; `strace -c` counts exactly two `writev` per forwarded image for Lootsmith and for the bare hop alike, with the same time in the kernel.',
    '',
  ];
  if ('error' in profiles) return [...md, `Not measured in this run: ${cell(profiles.error)}`, ''];
  const before = 'error' in profiles.before ? undefined : profiles.before;
  md.push(
    before
      ? `“After” is this checkout, profiled in this run. “Before” is the server of commit \`${before.rev}\` (where issue 16 started), profiled by the same harness on the same machine on ${before.recordedAt} and kept in \`test/bench/profile-before.json\` (\`npx tsx --conditions=@lootsmith/source test/bench/profile.ts --record-before\` with that commit's dependencies installed): its server needs packages this checkout no longer installs. Compare the shares of each profile; its µs per request were taken under that day's load.`
      : `“Before” is missing: ${cell((profiles.before as { error: string }).error)}.`,
    '',
    `Command: \`npm run bench\` (this section alone: \`npx tsx --conditions=@lootsmith/source test/bench/profile.ts\`); took ${profiles.seconds.toFixed(0)} s.`,
    '',
  );
  for (const after of profiles.after) {
    const old = before?.routes.find((b) => b.route === after.route);
    md.push(`### ${after.route}`, '');
    if (old) md.push('Before:', '', ...profileTable(old));
    md.push('After:', '', ...profileTable(after));
  }
  return md;
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

console.log('\nProfiles…');
const profiles = await profileServers().catch((err: Error) => ({ error: err.message }));
console.log('\nQuery plans…');
const plans = await queryPlans().catch((err: Error) => ({ error: err.message }));

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
    `Command: \`npm run bench\`${section.alone ? ` (this section alone: \`npx tsx --conditions=@lootsmith/source test/bench/${section.file.slice(2)}${section.args ? ` ${section.args}` : ''}\`)` : ''}; took ${seconds.toFixed(0)} s.`,
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
md.push(...profileSection(profiles), ...STATE_SECTION, ...planSection(plans));
const out = fileURLToPath(new URL('../../docs/BENCHMARKS.md', import.meta.url));
writeFileSync(out, `${md.join('\n')}\n`);
console.log(`\nWrote ${out}`);
// Pools and servers are closed; exit anyway so a stray keep-alive timer cannot hold the run open.
process.exit(0);
