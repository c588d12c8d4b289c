import { type GameDefinition, type ItemSchemas, itemSchemasFor } from '@lootsmith/protocol';

const schemas = new WeakMap<GameDefinition, ItemSchemas>();

/** The game's own item, batch and verdict schemas (enums of its vocabulary), built once per game. */
export function gameSchemas(game: GameDefinition): ItemSchemas {
  let found = schemas.get(game);
  if (!found) {
    found = itemSchemasFor(game);
    schemas.set(game, found);
  }
  return found;
}
