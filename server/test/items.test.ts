import {
  CombineResponse,
  CreateItemResponse,
  GenerateItemsResponse,
  InventoryResponse,
} from '@lootsmith/protocol';
import {
  type Booted,
  bootWithFake,
  PLAYER_SECRET,
  SERVER_KEY,
  UPSTREAM_KEY,
} from '@lootsmith/test-support/boot';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ActivityRecorder } from '../src/admin/activity.ts';
import { signPlayerToken } from '../src/auth.ts';

let t: Booted;
beforeEach(async () => {
  t = await bootWithFake();
});
afterEach(async () => {
  await t.close();
});

const auth = (token: string) => ({ authorization: `Bearer ${token}` });

async function inventory(player: string, token: string) {
  const res = await t.server.app.inject({ url: `/api/v1/player/${player}/inventory`, headers: auth(token) });
  expect(res.statusCode).toBe(200);
  return InventoryResponse.parse(res.json());
}

const quantities = (inv: InventoryResponse) =>
  Object.fromEntries(inv.items.map((e) => [e.item.id, e.quantity]));

function drop(token: string, player: string, extra: Record<string, unknown> = {}, headers = {}) {
  return t.server.app.inject({
    method: 'POST',
    url: '/v1/generate/items',
    headers: { ...auth(token), ...headers },
    payload: {
      client_id: player,
      generation_context: { location: 'Crypt', enemy: 'skeleton', player_level: 4 },
      // One typed item, so every drop asks the model at least once (an untyped roll may be a material).
      items: [{ type: 'WEAPON' }, {}],
      ...extra,
    },
  });
}

describe('loot drops', () => {
  it('generates items with icons, grants them, and never shows the upstream key', async () => {
    const token = await t.token('ana');
    const res = await drop(token, 'ana');
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain(UPSTREAM_KEY);
    const { items } = GenerateItemsResponse.parse(res.json());
    expect(items).toHaveLength(2);
    expect(t.fake.lastAuth).toBe(`Bearer ${UPSTREAM_KEY}`);
    const inv = await inventory('ana', token);
    // The untyped item may roll a material the player started with: its stack grows by one.
    const starting = (id: string) =>
      t.server.core.deps.game.starting_materials.find((m) => m.id === id)?.quantity ?? 0;
    for (const item of items) {
      expect(quantities(inv)[item.id]).toBe(starting(item.id) + 1);
      const icon = await t.server.app.inject({ url: item.icon?.url ?? '' });
      expect(icon.statusCode).toBe(200);
      expect(icon.headers['content-type']).toBe('image/png');
      expect(icon.rawPayload.subarray(1, 4).toString()).toBe('PNG');
    }
  });

  it('keeps no per-item prompt in memory: generated icons are painted at once and served from the store', async () => {
    const token = await t.token('ana');
    const res = await drop(token, 'ana', { items: [{ type: 'WEAPON' }] });
    const icon = GenerateItemsResponse.parse(res.json()).items[0]?.icon;
    expect(icon).toBeTruthy();
    expect(await t.server.core.deps.coordination.iconPrompt(icon?.id ?? '')).toBeNull();
    const png = await t.server.app.inject({ url: icon?.url ?? '' });
    expect(png.statusCode).toBe(200);
  });

  it('paints an icon once per prompt', async () => {
    const token = await t.token('ana');
    await drop(token, 'ana', { items: [{ type: 'WEAPON' }] });
    const painted = t.fake.calls.image;
    const inv = await inventory('ana', token);
    const material = inv.items.find((e) => e.item.type === 'MATERIAL');
    await t.server.app.inject({ url: material?.item.icon?.url ?? '' });
    await t.server.app.inject({ url: material?.item.icon?.url ?? '' });
    expect(t.fake.calls.image).toBe(painted + 1);
  });

  it('refuses player-chosen rarities, other players and bad tokens', async () => {
    const token = await t.token('ana');
    expect((await drop(token, 'ana', { items: [{ rarity: 'MYTHIC' }] })).statusCode).toBe(403);
    expect((await drop(token, 'bob')).statusCode).toBe(403);
    expect((await drop('forged.token.value', 'ana')).statusCode).toBe(401);
    const expired = signPlayerToken(PLAYER_SECRET, 'ana', -10);
    const res = await drop(expired, 'ana');
    expect(res.statusCode).toBe(401);
    expect(res.json().error.code).toBe('token_expired');
    const other = signPlayerToken('another-secret-of-enough-length', 'ana', 600);
    expect((await drop(other, 'ana')).statusCode).toBe(401);
    expect(t.fake.calls.chat).toBe(0);
  });

  it('drops game materials for MATERIAL rolls without asking the model', async () => {
    const token = await t.token('ana');
    const before = quantities(await inventory('ana', token));
    const res = await drop(token, 'ana', {
      generation_context: { enemy: 'frost_giant' },
      items: [{ type: 'MATERIAL' }],
    });
    expect(res.statusCode).toBe(200);
    const [material] = res.json().items;
    expect(material.type).toBe('MATERIAL');
    expect(t.fake.calls.chat).toBe(0);
    expect(quantities(await inventory('ana', token))[material.id]).toBe((before[material.id] ?? 0) + 1);
  });

  it('lets the server credential choose rarities', async () => {
    const res = await drop(SERVER_KEY, 'ana', { items: [{ rarity: 'LEGENDARY', type: 'WEAPON' }] });
    expect(res.statusCode).toBe(200);
    expect(res.json().items[0].rarity).toBe('LEGENDARY');
  });

  it('rejects bad bodies with 400 naming the field, and changes nothing', async () => {
    const token = await t.token('ana');
    const before = await inventory('ana', token);
    const res = await drop(token, 'ana', { items: [{ type: 'SPACESHIP' }] });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toContain('body.items.0.type');
    const notJson = await t.server.app.inject({
      method: 'POST',
      url: '/v1/generate/items',
      headers: { ...auth(token), 'content-type': 'application/json' },
      payload: '{"client_id": ',
    });
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json().error.message).toBeTruthy();
    expect(await inventory('ana', token)).toEqual(before);
  });

  it.each([
    ['garbage', 'generation_failed'],
    ['invalid', 'generation_failed'],
    ['truncated', 'generation_failed'],
    ['refuse', 'generation_failed'],
    ['down', 'upstream_unavailable'],
    ['slow', 'upstream_unavailable'],
    ['error500', 'upstream_unavailable'],
    ['forbidden', 'upstream_key_refused'],
  ] as const)('answers 502 %s → %s and stores nothing', async (mode, code) => {
    const token = await t.token('ana');
    const before = await inventory('ana', token);
    t.fake.mode = mode;
    const res = await drop(token, 'ana');
    expect(res.statusCode).toBe(502);
    expect(res.json().error.code).toBe(code);
    expect(res.body).not.toContain(UPSTREAM_KEY);
    t.fake.mode = 'ok';
    expect(await inventory('ana', token)).toEqual(before);
  });

  it('caps a player’s claimed level to the one the game server set', async () => {
    const token = await t.token('ana');
    await t.server.app.inject({
      method: 'PATCH',
      url: '/api/v1/player/ana',
      headers: auth(SERVER_KEY),
      payload: { level: 3 },
    });
    const res = await drop(token, 'ana', { generation_context: { enemy: 'rat', player_level: 60 } });
    expect(res.statusCode).toBe(200);
    for (const item of res.json().items.filter((i: { id: string }) => i.id.startsWith('itm_')))
      expect(item.level).toBeLessThanOrEqual(4);
  });

  it('re-asks with the errors after an invalid answer and then succeeds', async () => {
    const token = await t.token('ana');
    t.fake.script = ['invalid'];
    const res = await drop(token, 'ana');
    expect(res.statusCode).toBe(200);
    expect(t.fake.calls.chat).toBe(2);
  });

  it('replays an Idempotency-Key with the first answer and one effect', async () => {
    const token = await t.token('ana');
    const before = quantities(await inventory('ana', token));
    const key = { 'idempotency-key': 'drop-0001-abc' };
    const [a, b] = await Promise.all([drop(token, 'ana', {}, key), drop(token, 'ana', {}, key)]);
    expect(a.statusCode).toBe(200);
    expect(a.body).toBe(b.body);
    expect(t.fake.calls.chat).toBe(1);
    const c = await drop(token, 'ana', {}, key);
    expect(c.body).toBe(a.body);
    const after = quantities(await inventory('ana', token));
    const granted: Record<string, number> = {};
    for (const item of GenerateItemsResponse.parse(a.json()).items)
      granted[item.id] = (granted[item.id] ?? 0) + 1;
    for (const [id, n] of Object.entries(granted)) expect(after[id]).toBe((before[id] ?? 0) + n);
    // The console counts one drop: the replays are listed as such.
    await (t.server.core.deps.activity as ActivityRecorder).flush();
    const player = (
      await t.server.app.inject({ url: '/api/v1/admin/players/ana', headers: auth(SERVER_KEY) })
    ).json();
    expect(player.player.drops).toBe(1);
    const drops = player.requests.filter((r: { route: string }) => r.route === 'POST /v1/generate/items');
    expect(drops.map((r: { code: string | null }) => r.code).sort()).toEqual([null, 'replayed', 'replayed']);
  });
});

describe('crafting', () => {
  const combine = (token: string, payload: Record<string, unknown>) =>
    t.server.app.inject({ method: 'POST', url: '/api/v1/crafting/combine', headers: auth(token), payload });

  it('consumes ingredients, grants the result, discovers the recipe once, and reuses the recipe book', async () => {
    const token = await t.token('cara');
    // An UNCOMMON result needs crafting level 1, on this route as on create-item.
    await t.server.app.inject({
      method: 'PATCH',
      url: '/api/v1/player/cara',
      headers: auth(SERVER_KEY),
      payload: { crafting_level: 1 },
    });
    const body = {
      player_id: 'cara',
      ingredients: [
        { item_id: 'iron_ore', quantity: 2 },
        { item_id: 'ember_essence', quantity: 1 },
      ],
      crafting_station: 'workbench',
      description: 'a flaming sword',
    };
    const first = CombineResponse.parse((await combine(token, body)).json());
    expect(first.success).toBe(true);
    expect(first.recipe_discovered).toBe(true);
    expect(first.consumed_items.sort()).toEqual(['ember_essence', 'iron_ore']);
    const inv = quantities(await inventory('cara', token));
    expect(inv.iron_ore).toBe(2);
    expect(inv.ember_essence).toBe(1);
    expect(inv[first.result_item?.id ?? '']).toBe(1);
    const chats = t.fake.calls.chat;
    const second = CombineResponse.parse((await combine(token, body)).json());
    expect(second.success).toBe(true);
    expect(second.recipe_discovered).toBe(false);
    expect(second.result_item?.name).toBe(first.result_item?.name);
    expect(second.result_item?.id).not.toBe(first.result_item?.id);
    expect(t.fake.calls.chat).toBe(chats);
    expect(second.crafting_xp_earned).toBeLessThan(first.crafting_xp_earned);
    const after = await inventory('cara', token);
    expect(after.recipes).toHaveLength(1);
    expect(quantities(after).ember_essence).toBeUndefined();
  });

  it('answers insufficient_materials without asking the model', async () => {
    const token = await t.token('cara');
    const res = await combine(token, {
      player_id: 'cara',
      ingredients: [
        { item_id: 'iron_ore', quantity: 9 },
        { item_id: 'oak_wood', quantity: 1 },
      ],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().reason).toBe('insufficient_materials');
    expect(t.fake.calls.chat).toBe(0);
  });

  it('reports a senseless combination with suggestions and consumes nothing', async () => {
    const token = await t.token('cara');
    await t.server.app.inject({
      method: 'PATCH',
      url: '/api/v1/player/cara',
      headers: auth(SERVER_KEY),
      payload: { crafting_level: 1 },
    });
    const before = await inventory('cara', token);
    t.fake.mode = 'senseless';
    const res = CombineResponse.parse(
      (
        await combine(token, {
          player_id: 'cara',
          crafting_station: 'workbench',
          ingredients: [
            { item_id: 'ember_essence', quantity: 1 },
            { item_id: 'frost_shard', quantity: 1 },
          ],
        })
      ).json(),
    );
    expect(res.success).toBe(false);
    expect(res.suggestions?.length).toBeGreaterThan(0);
    expect(res.consumed_items).toEqual([]);
    expect(await inventory('cara', token)).toEqual(before);
  });

  it('spends each ingredient once under concurrent combines', async () => {
    const token = await t.token('dan');
    const body = {
      player_id: 'dan',
      crafting_station: 'workbench',
      ingredients: [
        { item_id: 'iron_ore', quantity: 1 },
        { item_id: 'oak_wood', quantity: 1 },
      ],
    };
    const results = await Promise.all(Array.from({ length: 10 }, () => combine(token, body)));
    const ok = results.filter((r) => r.statusCode === 200 && r.json().success);
    const refused = results.filter((r) => r.statusCode === 400);
    expect(ok).toHaveLength(3); // oak_wood: 3 to start
    expect(refused.every((r) => r.json().reason === 'insufficient_materials')).toBe(true);
    expect(ok.length + refused.length).toBe(10);
    const inv = quantities(await inventory('dan', token));
    expect(inv.oak_wood).toBeUndefined();
    expect(inv.iron_ore).toBe(1);
  });
});

describe('create-item', () => {
  const create = (token: string, player: string, payload: Record<string, unknown>) =>
    t.server.app.inject({
      method: 'POST',
      url: `/api/v1/player/${player}/create-item`,
      headers: auth(token),
      payload,
    });
  const body = (station: string, materials = [{ id: 'oak_wood', quantity: 1 }]) => ({
    crafting_station: station,
    materials,
    item_parameters: {
      type: 'WEAPON',
      description: 'a sturdy club',
      focus_attributes: ['attack'],
      visual_preferences: { color: 'brown' },
    },
  });

  it('creates, checks skill and materials, and limits to 5 per hour; a refusal takes no slot', async () => {
    const token = await t.token('eve');
    const ok = await create(token, 'eve', body('workbench'));
    expect(ok.statusCode).toBe(200);
    const created = CreateItemResponse.parse(ok.json());
    expect(created.consumed_materials).toEqual([{ id: 'oak_wood', quantity: 1 }]);
    expect(created.crafting_xp).toBeGreaterThan(0);
    expect(Date.parse(created.cooldown_until)).toBeGreaterThan(Date.now());
    expect(ok.headers['x-ratelimit-remaining']).toBe('4');

    const skill = await create(token, 'eve', body('forge', [{ id: 'iron_ore', quantity: 1 }]));
    expect(skill.statusCode).toBe(400);
    expect(skill.json().reason).toBe('skill_too_low');

    const missing = await create(token, 'eve', body('workbench', [{ id: 'gold_nugget', quantity: 1 }]));
    expect(missing.statusCode).toBe(400);
    expect(missing.json().reason).toBe('insufficient_materials');

    const granted = await t.server.app.inject({
      method: 'POST',
      url: '/api/v1/player/eve/inventory/grant',
      headers: auth(SERVER_KEY),
      payload: { items: [{ item_id: 'oak_wood', quantity: 3 }] },
    });
    expect(granted.statusCode).toBe(200);
    for (let i = 2; i <= 5; i++) {
      const res = await create(token, 'eve', body('workbench'));
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-ratelimit-remaining']).toBe(String(5 - i));
    }
    const limited = await create(token, 'eve', body('workbench'));
    expect(limited.statusCode).toBe(429);
    expect(limited.json().reason).toBe('rate_limit_exceeded');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(quantities(await inventory('eve', token)).oak_wood).toBe(1);
  });

  it('gives the item the colour the player chose, paints its icon in it, and says what it could not follow', async () => {
    const token = await t.token('gil');
    const res = await create(token, 'gil', {
      crafting_station: 'workbench',
      materials: [{ id: 'iron_ore', quantity: 1 }],
      item_parameters: {
        type: 'WEAPON',
        description: 'a round oak club',
        focus_attributes: ['attack', 'charisma'],
        visual_preferences: { color: 'Crimson' },
      },
    });
    expect(res.statusCode).toBe(200);
    const created = CreateItemResponse.parse(res.json());
    expect(created.item.color).toBe('crimson');
    expect(created.item.icon?.prompt).toMatch(/, colours crimson\b/);
    expect(created.notes).toEqual([
      expect.stringMatching(/^"charisma" is not a stat of .*; its stats: attack, defense/),
      'Made of iron, not oak: no Oak Wood was among the materials you gave.',
    ]);
  });

  it('keeps the rate-limit count across a restart', async () => {
    const token = await t.token('fay');
    await t.server.app.inject({
      method: 'POST',
      url: '/api/v1/player/fay/inventory/grant',
      headers: auth(SERVER_KEY),
      payload: { items: [{ item_id: 'oak_wood', quantity: 3 }] },
    });
    for (let i = 0; i < 5; i++) expect((await create(token, 'fay', body('workbench'))).statusCode).toBe(200);
    await t.server.close();
    const { startServer } = await import('../src/server.ts');
    const { loadConfig } = await import('../src/config.ts');
    t.server = await startServer(
      loadConfig({
        LOOTSMITH_UPSTREAM_URL: t.fake.url,
        LOOTSMITH_UPSTREAM_KEY: UPSTREAM_KEY,
        LOOTSMITH_PLAYER_SECRET: PLAYER_SECRET,
        LOOTSMITH_DATA_DIR: t.dataDir,
        LOOTSMITH_LOG_LEVEL: 'silent',
      }),
      { listen: false },
    );
    expect((await create(token, 'fay', body('workbench'))).statusCode).toBe(429);
  });
});

describe('server credential', () => {
  const patch = (player: string, payload: Record<string, unknown>, token = SERVER_KEY) =>
    t.server.app.inject({ method: 'PATCH', url: `/api/v1/player/${player}`, headers: auth(token), payload });

  it('grants and removes stacks, and players may not', async () => {
    const token = await t.token('gus');
    const grant = (who: string) =>
      t.server.app.inject({
        method: 'POST',
        url: '/api/v1/player/gus/inventory/grant',
        headers: auth(who),
        payload: { items: [{ item_id: 'gold_nugget', quantity: 3 }] },
      });
    expect((await grant(token)).statusCode).toBe(403);
    expect((await grant(SERVER_KEY)).statusCode).toBe(200);
    expect(quantities(await inventory('gus', token)).gold_nugget).toBe(3);
    const remove = await t.server.app.inject({
      method: 'POST',
      url: '/api/v1/player/gus/inventory/remove',
      headers: auth(SERVER_KEY),
      payload: { items: [{ item_id: 'gold_nugget', quantity: 5 }] },
    });
    expect(remove.json().reason).toBe('insufficient_materials');
    expect(quantities(await inventory('gus', token)).gold_nugget).toBe(3);
  });

  it('blocks a player on every route and enforces daily budgets', async () => {
    const token = await t.token('hal');
    expect((await patch('hal', { daily_items: 2 }, token)).statusCode).toBe(403);
    expect((await patch('hal', { daily_items: 2 })).statusCode).toBe(200);
    expect((await drop(token, 'hal')).statusCode).toBe(200);
    const over = await drop(token, 'hal');
    expect(over.statusCode).toBe(429);
    expect(over.json().reason).toBe('budget_exceeded');
    expect((await patch('hal', { blocked: true })).statusCode).toBe(200);
    expect((await drop(token, 'hal')).statusCode).toBe(403);
    const inv = await t.server.app.inject({ url: '/api/v1/player/hal/inventory', headers: auth(token) });
    expect(inv.statusCode).toBe(403);
  });

  it('raises the crafting level so the forge opens', async () => {
    const token = await t.token('ivy');
    expect((await patch('ivy', { crafting_level: 2 })).statusCode).toBe(200);
    expect((await inventory('ivy', token)).crafting_level).toBe(2);
  });
});
