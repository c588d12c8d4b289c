import { afterAll, beforeAll, expect, it } from 'vitest';
import { boot, checkLedger, type Harness, LEDGER_CHECK } from './support/harness.ts';

// The soak, races and crash suites trust checkLedger to find a corrupted store; it must, and it must
// stay cheap on a store that served for minutes.

let t: Harness;
beforeAll(async () => {
  t = await boot({ logLevel: 'warn' });
});
afterAll(async () => {
  await t?.close();
});

it('finds a stack that differs from its ledger and an item granted twice', async () => {
  await t.grant('lc1', { iron_ore: 3 });
  await t.grant('lc2', { iron_ore: 1 });
  expect(checkLedger(t.db)).toEqual({ unbalanced: [], duplicated: [], negative: 0 });
  const { quantity } = t.db
    .prepare("SELECT quantity FROM inventory WHERE player_id = 'lc1' AND item_id = 'iron_ore'")
    .get() as { quantity: number };
  t.db
    .prepare("UPDATE inventory SET quantity = quantity + 2 WHERE player_id = 'lc1' AND item_id = 'iron_ore'")
    .run();
  t.db.exec(`
    INSERT INTO items (id, owner, name, data, created_at) VALUES ('itm_twice', 'lc1', 'Twice', '{}', 'now');
    INSERT INTO ledger (player_id, item_id, delta, reason, created_at) VALUES
      ('lc1', 'itm_twice', 1, 'loot', 'now'), ('lc2', 'itm_twice', 1, 'loot', 'now');
    INSERT INTO inventory (player_id, item_id, quantity) VALUES ('lc1', 'itm_twice', 1), ('lc2', 'itm_twice', 1);
  `);
  expect(checkLedger(t.db)).toEqual({
    unbalanced: [{ player_id: 'lc1', item_id: 'iron_ore', ledger: quantity, inventory: quantity + 2 }],
    duplicated: ['itm_twice'],
    negative: 0,
  });
});

it('reads the ledger and the stacks of each item through an index, never scanning them per item', () => {
  const plan = (sql: string) =>
    (t.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as Array<{ detail: string }>).map((r) => r.detail);
  const duplicated = plan(LEDGER_CHECK.duplicated);
  expect(duplicated).toContain('SEARCH l USING INDEX ledger_item (item_id=?)');
  expect(duplicated).toContain('SEARCH v USING INDEX inventory_item (item_id=?)');
  for (const sql of Object.values(LEDGER_CHECK)) {
    const steps = plan(sql);
    // What a correlated subquery runs, it runs once per outer row: it must be a search.
    steps.forEach((step, i) => {
      if (steps[i - 1]?.startsWith('CORRELATED')) expect(step).toMatch(/^SEARCH /);
    });
  }
});
