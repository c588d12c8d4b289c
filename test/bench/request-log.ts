// What the console's request log costs an instance, in process: what the request path does (append
// references) and what the write once a second does (serialise, cut, scrub, one SQLite transaction,
// trim), per request. Two shapes: a drop (its body, three chat calls with a 5.4 KB system prompt) and
// an image forward (its body, one image call).
//   npx tsx --conditions=@lootsmith/source test/bench/request-log.ts
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RequestLog } from '@lootsmith/test-support/internals';
import { SqliteStore } from 'lootsmith';

const ROUNDS = 20;
const PER_ROUND = 1000;
const SYSTEM = 'You are the item designer of the game. '.repeat(140);

async function measure(shape: 'drop' | 'image') {
  const dir = mkdtempSync(join(tmpdir(), 'lootsmith-bench-reqlog-'));
  const store = new SqliteStore(dir);
  const log = new RequestLog(store.requestLog, { max: 10_000, days: 7 });
  let pathNs = 0n;
  let writeNs = 0n;
  for (let r = 0; r < ROUNDS; r++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < PER_ROUND; i++) {
      const id = randomUUID();
      const player = `player-${i}`;
      log.request({
        id,
        at: Date.now(),
        method: 'POST',
        route: shape === 'drop' ? 'POST /v1/generate/items' : 'POST /v1/image/generations',
        status: 200,
        ms: 20,
        playerId: player,
        body:
          shape === 'drop'
            ? { client_id: player, generation_context: { enemy: 'slime', player_level: 2 }, items: [{}, {}] }
            : { client_id: player, prompt: 'a lantern, game item', width: 512, height: 512 },
        result: shape === 'drop' ? { items: ['itm_a', 'itm_b'] } : null,
      });
      const call = (request: { prompt: unknown; answer: unknown }) =>
        log.call({
          backend: shape === 'drop' ? 'chat:openai' : 'image:openai',
          kind: shape === 'drop' ? 'chat' : 'image',
          outcome: 'ok',
          ms: 300,
          clientId: player,
          cost: 1000,
          request: { id, ...request },
        });
      if (shape === 'image')
        call({
          prompt: { prompt: 'a lantern, game item', width: 512, height: 512 },
          answer: { width: 512, height: 512, bytes: 40_000, content_type: 'image/png' },
        });
      else
        for (let c = 0; c < 3; c++)
          call({
            prompt: [
              { role: 'system', content: SYSTEM },
              { role: 'user', content: 'Generate 2 items. Item 1: WEAPON, RARE, level 2' },
            ],
            answer: { text: '{"items":[{"name":"Ember Fang"}]}'.repeat(20) },
          });
    }
    const appended = process.hrtime.bigint();
    await log.flush();
    writeNs += process.hrtime.bigint() - appended;
    pathNs += appended - start;
  }
  await log.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
  const per = (ns: bigint) => (Number(ns) / (ROUNDS * PER_ROUND) / 1000).toFixed(1);
  console.log(
    `${shape}: on the request path ${per(pathNs)} µs a request; the write ${per(writeNs)} µs a request`,
  );
}

await measure('drop');
await measure('image');
