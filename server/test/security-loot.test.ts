import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { type Booted, bootWithFake, PLAYER_SECRET, SERVER_KEY } from '@lootsmith/test-support/boot';
import { writeGameFile } from '@lootsmith/test-support/game-file';
import { createSigner } from 'fast-jwt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signPlayerToken } from '../src/auth.ts';
import { signDropGrant } from '../src/drops/grants.ts';
import type { SqliteStore } from '../src/store/sqlite.ts';

// Loot farming and budget races (issue 13, items 2 and 3), replayed as they were tried: a player
// with a valid token against a production-mode server.
// A generous upstream timeout: these tests count what was granted, and a loaded CI machine once took
// longer than the harness's 1 s over one of twenty parallel drops (a 502 where a grant was due).
const PRODUCTION = { NODE_ENV: 'production', LOOTSMITH_UPSTREAM_TIMEOUT_MS: '10000' };
const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const playerToken = (id: string) => signPlayerToken(PLAYER_SECRET, id, 600);
const today = () => new Date().toISOString().slice(0, 10);

function helpers(get: () => Booted) {
  const t = () => get();
  const db = () => (t().server.core.deps.store as SqliteStore).db;
  return {
    drop: (player: string, payload: Record<string, unknown>, token = playerToken(player)) =>
      t().server.app.inject({
        method: 'POST',
        url: '/v1/generate/items',
        headers: auth(token),
        payload: { client_id: player, ...payload },
      }),
    settings: async (player: string, payload: Record<string, unknown>) => {
      const res = await t().server.app.inject({
        method: 'PATCH',
        url: `/api/v1/player/${player}`,
        headers: auth(SERVER_KEY),
        payload,
      });
      expect(res.statusCode).toBe(200);
    },
    /** Items and materials the player got from drops, by the ledger. */
    looted: (player: string) =>
      (
        db()
          .prepare("SELECT COALESCE(SUM(delta), 0) AS n FROM ledger WHERE player_id = ? AND reason = 'loot'")
          .get(player) as { n: number }
      ).n,
    usage: (player: string) => t().server.core.deps.store.dailyUsage(player, today()),
    claimedLevel: async (player: string) =>
      (await t().server.core.deps.store.getPlayer(player))?.claimed_level,
  };
}

const statuses = (results: Array<{ statusCode: number }>) =>
  results.map((r) => r.statusCode).sort((a, b) => a - b);
const generated = (res: { json(): { items: Array<{ id: string; level: number }> } }) =>
  res.json().items.filter((i) => i.id.startsWith('itm_'));

describe('open mode (the shipped game definition)', () => {
  let t: Booted;
  const h = helpers(() => t);
  beforeAll(async () => {
    t = await bootWithFake(PRODUCTION);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('grants exactly 2 of 20 parallel drops against daily_items: 2', async () => {
    await h.settings('eve', { daily_items: 2 });
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        h.drop('eve', { generation_context: { enemy: 'rat' }, items: [{ type: 'WEAPON' }] }),
      ),
    );
    expect(statuses(results)).toEqual([...Array(2).fill(200), ...Array(18).fill(429)]);
    expect(results.filter((r) => r.json().reason === 'budget_exceeded')).toHaveLength(18);
    expect(h.looted('eve')).toBe(2);
    expect(await h.usage('eve')).toEqual({ items: 2, images: 0 });
  });

  it('passes exactly 1 of 10 parallel image forwards against daily_images: 1', async () => {
    await h.settings('fay', { daily_images: 1 });
    const painted = t.fake.calls.image;
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        t.server.app.inject({
          method: 'POST',
          url: '/v1/image/generations',
          headers: auth(playerToken('fay')),
          payload: { prompt: 'a sword, game item' },
        }),
      ),
    );
    expect(statuses(results)).toEqual([200, ...Array(9).fill(429)]);
    expect(t.fake.calls.image - painted).toBe(1);
    expect(await h.usage('fay')).toEqual({ items: 0, images: 1 });
  });

  // Issue 24: a failed drop whose call reached the model is charged now (it was given back before).
  it('counts MATERIAL drops against daily_items, and charges a failed drop whose call reached the model', async () => {
    await h.settings('gus', { daily_items: 3 });
    const materials = (n: number) => ({
      generation_context: { enemy: 'skeleton' },
      items: Array.from({ length: n }, () => ({ type: 'MATERIAL' })),
    });
    const chats = t.fake.calls.chat;
    expect((await h.drop('gus', materials(2))).statusCode).toBe(200);
    const over = await h.drop('gus', materials(2));
    expect(over.statusCode).toBe(429);
    expect(over.json().reason).toBe('budget_exceeded');
    expect(t.fake.calls.chat).toBe(chats);
    t.fake.mode = 'down';
    const failed = await h.drop('gus', { items: [{ type: 'WEAPON' }] });
    t.fake.mode = 'ok';
    expect(failed.statusCode).toBe(502);
    expect(await h.usage('gus')).toEqual({ items: 3, images: 0 });
    expect((await h.drop('gus', materials(1))).statusCode).toBe(429);
    expect(h.looted('gus')).toBe(2);
  });

  it('refuses the frost giant farm: 8 items at player_level 100, then 3 drops a minute at a checked level', async () => {
    const farm = (n: number) =>
      h.drop('hal', {
        generation_context: { enemy: 'frost_giant', player_level: 100 },
        items: Array.from({ length: n }, () => ({})),
      });
    const eight = await farm(8);
    expect(eight.statusCode).toBe(400);
    expect(eight.json().error.code).toBe('too_many_items');
    const results = [];
    for (let i = 0; i < 10; i++) results.push(await farm(4));
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, ...Array(7).fill(429)]);
    const refused = results[3];
    expect(refused?.json().reason).toBe('rate_limit_exceeded');
    expect(Number(refused?.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused?.headers['retry-after'])).toBeLessThanOrEqual(60);
    // Served at 5 (the first claim's ceiling), 6, 7: never at the claimed 100.
    expect(await h.claimedLevel('hal')).toBe(7);
    const items = results.slice(0, 3).flatMap(generated);
    // A tier-5 item is at most the served level + 1 + 4.
    for (const item of items) expect(item.level).toBeLessThanOrEqual(12);
    expect(h.looted('hal')).toBe(12);
  });

  it('caps a level claim that jumps: first at most first_level_max, then at most one above the last', async () => {
    const claim = async (player_level?: number) => {
      const res = await h.drop('ivy', {
        generation_context: { enemy: 'rat', ...(player_level ? { player_level } : {}) },
        items: [{ type: 'WEAPON' }],
      });
      expect(res.statusCode).toBe(200);
      return generated(res)[0]?.level as number;
    };
    expect(await claim(3)).toBeLessThanOrEqual(4);
    expect(await h.claimedLevel('ivy')).toBe(3);
    expect(await claim(40)).toBeLessThanOrEqual(5);
    expect(await h.claimedLevel('ivy')).toBe(4);
    await claim(2);
    expect(await h.claimedLevel('ivy')).toBe(4);
    // No claim: served at the level on record.
    expect(await claim()).toBeLessThanOrEqual(5);
    await claim(5);
    expect(await h.claimedLevel('ivy')).toBe(5);
  });

  it('refuses an enemy the game does not have, and changes nothing', async () => {
    const res = await h.drop('jay', { generation_context: { enemy: 'ancient_dragon' }, items: [{}] });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('unknown_enemy');
    expect(res.json().error.details.enemies).toContain('frost_giant');
    expect(await h.usage('jay')).toEqual({ items: 0, images: 0 });
    expect(h.looted('jay')).toBe(0);
    // By name works as well as by id.
    const byName = await h.drop('jay', {
      generation_context: { enemy: 'Cellar Rat' },
      items: [{ type: 'MATERIAL' }],
    });
    expect(byName.statusCode).toBe(200);
  });

  // Issue 24: a failed drop whose call reached the model uses its slot now (it did not before).
  it('limits drops per minute by enemy tier, each tier on its own; a failed drop that reached the model uses a slot', async () => {
    const rat = { generation_context: { enemy: 'rat' }, items: [{ type: 'MATERIAL' }] };
    t.fake.mode = 'down';
    expect((await h.drop('kai', { ...rat, items: [{ type: 'WEAPON' }] })).statusCode).toBe(502);
    t.fake.mode = 'ok';
    for (let i = 0; i < 19; i++) expect((await h.drop('kai', rat)).statusCode).toBe(200);
    const limited = await h.drop('kai', rat);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error.message).toContain('20 drops of this enemy tier per minute');
    // Another tier-1 enemy, or no enemy at all, shares the tier-1 limit; tier 2 has its own.
    expect((await h.drop('kai', { ...rat, generation_context: { enemy: 'slime' } })).statusCode).toBe(429);
    expect((await h.drop('kai', { items: [{ type: 'MATERIAL' }] })).statusCode).toBe(429);
    expect((await h.drop('kai', { ...rat, generation_context: { enemy: 'skeleton' } })).statusCode).toBe(200);
    // Another player is not limited by kai's drops.
    expect((await h.drop('lea', rat)).statusCode).toBe(200);
  });

  it('takes a grant in open mode too, and refuses a forged one', async () => {
    const grant = signDropGrant(SERVER_KEY, { playerId: 'mia', enemy: 'skeleton', level: 9 });
    const res = await h.drop('mia', { grant, items: [{ type: 'WEAPON' }] });
    expect(res.statusCode).toBe(200);
    // Level 9: at most the player's level (the game lets no drop above it), at least two below.
    expect(generated(res)[0]?.level).toBeGreaterThanOrEqual(7);
    expect(generated(res)[0]?.level).toBeLessThanOrEqual(9);
    const forged = signDropGrant('not-the-server-key-0123456789', { playerId: 'mia', level: 60 });
    expect((await h.drop('mia', { grant: forged, items: [{}] })).statusCode).toBe(403);
  });
});

describe('grant mode', () => {
  let t: Booted;
  let gameFile: string;
  const h = helpers(() => t);
  const claims = (playerId: string) => ({ playerId, enemy: 'skeleton', level: 7 });
  const weapon = { items: [{ type: 'WEAPON' }] };
  beforeAll(async () => {
    gameFile = writeGameFile((game) => ({
      loot_authority: {
        ...game.loot_authority,
        mode: 'grant',
        drop_limits: [{ max_items: 2, drops_per_minute: 100, drops_per_hour: 6 }],
      },
    }));
    t = await bootWithFake({ ...PRODUCTION, LOOTSMITH_GAME_FILE: gameFile });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dirname(gameFile), { recursive: true, force: true });
  });

  it('a player token alone cannot create loot', async () => {
    const chats = t.fake.calls.chat;
    for (const payload of [weapon, { generation_context: { enemy: 'rat' }, items: [{ type: 'MATERIAL' }] }]) {
      const res = await h.drop('ann', payload);
      expect(res.statusCode).toBe(403);
      expect(res.json().error.code).toBe('grant_required');
    }
    expect(t.fake.calls.chat).toBe(chats);
    expect(h.looted('ann')).toBe(0);
    expect(await h.usage('ann')).toEqual({ items: 0, images: 0 });
  });

  it('refuses forged, expired, long-lived, other-player and mismatched grants', async () => {
    const expired = createSigner({
      key: SERVER_KEY,
      algorithm: 'HS256',
      clockTimestamp: Date.now() - 600_000,
      expiresIn: 60_000,
      aud: 'lootsmith:drop',
      sub: 'ann',
      jti: randomUUID(),
    })({ level: 7, enemy: 'skeleton' });
    const refusals: Array<[string, string, Record<string, unknown>]> = [
      ['forged', signDropGrant('not-the-server-key-0123456789', claims('ann')), {}],
      ['expired', expired, {}],
      ['long-lived', signDropGrant(SERVER_KEY, claims('ann'), 3600), {}],
      ['other player', signDropGrant(SERVER_KEY, claims('bob')), {}],
      ['a player token', playerToken('ann'), {}],
      [
        'other enemy',
        signDropGrant(SERVER_KEY, claims('ann')),
        { generation_context: { enemy: 'frost_giant' } },
      ],
      ['other level', signDropGrant(SERVER_KEY, claims('ann')), { generation_context: { player_level: 60 } }],
    ];
    const codes = [];
    for (const [name, grant, extra] of refusals) {
      const res = await h.drop('ann', { ...weapon, ...extra, grant });
      expect(res.statusCode, name).toBe(403);
      codes.push(res.json().error.code);
    }
    expect(codes).toEqual([
      'grant_invalid',
      'grant_expired',
      'grant_invalid',
      'grant_invalid',
      'grant_invalid',
      'grant_mismatch',
      'grant_mismatch',
    ]);
    expect(h.looted('ann')).toBe(0);
  });

  it('a valid grant gives loot once, at its level: replays, concurrent or later, are refused', async () => {
    const grant = signDropGrant(SERVER_KEY, claims('ann'));
    const results = await Promise.all(Array.from({ length: 5 }, () => h.drop('ann', { ...weapon, grant })));
    expect(statuses(results)).toEqual([200, 409, 409, 409, 409]);
    const ok = results.find((r) => r.statusCode === 200);
    const level = ok && generated(ok)[0]?.level;
    expect(level).toBeGreaterThanOrEqual(5);
    expect(level).toBeLessThanOrEqual(7);
    const later = await h.drop('ann', { ...weapon, grant });
    expect(later.statusCode).toBe(409);
    expect(later.json().error.code).toBe('grant_used');
    expect(h.looted('ann')).toBe(1);
  });

  // Issue 24: a grant whose drop reached the model is spent, failed or not: no free retry against it.
  it('a drop that fails after reaching the model spends its grant; one refused before gives it back', async () => {
    const grant = signDropGrant(SERVER_KEY, claims('cid'));
    t.fake.mode = 'down';
    expect((await h.drop('cid', { ...weapon, grant })).statusCode).toBe(502);
    t.fake.mode = 'ok';
    expect((await h.drop('cid', { ...weapon, grant })).statusCode).toBe(409);
    const fresh = signDropGrant(SERVER_KEY, claims('cid'));
    expect((await h.drop('cid', { ...weapon, grant: fresh })).statusCode).toBe(200);
  });

  it('the game server mints grants at POST /api/v1/player/:id/drop-grant; a player cannot', async () => {
    const mint = (token: string, payload: Record<string, unknown>) =>
      t.server.app.inject({
        method: 'POST',
        url: '/api/v1/player/dee/drop-grant',
        headers: auth(token),
        payload,
      });
    expect((await mint(playerToken('dee'), { enemy: 'rat', level: 3 })).statusCode).toBe(403);
    const unknown = await mint(SERVER_KEY, { enemy: 'ancient_dragon', level: 3 });
    expect(unknown.json().error.code).toBe('unknown_enemy');
    const minted = await mint(SERVER_KEY, { enemy: 'Cellar Rat', level: 3, ttl_seconds: 30 });
    expect(minted.statusCode).toBe(200);
    const { grant, expires_at } = minted.json();
    expect(Date.parse(expires_at) - Date.now()).toBeLessThanOrEqual(30_000);
    expect((await h.drop('dee', { ...weapon, grant })).statusCode).toBe(200);
  });

  it('drop limits hold for granted drops too (6 an hour here)', async () => {
    const results = [];
    for (let i = 0; i < 8; i++)
      results.push(await h.drop('eli', { ...weapon, grant: signDropGrant(SERVER_KEY, claims('eli')) }));
    expect(results.map((r) => r.statusCode)).toEqual([...Array(6).fill(200), 429, 429]);
    expect(results[6]?.json().error.message).toContain('per hour');
  });
});

describe('the raw chat forward (LOOTSMITH_ALLOW_CHAT=1)', () => {
  let t: Booted;
  const h = helpers(() => t);
  const chat = (player: string) =>
    t.server.app.inject({
      method: 'POST',
      url: '/v1/chat/completions',
      headers: auth(playerToken(player)),
      payload: { messages: [{ role: 'user', content: 'Generate 1 item.' }] },
    });
  beforeAll(async () => {
    t = await bootWithFake({ ...PRODUCTION, LOOTSMITH_ALLOW_CHAT: '1' });
  });
  afterAll(async () => {
    await t?.close();
  });

  // Issue 24: a failed forward that reached the backend is charged now (it was not before).
  it('counts against daily_items, exactly under concurrency, a failed forward that reached the backend too', async () => {
    await h.settings('fin', { daily_items: 3 });
    t.fake.mode = 'down';
    expect((await chat('fin')).statusCode).toBe(502);
    t.fake.mode = 'ok';
    const results = await Promise.all(Array.from({ length: 8 }, () => chat('fin')));
    expect(statuses(results)).toEqual([200, 200, ...Array(6).fill(429)]);
    expect(await h.usage('fin')).toEqual({ items: 3, images: 0 });
  });

  it('has a per-player rate limit', async () => {
    const results = [];
    for (let i = 0; i < 11; i++) results.push(await chat('gil'));
    expect(results.map((r) => r.statusCode)).toEqual([...Array(10).fill(200), 429]);
    expect(results[10]?.json().reason).toBe('rate_limit_exceeded');
    expect((await chat('hel')).statusCode).toBe(200);
  });
});
