import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { GameDefinition } from '@lootsmith/protocol';

const DEFAULT_GAME_FILE = fileURLToPath(new URL('../../game/fantasy-rpg.json', import.meta.url));

/** Loads and validates a game definition file; a bad file stops start-up with the field named. */
export function loadGameDefinition(file = DEFAULT_GAME_FILE): GameDefinition {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`Game definition ${file}: ${(err as Error).message}`);
  }
  const parsed = GameDefinition.safeParse(raw);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new Error(`Game definition ${file} is invalid:\n  ${lines.join('\n  ')}`);
  }
  return parsed.data;
}
