import { type Booted, bootWithFake } from '@lootsmith/test-support/boot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// A refusal says what would be accepted: a player (or a developer reading the error) need not guess.
let h: Booted;
let token: string;

beforeAll(async () => {
  h = await bootWithFake();
  token = await h.token('newcomer');
});
afterAll(() => h?.close());

async function refusal(url: string, payload: object) {
  const res = await h.server.app.inject({
    method: 'POST',
    url,
    payload,
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.statusCode).toBe(400);
  return res.json() as { error: { code: string; message: string }; reason?: string };
}

describe('refusals list what is valid', () => {
  it('an unknown enemy: the game’s enemies', async () => {
    const body = await refusal('/v1/generate/items', {
      client_id: 'newcomer',
      generation_context: { enemy: 'cave_troll' },
      items: [{}],
    });
    expect(body.error).toEqual({
      code: 'unknown_enemy',
      message:
        'The game has no enemy "cave_troll"; its enemies: slime, rat, skeleton, cultist, fire_imp, frost_giant',
      details: { enemies: ['slime', 'rat', 'skeleton', 'cultist', 'fire_imp', 'frost_giant'] },
    });
  });

  it('an unknown station: the game’s stations', async () => {
    const body = await refusal('/api/v1/crafting/combine', {
      player_id: 'newcomer',
      ingredients: [{ item_id: 'iron_ore', quantity: 2 }],
      crafting_station: 'tinker_bench',
    });
    expect(body.error.code).toBe('unknown_station');
    expect(body.error.message).toBe(
      'Unknown crafting station "tinker_bench"; the game\'s stations: workbench, forge, alchemy_table, enchanting_altar',
    );
  });

  it.each([
    [
      '/api/v1/crafting/combine',
      {
        player_id: 'newcomer',
        ingredients: [{ item_id: 'iron_ore', quantity: 2 }],
        crafting_station: 'forge',
      },
    ],
    [
      '/api/v1/player/newcomer/create-item',
      {
        crafting_station: 'forge',
        materials: [{ id: 'iron_ore', quantity: 2 }],
        item_parameters: {
          type: 'WEAPON',
          description: 'a sword',
          focus_attributes: [],
          visual_preferences: {},
        },
      },
    ],
  ])('a station above a new player’s level (%s): the stations level 0 can use', async (url, payload) => {
    const body = await refusal(url, payload);
    expect(body.reason).toBe('skill_too_low');
    expect(body.error.message).toBe(
      'Crafting level 1 is needed at the Forge; you are level 0, which can use the Workbench, the Alchemy Table',
    );
  });
});
