import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GameDefinition, Item } from '@lootsmith/protocol';
import { type PacedUpstream, startPacedUpstream } from '@lootsmith/test-support/fake-upstream';
import {
  dropLimits,
  LootsmithClient,
  loadGameDefinition,
  POOL_DEFAULTS,
  pickWeighted,
  seededRandom,
} from '@lootsmith/test-support/internals';
import { type ServerProcess, startServerProcess } from '@lootsmith/test-support/process';
import { signPlayerToken } from 'lootsmith';
import { percentile } from './load.ts';
import type { BenchRow } from './row.ts';

const PLAYER_SECRET = 'bench-player-secret-0123456789';
const SERVER_KEY = 'bench-server-credential-0123456789';
const quick = process.env.LOOTSMITH_BENCH_QUICK === '1';
/** A hosted model's pace, as the issue sets it. */
const PACE = { chatMs: 2_000, imageMs: 1_500 };
const KILLS_PER_SECOND = 3;
const WARM_UP_S = quick ? 10 : 30;
const MEASURE_S = quick ? 15 : 40;
/** The demo's players early in the game: hero levels 1 to 5, two of each. */
const PLAYERS = Array.from({ length: 10 }, (_, i) => ({ id: `bench-hero-${i}`, level: 1 + (i % 5) }));
/** The demo's enemies, how many items each drops, its room, and how often it is met (1 / respawn time). */
const ENEMIES = [
  { id: 'slime', loot: 1, room: "Crafters' Hall", weight: 2 / 12 },
  { id: 'rat', loot: 1, room: "Crafters' Hall", weight: 1 / 12 },
  { id: 'skeleton', loot: 1, room: 'Frozen Crypt', weight: 1 / 20 },
  { id: 'fire_imp', loot: 1, room: 'Frozen Crypt', weight: 1 / 25 },
  { id: 'cultist', loot: 2, room: 'Frozen Crypt', weight: 1 / 25 },
  { id: 'frost_giant', loot: 3, room: 'Frozen Crypt', weight: 1 / 60 },
];

interface Drop {
  /** Kill to items in hand (the plugin core's `generateItems`), ms. */
  items: number;
  /** Kill to every icon in hand as well (waiting out 202s where an icon is still painted), ms. */
  icons: number;
  generated: Item[];
  /** Items whose icon came painted with them (no `pending` status). */
  painted: Item[];
  measured: boolean;
}

interface Side {
  name: string;
  upstream: PacedUpstream;
  server: ServerProcess;
  drops: Drop[];
  clients: Map<string, LootsmithClient>;
}

async function metricsOf(server: ServerProcess): Promise<string> {
  const res = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${SERVER_KEY}` } });
  return res.text();
}

const sum = (text: string, name: string, labels = '') =>
  text
    .split('\n')
    .filter((l) => l.startsWith(`${name}{`) && l.includes(labels))
    .reduce((total, l) => total + Number(l.split(' ').at(-1)), 0);

async function startSide(name: string, env: Record<string, string>, dir: string): Promise<Side> {
  const upstream = await startPacedUpstream(PACE);
  const server = await startServerProcess({
    LOOTSMITH_UPSTREAM_URL: upstream.url,
    LOOTSMITH_UPSTREAM_KEY: upstream.key,
    LOOTSMITH_PLAYER_SECRET: PLAYER_SECRET,
    LOOTSMITH_SERVER_KEY: SERVER_KEY,
    LOOTSMITH_DATA_DIR: join(dir, name),
    ...env,
  });
  const clients = new Map(
    PLAYERS.map((p) => [
      p.id,
      new LootsmithClient({
        baseUrl: server.url,
        playerId: p.id,
        cache: false,
        getToken: () => signPlayerToken(PLAYER_SECRET, p.id, 3600),
      }),
    ]),
  );
  return { name, upstream, server, drops: [], clients };
}

/** One kill as the game makes it: the plugin core's drop call, then each icon (as the drop sprite loads it). */
async function kill(
  side: Side,
  player: (typeof PLAYERS)[number],
  enemy: (typeof ENEMIES)[number],
  measured: boolean,
) {
  const client = side.clients.get(player.id) as LootsmithClient;
  const started = performance.now();
  const items = await client.generateItems({
    enemy: enemy.id,
    location: enemy.room,
    theme: 'dark fantasy dungeon',
    playerLevel: player.level,
    count: enemy.loot,
  });
  const inHand = performance.now() - started;
  const generated = items.filter((i) => i.id.startsWith('itm_'));
  const painted = generated.filter((i) => i.icon && i.icon.status !== 'pending');
  // A painted icon must be there at once: its first request is the PNG, not a 202.
  const firstAsks = await Promise.all(painted.map((i) => fetch(client.baseUrl + (i.icon?.url ?? ''))));
  for (const [n, res] of firstAsks.entries()) {
    await res.arrayBuffer();
    if (res.status !== 200) painted.splice(n, 1, { ...(painted[n] as Item), icon: null });
  }
  await Promise.all(items.flatMap((i) => (i.icon ? [client.icon(i.icon)] : [])));
  side.drops.push({
    items: inHand,
    icons: performance.now() - started,
    generated,
    painted: painted.filter((i) => i.icon),
    measured,
  });
}

const ms = (n: number) => Math.round(n);
const round1 = (n: number) => Number(n.toFixed(1));
const round2 = (n: number) => Number(n.toFixed(2));

/** The pools-on server's metrics once its refills have ended: nothing being generated, spend unchanged. */
async function settledMetrics(server: ServerProcess): Promise<string> {
  let last = '';
  for (let i = 0; i < 60; i++) {
    const text = await metricsOf(server);
    const spent = sum(text, 'lootsmith_pool_spent_items_total');
    if (
      sum(text, 'lootsmith_pool_items', 'state="pending"') === 0 &&
      spent === sum(last, 'lootsmith_pool_spent_items_total')
    )
      return text;
    last = text;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('the pools were still generating 30 s after the last kill');
}

/**
 * Drop latency against a slow hosted model (chat 2 s, images 1.5 s), pools on and off side by side:
 * the same stream of kills, at the same moments, to two servers that differ only in LOOTSMITH_POOLS.
 */
export async function benchPools(): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'lootsmith-bench-pools-'));
  const sides: Side[] = [];
  try {
    sides.push(await startSide('on', { LOOTSMITH_POOLS: '1' }, dir));
    sides.push(await startSide('off', {}, dir));
    const random = seededRandom('bench-pools');
    const weights = ENEMIES.map((e) => e.weight);
    const pick = () => ENEMIES[pickWeighted(weights, random)] as (typeof ENEMIES)[number];
    const kills = (WARM_UP_S + MEASURE_S) * KILLS_PER_SECOND;
    const [on, off] = sides as [Side, Side];
    const began = performance.now();
    const running: Promise<void>[] = [];
    let atWindow: Promise<string> | undefined;
    for (let k = 0; k < kills; k++) {
      const due = began + (k * 1000) / KILLS_PER_SECOND;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const player = PLAYERS[k % PLAYERS.length] as (typeof PLAYERS)[number];
      const enemy = pick();
      const measured = k >= WARM_UP_S * KILLS_PER_SECOND;
      if (measured && !atWindow) atWindow = metricsOf(on.server);
      for (const side of sides) running.push(kill(side, player, enemy, measured));
    }
    const outcomes = await Promise.allSettled(running);
    const failed = outcomes.filter((o) => o.status === 'rejected') as PromiseRejectedResult[];
    if (failed.length) throw new Error(`${failed.length} drops failed: ${String(failed[0]?.reason)}`);
    const before = (await atWindow) ?? '';
    const after = await settledMetrics(on.server);

    const measuredOf = (side: Side) => side.drops.filter((d) => d.measured);
    const items = (side: Side) => measuredOf(side).map((d) => d.items);
    const icons = (side: Side) => measuredOf(side).map((d) => d.icons);
    const p = (side: Side, q: number) => ms(percentile(items(side), q));
    const generatedIn = (drops: Drop[]) => drops.flatMap((d) => d.generated).length;
    const spent = (text: string) => sum(text, 'lootsmith_pool_spent_items_total');
    const hits = sum(after, 'lootsmith_pool_draws_total', 'outcome="hit"');
    const misses = sum(after, 'lootsmith_pool_draws_total', 'outcome="miss"');
    const windowSpent = spent(after) - spent(before);
    const windowServed = generatedIn(measuredOf(on));
    const perItem = windowSpent / windowServed;
    const served = generatedIn(on.drops);
    const painted = measuredOf(on).flatMap((d) => d.painted).length;
    const left = sum(after, 'lootsmith_pool_items', 'state="ready"');
    const settings = `defaults LOOTSMITH_POOL_SIZE ${POOL_DEFAULTS.size}, _TOTAL ${POOL_DEFAULTS.total}, _BUDGET_PER_HOUR ${POOL_DEFAULTS.budgetPerHour}, _CONCURRENCY ${POOL_DEFAULTS.concurrency}`;
    const stream = `${KILLS_PER_SECOND} kills/s, ${WARM_UP_S} s of warm-up then ${MEASURE_S} s measured (${MEASURE_S * KILLS_PER_SECOND} kills), the same kills at the same moments to two servers (child processes, SQLite) that differ only in LOOTSMITH_POOLS (${settings}); the demo's enemies as often as they respawn, with their item counts and rooms; 10 players at hero levels 1–5; each server's /v1 service the engine behind a pace of chat ${PACE.chatMs / 1000} s and images ${PACE.imageMs / 1000} s`;
    const latencyHow = `${stream}; from the plugin core's generateItems call (LootsmithClient in Node) to items in hand`;
    const iconHow = `same kills; from the call to items and every icon in hand (the client waits out 202s with back-off)`;
    const row = (name: string, value: number, unit: string, goal: string, ok: boolean, how: string) =>
      ({ name, value, unit, goal, ok, how }) satisfies BenchRow;
    return [
      row('pools on: drop to items in hand, p50', p(on, 50), 'ms', '≤ 50 ms', p(on, 50) <= 50, latencyHow),
      row('pools on: drop to items in hand, p95', p(on, 95), 'ms', '≤ 250 ms', p(on, 95) <= 250, latencyHow),
      row('pools off: drop to items in hand, p50', p(off, 50), 'ms', '', true, latencyHow),
      row('pools off: drop to items in hand, p95', p(off, 95), 'ms', '', true, latencyHow),
      row(
        'pools on: drop to items and icons in hand, p50',
        ms(percentile(icons(on), 50)),
        'ms',
        '',
        true,
        iconHow,
      ),
      row(
        'pools on: drop to items and icons in hand, p95',
        ms(percentile(icons(on), 95)),
        'ms',
        '',
        true,
        iconHow,
      ),
      row(
        'pools off: drop to items and icons in hand, p95',
        ms(percentile(icons(off), 95)),
        'ms',
        '',
        true,
        iconHow,
      ),
      row(
        'pools on: measured items that came with their icon painted',
        round1((100 * painted) / windowServed),
        '%',
        '',
        true,
        `${painted} of ${windowServed} generated items served in the measured window carried no pending icon and their icon URL answered 200 at the first request; pooled items are painted before they are stocked, an item generated on demand (a miss) comes with a pending icon`,
      ),
      row(
        'pools on: pool hit rate, whole run',
        round1((100 * hits) / Math.max(1, hits + misses)),
        '%',
        '',
        true,
        `lootsmith_pool_draws_total of the pools-on server, warm-up included: ${hits} items from a pool, ${misses} generated on demand because the pool had none that fit`,
      ),
      row(
        'pools on: pool generations per item served, after warm-up',
        round2(perItem),
        'generations',
        '≤ 1.2',
        perItem <= 1.2,
        `items the pools started generating while the measured kills were made and until their refills ended (lootsmith_pool_spent_items_total, ${windowSpent}: what the hourly budget is charged) ÷ generated items those kills served (${windowServed}); materials are not generated and not counted`,
      ),
      row(
        'pools on: pool generations per item served, whole run',
        round2(spent(after) / served),
        'generations',
        '',
        true,
        `the same over the whole run, the warm-up's first fill included (${spent(after)} ÷ ${served}); ${left} items are still pooled at the end, ready for later drops`,
      ),
      row(
        'pools on: all generations per item served, whole run',
        round2((spent(after) + misses) / served),
        'generations',
        '',
        true,
        `the pools' generations plus the ${misses} items generated on demand, ÷ items served; without pools every item served is one generation`,
      ),
      row(
        'upstream calls, pools on ÷ pools off',
        round2(
          (on.upstream.calls.chat + on.upstream.calls.image) /
            (off.upstream.calls.chat + off.upstream.calls.image),
        ),
        '×',
        '',
        true,
        `chat and image calls answered by each paced service, whole run (on: ${on.upstream.calls.chat} chat, ${on.upstream.calls.image} images; off: ${off.upstream.calls.chat} chat, ${off.upstream.calls.image} images); a pool batch writes up to 8 items in one chat`,
      ),
    ];
  } finally {
    for (const side of sides) {
      await side.server.stop();
      await side.upstream.close();
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The session of the warming issue: a fresh game, five players logging in, then kills as their levels rise. */
const SESSION = {
  players: 5,
  idleS: quick ? 20 : 60,
  /** How long the heroes fight after the idle minute. */
  fightS: quick ? 60 : 120,
  /** Between two kills, over all players (each player's kills are `players` × this apart). */
  killEveryMs: 400,
  /** Pool budget for this load: five heroes draw far more than the default 600 items an hour. */
  budgetPerHour: 3000,
  /** Hero XP per level (demo-game/src/hero-progress.ts). */
  xpPerLevel: 60,
};

/** The demo's non-boss enemies: hero XP per kill and items dropped (demo-game/src/world/enemy-kinds.ts). */
const DEMO_KILLS: Record<string, { xp: number; loot: number }> = {
  slime: { xp: 8, loot: 1 },
  rat: { xp: 6, loot: 1 },
  skeleton: { xp: 18, loot: 1 },
  fire_imp: { xp: 24, loot: 1 },
  cultist: { xp: 28, loot: 2 },
};

interface SessionDrop {
  ms: number;
  /** Generated items served (materials are not generated). */
  generated: number;
  level: number;
}

type Hero = { id: string; client: LootsmithClient; xp: number; kills: Map<number, number[]> };

/** A fresh pools-on server over a paced stand-in, its heroes logged in (inventories loaded) and idle. */
async function pooledGame(pace: Parameters<typeof startPacedUpstream>[0], env: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), 'lootsmith-bench-session-'));
  const upstream = await startPacedUpstream(pace);
  const server = await startServerProcess({
    LOOTSMITH_UPSTREAM_URL: upstream.url,
    LOOTSMITH_UPSTREAM_KEY: upstream.key,
    LOOTSMITH_PLAYER_SECRET: PLAYER_SECRET,
    LOOTSMITH_SERVER_KEY: SERVER_KEY,
    LOOTSMITH_DATA_DIR: dir,
    LOOTSMITH_POOLS: '1',
    LOOTSMITH_POOL_BUDGET_PER_HOUR: String(SESSION.budgetPerHour),
    ...env,
  });
  const heroes: Hero[] = Array.from({ length: SESSION.players }, (_, i) => {
    const id = `session-hero-${i}`;
    const client = new LootsmithClient({
      baseUrl: server.url,
      playerId: id,
      cache: false,
      getToken: () => signPlayerToken(PLAYER_SECRET, id, 3600),
    });
    return { id, client, xp: 0, kills: new Map<number, number[]>() };
  });
  return {
    server,
    heroes,
    /** Every hero loads its inventory (as the demo does at start), then the game stays idle. */
    async logIn(idleS: number) {
      await Promise.all(heroes.map((h) => h.client.inventory()));
      await new Promise((r) => setTimeout(r, idleS * 1000));
    },
    async close() {
      await server.stop();
      await upstream.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const tierOf = (game: GameDefinition, id: string) => game.enemies.find((e) => e.id === id)?.tier ?? 1;

/** Whether the hero may still loot an enemy of this tier this minute (the game's drop limits per tier). */
const lootable = (game: GameDefinition, hero: Hero, tier: number, now: number) =>
  (hero.kills.get(tier) ?? []).filter((t) => now - t < 61_000).length <
  dropLimits(game, tier).drops_per_minute - 1;

/**
 * Kills, one every `SESSION.killEveryMs` over the heroes in rotation, `turns` of them; `fight` picks
 * the hero's enemy and room (none: the hero waits for one to respawn). Each kill gives the demo's XP,
 * and the drop asks at the level reached.
 */
async function play(
  game: GameDefinition,
  heroes: Hero[],
  turns: number,
  fight: (hero: Hero, now: number, turn: number) => { room: string; enemy: string } | undefined,
): Promise<SessionDrop[]> {
  const drops: SessionDrop[] = [];
  const running: Promise<void>[] = [];
  const began = performance.now();
  for (let k = 0; k < turns; k++) {
    const wait = began + k * SESSION.killEveryMs - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const hero = heroes[k % heroes.length] as Hero;
    const now = performance.now();
    const chosen = fight(hero, now, Math.floor(k / heroes.length));
    if (!chosen) continue;
    const { room, enemy } = chosen;
    const tier = tierOf(game, enemy);
    hero.kills.set(tier, [...(hero.kills.get(tier) ?? []), now]);
    const kind = DEMO_KILLS[enemy] as { xp: number; loot: number };
    hero.xp += kind.xp;
    const level = 1 + Math.floor(hero.xp / SESSION.xpPerLevel);
    running.push(
      (async () => {
        const started = performance.now();
        const items = await hero.client.generateItems({
          enemy,
          location: room,
          theme: 'dark fantasy dungeon',
          playerLevel: level,
          count: kind.loot,
        });
        drops.push({
          ms: performance.now() - started,
          generated: items.filter((i) => i.id.startsWith('itm_')).length,
          level,
        });
      })(),
    );
  }
  const outcomes = await Promise.allSettled(running);
  const failed = outcomes.filter((o) => o.status === 'rejected') as PromiseRejectedResult[];
  if (failed.length) throw new Error(`${failed.length} drops failed: ${String(failed[0]?.reason)}`);
  return drops;
}

/** The buckets that missed, with how many items each, from the draws counter. */
function missedIn(metrics: string): string {
  const missed = metrics
    .split('\n')
    .filter((l) => l.startsWith('lootsmith_pool_draws_total{') && l.includes('outcome="miss"'))
    .map((l) => `${/bucket="([^"]*)"/.exec(l)?.[1]} ${l.split(' ').at(-1)}`);
  return missed.length ? ` (${missed.join(', ')})` : '';
}

/** The figures of a session: latency, generations per item served (warming included), hits and warming. */
function sessionRows(label: string, drops: SessionDrop[], after: string, how: string): BenchRow[] {
  const times = drops.map((d) => d.ms);
  const p50 = ms(percentile(times, 50));
  const p95 = ms(percentile(times, 95));
  const served = drops.reduce((n, d) => n + d.generated, 0);
  const spent = sum(after, 'lootsmith_pool_spent_items_total');
  const misses = sum(after, 'lootsmith_pool_draws_total', 'outcome="miss"');
  const hits = sum(after, 'lootsmith_pool_draws_total', 'outcome="hit"');
  const scaled = sum(after, 'lootsmith_pool_scaled_items_total');
  const warmed = (reason: string) => sum(after, 'lootsmith_pool_warmed_items_total', `reason="${reason}"`);
  const perItem = (spent + misses) / served;
  const row = (name: string, value: number, unit: string, goal: string, ok: boolean, text: string) =>
    ({ name: `${label}: ${name}`, value, unit, goal, ok, how: text }) satisfies BenchRow;
  return [
    row('drop to items in hand, p50', p50, 'ms', '≤ 50 ms', p50 <= 50, how),
    row('drop to items in hand, p95', p95, 'ms', '≤ 250 ms', p95 <= 250, how),
    row(
      'generations per item served',
      round2(perItem),
      'generations',
      '≤ 1.5',
      perItem <= 1.5,
      `every generation of the session, start-up and predicted warming and the items still pooled at the end included (${spent} started by the pools, lootsmith_pool_spent_items_total, plus ${misses} generated on demand) ÷ ${served} generated items served`,
    ),
    row(
      'pool hit rate',
      round1((100 * hits) / Math.max(1, hits + misses)),
      '%',
      '',
      true,
      `lootsmith_pool_draws_total: ${hits} items from a pool (${scaled} of them another band's, scaled: lootsmith_pool_scaled_items_total), ${misses} generated on demand${missedIn(after)}`,
    ),
    row(
      'items warmed ahead of any draw',
      warmed('predicted') + warmed('start-up'),
      'items',
      '',
      true,
      `lootsmith_pool_warmed_items_total: ${warmed('start-up')} at start-up, ${warmed('predicted')} predicted (next level band, neighbouring rooms, next tier), ${warmed('seen')} refills of buckets drawn from`,
    ),
  ];
}

/**
 * One play session against a fresh pools-on server: `SESSION.players` heroes load their inventories
 * (as the demo does at start), stay idle, then kill the demo's non-boss enemies in the rooms of the
 * game's map their level reaches. Against the paced stand-in: chat 2 s and images 1.5 s, or images
 * one at a time at 2 s.
 */
async function session(backend: 'hosted' | 'one GPU'): Promise<BenchRow[]> {
  const game = loadGameDefinition();
  const pace =
    backend === 'hosted'
      ? { chatMs: 2_000, imageMs: 1_500 }
      : { chatMs: 2_000, imageMs: 2_000, oneImageAtATime: true };
  const run = await pooledGame(pace, backend === 'one GPU' ? { LOOTSMITH_IMAGE_CONCURRENCY: '1' } : {});
  try {
    const random = seededRandom(`bench-session-${backend}`);
    const tierFrom = (tier: number) => game.loot_pools.tier_levels?.[tier - 1] ?? 1;
    await run.logIn(SESSION.idleS);

    /**
     * Where a hero fights: mostly the newest room its level reaches, else any it reaches, among the
     * enemies it may still loot this minute (the game's drop limits per tier, as monsters respawn).
     */
    const fight = (hero: Hero, now: number) => {
      const level = 1 + Math.floor(hero.xp / SESSION.xpPerLevel);
      const rooms = game.loot_pools.rooms
        .map((r) => ({
          name: r.name,
          enemies: r.enemies.filter(
            (id) =>
              id in DEMO_KILLS &&
              tierFrom(tierOf(game, id)) <= level &&
              lootable(game, hero, tierOf(game, id), now),
          ),
        }))
        .filter((r) => r.enemies.length);
      if (!rooms.length) return undefined;
      const top = (r: (typeof rooms)[number]) => Math.max(...r.enemies.map((id) => tierOf(game, id)));
      const newest = rooms.reduce((a, b) => (top(b) > top(a) ? b : a));
      const room = random.next() < 0.6 ? newest : (rooms[Math.floor(random.next() * rooms.length)] ?? newest);
      const enemy = room.enemies[Math.floor(random.next() * room.enemies.length)] as string;
      return { room: room.name, enemy };
    };
    const drops = await play(game, run.heroes, (SESSION.fightS * 1000) / SESSION.killEveryMs, fight);
    const after = await settledMetrics(run.server);
    const top = Math.max(...drops.map((d) => d.level));
    const paceText =
      backend === 'hosted'
        ? 'chat 2 s and images 1.5 s'
        : 'chat 2 s and images 2 s painted one at a time (a single GPU; LOOTSMITH_IMAGE_CONCURRENCY=1)';
    const how = `a fresh game (SQLite, child process, LOOTSMITH_POOLS=1, LOOTSMITH_POOL_BUDGET_PER_HOUR=${SESSION.budgetPerHour} (its player share a tenth), other limits default), its /v1 service the engine behind a pace of ${paceText}; ${SESSION.players} heroes load their inventories as the demo does, ${SESSION.idleS} s idle, then ${SESSION.fightS} s of kills (${drops.length}), a hero's turn every ${SESSION.killEveryMs} ms in rotation, of the demo's non-boss enemies in the map's rooms their level reaches (a turn passes when the game's drop limits per tier leave the hero nothing to loot, as when monsters respawn) (loot_pools.rooms, tier_levels of server/game/fantasy-rpg.json), the demo's XP per kill and items per enemy, levels 1 to ${top}; every drop after the idle minute, from the plugin core's generateItems call to items in hand`;
    return sessionRows(backend, drops, after, how);
  } finally {
    await run.close();
  }
}

/** A stranger's play (issue 36): every drop of each hero, and the idle warm-up (LOOTSMITH_BENCH_IDLE_S shortens it). */
const STRANGER = { drops: 30, idleS: Number(process.env.LOOTSMITH_BENCH_IDLE_S ?? 60) };

/**
 * Not the demo's route: five heroes log in together, stay idle a minute, then from level 1 fight
 * every non-boss enemy of the default game in turn, whatever its tier, each in the room the game
 * file puts it (the first room that lists it), 30 drops each, a hero's turn every 400 ms. An enemy
 * whose tier the game's drop limits close this minute is passed over for the next one.
 */
export async function benchPoolStranger(): Promise<BenchRow[]> {
  const game = loadGameDefinition();
  const run = await pooledGame(PACE, {});
  try {
    const enemies = Object.keys(DEMO_KILLS).map((id) => ({
      id,
      room: game.loot_pools.rooms.find((r) => r.enemies.includes(id))?.name as string,
    }));
    await run.logIn(STRANGER.idleS);
    const fight = (hero: Hero, now: number, turn: number) => {
      const first = run.heroes.indexOf(hero) + turn;
      for (let n = 0; n < enemies.length; n++) {
        const e = enemies[(first + n) % enemies.length] as (typeof enemies)[number];
        if (lootable(game, hero, tierOf(game, e.id), now)) return { room: e.room, enemy: e.id };
      }
      return undefined;
    };
    const drops = await play(game, run.heroes, STRANGER.drops * run.heroes.length, fight);
    const after = await settledMetrics(run.server);
    const top = Math.max(...drops.map((d) => d.level));
    const how = `a fresh game (SQLite, child process, LOOTSMITH_POOLS=1, LOOTSMITH_POOL_BUDGET_PER_HOUR=${SESSION.budgetPerHour} (its player share a tenth), other limits default), its /v1 service the engine behind a pace of chat 2 s and images 1.5 s; ${SESSION.players} heroes load their inventories, ${STRANGER.idleS} s idle, then ${drops.length} kills, a hero's turn every ${SESSION.killEveryMs} ms in rotation, each hero from level 1 taking the demo's non-boss enemies in turn whatever their tier (${enemies.map((e) => `${e.id} in ${e.room}`).join(', ')}; the rooms are where loot_pools.rooms of server/game/fantasy-rpg.json puts them; an enemy whose tier's drop limit is used up this minute is passed over), the demo's XP per kill and items per enemy, levels 1 to ${top}; every drop, from the plugin core's generateItems call to items in hand`;
    if (process.env.LOOTSMITH_BENCH_VERBOSE)
      console.log(
        after
          .split('\n')
          .filter((l) => /^lootsmith_pool_(spent_items_total|draws_total|items)\{/.test(l))
          .join('\n'),
      );
    return sessionRows('stranger', drops, after, how);
  } finally {
    await run.close();
  }
}

/** The warming issue's session against a hosted model, then against a one-at-a-time image backend. */
export async function benchPoolSession(): Promise<BenchRow[]> {
  return [...(await session('hosted')), ...(await session('one GPU'))];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const only = process.argv[2];
  const rows = [
    ...(only === undefined || only === 'stream' ? await benchPools() : []),
    ...(only === undefined || only === 'session' ? await benchPoolSession() : []),
    ...(only === undefined || only === 'stranger' ? await benchPoolStranger() : []),
  ];
  for (const r of rows)
    console.log(
      `${r.ok ? 'ok ' : 'MISS'} ${r.name}: ${r.value} ${r.unit} ${r.goal}${process.env.LOOTSMITH_BENCH_VERBOSE ? `\n    ${r.how}` : ''}`,
    );
  process.exit(0);
}
