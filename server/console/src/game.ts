import type { GameState } from '@lootsmith/protocol';
import { api } from './api.ts';

/** The loaded game definition, read once per visit (it changes only with a restart). */
let loaded: Promise<GameState> | undefined;
export function gameState(): Promise<GameState> {
  loaded ??= api<GameState>('GET', '/api/v1/admin/game').catch((err) => {
    loaded = undefined;
    throw err;
  });
  return loaded;
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
