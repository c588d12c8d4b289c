import type { GameDefinition, GenerateItemsRequest } from '@lootsmith/protocol';
import type { DropSite } from '../game/loot-authority.ts';
import { enemyContext } from './generate.ts';
import type { LootPlan } from './loot-plan.ts';

/** The game's spelling of a place it names (a pooled location or a room of its map); none for free text. */
export function gamePlace(game: GameDefinition, text: string | undefined): string | undefined {
  const needle = text?.trim().toLowerCase();
  if (!needle) return undefined;
  const names = [...game.loot_pools.locations, ...game.loot_pools.rooms.map((r) => r.name)];
  return names.find((n) => n.toLowerCase() === needle);
}

/** The free text of a drop request, by field: what a player wrote, to be screened and never copied. */
function dropTexts(body: GenerateItemsRequest): Array<[string, string]> {
  const ctx = body.generation_context ?? {};
  const fields: Array<[string, string | undefined]> = [
    ['generation_context.location', ctx.location],
    ['generation_context.theme', ctx.theme],
    ['generation_context.enemy', ctx.enemy],
    ['constraints.naming_style', body.constraints?.naming_style],
    ['constraints.power_budget', body.constraints?.power_budget],
    ...body.items.flatMap(
      (item, i): Array<[string, string | undefined]> => [
        [`items.${i}.subtype`, item.subtype],
        [`items.${i}.focus`, item.focus],
      ],
    ),
  ];
  return fields.filter((f): f is [string, string] => !!f[1]);
}

/**
 * The drop request translated once, at the door, into the plan the pipeline and the pools take:
 * what to fill, what the writer is told, the game's own place, constraints, the player's words and
 * who pays. `site` is what the loot authority settled (`planDrop`).
 */
export function lootPlan(
  game: GameDefinition,
  body: GenerateItemsRequest,
  site: DropSite,
  trusted: boolean,
): LootPlan {
  const ctx = body.generation_context ?? {};
  const { enemy, playerLevel } = site;
  const c = body.constraints ?? {};
  return {
    playerId: body.client_id,
    trusted,
    site,
    // Only the server credential may choose rarities; players get rolled ones.
    wants: body.items.map(({ type, rarity, subtype, focus }) => ({
      type,
      rarity: trusted ? rarity : undefined,
      subtype,
      focus,
    })),
    context: {
      location: ctx.location,
      ...(enemy ? enemyContext(enemy) : { enemy: ctx.enemy }),
      theme: ctx.theme ?? enemy?.element,
      playerLevel,
    },
    // A player's theme does not steer material odds: only the enemy's element (or the game server's theme).
    materialElement: enemy?.element ?? (trusted ? ctx.theme : undefined),
    place: gamePlace(game, ctx.location),
    constraints: {
      namingStyle: c.naming_style,
      powerBudget: c.power_budget,
      ensureUniqueness: c.ensure_uniqueness ?? false,
    },
    playerWords: dropTexts(body),
    // Free text that steers the writing (a style, a budget, an enemy the game lacks) needs the model.
    poolable: !c.naming_style && !c.power_budget && !(ctx.enemy && !enemy),
    clamps:
      ctx.player_level !== undefined && ctx.player_level !== playerLevel
        ? [`player_level ${ctx.player_level} was served at ${playerLevel} (loot_authority)`]
        : [],
  };
}
