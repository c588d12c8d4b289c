import type { GenerateItemsRequest } from '@lootsmith/protocol';
import { describe, expect, it } from 'vitest';
import { gamePlace, lootPlan } from '../src/drops/plan.ts';
import { loadGameDefinition } from '../src/game/definition.ts';
import { planDrop } from '../src/game/loot-authority.ts';
import { bucketOf, namedLocation } from '../src/pools/buckets.ts';
import type { PlayerRecord } from '../src/store/store.ts';

const game = loadGameDefinition();
const player = { level: null, claimed_level: null } as PlayerRecord;

function planOf(body: GenerateItemsRequest, trusted = false) {
  const ctx = body.generation_context ?? {};
  const site = planDrop(
    game,
    player,
    { playerId: body.client_id, enemy: ctx.enemy, playerLevel: ctx.player_level, items: body.items.length },
    { trusted },
  );
  return lootPlan(game, body, site, trusted);
}

describe('a drop is one plan', () => {
  it('names the game’s own place in its spelling, and no place for free text', () => {
    expect(gamePlace(game, '  ember SHRINE ')).toBe('Ember Shrine');
    expect(gamePlace(game, "crafters' hall")).toBe("Crafters' Hall");
    expect(gamePlace(game, 'my secret base')).toBeUndefined();
    expect(gamePlace(game, undefined)).toBeUndefined();
  });

  it('keys pool buckets on the game’s places: varied free text makes no new bucket', () => {
    const keys = new Set(
      ['a', 'b', 'somewhere else', "CRAFTERS' HALL", "crafters' hall"].map((location) => {
        const plan = planOf({
          client_id: 'p1',
          generation_context: { enemy: 'slime', location },
          items: [{}],
        });
        return bucketOf(game, plan.site, '*', namedLocation(game, plan.place)).key;
      }),
    );
    expect([...keys].sort()).toEqual(['slime/1-3/*/*', "slime/1-3/*/Crafters' Hall"]);
  });

  it('keeps the player’s words for the screen and the writer, and leaves steering text out of the pools', () => {
    const plan = planOf({
      client_id: 'p1',
      generation_context: { enemy: 'fire_imp', location: 'Ember Shrine', theme: 'ashes', player_level: 9 },
      items: [{ type: 'weapon', rarity: 'legendary', focus: 'speed' }, {}],
      constraints: { naming_style: 'grim', ensure_uniqueness: true },
    });
    expect(plan.playerWords).toEqual([
      ['generation_context.location', 'Ember Shrine'],
      ['generation_context.theme', 'ashes'],
      ['generation_context.enemy', 'fire_imp'],
      ['constraints.naming_style', 'grim'],
      ['items.0.focus', 'speed'],
    ]);
    // A player's rarity is never kept; its theme steers the writer but not the materials.
    expect(plan.wants[0]).toEqual({ type: 'weapon', rarity: undefined, subtype: undefined, focus: 'speed' });
    expect(plan.context).toMatchObject({ enemy: 'Fire Imp', enemyElement: 'fire', theme: 'ashes' });
    expect(plan.materialElement).toBe('fire');
    expect(plan.poolable).toBe(false);
    expect(plan.constraints.ensureUniqueness).toBe(true);
    expect(plan.clamps).toEqual(['player_level 9 was served at 5 (loot_authority)']);
  });
});
