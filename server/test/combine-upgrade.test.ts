import { startEngine } from '@lootsmith/engine';
import { CombineResponse, EquipmentResponse, InventoryResponse, type Item } from '@lootsmith/protocol';
import { type Booted, bootServer, PLAYER_SECRET, SERVER_KEY } from '@lootsmith/test-support/boot';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

// Combining what a player wears, on the embedded engine: a worn item is used up only when the
// request says so, and an item combined with a material comes out improved, never stripped.

let t: Booted;
let closeEngine: () => Promise<void>;
/** The chat requests the model was sent, in order. */
let asked: string[];

beforeEach(async () => {
  const engine = await startEngine({ host: '127.0.0.1', port: 0 });
  closeEngine = () => engine.close();
  // One combine a minute, so a refusal that took a slot would refuse the next try.
  t = await bootServer({
    keys: { upstream: engine.key, server: SERVER_KEY, player: PLAYER_SECRET },
    game: (g) => ({ combine: { ...g.combine, per_minute: 1 } }),
  });
  t.fake.relay = engine.url;
  asked = [];
  t.fake.hostile = (request) => {
    if (request.kind === 'chat') asked.push(request.prompt);
    return undefined;
  };
});
afterEach(async () => {
  await t.close();
  await closeEngine();
});

/** A worn axe with Burn, as the player of the bug report had (its attack in an UNCOMMON level-20 weapon's range). */
const axe: Item = {
  id: 'itm_worn_axe',
  name: 'Emberbite Axe',
  type: 'WEAPON',
  subtype: 'axe',
  rarity: 'UNCOMMON',
  level: 20,
  element: 'fire',
  material: 'iron',
  description: 'An iron axe whose edge smoulders.',
  lore: 'Forged in a village smithy.',
  stats: [
    { name: 'attack', value: 31 },
    { name: 'speed', value: 20 },
  ],
  effects: [{ id: 'burn', params: { damage: 3, seconds: 2 } }],
  value: 100,
  icon: null,
  created_at: '2026-01-01T00:00:00.000Z',
};

const server = { authorization: `Bearer ${SERVER_KEY}` };
const call = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
  t.server.app.inject({ method, url, headers: server, ...(payload ? { payload } : {}) });

/** A level-20 smith wearing the axe, with an Ember Essence in the bag. */
async function smithWearingTheAxe() {
  const { store } = t.server.core.deps;
  await call('PATCH', '/api/v1/player/smith', { crafting_level: 2, level: 20 });
  await store.grantLoot('smith', [axe], [{ item_id: 'ember_essence', quantity: 1 }], 'test');
  await store.equip('smith', 'WEAPON', axe.id);
}

const combine = (extra: object = {}) =>
  call('POST', '/api/v1/crafting/combine', {
    player_id: 'smith',
    ingredients: [
      { item_id: axe.id, quantity: 1 },
      { item_id: 'ember_essence', quantity: 1 },
    ],
    crafting_station: 'forge',
    description: 'burn hotter and glow green',
    ...extra,
  });

/** Everything a refused combine must leave as it was. */
async function snapshot() {
  const { store } = t.server.core.deps;
  const inventory = InventoryResponse.parse((await call('GET', '/api/v1/player/smith/inventory')).json());
  const equipment = EquipmentResponse.parse((await call('GET', '/api/v1/player/smith/equipment')).json());
  return {
    items: inventory.items.map((e) => [e.item.id, e.quantity]),
    xp: inventory.crafting_xp,
    recipes: inventory.recipes.length,
    slots: equipment.slots.map((s) => [s.slot, s.item?.id ?? null]),
    usage: await store.dailyUsage('smith', new Date().toISOString().slice(0, 10)),
  };
}

const power = (item: Pick<Item, 'stats'>) => item.stats.reduce((a, s) => a + Math.max(0, s.value), 0);

describe('combining worn gear', () => {
  it('refuses an equipped ingredient unless the request says so, and the refusal changes nothing', async () => {
    await smithWearingTheAxe();
    const before = await snapshot();
    const chats = t.fake.calls.chat;

    for (const flag of [{}, { consume_equipped: false }]) {
      const refused = await combine(flag);
      expect(refused.statusCode).toBe(409);
      const body = refused.json();
      expect(body.error.code).toBe('item_equipped');
      expect(body.reason).toBe('item_equipped');
      expect(body.error.message).toBe(
        'Emberbite Axe (WEAPON slot) is equipped: unequip it first, or send consume_equipped: true to use it up.',
      );
      expect(body.error.details).toEqual({
        items: [{ slot: 'WEAPON', item_id: axe.id, name: 'Emberbite Axe' }],
      });
    }
    // Nothing was asked of the model (no credits), spent, granted, counted or taken off.
    expect(t.fake.calls.chat).toBe(chats);
    expect(await snapshot()).toEqual(before);

    // The minute's one combine is still there: with the player's say-so the axe goes in, its slot empties.
    const res = await combine({ consume_equipped: true });
    expect(res.statusCode).toBe(200);
    const made = CombineResponse.parse(res.json());
    expect(made.success).toBe(true);
    expect(made.consumed_items.sort()).toEqual([axe.id, 'ember_essence'].sort());
    const after = await snapshot();
    expect(after.slots).toContainEqual(['WEAPON', null]);
    expect(after.items.map(([id]) => id)).not.toContain(axe.id);
    expect(after.items.map(([id]) => id)).toContain(made.result_item?.id);
  });

  it('needs no say-so for ingredients the player does not wear', async () => {
    await smithWearingTheAxe();
    await call('POST', '/api/v1/player/smith/inventory/grant', {
      items: [{ item_id: 'iron_ore', quantity: 3 }],
    });
    const res = await call('POST', '/api/v1/crafting/combine', {
      player_id: 'smith',
      ingredients: [{ item_id: 'iron_ore', quantity: 2 }],
      crafting_station: 'forge',
    });
    expect(res.statusCode).toBe(200);
    expect((await snapshot()).slots).toContainEqual(['WEAPON', axe.id]);
  });
});

describe('creating from worn gear', () => {
  const createItem = (extra: object = {}) =>
    call('POST', '/api/v1/player/smith/create-item', {
      crafting_station: 'forge',
      materials: [
        { id: axe.id, quantity: 1 },
        { id: 'ember_essence', quantity: 1 },
      ],
      item_parameters: {
        type: 'WEAPON',
        description: 'a hammer that burns',
        focus_attributes: [],
        visual_preferences: {},
      },
      ...extra,
    });

  it('refuses a worn item given as a material unless the request says so, and the refusal changes nothing', async () => {
    await smithWearingTheAxe();
    const before = await snapshot();
    const chats = t.fake.calls.chat;
    for (const flag of [{}, { consume_equipped: false }]) {
      const refused = await createItem(flag);
      expect(refused.statusCode, refused.body).toBe(409);
      expect(refused.json().error.code).toBe('item_equipped');
      expect(refused.json().error.message).toBe(
        'Emberbite Axe (WEAPON slot) is equipped: unequip it first, or send consume_equipped: true to use it up.',
      );
    }
    expect(t.fake.calls.chat).toBe(chats);
    expect(await snapshot()).toEqual(before);

    // The hour's create-item slot was not used: with the player's say-so the axe goes in, its slot empties.
    const res = await createItem({ consume_equipped: true });
    expect(res.statusCode, res.body).toBe(200);
    const after = await snapshot();
    expect(after.slots).toContainEqual(['WEAPON', null]);
    expect(after.items.map(([id]) => id)).not.toContain(axe.id);
    expect(after.items.map(([id]) => id)).toContain(res.json().item.id);
  });
});

describe('an upgrade on the embedded engine', () => {
  it("tells the model each ingredient's rarity, level, stats and effects, as data", async () => {
    await smithWearingTheAxe();
    await combine({ consume_equipped: true });
    const prompt = asked.find((p) => p.includes('Combine:')) ?? '';
    expect(prompt).toContain(
      '1 × "Emberbite Axe" (WEAPON, "axe", "iron", fire) {"rarity":"UNCOMMON","level":20,"stats":{"attack":31,"speed":20},"effects":[{"id":"burn","params":{"damage":3,"seconds":2}}]}',
    );
    expect(prompt).toMatch(/1 × "Ember Essence" \(MATERIAL, .*fire\) \{"rarity":"UNCOMMON","level":1,/);
    expect(prompt).toContain('Player intent: "burn hotter and glow green"');
  });

  it('keeps the weapon, its effect and at least its power, and strengthens what the material brings', async () => {
    await smithWearingTheAxe();
    const made = CombineResponse.parse((await combine({ consume_equipped: true })).json());
    expect(made.success, made.message).toBe(true);
    const item = made.result_item as Item;
    expect(item).toMatchObject({ type: 'WEAPON', subtype: 'axe', element: 'fire' });
    expect(item.level).toBeGreaterThanOrEqual(axe.level);
    expect(power(item)).toBeGreaterThanOrEqual(power(axe));
    expect(item.stats.find((s) => s.name === 'attack')?.value).toBeGreaterThanOrEqual(31);
    const burn = item.effects.find((e) => e.id === 'burn');
    expect(burn?.params.damage).toBeGreaterThan(3);
    expect(burn?.params.seconds).toBeGreaterThanOrEqual(2);
  });

  it('lets the player’s words change what the item carries', async () => {
    await smithWearingTheAxe();
    await call('POST', '/api/v1/player/smith/inventory/grant', {
      items: [{ item_id: 'iron_ore', quantity: 1 }],
    });
    const res = await call('POST', '/api/v1/crafting/combine', {
      player_id: 'smith',
      ingredients: [
        { item_id: axe.id, quantity: 1 },
        { item_id: 'iron_ore', quantity: 1 },
      ],
      crafting_station: 'forge',
      description: 'remove the burn, I want a plain axe',
      consume_equipped: true,
    });
    const made = CombineResponse.parse(res.json());
    // Asked for a change, the craft is not held to the axe's effects: still an axe, of the ore.
    expect(made.success, made.message).toBe(true);
    expect(made.result_item).toMatchObject({ type: 'WEAPON', subtype: 'axe' });
  });
});
