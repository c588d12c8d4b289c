import type { EffectDefinition, GameState } from '@lootsmith/protocol';
import { api } from './api.ts';

/** The loaded game definition, read once per visit (it changes only with a restart). */
let loaded: Promise<GameState> | undefined;
/** The loaded game's rarities, most common first, once `gameState` has answered. */
let ladder: string[] = [];
/** The loaded game's effect catalogue, once `gameState` has answered: item cards word effects from it. */
export let effectCatalogue: EffectDefinition[] = [];
/** What the loaded game's items are worth in ("gold"), if it has a currency: cards show no worth without. */
export let currency: string | undefined;
export function gameState(): Promise<GameState> {
  loaded ??= api<GameState>('GET', '/api/v1/admin/game').then(
    (state) => {
      ladder = state.rarities;
      effectCatalogue = (state.definition as { effects?: EffectDefinition[] }).effects ?? [];
      currency = (state.definition as { currency?: string }).currency;
      return state;
    },
    (err) => {
      loaded = undefined;
      throw err;
    },
  );
  return loaded;
}

/**
 * A rarity's colour step (0 grey … 5 red, as loot games colour them): its place on the game's own
 * ladder spread over the six, so any game's rarities are coloured from common to rarest.
 */
export function rarityStep(rarity: string): number {
  const i = Math.max(0, ladder.indexOf(rarity));
  return ladder.length > 1 ? Math.round((i * 5) / (ladder.length - 1)) : 0;
}

/** The parts of a game definition the console's forms offer. */
export interface GameFacts {
  enemies: Array<{ id: string; name: string; tier: number }>;
  materials: Array<{ id: string; name: string }>;
  stations: Array<{ id: string; name: string; min_level: number }>;
  loot_types: string[];
  loot_pools?: { locations: string[] };
}
export const facts = (state: GameState) => state.definition as GameFacts;

/** An enemy by the name the filters use; its id when the game lacks it (one the game server named). */
export const enemyName = (state: GameState, id: string) =>
  facts(state).enemies.find((e) => e.id === id)?.name ?? id;
