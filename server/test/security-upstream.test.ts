import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { crc32 } from 'node:zlib';
import { ADAPTERS } from '@lootsmith/test-support/backends';
import {
  type Booted,
  bootWithFake,
  PLAYER_SECRET,
  SERVER_KEY,
  UPSTREAM_KEY,
} from '@lootsmith/test-support/boot';
import { completion, itemsFor } from '@lootsmith/test-support/fake-upstream';
import { CLUB_REQUEST } from '@lootsmith/test-support/game-file';
import { TINY_PNG } from '@lootsmith/test-support/png';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { signPlayerToken } from '../src/auth.ts';
import { LocalCoordination } from '../src/coordination/local.ts';
import { CombinePlanner } from '../src/crafting/generate.ts';
import type { SqliteStore } from '../src/store/sqlite.ts';

// Issue 13, items 1 and 4–9, replayed as they were tried: a player with a valid token and a hostile
// upstream (a model that echoes headers, ignores the rules, sends HTML or 50 MB as an "image")
// against a production-mode server; against every backend API (issue 23), each answering in its shape.

const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const playerToken = (id: string) => signPlayerToken(PLAYER_SECRET, id, 600);
/**
 * The key, a piece of it long enough to matter, and sdapi's Basic credential made of it: none may
 * appear anywhere players or logs see.
 */
const KEY_PIECES = [
  UPSTREAM_KEY,
  UPSTREAM_KEY.slice(6, 20),
  Buffer.from(`lootsmith:${UPSTREAM_KEY}`).toString('base64'),
];
const leaks = (text: string) => KEY_PIECES.some((k) => text.includes(k));

/** A PNG with one extra text chunk (what a hostile service could hide a key in). */
function pngWithText(text: string): Buffer {
  const iend = TINY_PNG.length - 12;
  const data = Buffer.from(`Comment\0${text}`, 'latin1');
  const chunk = Buffer.alloc(12 + data.length);
  chunk.writeUInt32BE(data.length, 0);
  chunk.write('tEXt', 4, 'latin1');
  data.copy(chunk, 8);
  chunk.writeUInt32BE(crc32(chunk.subarray(4, 8 + data.length)), 8 + data.length);
  return Buffer.concat([TINY_PNG.subarray(0, iend), chunk, TINY_PNG.subarray(iend)]);
}

describe.each(ADAPTERS)(
  'a hostile upstream against a production-mode server: chat $chat, images $image',
  (backends) => {
    let t: Booted;
    const lines: string[] = [];
    const logs = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    let staticDir: string;

    beforeAll(async () => {
      staticDir = mkdtempSync(join(tmpdir(), 'lootsmith-static-'));
      writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>game</title>');
      t = await bootWithFake(
        {
          NODE_ENV: 'production',
          LOOTSMITH_ALLOW_CHAT: '1',
          LOOTSMITH_LOG_LEVEL: 'info',
          LOOTSMITH_STATIC_DIR: staticDir,
        },
        logs,
        backends,
      );
    });
    afterAll(async () => {
      await t?.close();
      rmSync(staticDir, { recursive: true, force: true });
    });
    beforeEach(() => {
      t.fake.hostile = undefined;
      t.fake.itemsFor = itemsFor;
      t.fake.delayMs = 0;
      t.fake.chatGate = undefined;
      t.fake.mode = 'ok';
    });

    const app = () => t.server.app;
    let url: string | undefined;
    const listening = async () => {
      url ??= await app().listen({ host: '127.0.0.1', port: 0 });
      return url;
    };
    const db = () => (t.server.core.deps.store as SqliteStore).db;
    const count = (table: string) =>
      (db().prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
    const drop = (player: string, items: unknown[] = [{ type: 'WEAPON' }], token = playerToken(player)) =>
      app().inject({
        method: 'POST',
        url: '/v1/generate/items',
        headers: auth(token),
        payload: { client_id: player, generation_context: { enemy: 'rat' }, items },
      });
    const combine = (
      player: string,
      ingredients = [
        { item_id: 'iron_ore', quantity: 1 },
        { item_id: 'oak_wood', quantity: 1 },
      ],
    ) =>
      app().inject({
        method: 'POST',
        url: '/api/v1/crafting/combine',
        headers: auth(playerToken(player)),
        payload: { player_id: player, ingredients, crafting_station: 'workbench' },
      });
    const createItem = (player: string) =>
      app().inject({
        method: 'POST',
        url: `/api/v1/player/${player}/create-item`,
        headers: auth(playerToken(player)),
        payload: CLUB_REQUEST,
      });
    const forwardImage = (player: string) =>
      app().inject({
        method: 'POST',
        url: '/v1/image/generations',
        headers: auth(playerToken(player)),
        payload: { prompt: 'a frost axe, game item', width: 64, height: 64 },
      });
    const inventory = async (player: string) =>
      (
        await app().inject({ url: `/api/v1/player/${player}/inventory`, headers: auth(playerToken(player)) })
      ).json();

    it('1. never passes on an upstream error message that quotes the key, on any route', async () => {
      t.fake.hostile = (r) => ({
        status: 400,
        body: JSON.stringify({
          error: {
            message: `Bad prompt: you sent Authorization: ${r.authorization} (key …${r.authorization.slice(13, 27)}…)`,
          },
        }),
      });
      const answers = [
        await drop('ada'),
        await combine('ada'),
        await createItem('ada'),
        await forwardImage('ada'),
      ];
      for (const res of answers) {
        expect(res.statusCode, res.body).toBe(502);
        expect(res.json().error.code).toBe('upstream_rejected');
        expect(res.json().error.message).toContain('(status 400): Bad prompt');
        expect(res.json().error.message).toContain('[redacted]');
        expect(leaks(res.body)).toBe(false);
      }
      expect(lines.filter(leaks)).toEqual([]);
    });

    it('1. forwards only the protocol’s chat fields, and no key written in the content', async () => {
      t.fake.hostile = (r) =>
        r.kind === 'chat'
          ? {
              status: 200,
              body: completion(`Sure. The request carried ${r.authorization}.`, {
                debug_headers: { authorization: r.authorization },
                system_fingerprint: 'fp',
              }),
            }
          : undefined;
      const res = await app().inject({
        method: 'POST',
        url: '/v1/chat/completions',
        headers: auth(playerToken('ben')),
        payload: { messages: [{ role: 'user', content: 'Echo your headers.' }] },
      });
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(Object.keys(body).sort()).toEqual(['choices', 'created', 'id', 'model', 'object', 'usage']);
      expect(Object.keys(body.choices[0]).sort()).toEqual(['finish_reason', 'index', 'message']);
      expect(body.choices[0].message.content).toBe('Sure. The request carried Bearer [redacted].');
      expect(leaks(res.body)).toBe(false);
    });

    it('1. scrubs the key from item text a model echoes it into', async () => {
      t.fake.hostile = (r) => {
        if (r.kind !== 'chat') return undefined;
        const items = itemsFor(r.prompt, 1).map((i) => ({
          ...i,
          description: `Sent with ${r.authorization}`,
        }));
        return { status: 200, body: completion(JSON.stringify({ items })) };
      };
      const res = await drop('cid');
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().items[0].description).toBe('Sent with Bearer [redacted]');
      expect(leaks(JSON.stringify(await inventory('cid')))).toBe(false);
    });

    it('4. a player whose id is "server" neither replays nor plants the server credential’s answers', async () => {
      const key = { 'idempotency-key': 'drop-for-carol-1' };
      const carol = await app().inject({
        method: 'POST',
        url: '/v1/generate/items',
        headers: { ...auth(SERVER_KEY), ...key },
        payload: { client_id: 'carol', items: [{ type: 'WEAPON', rarity: 'LEGENDARY' }] },
      });
      expect(carol.statusCode).toBe(200);
      const impostor = await app().inject({
        method: 'POST',
        url: '/v1/generate/items',
        headers: { ...auth(playerToken('server')), ...key },
        payload: { client_id: 'server', items: [{ type: 'WEAPON' }] },
      });
      expect(impostor.statusCode, impostor.body).toBe(200);
      expect(impostor.headers['idempotent-replayed']).toBeUndefined();
      expect(impostor.body).not.toContain(carol.json().items[0].id);

      // Planting: the impostor answers first under a key the game server uses next.
      const planted = { 'idempotency-key': 'drop-for-dave-1' };
      await app().inject({
        method: 'POST',
        url: '/v1/generate/items',
        headers: { ...auth(playerToken('server')), ...planted },
        payload: { client_id: 'server', items: [{ type: 'WEAPON' }] },
      });
      const dave = await app().inject({
        method: 'POST',
        url: '/v1/generate/items',
        headers: { ...auth(SERVER_KEY), ...planted },
        payload: { client_id: 'dave', items: [{ type: 'WEAPON', rarity: 'RARE' }] },
      });
      expect(dave.headers['idempotent-replayed']).toBeUndefined();
      const daves = (await inventory('dave')).items.map((e: { item: { id: string } }) => e.item.id);
      expect(daves).toContain(dave.json().items[0].id);
    });

    it('5. an item named like another player’s LEGENDARY one does not craft into its result', async () => {
      t.fake.itemsFor = (prompt, call) =>
        itemsFor(prompt, call).map((i) => ({ ...i, name: 'Crown of the Deep' }));
      const grant = async (player: string, rarity: string, level: number) =>
        (
          await app().inject({
            method: 'POST',
            url: '/v1/generate/items',
            headers: auth(SERVER_KEY),
            payload: {
              client_id: player,
              generation_context: { player_level: level },
              items: [{ type: 'WEAPON', rarity }],
            },
          })
        ).json().items[0];
      const crown = await grant('vic', 'LEGENDARY', 50);
      // A LEGENDARY result needs crafting level 6, on every crafting route.
      await app().inject({
        method: 'PATCH',
        url: '/api/v1/player/vic',
        headers: auth(SERVER_KEY),
        payload: { crafting_level: 6 },
      });
      expect(crown.level).toBeGreaterThanOrEqual(48);
      const vics = await combine('vic', [
        { item_id: crown.id, quantity: 1 },
        { item_id: 'iron_ore', quantity: 1 },
      ]);
      expect(vics.json().result_item.rarity).toBe('LEGENDARY');

      const fake = await grant('mal', 'COMMON', 1);
      expect(fake.name).toBe(crown.name);
      const chats = t.fake.calls.chat;
      const mals = await combine('mal', [
        { item_id: fake.id, quantity: 1 },
        { item_id: 'iron_ore', quantity: 1 },
      ]);
      expect(mals.statusCode, mals.body).toBe(200);
      expect(mals.json().result_item.rarity).toBe('COMMON');
      expect(mals.json().result_item.level).toBeLessThanOrEqual(2);
      expect(t.fake.calls.chat).toBe(chats + 1);
    });

    it('5. a recipe-book result that breaks the rules is made afresh, not handed out', async () => {
      const ingredients = [
        { item_id: 'iron_ore', quantity: 1 },
        { item_id: 'leather_scraps', quantity: 1 },
      ];
      const first = await combine('rex', ingredients);
      expect(first.statusCode).toBe(200);
      // The recipe book hands back a tampered result (an older server's, a bad migration's).
      const { core } = t.server;
      const tampered = { ...first.json().result_item, value: 9_999_999, rarity: 'MYTHIC' };
      const planner = new CombinePlanner({
        ...core.deps,
        materials: core.players.materials,
        resolve: (ids) => core.players.resolve(ids),
        coordination: new LocalCoordination(core.deps.store),
        recipe: async () => tampered,
      });
      const chats = t.fake.calls.chat;
      const setup = await planner.setup(
        { player_id: 'sam', ingredients, crafting_station: 'workbench' },
        { xp: 0, level: 1 },
      );
      const plan = await planner.plan(setup);
      expect(plan.kind).toBe('craft');
      if (plan.kind !== 'craft') return;
      expect(plan.item.rarity).toBe('COMMON');
      expect(plan.item.value).toBeLessThan(9_999_999);
      expect(t.fake.calls.chat).toBe(chats + 1);
    });

    it('6. refuses a value of 10,000,000 and an effect the game lacks, storing nothing', async () => {
      const answers = [
        { value: 10_000_000, said: /value 10000000 is above \d+/ },
        {
          effects: [{ id: 'godlike', params: { power: 99999 } }],
          said: /effects\.0: an effect of the game's catalogue \(life_steal, burn, frost_slow/,
        },
      ];
      for (const { said, ...bad } of answers) {
        t.fake.itemsFor = (prompt, call) => itemsFor(prompt, call).map((i) => ({ ...i, ...bad }));
        const items = count('items');
        const res = await drop('dot');
        expect(res.statusCode).toBe(502);
        expect(res.json().error.code).toBe('generation_failed');
        expect(res.json().error.details.join(' ')).toMatch(said);
        expect(count('items')).toBe(items);
      }
      expect(
        (await inventory('dot')).items.filter((e: { item: { type: string } }) => e.item.type !== 'MATERIAL'),
      ).toEqual([]);
    });

    it('6. keeps a model that learns from the re-ask within the bounds', async () => {
      let asks = 0;
      t.fake.itemsFor = (prompt, call) =>
        itemsFor(prompt, call).map((i) => (asks++ === 0 ? { ...i, value: 10_000_000 } : i));
      const res = await drop('eli');
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().items[0].value).toBeLessThanOrEqual(1000);
    });

    it('6. stores and serves no image that is not a PNG or JPEG within limits', async () => {
      const icons = count('icons');
      const hostileImage = (image: string) => (r: { kind: string }) =>
        r.kind === 'image' ? { image } : undefined;
      const bad = [
        Buffer.from('<html><script>alert(document.cookie)</script></html>').toString('base64'),
        pngWithText(`key=${UPSTREAM_KEY}`).toString('base64'),
        TINY_PNG.subarray(0, TINY_PNG.length - 20).toString('base64'),
        'not base64 at all!',
      ];
      for (const image of bad) {
        t.fake.hostile = hostileImage(image);
        const forwarded = await forwardImage('fay');
        expect(forwarded.statusCode, forwarded.body).toBe(502);
        const dropped = await drop('fay');
        expect(dropped.statusCode, dropped.body).toBe(502);
      }
      expect(count('icons')).toBe(icons);
      expect(lines.filter(leaks)).toEqual([]);
    });

    it('6. a drop whose one icon fails leaves no other icon behind', async () => {
      const icons = count('icons');
      t.fake.hostile = (r) => {
        if (r.kind !== 'image') return undefined;
        const first = r.prompt.includes('-0,');
        // The first item's icon fails at once; the second's arrives later, after the drop has failed.
        return first
          ? { image: Buffer.from('<html>').toString('base64') }
          : { image: TINY_PNG.toString('base64'), afterMs: 300 };
      };
      // Over a real socket: an injected request's signal fires once it is answered, which hides this.
      const res = await fetch(`${await listening()}/v1/generate/items`, {
        method: 'POST',
        headers: { ...auth(playerToken('gus')), 'content-type': 'application/json' },
        body: JSON.stringify({ client_id: 'gus', items: [{ type: 'WEAPON' }, { type: 'HELMET' }] }),
      });
      expect(res.status).toBe(502);
      await new Promise((r) => setTimeout(r, 500));
      expect(count('icons')).toBe(icons);
    });

    it('6. cuts off a 50 MB "image" without storing it', async () => {
      const huge = 'A'.repeat(50 * 1024 * 1024);
      t.fake.hostile = (r) => (r.kind === 'image' ? { image: huge } : undefined);
      const icons = count('icons');
      const started = Date.now();
      const res = await forwardImage('gil');
      expect(res.statusCode).toBe(502);
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(count('icons')).toBe(icons);
    });

    it('6. gives up on an upstream that trickles a byte every 500 ms', async () => {
      t.fake.hostile = (r) =>
        r.kind === 'chat' ? { trickle: completion('{"items": []}'), everyMs: 500 } : undefined;
      const started = Date.now();
      const res = await drop('hugh');
      // One attempt's deadline is the timeout (1 s here); the whole call gives up after twice that.
      expect(res.statusCode).toBe(502);
      expect(Date.now() - started).toBeLessThan(3_500);
    });

    it('6. serves a stored icon as what its bytes are, with nosniff', async () => {
      const res = await drop('ivy');
      const icon = res.json().items[0].icon.url;
      const png = await app().inject({ url: icon });
      expect(png.statusCode).toBe(200);
      expect(png.headers['content-type']).toBe('image/png');
      expect(png.headers['x-content-type-options']).toBe('nosniff');
    });

    it('7. the second caller of a shared combine gets its answer when the first hangs up', async () => {
      const url = await listening();
      // The model answers once the second caller has joined the first one's combine (held by a gate,
      // not a delay: the attempt's timeout here is 1 s, however slow the machine); then the first hangs up.
      let answer = () => {};
      t.fake.chatGate = new Promise<void>((resolve) => {
        answer = resolve;
      });
      const flights = vi.spyOn(t.server.core.deps.coordination, 'singleFlight');
      const chats = t.fake.calls.chat;
      const body = (player: string) =>
        JSON.stringify({
          player_id: player,
          crafting_station: 'workbench',
          ingredients: [
            { item_id: 'copper_ore', quantity: 1 },
            { item_id: 'healing_herb', quantity: 1 },
          ],
        });
      const grantCopper = (player: string) =>
        app().inject({
          method: 'POST',
          url: `/api/v1/player/${player}/inventory/grant`,
          headers: auth(SERVER_KEY),
          payload: { items: [{ item_id: 'copper_ore', quantity: 1 }] },
        });
      await grantCopper('jo');
      await grantCopper('kit');
      const hangUp = new AbortController();
      const post = (player: string, signal?: AbortSignal) =>
        fetch(`${url}/api/v1/crafting/combine`, {
          method: 'POST',
          headers: { ...auth(playerToken(player)), 'content-type': 'application/json' },
          body: body(player),
          signal,
        });
      const asked = t.fake.formats.length;
      const first = post('jo', hangUp.signal).catch((err: Error) => err.name);
      // The second caller comes while the first one's combine is with the model.
      await vi.waitFor(() => expect(t.fake.formats.length).toBe(asked + 1));
      const second = post('kit');
      await vi.waitFor(() =>
        expect(flights.mock.calls.filter(([key]) => key.startsWith('combine:')).length).toBe(2),
      );
      flights.mockRestore();
      hangUp.abort();
      expect(await first).toBe('AbortError');
      t.fake.chatGate = undefined;
      answer();
      const res = await second;
      expect(res.status, await res.clone().text()).toBe(200);
      expect(((await res.json()) as { success: boolean }).success).toBe(true);
      expect(t.fake.calls.chat).toBe(chats + 1);
      // The one who hung up spent nothing.
      await new Promise((r) => setTimeout(r, 700));
      const jo = (await inventory('jo')).items.find(
        (e: { item: { id: string } }) => e.item.id === 'copper_ore',
      );
      expect(jo?.quantity).toBe(1);
    });

    it('8. a 1 MB item name ends in a clean 502 generation_failed', async () => {
      t.fake.itemsFor = (prompt, call) =>
        itemsFor(prompt, call).map((i) => ({ ...i, name: 'x'.repeat(1_000_000) }));
      const res = await drop('lea');
      expect(res.statusCode, res.body.slice(0, 300)).toBe(502);
      expect(res.json().error.code).toBe('generation_failed');
    });

    it('9. stores item text without control characters (RTL override, NUL, ESC)', async () => {
      t.fake.itemsFor = (prompt, call) =>
        itemsFor(prompt, call).map((i) => ({
          ...i,
          name: 'Blade\u202Edrow\u0000s\u001b[31m',
          description: 'A plain\u200f test\u0007 blade.',
        }));
      const res = await drop('max');
      expect(res.statusCode, res.body).toBe(200);
      const item = res.json().items[0];
      expect(item.name).toBe('Blade drow s [31m');
      expect(item.description).toBe('A plain test blade.');
      const texts = (await inventory('max')).items.flatMap((e: { item: Record<string, unknown> }) =>
        Object.values(e.item).filter((v) => typeof v === 'string'),
      );
      expect(texts.join(' ')).not.toMatch(/[\p{Cc}\p{Cf}]/u);
    });

    it('9. sends security headers on the game page, the icons and /docs; /metrics needs a token', async () => {
      for (const url of ['/', '/docs', '/health']) {
        const res = await app().inject({ url });
        expect(res.statusCode, url).toBeLessThan(400);
        expect(res.headers['content-security-policy'], url).toContain("script-src 'self'");
        expect(res.headers['x-content-type-options'], url).toBe('nosniff');
        expect(res.headers['x-frame-options'], url).toBe('SAMEORIGIN');
      }
      expect((await app().inject({ url: '/metrics' })).statusCode).toBe(401);
      expect((await app().inject({ url: '/metrics', headers: auth(playerToken('ned')) })).statusCode).toBe(
        401,
      );
      expect((await app().inject({ url: '/metrics', headers: auth(SERVER_KEY) })).statusCode).toBe(200);
    });
  },
);
