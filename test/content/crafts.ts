/** The report's crafting table: sensible and nonsensical combinations, and what a game master would say. */
export interface Craft {
  /** Material ids of the game, or `@TYPE` for a finished item of that type dropped for the player first. */
  ingredients: Array<[string, number]>;
  station?: string;
  tool?: string;
  intent?: string;
  craftingLevel: number;
  playerLevel: number;
  expect: { success: boolean; type?: string; subtype?: string };
}

const row = (
  ingredients: Craft['ingredients'],
  station: string | undefined,
  intent: string | undefined,
  expect: Craft['expect'],
  more: Partial<Craft> = {},
): Craft => ({ ingredients, station, intent, expect, craftingLevel: 5, playerLevel: 8, ...more });

export const CRAFTS: Craft[] = [
  row(
    [
      ['iron_ore', 2],
      ['oak_wood', 1],
    ],
    'forge',
    'a sturdy oak shield banded with iron',
    { success: true, type: 'SHIELD' },
  ),
  row(
    [
      ['iron_ore', 2],
      ['ember_essence', 1],
    ],
    'forge',
    'a heavy axe',
    { success: true, subtype: 'axe' },
  ),
  row([['iron_ore', 2]], 'forge', 'a sword', { success: true, subtype: 'sword' }),
  row([['healing_herb', 2]], 'alchemy_table', undefined, { success: true, type: 'CONSUMABLE' }),
  row(
    [
      ['healing_herb', 2],
      ['frost_shard', 1],
    ],
    'alchemy_table',
    'something to cool a fever',
    { success: true, type: 'CONSUMABLE' },
  ),
  row([['leather_scraps', 2]], 'workbench', undefined, { success: true }, { tool: 'knife' }),
  row([['oak_wood', 2]], 'workbench', 'a hunting bow', { success: true, subtype: 'bow' }, { tool: 'saw' }),
  row(
    [
      ['gold_nugget', 1],
      ['arcane_dust', 1],
    ],
    'enchanting_altar',
    'a ring',
    { success: true, subtype: 'ring' },
  ),
  row(
    [
      ['@WEAPON', 1],
      ['iron_ore', 1],
    ],
    'alchemy_table',
    'a banana-powered spaceship made of regret and tax forms',
    { success: false },
  ),
  row([['healing_herb', 2]], 'alchemy_table', 'asdkjh qwpoeiru', { success: false }),
  row(
    [
      ['@BOOTS', 1],
      ['@CHEST', 1],
    ],
    'forge',
    undefined,
    { success: false },
  ),
  row(
    [
      ['ember_essence', 1],
      ['frost_shard', 1],
    ],
    'alchemy_table',
    undefined,
    { success: false },
  ),
  row([['healing_herb', 2]], 'forge', 'a sword', { success: false }),
  row([['iron_ore', 2]], 'alchemy_table', 'a sword', { success: false }),
  row([['iron_ore', 2]], 'forge', 'a flaming sword', { success: false }),
  row([['iron_ore', 2]], 'forge', 'an oak shield', { success: false }),
  row(
    [
      ['gold_nugget', 1],
      ['arcane_dust', 1],
    ],
    'enchanting_altar',
    'a ring',
    { success: false },
    { craftingLevel: 0 },
  ),
  row([['iron_ore', 2]], 'forge', 'a sword', { success: false }, { craftingLevel: 0 }),
];
