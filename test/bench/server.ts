import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Item } from '@lootsmith/protocol';
import { SqliteStore } from 'lootsmith';
import { percentile, round } from './load.ts';
import type { BenchRow } from './row.ts';

const quick = process.env.LOOTSMITH_BENCH_QUICK === '1';
const PLAYERS = quick ? 1_000 : 10_000;
const ITEMS_PER_PLAYER = 100;
const CRAFTS = quick ? 500 : 3_000;

function sampleItem(id: string, owner: string): Item {
  return {
    id,
    name: `Bench Blade ${id.slice(-6)}`,
    type: 'WEAPON',
    subtype: 'sword',
    rarity: 'COMMON',
    level: 3,
    element: 'none',
    material: 'iron',
    description: `A blade of ${owner}.`,
    lore: 'Forged for a benchmark.',
    stats: [{ name: 'attack', value: 9 }],
    effects: [],
    value: 10,
    created_at: '2026-01-01T00:00:00.000Z',
  } as unknown as Item;
}

/** Seeds players × items in one transaction: 14 material stacks and the rest unique crafted items. */
function seed(store: SqliteStore) {
  const { db } = store;
  const player = db.prepare('INSERT INTO players (id, crafting_xp, created_at) VALUES (?, 100, ?)');
  const item = db.prepare('INSERT INTO items (id, owner, name, data, created_at) VALUES (?, ?, ?, ?, ?)');
  const stack = db.prepare('INSERT INTO inventory (player_id, item_id, quantity) VALUES (?, ?, ?)');
  const ledger = db.prepare(
    'INSERT INTO ledger (player_id, item_id, delta, reason, created_at) VALUES (?, ?, ?, ?, ?)',
  );
  const materials = [
    'iron_ore',
    'copper_ore',
    'oak_wood',
    'leather_scraps',
    'bone_shard',
    'healing_herb',
    'gold_nugget',
    'ember_essence',
    'frost_shard',
    'venom_gland',
    'shadow_silk',
    'holy_water',
    'storm_crystal',
    'arcane_dust',
  ];
  const at = '2026-01-01T00:00:00.000Z';
  db.transaction(() => {
    for (let p = 0; p < PLAYERS; p++) {
      const id = `bench-${p}`;
      player.run(id, at);
      for (const m of materials) {
        stack.run(id, m, 1_000);
        ledger.run(id, m, 1_000, 'starting', at);
      }
      for (let i = materials.length; i < ITEMS_PER_PLAYER; i++) {
        const itemId = `itm_bench_${p}_${i}`;
        const data = sampleItem(itemId, id);
        item.run(itemId, id, data.name, JSON.stringify(data), at);
        stack.run(id, itemId, 1);
        ledger.run(id, itemId, 1, 'loot', at);
      }
    }
  })();
  db.pragma('wal_checkpoint(TRUNCATE)');
}

/** One crafting transaction (spend, store the item, grant it, recipe, xp) on a store of 10,000 × 100. */
async function craftingTransaction(): Promise<BenchRow[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'lootsmith-bench-store-'));
  const store = new SqliteStore(dataDir);
  try {
    const seeding = performance.now();
    seed(store);
    const seeded = (performance.now() - seeding) / 1000;
    const craftTimes = async (tag: string) => {
      const times: number[] = [];
      for (let i = 0; i < CRAFTS + 200; i++) {
        const playerId = `bench-${Math.floor(Math.random() * PLAYERS)}`;
        const item = sampleItem(`itm_crafted_${tag}_${i}`, playerId);
        const started = performance.now();
        await store.craft({
          playerId,
          consume: [
            { item_id: 'iron_ore', quantity: 1 },
            { item_id: 'oak_wood', quantity: 1 },
          ],
          item,
          recipe: {
            key: 'bench-recipe',
            ingredients: [
              { item_id: 'iron_ore', quantity: 1 },
              { item_id: 'oak_wood', quantity: 1 },
            ],
            station: null,
            tool: null,
          },
          xp: 15,
          discoveryXp: 35,
          reason: 'combine',
        });
        if (i >= 200) times.push(performance.now() - started);
      }
      return times;
    };
    const times = await craftTimes('default');
    const rows = (store.db.prepare('SELECT COUNT(*) AS n FROM inventory').get() as { n: number }).n;
    const how = `SqliteStore.craft (one WAL transaction: check and spend 2 stacks, insert the item, grant it, recipe and discovery, xp; WAL checkpoints in the store's worker thread) for a random player, ${CRAFTS} times after 200 warm-up, on a store of ${PLAYERS.toLocaleString('en')} players × ${ITEMS_PER_PLAYER} items (${rows.toLocaleString('en')} inventory rows, seeded in ${seeded.toFixed(1)} s)`;
    const p99 = percentile(times, 99);
    return [
      {
        name: 'crafting transaction, p50',
        value: round(percentile(times, 50)),
        unit: 'ms',
        goal: '',
        ok: true,
        how,
      },
      { name: 'crafting transaction, p99', value: round(p99), unit: 'ms', goal: '< 5 ms', ok: p99 < 5, how },
    ];
  } finally {
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The store's figure: a crafting transaction at 10,000 players. */
export async function benchServer(): Promise<BenchRow[]> {
  return craftingTransaction();
}

if (import.meta.url === `file://${process.argv[1]}`) console.table(await benchServer());
