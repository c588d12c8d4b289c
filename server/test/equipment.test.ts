import { EquipmentResponse, InventoryResponse, type Item, UseItemResponse } from '@lootsmith/protocol';
import { type Booted, bootWithFake, SERVER_KEY } from '@lootsmith/test-support/boot';
import type { InjectOptions } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

type InjectPayload = InjectOptions['payload'];

let t: Booted;
beforeEach(async () => {
  t = await bootWithFake();
});
afterEach(async () => {
  await t.close();
});

const SLOTS = ['WEAPON', 'EQUIPMENT', 'HELMET', 'CHEST', 'LEGS', 'BOOTS', 'GLOVES', 'SHIELD', 'ACCESSORY'];

let made = 0;
function item(type: Item['type'], stats: Item['stats']): Item {
  made += 1;
  return {
    id: `itm_test_${made}`,
    name: `Test ${type.toLowerCase()} ${made}`,
    type,
    subtype: type === 'CONSUMABLE' ? 'potion' : 'thing',
    rarity: 'COMMON',
    level: 1,
    element: 'none',
    material: 'iron',
    description: 'An item made by a test.',
    lore: 'Nobody remembers it.',
    stats,
    effects: [],
    value: 1,
    icon: null,
    created_at: '2026-01-01T00:00:00.000Z',
  };
}

/** A player with a session and these items in the inventory. */
async function player(id: string, items: Item[]) {
  const token = await t.token(id);
  await t.server.core.deps.store.grantLoot(id, items, [], 'test');
  const call = (method: 'GET' | 'POST', path: string, payload?: InjectPayload, headers = {}) =>
    t.server.app.inject({
      method,
      url: `/api/v1/player/${id}${path}`,
      headers: { authorization: `Bearer ${token}`, ...headers },
      ...(payload === undefined ? {} : { payload }),
    });
  const state = async () => ({
    equipment: (await call('GET', '/equipment')).json(),
    inventory: InventoryResponse.parse((await call('GET', '/inventory')).json()).items.map((e) => [
      e.item.id,
      e.quantity,
    ]),
  });
  return { token, call, state };
}

const worn = (res: { json(): unknown }) =>
  Object.fromEntries(
    EquipmentResponse.parse(res.json()).slots.flatMap((s) => (s.item ? [[s.slot, s.item.id]] : [])),
  );

describe('equipment', () => {
  it('lists every slot of the game, empty at first', async () => {
    const p = await player('ana', []);
    const res = await p.call('GET', '/equipment');
    expect(res.statusCode).toBe(200);
    const body = EquipmentResponse.parse(res.json());
    expect(body.slots.map((s) => s.slot)).toEqual(SLOTS);
    expect(body.slots.every((s) => s.item === null)).toBe(true);
    expect(body.stats).toEqual({});
  });

  it('wears an owned item in its slot, replaces it, and sums the worn stats', async () => {
    const sword = item('WEAPON', [{ name: 'attack', value: 9 }]);
    const axe = item('WEAPON', [
      { name: 'attack', value: 12 },
      { name: 'speed', value: -2 },
    ]);
    const helm = item('HELMET', [
      { name: 'defense', value: 4 },
      { name: 'attack', value: 1 },
    ]);
    const p = await player('ana', [sword, axe, helm]);
    const first = await p.call('POST', '/equipment/equip', { item_id: sword.id });
    expect(first.statusCode).toBe(200);
    expect(worn(first)).toEqual({ WEAPON: sword.id });
    expect(EquipmentResponse.parse(first.json()).stats).toEqual({ attack: 9 });
    await p.call('POST', '/equipment/equip', { item_id: axe.id, slot: 'WEAPON' });
    const both = await p.call('POST', '/equipment/equip', { item_id: helm.id });
    expect(worn(both)).toEqual({ WEAPON: axe.id, HELMET: helm.id });
    expect(EquipmentResponse.parse(both.json()).stats).toEqual({ attack: 13, speed: -2, defense: 4 });
    // Kept on the server: a fresh read says the same, and the items stay in the inventory.
    expect(worn(await p.call('GET', '/equipment'))).toEqual({ WEAPON: axe.id, HELMET: helm.id });
    expect((await p.state()).inventory).toEqual(
      expect.arrayContaining([
        [sword.id, 1],
        [axe.id, 1],
        [helm.id, 1],
      ]),
    );

    const off = await p.call('POST', '/equipment/unequip', { slot: 'WEAPON' });
    expect(worn(off)).toEqual({ HELMET: helm.id });
    expect(EquipmentResponse.parse(off.json()).stats).toEqual({ defense: 4, attack: 1 });
  });

  it('refuses what the rules do not allow, and a refusal changes nothing', async () => {
    const sword = item('WEAPON', [{ name: 'attack', value: 5 }]);
    const potion = item('CONSUMABLE', [{ name: 'health', value: 10 }]);
    const theirs = item('HELMET', [{ name: 'defense', value: 3 }]);
    const p = await player('ana', [sword, potion]);
    await player('bo', [theirs]);
    await p.call('POST', '/equipment/equip', { item_id: sword.id });
    const before = await p.state();

    const refusals: Array<[InjectPayload, number, string]> = [
      [{ item_id: theirs.id }, 400, 'not_owned'],
      [{ item_id: 'itm_no_such_item' }, 400, 'not_owned'],
      [{ item_id: potion.id }, 400, 'not_equippable'],
      [{ item_id: 'iron_ore' }, 400, 'not_equippable'],
      [{ item_id: sword.id, slot: 'SHIELD' }, 400, 'wrong_slot'],
    ];
    for (const [body, status, reason] of refusals) {
      const res = await p.call('POST', '/equipment/equip', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      expect(res.json()).toMatchObject({ error: { code: reason }, reason });
    }
    const badSlot = await p.call('POST', '/equipment/unequip', { slot: 'CONSUMABLE' });
    expect(badSlot.statusCode).toBe(400);
    expect(badSlot.json().error.code).toBe('unknown_slot');
    const notAType = await p.call('POST', '/equipment/equip', { item_id: sword.id, slot: 'HAT' });
    expect(notAType.statusCode).toBe(400);
    expect(notAType.json().error.code).toBe('invalid_request');
    expect(await p.state()).toEqual(before);
  });

  it('lets no player read or change another player’s equipment', async () => {
    const sword = item('WEAPON', [{ name: 'attack', value: 5 }]);
    const ana = await player('ana', [sword]);
    await player('bo', []);
    const asAna = (method: 'GET' | 'POST', url: string, payload?: InjectPayload) =>
      t.server.app.inject({ method, url, headers: { authorization: `Bearer ${ana.token}` }, payload });
    expect((await asAna('GET', '/api/v1/player/bo/equipment')).statusCode).toBe(403);
    expect((await asAna('POST', '/api/v1/player/bo/equipment/equip', { item_id: sword.id })).statusCode).toBe(
      403,
    );
    expect((await t.server.app.inject({ url: '/api/v1/player/ana/equipment' })).statusCode).toBe(401);
    // The game server may act for any player.
    const server = await t.server.app.inject({
      method: 'POST',
      url: '/api/v1/player/ana/equipment/equip',
      headers: { authorization: `Bearer ${SERVER_KEY}` },
      payload: { item_id: sword.id },
    });
    expect(worn(server)).toEqual({ WEAPON: sword.id });
  });

  it('takes off a worn item that leaves the inventory', async () => {
    const sword = item('WEAPON', [{ name: 'attack', value: 5 }]);
    const p = await player('ana', [sword]);
    await p.call('POST', '/equipment/equip', { item_id: sword.id });
    const removed = await t.server.app.inject({
      method: 'POST',
      url: '/api/v1/player/ana/inventory/remove',
      headers: { authorization: `Bearer ${SERVER_KEY}` },
      payload: { items: [{ item_id: sword.id, quantity: 1 }] },
    });
    expect(removed.statusCode).toBe(200);
    const after = EquipmentResponse.parse((await p.call('GET', '/equipment')).json());
    expect(after.slots.every((s) => s.item === null)).toBe(true);
    expect(after.stats).toEqual({});
  });

  it('is in the OpenAPI document', async () => {
    const paths = Object.keys((await t.server.app.inject({ url: '/docs/json' })).json().paths);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/api/v1/player/{player_id}/equipment',
        '/api/v1/player/{player_id}/equipment/equip',
        '/api/v1/player/{player_id}/equipment/unequip',
        '/api/v1/player/{player_id}/use-item',
      ]),
    );
  });
});

describe('consumables', () => {
  it('spends one and answers its effects', async () => {
    const potion = item('CONSUMABLE', [
      { name: 'health', value: 14 },
      { name: 'mana', value: 3 },
    ]);
    const p = await player('ana', [potion]);
    const res = await p.call('POST', '/use-item', { item_id: potion.id });
    expect(res.statusCode).toBe(200);
    const used = UseItemResponse.parse(res.json());
    expect(used.item.id).toBe(potion.id);
    expect(used.effects).toEqual(potion.stats);
    expect(used.remaining).toBe(0);
    expect((await p.state()).inventory.map(([id]) => id)).not.toContain(potion.id);
    const again = await p.call('POST', '/use-item', { item_id: potion.id });
    expect(again.statusCode).toBe(400);
    expect(again.json().reason).toBe('not_owned');
  });

  it('refuses to use up what is not a consumable, changing nothing', async () => {
    const sword = item('WEAPON', [{ name: 'attack', value: 5 }]);
    const p = await player('ana', [sword]);
    await p.call('POST', '/equipment/equip', { item_id: sword.id });
    const before = await p.state();
    for (const id of [sword.id, 'healing_herb']) {
      const res = await p.call('POST', '/use-item', { item_id: id });
      expect(res.statusCode).toBe(400);
      expect(res.json().reason).toBe('not_consumable');
    }
    expect(await p.state()).toEqual(before);
  });

  it('consumes each potion exactly once under concurrency', async () => {
    const potion = item('CONSUMABLE', [{ name: 'health', value: 10 }]);
    const p = await player('ana', [potion]);
    await t.server.core.deps.store.changeStacks('ana', [{ item_id: potion.id, quantity: 2 }], 'test');
    const results = await Promise.all(
      Array.from({ length: 12 }, () => p.call('POST', '/use-item', { item_id: potion.id })),
    );
    const ok = results.filter((r) => r.statusCode === 200);
    expect(ok).toHaveLength(3);
    expect(ok.map((r) => UseItemResponse.parse(r.json()).remaining).sort()).toEqual([0, 1, 2]);
    for (const r of results.filter((r) => r.statusCode !== 200)) expect(r.json().reason).toBe('not_owned');
    expect((await p.state()).inventory.map(([id]) => id)).not.toContain(potion.id);
  });

  it('spends once for one Idempotency-Key, however often the request is sent', async () => {
    const potion = item('CONSUMABLE', [{ name: 'health', value: 10 }]);
    const p = await player('ana', [potion]);
    await t.server.core.deps.store.changeStacks('ana', [{ item_id: potion.id, quantity: 1 }], 'test');
    const key = { 'idempotency-key': 'drink-potion-0001' };
    const results = await Promise.all(
      Array.from({ length: 4 }, () => p.call('POST', '/use-item', { item_id: potion.id }, key)),
    );
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
    expect(new Set(results.map((r) => r.body)).size).toBe(1);
    expect((await p.state()).inventory).toContainEqual([potion.id, 1]);
  });
});
