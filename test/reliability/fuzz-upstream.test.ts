import { type GeneratedItem, SPEC_RARITIES } from '@lootsmith/protocol';
import { ADAPTERS } from '@lootsmith/test-support/backends';
import { completion, itemsFor } from '@lootsmith/test-support/fake-upstream';
import { checkImage, checkItem } from '@lootsmith/test-support/internals';
import { TINY_PNG } from '@lootsmith/test-support/png';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auth, boot, dumpStore, FULL, type Harness, UPSTREAM_KEY } from './support/harness.ts';

// A misbehaving model and image service, at random, behind every backend API: whatever they answer, a
// player gets a 200 with items that keep every rule, or a clean 502 that changed nothing; never a 500,
// never a piece of the key.
const RUNS = FULL ? 2_000 : 50;
const KEY_PIECES = [
  UPSTREAM_KEY,
  UPSTREAM_KEY.slice(3, 17),
  UPSTREAM_KEY.slice(-14),
  Buffer.from(`lootsmith:${UPSTREAM_KEY}`).toString('base64'),
];
const leaks = (text: string) => KEY_PIECES.some((k) => text.includes(k));

/** Text a hostile model writes: anything, control and bidi characters, huge, or the key it was sent. */
const hostileText = (auth: string) =>
  fc.oneof(
    fc.string({ maxLength: 60 }),
    fc.string({ unit: 'binary', maxLength: 60 }),
    fc.constantFrom(
      `Sent with ${auth}`,
      auth.slice(7),
      `…${auth.slice(10, 30)}…`,
      'Blade\u202Eevil\u0000\u001b[31m',
      '+99999 power (MYTHIC)',
      'LEGENDARY relic',
    ),
    fc.nat(5_000).map((n) => 'x'.repeat(n * 200)),
  );

const hostileNumber = fc.oneof(
  fc.integer({ min: -10, max: 200 }),
  fc.constantFrom(10_000_000, 99_999, -1, 1e21, 0.5, Number.MAX_SAFE_INTEGER),
);

/** One item as a model might break it: each field kept, replaced by something hostile, or removed. */
function hostileItem(good: Record<string, unknown>, auth: string) {
  const text = hostileText(auth);
  const field = (value: unknown, bad: fc.Arbitrary<unknown>) =>
    fc.oneof({ weight: 20, arbitrary: fc.constant(value) }, bad, fc.constant(undefined));
  return fc.record({
    name: field(good.name, text),
    type: field(good.type, fc.constantFrom('WEAPON', 'MATERIAL', 'weapon', 'SPACESHIP')),
    subtype: field(good.subtype, text),
    rarity: field(good.rarity, fc.constantFrom(...SPEC_RARITIES)),
    level: field(good.level, hostileNumber),
    element: field(good.element, fc.constantFrom('none', 'fire', 'plasma')),
    material: field(good.material, text),
    description: field(good.description, text),
    lore: field(good.lore, text),
    stats: field(
      good.stats,
      fc.array(fc.record({ name: fc.constantFrom('attack', 'defense', 'power'), value: hostileNumber }), {
        maxLength: 8,
      }),
    ),
    effects: field(
      good.effects,
      fc.array(fc.record({ id: text, params: fc.dictionary(text, hostileNumber) }), { maxLength: 6 }),
    ),
    value: field(good.value, hostileNumber),
    look: field(
      good.look,
      fc.record({
        noun: text,
        materials: fc.array(text, { maxLength: 4 }),
        colors: fc.array(fc.constantFrom('red', 'mauve', 'RED', ''), { maxLength: 4 }),
        features: fc.array(fc.constantFrom('gem', 'laser', 'horns'), { maxLength: 5 }),
      }),
    ),
    debug_headers: fc.option(fc.constant({ authorization: auth }), { nil: undefined }),
  });
}

/** An image as a hostile service might send one. */
const hostileImage = (auth: string) =>
  fc.oneof(
    { weight: 8, arbitrary: fc.constant(TINY_PNG.toString('base64')) },
    fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b).toString('base64')),
    fc.constant(Buffer.from('<html><script>alert(1)</script></html>').toString('base64')),
    fc.constant(Buffer.concat([TINY_PNG, Buffer.from(auth)]).toString('base64')),
    fc.nat(TINY_PNG.length - 1).map((n) => TINY_PNG.subarray(0, n).toString('base64')),
    fc.constant(`data:image/png;base64,${TINY_PNG.toString('base64')}`),
  );

describe.each(ADAPTERS)(
  `a hostile upstream at random (${RUNS} cases): chat $chat, images $image`,
  (backends) => {
    let t: Harness;
    let token: string;
    const PLAYER = 'hostile-fuzz';
    beforeAll(async () => {
      t = await boot({ unlimitedDrops: true, backends, env: { LOOTSMITH_ALLOW_CHAT: '1' } });
      token = await t.token(PLAYER);
    });
    afterAll(async () => {
      await t?.close();
    });

    it('answers 200 with items that keep every rule, or a 502 that changed nothing', async () => {
      const game = t.server.core.deps.game;
      let ok = 0;
      await fc.assert(
        fc.asyncProperty(fc.context(), fc.gen(), fc.boolean(), async (ctx, gen, extraField) => {
          t.fake.hostile = (r) => {
            if (r.kind === 'image') return { image: gen(hostileImage, r.authorization) };
            const good = itemsFor(r.prompt, 1)[0] as Record<string, unknown>;
            const item = gen(() => hostileItem(good, r.authorization));
            return {
              status: 200,
              body: completion(
                JSON.stringify({ items: [item] }),
                extraField ? { echo: r.authorization } : {},
              ),
            };
          };
          const before = dumpStore(t.db, ['items', 'inventory', 'icons', 'ledger']);
          const res = await t.server.app.inject({
            method: 'POST',
            url: '/v1/generate/items',
            headers: auth(token),
            payload: { client_id: PLAYER, generation_context: { enemy: 'rat' }, items: [{ type: 'WEAPON' }] },
          });
          ctx.log(`${res.statusCode} ${res.body.slice(0, 300)}`);
          expect([200, 502]).toContain(res.statusCode);
          expect(leaks(res.body)).toBe(false);
          if (res.statusCode === 502) {
            expect(dumpStore(t.db, ['items', 'inventory', 'icons', 'ledger'])).toBe(before);
            return;
          }
          ok++;
          for (const item of res.json().items as Array<GeneratedItem & { icon: { url: string } }>) {
            expect(checkItem(game, item, item)).toEqual([]);
            expect(JSON.stringify(item)).not.toMatch(/\\u00|\\u200[ef]|\\u202[a-e]/);
            const icon = await t.server.app.inject({ url: item.icon.url });
            expect(icon.statusCode).toBe(200);
            expect(() => checkImage(icon.rawPayload)).not.toThrow();
          }
        }),
        { numRuns: RUNS, seed: 13 },
      );
      // The suite means nothing if the hostile answers never got through: some must have been usable.
      expect(ok).toBeGreaterThan(RUNS / 20);
      expect(t.logs.leaks).toEqual([]);
    });
  },
);
