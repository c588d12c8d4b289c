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

/** The same judgements in the space salvage game: its stations, materials and types only. */
export const SPACE_CRAFTS: Craft[] = [
  row(
    [
      ['scrap_alloy', 2],
      ['plasma_coil', 1],
    ],
    'fabricator',
    'a plasma cutter',
    { success: true, subtype: 'plasma cutter' },
  ),
  row([['scrap_alloy', 2]], 'fabricator', 'a hardsuit', { success: true, type: 'SUIT' }),
  row(
    [
      ['circuit_board', 2],
      ['ion_capacitor', 1],
    ],
    'fabricator',
    'a thruster pack',
    { success: true, type: 'MODULE' },
  ),
  row([['bio_gel', 2]], 'med_bay', undefined, { success: true, type: 'STIM' }),
  row(
    [
      ['bio_gel', 2],
      ['cryo_cell', 1],
    ],
    'med_bay',
    'something to cool a burn',
    { success: true, type: 'STIM' },
  ),
  row([['circuit_board', 2]], 'implant_lab', 'a neural jack', { success: true, subtype: 'neural jack' }),
  row([['scrap_alloy', 2]], 'fabricator', 'a clockwork gadget', { success: true }),
  row(
    [
      ['@TOOL', 1],
      ['scrap_alloy', 1],
    ],
    'med_bay',
    'a banana-powered spaceship made of regret and tax forms',
    { success: false },
  ),
  row([['bio_gel', 2]], 'med_bay', 'asdkjh qwpoeiru', { success: false }),
  row(
    [
      ['@SUIT', 1],
      ['@IMPLANT', 1],
    ],
    'fabricator',
    undefined,
    { success: false },
  ),
  row(
    [
      ['plasma_coil', 1],
      ['cryo_cell', 1],
    ],
    'fabricator',
    undefined,
    { success: false },
  ),
  row([['scrap_alloy', 2]], 'med_bay', 'a plasma cutter', { success: false }),
  row([['scrap_alloy', 2]], 'fabricator', 'a stim pack', { success: false }),
  row([['scrap_alloy', 2]], 'fabricator', 'a superheated hardsuit', { success: false }),
  row([['circuit_board', 2]], 'implant_lab', 'a neural jack', { success: false }, { craftingLevel: 0 }),
];
