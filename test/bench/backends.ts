import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FakeUpstream, startFakeUpstream } from '@lootsmith/test-support/fake-upstream';
import { type ServerProcess, startServerProcess } from '@lootsmith/test-support/process';
import { signPlayerToken } from 'lootsmith';
import { percentile } from './load.ts';
import type { BenchRow } from './row.ts';

const PLAYER_SECRET = 'bench-player-secret-0123456789';
const SERVER_KEY = 'bench-server-credential-0123456789';
const quick = process.env.LOOTSMITH_BENCH_QUICK === '1';
/** A single-GPU web UI: one image at a time, two seconds each. */
const IMAGE_MS = 2_000;
const PLAYERS = 10;
/** Each player drops loot this often. */
const EVERY_MS = 3_000;
const DROPPING_S = quick ? 15 : 45;

interface Drop {
  /** Kill to items in hand, ms. */
  items: number;
  /** Kill to the icon in hand (waiting out 202s), ms. */
  icon: number;
}

interface Side {
  name: string;
  fake: FakeUpstream;
  server: ServerProcess;
  drops: Drop[];
}

/**
 * The fantasy game with room for this load in its drop limits (a player here drops 20 times a
 * minute, over the game's 12 for the skeleton's tier): what is measured is the image backend, not the
 * game's limits.
 */
function gameFile(dir: string): string {
  const game = JSON.parse(
    readFileSync(new URL('../../server/game/fantasy-rpg.json', import.meta.url), 'utf8'),
  ) as { loot_authority: { drop_limits: Array<{ drops_per_minute: number; drops_per_hour: number }> } };
  for (const limit of game.loot_authority.drop_limits) {
    limit.drops_per_minute = Math.max(limit.drops_per_minute, 60);
    limit.drops_per_hour = Math.max(limit.drops_per_hour, 3_600);
  }
  const path = join(dir, 'game.json');
  writeFileSync(path, JSON.stringify(game));
  return path;
}

async function startSide(name: string, env: Record<string, string>, dir: string): Promise<Side> {
  const fake = await startFakeUpstream();
  fake.imageDelayMs = IMAGE_MS;
  const server = await startServerProcess({
    LOOTSMITH_GAME_FILE: gameFile(dir),
    LOOTSMITH_IMAGE_API: 'sdapi',
    LOOTSMITH_IMAGE_URL: fake.url,
    LOOTSMITH_PLAYER_SECRET: PLAYER_SECRET,
    LOOTSMITH_SERVER_KEY: SERVER_KEY,
    LOOTSMITH_DATA_DIR: join(dir, name),
    ...env,
  });
  return { name, fake, server, drops: [] };
}

/** One kill: the drop, then its icon as a game loads it (a 202 says how long to wait). */
async function kill(side: Side, player: string) {
  const authorization = `Bearer ${signPlayerToken(PLAYER_SECRET, player, 3600)}`;
  const started = performance.now();
  const res = await fetch(`${side.server.url}/v1/generate/items`, {
    method: 'POST',
    headers: { authorization, 'content-type': 'application/json' },
    body: JSON.stringify({
      client_id: player,
      generation_context: { enemy: 'skeleton' },
      items: [{ type: 'WEAPON' }],
    }),
  });
  const body = (await res.json()) as { items?: Array<{ icon: { url: string } }> };
  if (res.status !== 200)
    throw new Error(`drop answered ${res.status}: ${JSON.stringify(body).slice(0, 200)}`);
  const items = performance.now() - started;
  const url = `${side.server.url}${body.items?.[0]?.icon.url}`;
  for (;;) {
    const icon = await fetch(url, { headers: { authorization } });
    if (icon.status === 200) {
      await icon.arrayBuffer();
      break;
    }
    const wait = icon.status === 202 ? ((await icon.json()) as { retry_after_ms: number }).retry_after_ms : 0;
    if (icon.status !== 202) throw new Error(`icon answered ${icon.status}`);
    await new Promise((r) => setTimeout(r, Math.min(Math.max(wait, 100), 2_000)));
  }
  side.drops.push({ items, icon: performance.now() - started });
}

/**
 * Drops against a one-at-a-time image backend (an sdapi fake painting each image in 2 s) with chat
 * from the embedded engine: 10 players each dropping loot every 3 s, to two servers that differ only
 * in LOOTSMITH_POOLS (with pools, icons come after their item by default; without, a drop waits for
 * its icon). Every drop is kept until its icon arrives.
 */
export async function benchBackends(): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'lootsmith-bench-backends-'));
  const sides: Side[] = [];
  try {
    sides.push(await startSide('pools-on', { LOOTSMITH_POOLS: '1' }, dir));
    sides.push(await startSide('pools-off', {}, dir));
    const running: Promise<void>[] = [];
    const began = performance.now();
    const rounds = Math.floor((DROPPING_S * 1000) / EVERY_MS);
    for (let round = 0; round < rounds; round++)
      for (let p = 0; p < PLAYERS; p++) {
        // The players' drops spread over each 3 s, as kills happen.
        const due = began + round * EVERY_MS + (p * EVERY_MS) / PLAYERS;
        const wait = due - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        for (const side of sides) {
          const drop = kill(side, `bench-player-${p}`);
          // Counted once every drop has ended (below), not as an unhandled rejection meanwhile.
          drop.catch(() => {});
          running.push(drop);
        }
      }
    const outcomes = await Promise.allSettled(running);
    const failed = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
    if (failed.length) throw new Error(`${failed.length} drops failed: ${String(failed[0]?.reason)}`);
    const how = `${PLAYERS} players each dropping one typed item every ${EVERY_MS / 1000} s for ${DROPPING_S} s (${rounds * PLAYERS} drops per server), chat from the embedded engine, images from an sdapi fake that paints one at a time in ${IMAGE_MS / 1000} s; two servers (child processes, SQLite) that differ only in LOOTSMITH_POOLS, each with its own fake; from the POST to the items in hand, and to the icon in hand (waiting out 202s)`;
    const rows: BenchRow[] = [];
    for (const side of sides) {
      const items = side.drops.map((d) => d.items);
      const icons = side.drops.map((d) => d.icon);
      const ms = (n: number) => Math.round(n);
      const row = (name: string, value: number): BenchRow => ({
        name: `${side.name}: ${name}`,
        value,
        unit: 'ms',
        goal: '',
        ok: true,
        how,
      });
      rows.push(
        row('drop to items in hand, p50', ms(percentile(items, 50))),
        row('drop to items in hand, p95', ms(percentile(items, 95))),
        row('drop to icon in hand, p50', ms(percentile(icons, 50))),
        row('drop to icon in hand, p95', ms(percentile(icons, 95))),
      );
      rows.push({
        name: `${side.name}: images painted at once by the backend, most`,
        value: side.fake.painting.most,
        unit: 'images',
        goal: '≤ 1',
        ok: side.fake.painting.most <= 1,
        how: `the sdapi fake counts the images it paints at once; ${side.fake.calls.image} painted in all`,
      });
    }
    return rows;
  } finally {
    for (const side of sides) {
      await side.server.stop();
      await side.fake.close();
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const r of await benchBackends())
    console.log(`${r.ok ? 'ok ' : 'MISS'} ${r.name}: ${r.value} ${r.unit} ${r.goal}`);
  process.exit(0);
}
