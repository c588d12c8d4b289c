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
  t = await boot({ logLevel: 'warn' });
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

function heapAfterGc() {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

describe(`heap per generated item (${DROPS} drops)`, () => {
  // KNOWN BUG, not ours to fix (server/src/coordination/local.ts and icons.ts are the lead's): the icon
  // prompt index keeps every generated item's prompt in a Map for the life of the process, about 1–2 KB
  // an item (the prompts are cons strings holding their parts), so memory grows without bound with the
  // number of items ever generated. `it.fails` keeps the suite green while it stands; when the index is
  // bounded or moved to the store this fails: drop `.fails` then.
  it.fails('does not keep anything per generated item once its request is over', async () => {
    await drops(200);
    const before = heapAfterGc();
    await drops(DROPS);
    const perItem = (heapAfterGc() - before) / DROPS;
    console.info(`heap growth per generated item: ${Math.round(perItem)} bytes`);
    expect(perItem).toBeLessThan(256);
  });
});
