import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { GameDefinition } from '@lootsmith/protocol';
import { loadGameDefinition } from '../../server/src/game/definition.ts';

export const FANTASY_GAME = fileURLToPath(new URL('../../server/game/fantasy-rpg.json', import.meta.url));
/** The second shipped game, a space salvage game that shares none of the fantasy game's vocabulary. */
export const SPACE_GAME = fileURLToPath(new URL('../../server/game/space-salvage.json', import.meta.url));

/** The shipped fantasy game definition, loaded afresh with its defaults filled in. */
export const shippedGame = (file = FANTASY_GAME): GameDefinition => loadGameDefinition(file);

/**
 * Writes the shipped game with some fields changed, for `LOOTSMITH_GAME_FILE`; into `dir` (say the
 * server's data directory, removed with it) or a fresh temporary directory. Returns the path.
 */
export function writeGameFile(
  change: (game: GameDefinition) => Partial<GameDefinition>,
  dir = mkdtempSync(join(tmpdir(), 'lootsmith-game-')),
  base = FANTASY_GAME,
): string {
  const game = shippedGame(base);
  const file = join(dir, 'game.json');
  writeFileSync(file, JSON.stringify({ ...game, ...change(game) }));
  return file;
}

/** For suites that craft far faster than any player (races of ingredients): the combine limits out of reach. */
export const unlimitedCrafting = (game: GameDefinition): Partial<GameDefinition> => ({
  combine: { ...game.combine, per_minute: 1_000_000, per_hour: 1_000_000 },
});

/**
 * For suites that drop loot and craft far faster than any player (soak, memory, crash, benchmarks):
 * every drop and combine limit raised out of reach; the level rules and everything else as shipped.
 */
export const unlimitedDrops = (game: GameDefinition): Partial<GameDefinition> => ({
  ...unlimitedCrafting(game),
  loot_authority: {
    ...game.loot_authority,
    drop_limits: [{ max_items: 8, drops_per_minute: 1_000_000, drops_per_hour: 1_000_000 }],
  },
});

/** A create-item body the shipped game accepts: a club from one oak wood at the workbench. */
export const CLUB_REQUEST = {
  crafting_station: 'workbench',
  materials: [{ id: 'oak_wood', quantity: 1 }],
  item_parameters: {
    type: 'WEAPON',
    description: 'a club',
    focus_attributes: [],
    visual_preferences: {},
  },
};
