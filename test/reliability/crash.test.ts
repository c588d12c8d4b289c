import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FakeUpstream, startFakeUpstream } from '@lootsmith/test-support/fake-upstream';
import { unlimitedDrops, writeGameFile } from '@lootsmith/test-support/game-file';
import { type ServerProcess, startServerProcess } from '@lootsmith/test-support/process';
import Database from 'better-sqlite3';
import { Pool } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auth, checkLedger, FULL, PLAYER_SECRET, SERVER_KEY, UPSTREAM_KEY } from './support/harness.ts';

// The server process killed with SIGKILL in the middle of crafting, then restarted on the same files:
// the database is intact, the ledger balances, and every answer a player got is still true.
const CYCLES = FULL ? 3 : 1;
const LOAD_MS = FULL ? 4_000 : 1_500;
const PLAYERS = 8;

let fake: FakeUpstream;
let dataDir: string;
let running: ServerProcess | undefined;

beforeAll(async () => {
  fake = await startFakeUpstream();
  dataDir = mkdtempSync(join(tmpdir(), 'lootsmith-crash-'));
});
afterAll(async () => {
  await running?.stop('SIGKILL');
  await fake?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const start = () =>
  startServerProcess({
    LOOTSMITH_UPSTREAM_URL: fake.url,
    LOOTSMITH_UPSTREAM_KEY: UPSTREAM_KEY,
    LOOTSMITH_SERVER_KEY: SERVER_KEY,
    LOOTSMITH_PLAYER_SECRET: PLAYER_SECRET,
    LOOTSMITH_DATA_DIR: dataDir,
    LOOTSMITH_UPSTREAM_RETRIES: '0',
    // Players here drop as fast as the server answers, far beyond the shipped drop limits.
    LOOTSMITH_GAME_FILE: writeGameFile(unlimitedDrops, dataDir),
  });

interface Acknowledged {
  /** Item ids a player was told they now own. */
  items: Map<string, string>;
  requests: number;
  refused: number;
}

/** Players crafting as fast as they can until `until`; the process is killed under them. */
async function craftUntil(pool: Pool, tokens: string[], until: number, ack: Acknowledged) {
  const player = async (i: number) => {
    const id = `crash-${i}`;
    const token = tokens[i] as string;
    for (let n = 0; Date.now() < until; n++) {
      const kind = n % 10 === 9 ? 'drop' : 'combine';
      const body =
        kind === 'drop'
          ? { client_id: id, items: [{ type: 'WEAPON' }] }
          : {
              player_id: id,
              crafting_station: 'workbench',
              ingredients: [
                { item_id: 'iron_ore', quantity: 1 },
                { item_id: 'oak_wood', quantity: 1 },
              ],
            };
      try {
        ack.requests++;
        const res = await pool.request({
          method: 'POST',
          path: kind === 'drop' ? '/v1/generate/items' : '/api/v1/crafting/combine',
          headers: { ...auth(token), 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        const text = await res.body.text();
        if (res.statusCode !== 200) {
          ack.refused++;
          continue;
        }
        const json = JSON.parse(text);
        if (kind === 'combine' && json.success) ack.items.set(json.result_item.id, id);
        if (kind === 'drop')
          for (const item of json.items) if (item.type !== 'MATERIAL') ack.items.set(item.id, id);
      } catch {
        return; // the server is gone
      }
    }
  };
  await Promise.all(Array.from({ length: tokens.length }, (_, i) => player(i)));
}

describe(`SIGKILL under load (${CYCLES} cycle${CYCLES > 1 ? 's' : ''})`, () => {
  it('restarts on an intact database whose ledger balances and keeps every acknowledged craft', async () => {
    const ack: Acknowledged = { items: new Map(), requests: 0, refused: 0 };
    const guestSecrets = new Map<number, string>();
    for (let cycle = 0; cycle < CYCLES; cycle++) {
      running = await start();
      const server = running;
      const pool = new Pool(server.url, { connections: PLAYERS * 2 });
      const tokens: string[] = [];
      for (let i = 0; i < PLAYERS; i++) {
        // A guest keeps the secret its first session gave, to log in as itself after each restart.
        const guest_secret = guestSecrets.get(i);
        const session = await pool.request({
          method: 'POST',
          path: '/api/v1/session',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ player_id: `crash-${i}`, ...(guest_secret ? { guest_secret } : {}) }),
        });
        const answer = (await session.body.json()) as { token: string; guest_secret?: string };
        if (answer.guest_secret) guestSecrets.set(i, answer.guest_secret);
        tokens.push(answer.token);
        const grant = await pool.request({
          method: 'POST',
          path: `/api/v1/player/crash-${i}/inventory/grant`,
          headers: { ...auth(SERVER_KEY), 'content-type': 'application/json' },
          body: JSON.stringify({
            items: [
              { item_id: 'iron_ore', quantity: 500 },
              { item_id: 'oak_wood', quantity: 500 },
            ],
          }),
        });
        expect(grant.statusCode).toBe(200);
        await grant.body.text();
      }
      const before = ack.items.size;
      const load = craftUntil(pool, tokens, Date.now() + LOAD_MS + 2_000, ack);
      await new Promise((r) => setTimeout(r, LOAD_MS));
      await server.stop('SIGKILL');
      expect(server.child.signalCode).toBe('SIGKILL');
      expect(server.output()).toContain('incoming request');
      expect(server.output()).not.toContain(UPSTREAM_KEY);
      expect(server.output()).not.toContain(SERVER_KEY);
      await load;
      await pool.destroy();
      expect(ack.items.size).toBeGreaterThan(before);

      const db = new Database(join(dataDir, 'lootsmith.db'));
      try {
        expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
        expect(db.pragma('foreign_key_check')).toEqual([]);
        expect(checkLedger(db)).toEqual({ unbalanced: [], duplicated: [], negative: 0 });
        // Every craft a player was told about survived the kill, owned by that player.
        const owner = db.prepare<[string], { owner: string }>('SELECT owner FROM items WHERE id = ?');
        const held = db.prepare<[string, string], { quantity: number }>(
          'SELECT quantity FROM inventory WHERE player_id = ? AND item_id = ?',
        );
        for (const [item, player] of ack.items) {
          expect(owner.get(item)?.owner, item).toBe(player);
          expect(held.get(player, item)?.quantity, item).toBe(1);
        }
        // Every consumed material is accounted for by a crafted item: one iron and one oak per combine.
        for (let i = 0; i < PLAYERS; i++) {
          const p = `crash-${i}`;
          const crafted = (
            db
              .prepare(
                "SELECT COUNT(*) AS n FROM ledger WHERE player_id = ? AND reason = 'combine' AND delta = 1 AND item_id LIKE 'itm_%'",
              )
              .get(p) as { n: number }
          ).n;
          const spent = db
            .prepare(
              "SELECT item_id, -SUM(delta) AS n FROM ledger WHERE player_id = ? AND reason = 'combine' AND delta < 0 GROUP BY item_id ORDER BY item_id",
            )
            .all(p);
          expect(spent, p).toEqual(
            crafted
              ? [
                  { item_id: 'iron_ore', n: crafted },
                  { item_id: 'oak_wood', n: crafted },
                ]
              : [],
          );
        }
      } finally {
        db.close();
      }
    }
    expect(ack.refused).toBe(0);

    // The restarted server serves what the database says, and crafts on.
    running = await start();
    const pool = new Pool(running.url, { connections: 2 });
    try {
      const session = await pool.request({
        method: 'POST',
        path: '/api/v1/session',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ player_id: 'crash-0', guest_secret: guestSecrets.get(0) }),
      });
      const { token } = (await session.body.json()) as { token: string };
      const inv = await pool.request({
        path: '/api/v1/player/crash-0/inventory',
        method: 'GET',
        headers: auth(token),
      });
      const owned = new Set(
        ((await inv.body.json()) as { items: Array<{ item: { id: string } }> }).items.map((e) => e.item.id),
      );
      for (const [item, player] of ack.items)
        if (player === 'crash-0') expect(owned.has(item), item).toBe(true);
      const combine = await pool.request({
        method: 'POST',
        path: '/api/v1/crafting/combine',
        headers: { ...auth(token), 'content-type': 'application/json' },
        body: JSON.stringify({
          player_id: 'crash-0',
          crafting_station: 'workbench',
          ingredients: [
            { item_id: 'iron_ore', quantity: 1 },
            { item_id: 'oak_wood', quantity: 1 },
          ],
        }),
      });
      expect(combine.statusCode).toBe(200);
      await combine.body.text();
    } finally {
      await pool.close();
      await running.stop('SIGTERM');
      running = undefined;
    }
    console.info(
      `crash: ${ack.requests} requests, ${ack.items.size} acknowledged items survived ${CYCLES} SIGKILL(s)`,
    );
  });
});
