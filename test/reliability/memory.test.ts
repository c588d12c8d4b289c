import v8 from 'node:v8';
import vm from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auth, boot, FULL, type Harness } from './support/harness.ts';

// What one more generated item costs the server's heap once the request is over. The soak bounds
// growth per request; this pins growth per item, which the soak's mix of routes would dilute.
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;
const DROPS = FULL ? 3_000 : 1_000;

let t: Harness;
let token: string;
beforeAll(async () => {
  t = await boot({ logLevel: 'warn', unlimitedDrops: true });
  token = await t.token('memory-1');
});
afterAll(async () => {
  await t?.close();
});

async function drops(n: number) {
  for (let i = 0; i < n; i++) {
    const res = await t.server.app.inject({
      method: 'POST',
      url: '/v1/generate/items',
      headers: auth(token),
      payload: { client_id: 'memory-1', items: [{ type: 'WEAPON' }] },
    });
    expect(res.statusCode).toBe(200);
  }
}

/** The heap's data after a full GC: every space but the code spaces, which grow while the JIT tiers up. */
function heapAfterGc() {
  gc();
  gc();
  return v8
    .getHeapSpaceStatistics()
    .filter((space) => !space.space_name.includes('code'))
    .reduce((sum, space) => sum + space.space_used_size, 0);
}

describe(`heap per generated item (${DROPS} drops)`, () => {
  it('does not keep anything per generated item once its request is over', async () => {
    // Warm up first (JIT, statement caches, pools). The data spaces grow over the first thousand drops
    // only (measured in blocks of 500: 5,760 and 820 bytes an item, then -1,650, -884, -374, 278, -526,
    // 688, -57, -383, 611, -680: the noise of one reading to the next), so two thousand leave a margin.
    // Then one long window, since the heap after GC still moves by a few hundred KB from one reading
    // to the next. This guards against gross leaks (≥ 256 B an item); the icon index's ~100–400 B an
    // item is pinned exactly by a unit test in server/test/items.test.ts.
    // The console's request log holds the requests of the last second until it writes them (at most
    // 100, with their prompts: up to a megabyte): written before each reading, so the window does not
    // count a buffer that is emptied every second.
    await drops(2_000);
    await t.server.requestLog.flush();
    const before = heapAfterGc();
    await drops(3 * DROPS);
    await t.server.requestLog.flush();
    const perItem = (heapAfterGc() - before) / (3 * DROPS);
    console.info(`heap growth per generated item after warm-up: ${Math.round(perItem)} bytes`);
    expect(perItem).toBeLessThan(256);
  });
});
