import { readFileSync } from 'node:fs';
import { CombineResponse, GameDefinition, type GeneratedItem, InventoryResponse } from '@lootsmith/protocol';
import { type Booted, bootWithFake, SERVER_KEY } from '@lootsmith/test-support/boot';
import { FANTASY_GAME, shippedGame } from '@lootsmith/test-support/game-file';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseGameFile } from '../src/game/definition.ts';
import {
  checkItem,
  craftedLevel,
  craftedRarity,
  craftingXp,
  dropLevels,
  mainStatRange,
  settleItem,
  statCeiling,
  statFloor,
} from '../src/game/rules.ts';

const game = GameDefinition.parse(shippedGame());

describe('crafting rules as data', () => {
  it('bounds crafted levels by the player level, so a chain of crafts stops where the loot does', () => {
    let level = 4;
    const chain = [];
    for (let step = 0; step < 8; step++) {
      level = craftedLevel(game, level, 10, 8);
      chain.push(level);
    }
    expect(Math.max(...chain)).toBe(8 + game.crafting.max_levels_above_player);
    // A player whose level the server never learnt crafts at the level of what went in.
    expect(craftedLevel(game, 5, 10, null)).toBe(5);
    expect(
      craftedLevel({ ...game, crafting: { ...game.crafting, max_levels_above_player: 0 } }, 3, 10, 6),
    ).toBe(6);
  });

  it('raises crafted rarity with the stack and with skill, up to the game’s cap', () => {
    expect(craftedRarity(game, ['COMMON', 'COMMON'], 2, 0)).toBe('COMMON');
    expect(craftedRarity(game, ['UNCOMMON', 'COMMON'], 2, 0)).toBe('UNCOMMON');
    expect(craftedRarity(game, ['COMMON'], 5, 0)).toBe('UNCOMMON');
    expect(craftedRarity(game, ['COMMON'], 2, 5)).toBe('UNCOMMON');
    expect(craftedRarity(game, ['EPIC'], 10, 20)).toBe(game.crafting.max_rarity);
  });

  it('pays XP by the rarity made, from the game definition', () => {
    expect(craftingXp(game, 15, 'COMMON')).toBe(15);
    expect(craftingXp(game, 15, 'RARE')).toBeGreaterThan(craftingXp(game, 15, 'UNCOMMON'));
    const generous = { ...game, crafting: { ...game.crafting, xp_factor_by_rarity: { COMMON: 4 } } };
    expect(craftingXp(generous, 15, 'COMMON')).toBe(60);
  });

  const potion: GeneratedItem = {
    name: 'Red Draught',
    type: 'CONSUMABLE',
    subtype: 'potion',
    rarity: 'COMMON',
    level: 3,
    element: 'none',
    material: 'glass',
    description: 'A red potion that restores 6 health.',
    lore: 'Brewed in a cellar.',
    stats: [{ name: 'health', value: 6 }],
    effects: [],
    value: 10,
  };
  const sword: GeneratedItem = {
    ...potion,
    name: 'Ember Blade',
    type: 'WEAPON',
    subtype: 'sword',
    material: 'iron',
    stats: [{ name: 'attack', value: 6 }],
  };
  const want = { rarity: 'COMMON' as const, level: 3 };

  it("refuses effects the game's catalogue lacks, on types it does not list, or with other params", () => {
    const burn = { id: 'burn', params: { damage: 1, seconds: 2 } };
    expect(checkItem(game, { ...sword, effects: [burn] }, want)).toEqual([]);
    expect(
      checkItem(game, { ...sword, effects: [{ id: 'fortune', params: { percent: 15 } }] }, want).join(' '),
    ).toMatch(/no effect "fortune"; use one of life_steal, burn/);
    expect(checkItem(game, { ...potion, effects: [burn] }, want).join(' ')).toMatch(
      /a CONSUMABLE may not carry burn \(only WEAPON, GLOVES do\)/,
    );
    expect(
      checkItem(game, { ...sword, effects: [{ id: 'burn', params: { damage: 1 } }] }, want).join(' '),
    ).toMatch(/burn takes exactly damage, seconds; missing seconds/);
    const two = [burn, { id: 'life_steal', params: { percent: 2 } }];
    expect(checkItem(game, { ...sword, effects: two }, want).join(' ')).toMatch(/at most 1 effects, not 2/);
  });

  it("drops nothing above the player's level plus the game's drop_level_over", () => {
    expect(game.drop_level_over).toBe(0);
    for (const tier of [1, 3, 5]) expect(dropLevels(game, 10, tier)).toEqual([8, 10]);
    const generous = { ...game, drop_level_over: 2 };
    expect(dropLevels(generous, 10, 1)).toEqual([9, 11]);
    expect(dropLevels(generous, 10, 5)).toEqual([10, 12]);
    expect(dropLevels(game, 1, 1)).toEqual([1, 1]);
  });

  it('asks an item to lean to the stat the player chose, when its type may carry it', () => {
    const leaning = { ...want, focus: 'Crit chance, speed' };
    const lopsided = {
      ...sword,
      stats: [
        { name: 'attack', value: 6 },
        { name: 'crit_chance', value: 2 },
      ],
    };
    expect(checkItem(game, lopsided, leaning).join(' ')).toMatch(
      /asked for crit_chance: make it the item's strongest/,
    );
    // Its main stat (attack) is raised to the least of its range, 6, when the item is settled: the
    // focus must stay the strongest after that.
    const fair = {
      ...sword,
      stats: [
        { name: 'crit_chance', value: 6 },
        { name: 'attack', value: 2 },
      ],
    };
    expect(checkItem(game, fair, leaning)).toEqual([]);
    const short = {
      ...sword,
      stats: [
        { name: 'crit_chance', value: 5 },
        { name: 'attack', value: 2 },
      ],
    };
    expect(checkItem(game, short, leaning).join(' ')).toMatch(
      /asked for crit_chance: make it the item's strongest stat once attack, its main stat, is raised to 6/,
    );
    expect(checkItem(game, lopsided, { ...want, focus: 'charisma' })).toEqual([]);
  });

  it("clamps effect numbers to the range of the item's rarity and level", () => {
    const wild = { ...sword, effects: [{ id: 'life_steal', params: { percent: 95 } }] };
    // Ceiling of life_steal's percent: min 2 + 3 per rarity step + 0.1 per level.
    expect(settleItem(game, wild).effects).toEqual([{ id: 'life_steal', params: { percent: 2.3 } }]);
    const epic = settleItem(game, { ...wild, rarity: 'EPIC', level: 40 });
    expect(epic.effects[0]?.params.percent).toBe(15);
    expect(settleItem(game, { ...wild, rarity: 'MYTHIC', level: 60 }).effects[0]?.params.percent).toBe(20);
    const low = settleItem(game, { ...sword, effects: [{ id: 'burn', params: { damage: -4, seconds: 0 } }] });
    expect(low.effects[0]?.params).toEqual({ damage: 1, seconds: 2 });
  });

  it('raises a rare item to above the strongest item of the rarity below, and refuses one above its own', () => {
    for (const level of [1, 10, 40]) {
      const rarities = game.rarities.map((r) => r.id);
      for (const [i, rarity] of rarities.entries()) {
        if (i === 0) continue;
        const strongestBelow = statCeiling(game, rarities[i - 1] as string, level);
        const { least } = mainStatRange(game, rarity, level);
        const weak = settleItem(game, {
          ...sword,
          rarity,
          level,
          stats: [{ name: 'attack', value: 1 }],
          description: 'A plain blade that grants +1 attack.',
        });
        // The main stat to the least of its range, the rest of the shortfall on the next stat a weapon leans to.
        expect(weak.stats).toEqual([
          { name: 'attack', value: least },
          { name: 'crit_chance', value: strongestBelow + 1 - least },
        ]);
        // The description says the number the item has.
        expect(weak.description).toBe(`A plain blade that grants +${least} attack.`);
        expect(statFloor(game, rarity, level)).toBeLessThanOrEqual(statCeiling(game, rarity, level));
      }
    }
    const over = { ...sword, stats: [{ name: 'attack', value: 40 }] };
    expect(checkItem(game, over, want).join(' ')).toMatch(/above the stat budget/);
  });

  it('reads a game file written before these rules, with their defaults', () => {
    const raw = JSON.parse(readFileSync(FANTASY_GAME, 'utf8'));
    const { crafting: _c, item_types: _t, ...old } = raw;
    const parsed = parseGameFile(
      'old.json',
      JSON.stringify({ ...old, item_limits: { ...raw.item_limits, on_hit_types: ['WEAPON'] } }),
    );
    expect(parsed.crafting).toMatchObject({
      levels_per_crafting_level: 0.5,
      max_levels_above_player: 2,
      rarity_step_quantity: 5,
      rarity_step_crafting_levels: 5,
    });
    // Older files list striking types in item_limits.on_hit_types; that list still decides.
    expect(parsed.item_types.filter((t) => t.strikes).map((t) => t.id)).toEqual(['WEAPON']);
  });
});

describe('crafting routes', () => {
  let t: Booted;
  beforeEach(async () => {
    t = await bootWithFake();
  });
  afterEach(async () => {
    await t.close();
  });

  const server = { authorization: `Bearer ${SERVER_KEY}` };
  const call = (method: 'POST' | 'PATCH' | 'GET', url: string, payload?: object) =>
    t.server.app.inject({ method, url, headers: server, ...(payload ? { payload } : {}) });
  const stock = async (player: string) =>
    InventoryResponse.parse((await call('GET', `/api/v1/player/${player}/inventory`)).json());

  it('asks the station level on combine too, and a refused craft spends nothing', async () => {
    await call('POST', '/api/v1/player/novice/inventory/grant', {
      items: [{ item_id: 'gold_nugget', quantity: 1 }],
    });
    const before = await stock('novice');
    const chats = t.fake.calls.chat;
    const res = await call('POST', '/api/v1/crafting/combine', {
      player_id: 'novice',
      ingredients: [
        { item_id: 'gold_nugget', quantity: 1 },
        { item_id: 'iron_ore', quantity: 1 },
      ],
      crafting_station: 'enchanting_altar',
      description: 'a ring',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().reason).toBe('skill_too_low');
    expect(t.fake.calls.chat).toBe(chats);
    const after = await stock('novice');
    expect(after.items).toEqual(before.items);
    expect(after.crafting_xp).toBe(before.crafting_xp);
  });

  it('keeps a chain of crafts within the player level', async () => {
    await call('PATCH', '/api/v1/player/smith', { crafting_level: 20, level: 6 });
    await call('POST', '/api/v1/player/smith/inventory/grant', {
      items: [{ item_id: 'iron_ore', quantity: 20 }],
    });
    let current = { item_id: 'iron_ore', quantity: 2 };
    const levels: number[] = [];
    for (let step = 0; step < 5; step++) {
      const res = await call('POST', '/api/v1/crafting/combine', {
        player_id: 'smith',
        ingredients: [current, { item_id: 'iron_ore', quantity: 1 }],
        crafting_station: 'forge',
      });
      const body = CombineResponse.parse(res.json());
      expect(body.success).toBe(true);
      levels.push(body.result_item?.level ?? 0);
      current = { item_id: body.result_item?.id ?? '', quantity: 1 };
    }
    expect(Math.max(...levels)).toBeLessThanOrEqual(6 + game.crafting.max_levels_above_player);
  });
});
