import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Call, inParallel, Pool, throughput } from './load.ts';
import { startLootsmith } from './lootsmith.ts';
import { ROOT, startChild } from './processes.ts';

/** The commit issue 16 started from. */
const BEFORE_REV = '653fc2c';
const PROFILE_MS = process.env.LOOTSMITH_BENCH_QUICK === '1' ? 2_000 : 5_000;
const CONNECTIONS = 32;
const TOP = Number(process.env.TOP ?? 15);

export interface ProfileEntry {
  /** Function and where it is, e.g. `verify (node_modules/fast-jwt/src/verifier.js:340)`. */
  frame: string;
  /** Share of the sampled time that was not idle. */
  percent: number;
  ms: number;
}

export interface RouteProfile {
  route: string;
  requests: number;
  /** Busy CPU time per request in the server process, from the profile. */
  usPerRequest: number;
  top: ProfileEntry[];
}

interface CpuProfile {
  startTime: number;
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number } }>;
  samples: number[];
  timeDeltas: number[];
}

function frameName(frame: CpuProfile['nodes'][number]['callFrame'], root: string): string {
  const name = frame.functionName || '(anonymous)';
  if (!frame.url) return name;
  const file = frame.url.startsWith('file://') ? relative(root, fileURLToPath(frame.url)) : frame.url;
  // Both checkouts share one node_modules: name it the same way for either.
  const path = file.includes('node_modules/') ? file.slice(file.indexOf('node_modules/')) : file;
  // TypeScript runs transpiled by tsx, whose line numbers are not the source's: the file says enough.
  return path.endsWith('.ts') ? `${name} (${path})` : `${name} (${path}:${frame.lineNumber + 1})`;
}

/** Microseconds on the monotonic clock V8's profiler stamps its samples with (the same in every process). */
const clockUs = () => Number(process.hrtime.bigint() / 1000n);

/**
 * Self time by function while the load ran (start-up and shutdown left out), largest first; idle
 * time is left out of the total.
 */
function selfTimes(profile: CpuProfile, root: string, window: [number, number]) {
  const byNode = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  const byFrame = new Map<string, number>();
  let busy = 0;
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    const frame = byNode.get(id);
    const us = profile.timeDeltas[i] ?? 0;
    at += us;
    if (at < window[0] || at > window[1]) return;
    if (!frame || frame.functionName === '(idle)') return;
    busy += us;
    const key = frameName(frame, root);
    byFrame.set(key, (byFrame.get(key) ?? 0) + us);
  });
  const top = [...byFrame.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, TOP)
    .map(([frame, us]) => ({
      frame,
      percent: Number(((100 * us) / busy).toFixed(1)),
      ms: Math.round(us / 1000),
    }));
  return { busyMs: busy / 1000, top };
}

/** Profiles one route of a Lootsmith server (this checkout's, or `tree`'s) under CONNECTIONS closed loops. */
export async function profileRoute(
  upstreamUrl: string,
  route: 'image' | 'inventory',
  tree: string,
): Promise<RouteProfile> {
  const dir = mkdtempSync(join(tmpdir(), 'lootsmith-bench-profile-'));
  const server = await startLootsmith(upstreamUrl, 'sqlite', {
    tree,
    nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${dir}`, '--cpu-prof-interval=250'],
  });
  if (!server) throw new Error('no server');
  const pool = new Pool(server.url, { connections: CONNECTIONS });
  let requests = 0;
  const window: [number, number] = [0, 0];
  try {
    const tokens: string[] = [];
    await inParallel(
      Array.from({ length: route === 'image' ? 2_000 : 1 }, (_, i) => `profile-${i}`),
      16,
      async (player) => {
        const res = await fetch(`${server.url}/api/v1/session`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ player_id: player }),
        });
        tokens.push(((await res.json()) as { token: string }).token);
      },
    );
    const next = (): Call => {
      const token = tokens[Math.floor(requests++ / 25) % tokens.length];
      return route === 'image'
        ? {
            method: 'POST',
            path: '/v1/image/generations',
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            body: JSON.stringify({ prompt: 'an iron sword, game item, fantasy', width: 64, height: 64 }),
          }
        : {
            method: 'GET',
            path: '/api/v1/player/profile-0/inventory',
            headers: { authorization: `Bearer ${token}` },
          };
    };
    // A warm-up first, so the profile shows the steady state rather than compiling.
    await throughput(pool, next, CONNECTIONS, 1_000);
    const counted = requests;
    window[0] = clockUs();
    await throughput(pool, next, CONNECTIONS, PROFILE_MS);
    window[1] = clockUs();
    requests -= counted;
  } finally {
    await pool.close();
    await server.stop();
  }
  const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) throw new Error('the server wrote no CPU profile');
  const { busyMs, top } = selfTimes(
    JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile,
    tree,
    window,
  );
  rmSync(dir, { recursive: true, force: true });
  return {
    route: route === 'image' ? 'POST /v1/image/generations' : 'GET /api/v1/player/{id}/inventory',
    requests,
    usPerRequest: Math.round((busyMs * 1000) / requests),
    top,
  };
}

/** The server of `rev` in a scratch directory, sharing this checkout's node_modules. */
function checkout(rev: string): { tree: string; remove(): void } {
  const tree = mkdtempSync(join(tmpdir(), 'lootsmith-bench-before-'));
  const archive = execFileSync('git', ['archive', rev, 'server', 'protocol', 'engine'], {
    cwd: ROOT,
    maxBuffer: 256 * 1024 * 1024,
  });
  execFileSync('tar', ['-x', '-C', tree], { input: archive });
  symlinkSync(join(ROOT, 'node_modules'), join(tree, 'node_modules'));
  return { tree, remove: () => rmSync(tree, { recursive: true, force: true }) };
}

/** The profiles of the server issue 16 started from, recorded once with `--record-before` (see below). */
const BEFORE_FILE = fileURLToPath(new URL('./profile-before.json', import.meta.url));

export interface RecordedProfiles {
  rev: string;
  recordedAt: string;
  routes: RouteProfile[];
}

export interface Profiles {
  before: RecordedProfiles | { error: string };
  after: RouteProfile[];
  seconds: number;
}

async function profileTree(tree: string): Promise<RouteProfile[]> {
  const upstream = await startChild(fileURLToPath(new URL('./instant-upstream.ts', import.meta.url)), {});
  try {
    return [
      await profileRoute(upstream.url, 'image', tree),
      await profileRoute(upstream.url, 'inventory', tree),
    ];
  } finally {
    await upstream.stop();
  }
}

/**
 * CPU profiles (`node --cpu-prof`) of the image forward and the inventory read: this checkout's,
 * measured now, and the recorded ones of the server before issue 16 (whose dependencies, such as
 * `@fastify/helmet`, this checkout no longer installs, so it cannot run here again).
 */
export async function profileServers(): Promise<Profiles> {
  const started = performance.now();
  let before: Profiles['before'];
  try {
    before = JSON.parse(readFileSync(BEFORE_FILE, 'utf8')) as RecordedProfiles;
  } catch (err) {
    before = { error: `no recorded profile: ${(err as Error).message}` };
  }
  const after = await profileTree(ROOT);
  return { before, after, seconds: (performance.now() - started) / 1000 };
}

// `npx tsx --conditions=@lootsmith/source test/bench/profile.ts --record-before [rev]`: profiles the
// server of `rev` (its dependencies must be installed) and records it for the report.
if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv[2] === '--record-before') {
    const rev = process.argv[3] ?? BEFORE_REV;
    const old = checkout(rev);
    try {
      const recorded: RecordedProfiles = {
        rev,
        recordedAt: new Date().toISOString(),
        routes: await profileTree(old.tree),
      };
      writeFileSync(BEFORE_FILE, `${JSON.stringify(recorded, null, 2)}\n`);
    } finally {
      old.remove();
    }
  } else console.log(JSON.stringify(await profileServers(), null, 2));
  process.exit(0);
}
