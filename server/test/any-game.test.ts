import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CombineResponse,
  CreateItemResponse,
  EquipmentResponse,
  type GameDefinition,
  GenerateItemsResponse,
  InventoryResponse,
  ITEM_KEYS,
  type Item,
  jsonSchemaOf,
  readIconPrompt,
  UseItemResponse,
} from '@lootsmith/protocol';
import { FANTASY_GAME, SPACE_GAME, shippedGame } from '@lootsmith/test-support/game-file';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { gameSchemas } from '../src/game/item-schemas.ts';
import { checkItem, settleItem } from '../src/game/rules.ts';
import { type RunningServer, startServer } from '../src/server.ts';

// The second shipped game through the real server and its embedded engine: a space salvage game
// that shares none of the fantasy game's vocabulary. Every item it hands out must speak only its own.

const SERVER_KEY = 'any-game-server-key-0123456789';
const space = shippedGame(SPACE_GAME);
const fantasy = shippedGame(FANTASY_GAME);

let server: RunningServer;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'lootsmith-any-game-'));
  server = await startServer(
    loadConfig({
      LOOTSMITH_SERVER_KEY: SERVER_KEY,
      LOOTSMITH_PLAYER_SECRET: 'any-game-player-secret-0123456789',
      LOOTSMITH_DATA_DIR: dataDir,
      LOOTSMITH_GAME_FILE: SPACE_GAME,
      LOOTSMITH_LOG_LEVEL: 'silent',
    }),
    { listen: false },
  );
});
afterAll(async () => {
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const call = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
  server.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${SERVER_KEY}` },
    ...(payload ? { payload } : {}),
  });

const ids = (list: ReadonlyArray<{ id: string }>) => new Set(list.map((x) => x.id));

/** Everything an item carries is the space game's: its type, rarity, element, stats and fields. */
function expectOnlySpace(item: Item, game: GameDefinition = space) {
  const where = `${item.name} (${item.type})`;
  expect(ids(game.item_types), where).toContain(item.type);
  expect(ids(game.rarities), where).toContain(item.rarity);
  expect(['none', ...ids(game.elements)], where).toContain(item.element);
  for (const s of item.stats) {
    expect(ids(game.stats), where).toContain(s.name);
    const carriers = game.stats.find((x) => x.id === s.name)?.types;
    if (carriers) expect(carriers, `${where}: ${s.name}`).toContain(item.type);
  }
  const stacked = game.item_types.find((t) => t.id === item.type)?.stackable;
  for (const field of game.item_fields) {
    if (!stacked && field.types.includes(item.type)) {
      expect(item[field.id], `${where}: ${field.id}`).toBeDefined();
      if (field.minimum !== undefined) expect(item[field.id]).toBeGreaterThanOrEqual(field.minimum);
      if (field.maximum !== undefined) expect(item[field.id]).toBeLessThanOrEqual(field.maximum);
      if (field.values) expect(field.values).toContain(item[field.id]);
    } else expect(item[field.id], `${where}: ${field.id}`).toBeUndefined();
  }
  const own = new Set([...ITEM_KEYS, ...game.item_fields.map((f) => f.id)]);
  expect(
    Object.keys(item).filter((k) => !own.has(k)),
    where,
  ).toEqual([]);
}

/** Words of the fantasy game that no answer for the space game may name. */
const FANTASY_NAMES = [
  ...fantasy.stations.map((s) => s.name),
  ...fantasy.materials.map((m) => m.name),
  ...fantasy.enemies.map((e) => e.name),
];
const expectNoFantasy = (text: string) => {
  for (const name of FANTASY_NAMES) expect(text, name).not.toContain(name);
};

describe('a game far from fantasy, through the real server', () => {
  it('serves its own vocabulary at GET /api/v1/game, and the OpenAPI says where item values come from', async () => {
    const doc = (await call('GET', '/docs/json')).json();
    const item =
      doc.paths['/v1/generate/items'].post.responses['200'].content['application/json'].schema.properties
        .items.items;
    expect(item.properties.type.description).toContain("game definition's item_types[].id");
    const res = await call('GET', '/api/v1/game');
    expect(res.statusCode).toBe(200);
    const game = res.json() as GameDefinition;
    expect(game.item_types.map((t) => t.id)).toEqual([
      'TOOL',
      'SUIT',
      'IMPLANT',
      'MODULE',
      'STIM',
      'SCRAP_PART',
    ]);
    expect(game.rarities.map((r) => r.id)).toContain('ARTIFACT');
  });

  it('drops loot that carries only its stats, elements, types, rarities and fields, with its own materials', async () => {
    const items: Item[] = [];
    for (const [n, enemy] of space.enemies.entries())
      for (let kill = 0; kill < 6; kill++) {
        const res = await call('POST', '/v1/generate/items', {
          client_id: `salvager-${n}`,
          generation_context: { enemy: enemy.id, location: 'Reactor Deck', player_level: 3 + kill },
          items: [{}, {}],
        });
        expect(res.statusCode, res.body).toBe(200);
        items.push(...GenerateItemsResponse.parse(res.json()).items);
      }
    for (const item of items) expectOnlySpace(item);
    const types = new Set(items.map((i) => i.type));
    for (const type of ['TOOL', 'SUIT', 'IMPLANT', 'MODULE', 'STIM']) expect(types).toContain(type);
    // Materials are the game's own, by their ids; elements follow the enemy.
    const materials = items.filter((i) => i.type === 'SCRAP_PART');
    expect(materials.length).toBeGreaterThan(0);
    for (const m of materials) expect(ids(space.materials)).toContain(m.id);
    const fromMech = items.filter((i) => i.lore.includes('Security Mech') && i.type !== 'SCRAP_PART');
    expect(fromMech.length).toBeGreaterThan(0);
    expect(fromMech.every((i) => i.element === 'ion')).toBe(true);
    expectNoFantasy(JSON.stringify(items));
  });

  it('refuses a type the game does not have, naming the ones it has', async () => {
    const res = await call('POST', '/v1/generate/items', {
      client_id: 'salvager-x',
      items: [{ type: 'WEAPON' }],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('unknown_type');
    expect(res.json().error.message).toContain('TOOL, SUIT, IMPLANT');
    // Nor may the game server choose a rarity the game lacks.
    const rarity = await call('POST', '/v1/generate/items', {
      client_id: 'salvager-x',
      items: [{ rarity: 'LEGENDARY' }],
    });
    expect(rarity.statusCode).toBe(400);
    expect(rarity.json().error.message).toContain('no rarity "LEGENDARY"; its rarities: SCRAP, SALVAGE');
  });

  it('gives the console its rarities and types to filter by, and plays its drops in the playground', async () => {
    const state = (await call('GET', '/api/v1/admin/game')).json();
    expect(state).toMatchObject({ file: SPACE_GAME, file_state: 'loaded', issues: [] });
    expect(state.rarities).toEqual(space.rarities.map((r) => r.id));
    expect(state.item_types).toEqual(space.item_types.map((t) => t.id));
    expect((await call('GET', '/api/v1/admin/items?rarity=SALVAGE&type=TOOL')).statusCode).toBe(200);
    const fantasyType = await call('GET', '/api/v1/admin/items?type=WEAPON');
    expect(fantasyType.json().error).toMatchObject({ code: 'unknown_type' });
    const fantasyRarity = await call('GET', '/api/v1/admin/items?rarity=EPIC');
    expect(fantasyRarity.statusCode).toBe(400);
    expect(fantasyRarity.json().error.message).toContain('its rarities: SCRAP');

    const drop = await call('POST', '/api/v1/admin/playground/drop', {
      enemy: space.enemies[0]?.id,
      player_level: 4,
      count: 4,
    });
    expect(drop.statusCode, drop.body).toBe(200);
    for (const item of drop.json().items) expectOnlySpace(item);
    expect(Object.keys(drop.json().odds)).toEqual(space.rarities.map((r) => r.id));
    const wrongType = await call('POST', '/api/v1/admin/playground/drop', {
      player_level: 4,
      count: 1,
      type: 'WEAPON',
    });
    expect(wrongType.json().error.code).toBe('unknown_type');

    // A candidate is checked as a game file is: a misspelt element is named, with what was meant.
    const candidate = {
      ...state.definition,
      enemies: [{ id: 'drone', name: 'Drone', tier: 1, element: 'plazma' }],
    };
    const check = (await call('POST', '/api/v1/admin/game/check', { definition: candidate })).json();
    expect(check.valid).toBe(false);
    expect(check.issues).toEqual([
      expect.objectContaining({ path: 'enemies[0].element', message: expect.stringContaining('"plasma"') }),
    ]);
  });

  it('combines at its own station, and a refusal names only what the game has', async () => {
    // A SALVAGE result needs crafting level 1 on every route: the game server grants it.
    const level = await call('PATCH', '/api/v1/player/welder', { crafting_level: 1 });
    expect(level.statusCode, level.body).toBe(200);
    const made = await call('POST', '/api/v1/crafting/combine', {
      player_id: 'welder',
      ingredients: [
        { item_id: 'scrap_alloy', quantity: 2 },
        { item_id: 'plasma_coil', quantity: 1 },
      ],
      crafting_station: 'fabricator',
      description: 'a plasma cutter',
    });
    expect(made.statusCode, made.body).toBe(200);
    const body = CombineResponse.parse(made.json());
    expect(body.success, body.message).toBe(true);
    const cutter = body.result_item as Item;
    expectOnlySpace(cutter);
    expect(cutter).toMatchObject({ type: 'TOOL', subtype: 'plasma cutter', element: 'plasma' });

    await call('POST', '/api/v1/player/welder/inventory/grant', {
      items: [
        { item_id: 'cryo_cell', quantity: 1 },
        { item_id: 'plasma_coil', quantity: 1 },
      ],
    });
    const clash = await call('POST', '/api/v1/crafting/combine', {
      player_id: 'welder',
      ingredients: [
        { item_id: 'plasma_coil', quantity: 1 },
        { item_id: 'cryo_cell', quantity: 1 },
      ],
      crafting_station: 'fabricator',
    });
    expect(clash.statusCode, clash.body).toBe(200);
    const refused = CombineResponse.parse(clash.json());
    expect(refused.success).toBe(false);
    expect(refused.suggestions?.length).toBeGreaterThan(0);
    expectNoFantasy(JSON.stringify(refused));
  });

  it('creates an item from materials, equips it in its slot and uses a consumable', async () => {
    const tool = await call('POST', '/api/v1/player/rigger/create-item', {
      crafting_station: 'fabricator',
      materials: [{ id: 'scrap_alloy', quantity: 2 }],
      item_parameters: {
        type: 'TOOL',
        description: 'an arc welder for cutting hull plates',
        focus_attributes: ['cutting'],
        visual_preferences: { colour: 'orange' },
      },
    });
    expect(tool.statusCode, tool.body).toBe(200);
    const welder = CreateItemResponse.parse(tool.json()).item;
    expectOnlySpace(welder);
    expect(welder.type).toBe('TOOL');
    expect(welder.stats[0]?.name).toBe('cutting');

    const worn = await call('POST', '/api/v1/player/rigger/equipment/equip', { item_id: welder.id });
    expect(worn.statusCode, worn.body).toBe(200);
    const equipment = EquipmentResponse.parse(worn.json());
    expect(equipment.slots.map((s) => s.slot)).toEqual(['HAND', 'SUIT', 'IMPLANT', 'MODULE']);
    expect(equipment.slots[0]?.item?.id).toBe(welder.id);
    for (const stat of Object.keys(equipment.stats)) expect(ids(space.stats)).toContain(stat);
    const wrong = await call('POST', '/api/v1/player/rigger/equipment/equip', {
      item_id: welder.id,
      slot: 'SUIT',
    });
    expect(wrong.json().reason).toBe('wrong_slot');

    const stim = await call('POST', '/api/v1/player/rigger/create-item', {
      crafting_station: 'med_bay',
      materials: [{ id: 'bio_gel', quantity: 2 }],
      item_parameters: {
        type: 'STIM',
        description: 'a stim pack to patch my suit',
        focus_attributes: [],
        visual_preferences: {},
      },
    });
    expect(stim.statusCode, stim.body).toBe(200);
    const pack = CreateItemResponse.parse(stim.json()).item;
    expectOnlySpace(pack);
    const notWorn = await call('POST', '/api/v1/player/rigger/equipment/equip', { item_id: pack.id });
    expect(notWorn.json().reason).toBe('not_equippable');
    const used = await call('POST', '/api/v1/player/rigger/use-item', { item_id: pack.id });
    expect(used.statusCode, used.body).toBe(200);
    const effects = UseItemResponse.parse(used.json());
    expect(effects.remaining).toBe(0);
    for (const e of effects.effects) expect(ids(space.stats)).toContain(e.name);
    const inv = InventoryResponse.parse((await call('GET', '/api/v1/player/rigger/inventory')).json());
    expect(inv.items.some((e) => e.item.id === pack.id)).toBe(false);
  });

  it('paints its icons in its palette, as its own silhouettes or a clean emblem, never a sword', async () => {
    const res = await call('POST', '/v1/generate/items', {
      client_id: 'painter',
      items: [{ type: 'IMPLANT' }, { type: 'TOOL' }, { type: 'SUIT' }, { type: 'STIM' }],
    });
    expect(res.statusCode, res.body).toBe(200);
    const kinds: Record<string, string> = {
      IMPLANT: 'implant',
      TOOL: 'emblem',
      SUIT: 'armor',
      STIM: 'syringe',
    };
    for (const item of GenerateItemsResponse.parse(res.json()).items) {
      const prompt = item.icon?.prompt ?? '';
      expect(prompt).toContain('in teal and orange');
      expect(readIconPrompt(prompt)?.silhouette, prompt).toBe(kinds[item.type]);
      const png = await server.app.inject({ url: item.icon?.url ?? '' });
      expect(png.statusCode).toBe(200);
      expect(png.headers['content-type']).toBe('image/png');
    }
  });
});

describe("the game's rules for its own vocabulary", () => {
  const cutter = {
    name: 'Arc Welder',
    type: 'TOOL',
    subtype: 'arc welder',
    rarity: 'SALVAGE',
    level: 4,
    element: 'ion',
    material: 'titanium',
    description: 'A humming arc welder that grants +8 cutting.',
    lore: 'Pulled from a wreck.',
    stats: [{ name: 'cutting', value: 8 }],
    effects: [],
    value: 40,
    durability: 40,
    mass: 6.5,
    look: { noun: 'arc welder', materials: ['titanium'], colors: [], features: [] },
  };
  const want = { rarity: 'SALVAGE', level: 4 };

  it('answers with enums of its own ids, and its own fields', () => {
    const { item } = gameSchemas(space);
    expect(item.safeParse(cutter).success).toBe(true);
    expect(item.safeParse({ ...cutter, type: 'WEAPON' }).success).toBe(false);
    expect(item.safeParse({ ...cutter, rarity: 'RARE' }).success).toBe(false);
    expect(item.safeParse({ ...cutter, element: 'fire' }).success).toBe(false);
    expect(item.safeParse({ ...cutter, stats: [{ name: 'attack', value: 3 }] }).success).toBe(false);
    expect(item.safeParse({ ...cutter, durability: 101 }).success).toBe(false);
    const schema = JSON.stringify(jsonSchemaOf(gameSchemas(space).batch));
    for (const id of ['TOOL', 'ARTIFACT', 'plasma', 'shielding', 'durability', 'clearance'])
      expect(schema).toContain(id);
    expect(schema).not.toMatch(/WEAPON|LEGENDARY|"fire"|"attack"/);
  });

  it('asks each type for the stats and fields it carries, and drops fields a type does not carry', () => {
    expect(checkItem(space, cutter, want)).toEqual([]);
    const { durability: _d, ...bare } = cutter;
    expect(checkItem(space, bare, want).join()).toMatch(/durability is required on a TOOL/);
    expect(checkItem(space, { ...cutter, durability: null }, want).join()).toMatch(/durability is required/);
    expect(checkItem(space, { ...cutter, stats: [{ name: 'thrust', value: 5 }] }, want).join()).toMatch(
      /a TOOL may not carry thrust \(only SUIT, MODULE do\)/,
    );
    const stim = {
      ...bare,
      type: 'STIM',
      subtype: 'stim pack',
      stats: [
        { name: 'hull', value: 10 },
        { name: 'energy', value: 6 },
      ],
    };
    expect(checkItem(space, { ...stim, mass: null }, want)).toEqual([]);
    // A game without a currency gives its items no worth; the server says how the item came to be.
    expect(settleItem(space, { ...stim, mass: 3, clearance: null })).toEqual({
      ...Object.fromEntries(Object.entries(stim).filter(([k]) => k !== 'mass')),
      value: 0,
      origin: 'dropped',
    });
  });
});
