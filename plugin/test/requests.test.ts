import {
  CombineRequest,
  CreateItemRequest,
  GenerateItemsRequest,
  ImageGenerationRequest,
} from '@lootsmith/protocol';
import { describe, expect, it } from 'vitest';
import {
  combineBody,
  createItemBody,
  generateItemsBody,
  hash,
  imageBody,
  stacks,
} from '../src/core/requests.ts';

describe('request building', () => {
  it('builds a schema-valid loot request with one empty entry per item and no rarity', () => {
    const body = generateItemsBody('p1', { enemy: 'goblin', location: 'cave', playerLevel: 4, count: 3 });
    expect(GenerateItemsRequest.parse(body)).toEqual(body);
    expect(body.items).toEqual([{}, {}, {}]);
    expect(body.generation_context).toEqual({ enemy: 'goblin', location: 'cave', player_level: 4 });
  });

  it('carries a drop grant from the game server', () => {
    const body = generateItemsBody('p1', { enemy: 'skeleton', grant: 'signed.grant.token' });
    expect(GenerateItemsRequest.parse(body)).toEqual(body);
    expect(body.grant).toBe('signed.grant.token');
  });

  it('leaves out an empty generation context instead of sending undefined fields', () => {
    const body = generateItemsBody('p1', {});
    expect(body).toEqual({ client_id: 'p1', items: [{}] });
  });

  it('accepts item ids, items and stacks as ingredients, summing repeats', () => {
    const ore = { id: 'iron_ore', name: 'Iron ore' };
    expect(stacks(['a', ore, { id: 'a', quantity: 2 }, ore])).toEqual([
      { id: 'a', quantity: 3 },
      { id: 'iron_ore', quantity: 2 },
    ]);
  });

  it('maps friendly crafting names onto the protocol fields', () => {
    const combine = combineBody('p1', {
      ingredients: ['x', 'y'],
      station: 'forge',
      tool: 'hammer',
      intent: 'a sword',
    });
    expect(CombineRequest.parse(combine)).toEqual({
      player_id: 'p1',
      ingredients: [
        { item_id: 'x', quantity: 1 },
        { item_id: 'y', quantity: 1 },
      ],
      crafting_station: 'forge',
      crafting_tool: 'hammer',
      description: 'a sword',
    });
    // Worn gear goes in only when the game says the player agreed.
    const worn = combineBody('p1', { ingredients: ['axe', 'essence'], consumeEquipped: true });
    expect(CombineRequest.parse(worn).consume_equipped).toBe(true);
    expect(combineBody('p1', { ingredients: ['axe', 'essence'] })).not.toHaveProperty('consume_equipped');
    const create = createItemBody({
      station: 'forge',
      materials: ['iron_ore'],
      type: 'WEAPON',
      description: 'a blade',
    });
    expect(CreateItemRequest.parse(create).item_parameters).toEqual({
      type: 'WEAPON',
      description: 'a blade',
      focus_attributes: [],
      visual_preferences: {},
    });
  });

  it('builds image requests and hashes them into stable, distinct keys', () => {
    const body = imageBody('p1', 'a red potion, game item', { width: 256, height: 256 });
    expect(ImageGenerationRequest.parse(body)).toEqual(body);
    expect(hash('a red potion')).toBe(hash('a red potion'));
    expect(hash('a red potion')).not.toBe(hash('a red potion '));
  });
});
