import { createTestSchema } from '@lootsmith/test-support/postgres';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { seededRandom } from '../src/game/random.ts';
import { PostgresStore } from '../src/store/postgres.ts';
import { SqliteStore } from '../src/store/sqlite.ts';
import type { Reservation, ReservationRequest, Store } from '../src/store/store.ts';

// SQLite runs a reservation's takes in TypeScript, PostgreSQL in `lootsmith_reserve_group`: the same
// random groups of reservations and releases must get the same answers and leave the same counts.

const ROUNDS = 150;
const PLAYERS = ['ra', 'rb', 'rc'];
const WINDOWS = [
  { key: 'w:short', windowMs: 5_000, max: 3 },
  { key: 'w:long', windowMs: 60_000, max: 6 },
  { key: 'w:kept', windowMs: 20_000, max: 4, kept: true },
];
const GRANTS = ['g1', 'g2', 'g3'];

let sqlite: SqliteStore;
let postgres: PostgresStore | undefined;
let drop = async () => {};

beforeAll(async () => {
  sqlite = new SqliteStore(':memory:');
  const schema = await createTestSchema();
  if (!schema) return;
  postgres = await PostgresStore.connect(schema.url);
  drop = schema.drop;
});
afterAll(async () => {
  await sqlite?.close();
  await postgres?.close();
  await drop();
});

/** What a caller sees of an answer: the reservation, or the refusal. */
const seen = (r: PromiseSettledResult<Reservation>) =>
  r.status === 'fulfilled'
    ? { granted: r.value }
    : { refused: (r.reason as { refusal?: unknown }).refusal ?? r.reason };

it('takes and releases the same reservations on SQLite and PostgreSQL', async ({ skip }) => {
  if (!postgres) return skip();
  const stores: Store[] = [sqlite, postgres];
  const random = seededRandom('reservation-agreement');
  const next = () => random.next();
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)] as T;
  const granted: Reservation[][] = [[], []];
  let at = 1_000_000;
  const answered = new Map<string, number>();
  for (let round = 0; round < ROUNDS; round++) {
    at += Math.floor(next() * 8_000);
    if (next() < 0.15) {
      const patch = {
        daily_items: pick([null, 2, 5]),
        daily_images: pick([null, 1, 3]),
        blocked: next() < 0.2,
      };
      const id = pick(PLAYERS);
      for (const store of stores) await store.updatePlayer(id, patch);
    }
    if (next() < 0.3 && granted[0]?.length) {
      const i = Math.floor(next() * granted[0].length);
      for (const [s, store] of stores.entries())
        await store.release(granted[s]?.splice(i, 1)[0] as Reservation);
    }
    // A call's money, settled (once, in place of a release) to a part of what it reserved: both
    // stores answer the same spend after.
    if (next() < 0.3 && granted[0]?.length) {
      const i = Math.floor(next() * granted[0].length);
      const cost = Math.floor(next() * 100);
      const [mine, theirs] = await Promise.all(
        stores.map((store, s) => store.settle(granted[s]?.splice(i, 1)[0] as Reservation, cost)),
      );
      expect(theirs, `round ${round}`).toEqual(mine);
    }
    const batch: ReservationRequest[] = Array.from({ length: 1 + Math.floor(next() * 6) }, () => {
      const playerId = pick(PLAYERS);
      const day = `d${Math.floor(round / 25) + pick([0, 1])}`;
      if (next() < 0.3)
        return {
          playerId,
          day,
          spend: {
            nanos: Math.floor(next() * 300),
            caps: [
              { scope: 'game', period: day, cap: 1500 },
              { scope: 'game', period: 'month', cap: 5000 },
              { scope: `player:${playerId}`, period: day, cap: 700 },
            ],
          },
        };
      const grant =
        next() < 0.25
          ? { id: pick(GRANTS), playerId, expiresAt: at + Math.floor(next() * 40_000) }
          : undefined;
      return {
        playerId,
        // A new day every 25 rounds, so budgets are used up and begin again.
        day,
        usage: {
          kind: pick(['items', 'images'] as const),
          n: 1 + Math.floor(next() * 2),
          limit: pick([null, 6, 'recorded'] as const),
        },
        windows: WINDOWS.filter(() => next() < 0.5),
        ...(grant ? { grant } : {}),
      };
    });
    // Made in one turn: each store takes the batch as one group.
    const answers = await Promise.all(
      stores.map((store) => Promise.allSettled(batch.map((request) => store.reserve(request, at)))),
    );
    const [mine, theirs] = answers.map((a) => a.map(seen));
    expect(theirs, `round ${round}`).toEqual(mine);
    for (const [s, a] of answers.entries())
      for (const r of a) if (r.status === 'fulfilled') granted[s]?.push(r.value);
    for (const a of mine ?? []) {
      const kind = 'refused' in a ? (a.refused as { kind: string }).kind : 'granted';
      answered.set(kind, (answered.get(kind) ?? 0) + 1);
    }
  }
  for (const player of PLAYERS)
    for (let d = 0; d <= ROUNDS / 25 + 1; d++)
      expect(await postgres.dailyUsage(player, `d${d}`)).toEqual(await sqlite.dailyUsage(player, `d${d}`));
  for (const w of WINDOWS)
    expect(await postgres.hit(w.key, w.windowMs, at)).toEqual(await sqlite.hit(w.key, w.windowMs, at));
  // Every kind of answer was compared, many times.
  for (const kind of ['granted', 'budget', 'window', 'grant_used', 'blocked', 'spend'])
    expect(answered.get(kind), kind).toBeGreaterThan(5);
});
