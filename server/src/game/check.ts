import {
  editDistance,
  type GameDefinition,
  ITEM_KEYS,
  ICON_SILHOUETTES as ITEM_KINDS,
  mainStatRanges,
  NO_ELEMENT,
} from '@lootsmith/protocol';
import { rarityIds, statBudget, statCeiling } from './rules.ts';
import { equipmentSlots } from './slots.ts';

/** One thing wrong with a game file, at its JSON path (`enemies[2].element`). */
export interface GameProblem {
  path: string;
  message: string;
}

/** The known value a misspelt one most likely meant, if one is close enough. */
function closest(word: string, known: readonly string[]): string | undefined {
  const lower = word.toLowerCase();
  let best: string | undefined;
  let bestDistance = Math.ceil(lower.length * 0.6) + 1;
  for (const k of known) {
    const d = editDistance(lower, k.toLowerCase());
    if (d < bestDistance) {
      best = k;
      bestDistance = d;
    }
  }
  return best;
}

/** "no element "flame" (did you mean "fire"?); the game's elements: fire, frost". */
export function unknown(what: string, word: string, known: readonly string[], plural = `${what}s`): string {
  const guess = closest(word, known);
  const valid = known.length ? `the game's ${plural}: ${known.join(', ')}` : `the game has no ${plural}`;
  return `no ${what} "${word}"${guess ? ` (did you mean "${guess}"?)` : ''}; ${valid}`;
}

/**
 * What a game file gets wrong across its fields, each at its JSON path: ids that repeat, names of
 * things the game does not have (with a "did you mean"), tier tables that do not cover every tier,
 * rarity tables that miss a rarity. Empty when the game can run.
 */
export function checkGame(game: GameDefinition): GameProblem[] {
  const problems: GameProblem[] = [];
  const problem = (path: string, message: string) => {
    problems.push({ path, message });
  };
  const ids = <T extends { id: string }>(list: readonly T[]) => list.map((x) => x.id);
  const rarities = ids(game.rarities);
  const stats = ids(game.stats);
  const elements = ids(game.elements);
  const types = ids(game.item_types);
  const materials = ids(game.materials);

  const unique = (key: string, list: ReadonlyArray<{ id: string }>) => {
    const seen = new Map<string, number>();
    list.forEach((x, i) => {
      const first = seen.get(x.id);
      if (first !== undefined) problem(`${key}[${i}].id`, `"${x.id}" is already the id of ${key}[${first}]`);
      else seen.set(x.id, i);
    });
  };
  for (const key of [
    'rarities',
    'stats',
    'elements',
    'item_types',
    'item_fields',
    'effects',
    'materials',
    'enemies',
    'stations',
  ] as const)
    unique(key, game[key]);

  const known = (path: string, word: string, list: readonly string[], what: string, plural?: string) => {
    if (!list.includes(word)) problem(path, unknown(what, word, list, plural));
  };
  const knownAll = (path: string, words: readonly string[], list: readonly string[], what: string) => {
    for (const [i, w] of words.entries()) known(`${path}[${i}]`, w, list, what);
  };
  const type = 'item type';
  const element = (path: string, word: string | undefined) => {
    if (word !== undefined && word !== NO_ELEMENT) known(path, word, elements, 'element');
  };
  /** A table with one entry per rarity: none missing, none the game lacks. */
  const perRarity = (path: string, table: Record<string, unknown>, every: boolean) => {
    for (const key of Object.keys(table)) known(`${path}.${key}`, key, rarities, 'rarity', 'rarities');
    const missing = rarities.filter((r) => !(r in table));
    if (every && missing.length) problem(path, `has no value for ${missing.join(', ')}`);
  };
  /** drop_limits and loot_tables: one entry per tier, or one for every tier. */
  const perTier = (path: string, length: number) => {
    if (length !== 1 && length !== game.tiers)
      problem(
        path,
        `has ${length} entries for ${game.tiers} tiers: give one per tier (entry i belongs to tier i+1) or one for every tier`,
      );
  };

  game.elements.forEach((e, i) => {
    if (e.id === NO_ELEMENT)
      problem(`elements[${i}].id`, `"${NO_ELEMENT}" is every game's plain element; leave it out`);
    if (e.resist !== undefined) known(`elements[${i}].resist`, e.resist, stats, 'stat');
    for (const [j, o] of e.opposes.entries()) element(`elements[${i}].opposes[${j}]`, o);
  });
  game.stats.forEach((s, i) => {
    if (s.types) knownAll(`stats[${i}].types`, s.types, types, type);
  });
  game.item_types.forEach((t, i) => {
    if (t.slot && (t.consumable || t.stackable))
      problem(
        `item_types[${i}].slot`,
        `a ${t.consumable ? 'consumable' : 'stackable'} type is carried, not worn`,
      );
    if (t.icon && !(ITEM_KINDS as readonly string[]).includes(t.icon))
      problem(`item_types[${i}].icon`, unknown('painter silhouette', t.icon, ITEM_KINDS));
    // A main stat taken from primary_stats is checked there.
    const main = t.main_stat;
    const stat = game.stats.find((x) => x.id === main);
    if (main === undefined || main === game.primary_stats[t.id]?.[0]) return;
    if (!stat) known(`item_types[${i}].main_stat`, main, stats, 'stat');
    else if (stat.types && !stat.types.includes(t.id))
      problem(
        `item_types[${i}].main_stat`,
        `a ${t.id} may not carry ${main} (stats: ${main} is for ${stat.types.join(', ')})`,
      );
  });
  game.item_fields.forEach((f, i) => {
    const at = `item_fields[${i}]`;
    if (ITEM_KEYS.includes(f.id))
      problem(`${at}.id`, `"${f.id}" is a field every item has; choose another id`);
    knownAll(`${at}.types`, f.types, types, type);
    const numeric = f.type === 'integer' || f.type === 'number';
    if (!numeric && (f.minimum !== undefined || f.maximum !== undefined))
      problem(at, `minimum and maximum bound numbers, not a ${f.type}`);
    if (f.minimum !== undefined && f.maximum !== undefined && f.minimum > f.maximum)
      problem(at, `minimum ${f.minimum} is above maximum ${f.maximum}`);
    if (f.values && f.type !== 'string') problem(`${at}.values`, `values list strings, not a ${f.type}`);
  });
  game.effects.forEach((e, i) => {
    const at = `effects[${i}]`;
    knownAll(`${at}.types`, e.types, types, type);
    for (const [name, p] of Object.entries(e.params))
      if (p.min > p.max) problem(`${at}.params.${name}`, `min ${p.min} is above max ${p.max}`);
    for (const [, name] of e.text.matchAll(/\{(\w+)\}/g))
      if (!((name as string) in e.params))
        problem(`${at}.text`, unknown('param', name as string, Object.keys(e.params)));
  });
  if (game.materials.length && !game.item_types.some((t) => t.stackable))
    problem('item_types', 'no type is stackable: materials need one ("stackable": true)');
  game.materials.forEach((m, i) => {
    known(`materials[${i}].rarity`, m.rarity, rarities, 'rarity', 'rarities');
    element(`materials[${i}].element`, m.element);
    const t = game.item_types.find((x) => x.id === m.type);
    if (!t && m.type) known(`materials[${i}].type`, m.type, types, type);
    else if (t && !t.stackable) problem(`materials[${i}].type`, `${m.type} is not a stackable type`);
  });
  game.enemies.forEach((e, i) => {
    element(`enemies[${i}].element`, e.element);
    if (e.tier > game.tiers)
      problem(`enemies[${i}].tier`, `tier ${e.tier} is above the game's ${game.tiers} tiers`);
  });
  for (const [i, s] of game.stations.entries()) knownAll(`stations[${i}].types`, s.types, types, type);
  for (const [i, m] of game.starting_materials.entries())
    known(`starting_materials[${i}].id`, m.id, materials, 'material');
  knownAll('loot_types', game.loot_types, types, type);
  for (const [key, list] of Object.entries(game.primary_stats)) {
    known(`primary_stats.${key}`, key, types, type);
    list.forEach((s, j) => {
      const stat = game.stats.find((x) => x.id === s);
      if (!stat) known(`primary_stats.${key}[${j}]`, s, stats, 'stat');
      else if (stat.types && !stat.types.includes(key))
        problem(
          `primary_stats.${key}[${j}]`,
          `a ${key} may not carry ${s} (stats: ${s} is for ${stat.types.join(', ')})`,
        );
    });
  }
  perTier('loot_tables', game.loot_tables.length);
  game.loot_tables.forEach((table, i) => {
    perRarity(`loot_tables[${i}]`, table, false);
    if (!Object.values(table).some((w) => w > 0)) problem(`loot_tables[${i}]`, 'gives no rarity a weight');
  });
  perTier('loot_authority.drop_limits', game.loot_authority.drop_limits.length);
  perRarity('stat_budget.rarity_multiplier', game.stat_budget.rarity_multiplier, true);
  // Every item of a rarity outdoes every item of the rarity below: the budgets must rise past the tolerance.
  rarities.forEach((r, i) => {
    const below = game.stat_budget.rarity_multiplier[rarities[i - 1] as string];
    const mine = game.stat_budget.rarity_multiplier[r];
    if (i > 0 && below !== undefined && mine !== undefined && mine < below * game.stat_budget.tolerance)
      problem(
        `stat_budget.rarity_multiplier.${r}`,
        `${mine} is below ${rarities[i - 1]}'s ${below} × tolerance ${game.stat_budget.tolerance}: ${r} items could be no stronger than ${rarities[i - 1]} ones`,
      );
  });
  visibleRarity(game, problem, new Set(problems.map((p) => p.path)));
  perRarity('item_limits.affixes_by_rarity', game.item_limits.affixes_by_rarity, true);
  if (game.item_limits.on_hit_types)
    knownAll('item_limits.on_hit_types', game.item_limits.on_hit_types, types, type);
  perRarity('create_item.min_level_by_rarity', game.create_item.min_level_by_rarity, false);
  perRarity('crafting.xp_factor_by_rarity', game.crafting.xp_factor_by_rarity, false);
  known('crafting.max_rarity', game.crafting.max_rarity, rarities, 'rarity', 'rarities');
  checkPoolMap(game, problem);
  const grid = game.art.pixel_size;
  if (grid !== null && grid > game.icon_size)
    problem(
      'art.pixel_size',
      `a ${grid}×${grid} grid does not fit an icon_size of ${game.icon_size}: choose a pixel_size of at most ${game.icon_size}, or a larger icon_size (a multiple of pixel_size draws every cell the same size)`,
    );
  return problems;
}

/**
 * Each rarity raises an item's main stat by a fifth (`mainStatRanges`) while its budget rises by the
 * game's multipliers: where the main stat would take more than half an item's stat points, an item
 * could not lean to another stat the player asks for, so multipliers that rise too slowly are refused.
 */
function visibleRarity(
  game: GameDefinition,
  problem: (path: string, message: string) => void,
  /** Paths already found wrong: a multiplier refused once is not refused again. */
  found: Set<string>,
) {
  const rarities = rarityIds(game);
  for (let level = 1; level <= game.max_item_level; level++) {
    const ranges = mainStatRanges(rarities.map((r) => statBudget(game, r, level)));
    ranges.forEach(({ least }, i) => {
      const rarity = rarities[i] as string;
      const path = `stat_budget.rarity_multiplier.${rarity}`;
      if (2 * least <= statCeiling(game, rarity, level) || found.has(path)) return;
      found.add(path);
      problem(
        path,
        `at level ${level} the main stat of ${rarity} items must be at least ${least} (a fifth above ${rarities[i - 1]}'s), more than half of their ${statCeiling(game, rarity, level)} stat points: raise the multipliers (about 1.2× the one below, or more)`,
      );
    });
  }
}

/** loot_pools.rooms and loot_pools.tier_levels: rooms named once, of known enemies and rooms; levels rising per tier. */
function checkPoolMap(game: GameDefinition, problem: (path: string, message: string) => void) {
  const { rooms, tier_levels } = game.loot_pools;
  const names = rooms.map((r) => r.name);
  const enemies = game.enemies.map((e) => e.id);
  const first = new Map<string, number>();
  rooms.forEach((room, i) => {
    const at = `loot_pools.rooms[${i}]`;
    const seen = first.get(room.name.toLowerCase());
    if (seen !== undefined)
      problem(`${at}.name`, `"${room.name}" is already the name of loot_pools.rooms[${seen}]`);
    else first.set(room.name.toLowerCase(), i);
    room.enemies.forEach((e, j) => {
      if (!enemies.includes(e)) problem(`${at}.enemies[${j}]`, unknown('enemy', e, enemies, 'enemies'));
    });
    room.next_to.forEach((n, j) => {
      if (!names.some((x) => x.toLowerCase() === n.toLowerCase()))
        problem(`${at}.next_to[${j}]`, unknown('room', n, names));
    });
  });
  if (!tier_levels) return;
  if (tier_levels.length !== game.tiers)
    problem(
      'loot_pools.tier_levels',
      `has ${tier_levels.length} entries for ${game.tiers} tiers: give one per tier (entry i belongs to tier i+1)`,
    );
  tier_levels.forEach((level, i) => {
    const before = tier_levels[i - 1];
    if (before !== undefined && level < before)
      problem(
        `loot_pools.tier_levels[${i}]`,
        `${level} is below tier ${i}'s ${before}: levels rise with the tier`,
      );
  });
}

/** What a game file holds, in a few lines: what `lootsmith check` and start-up say they read. */
export function summarise(game: GameDefinition): string {
  const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
  const slots = equipmentSlots(game);
  const list = (xs: readonly string[]) => (xs.length ? `: ${xs.join(', ')}` : '');
  return [
    `${game.name} (${game.theme})`,
    `  ${count(game.item_types.length, 'item type')}${list(game.item_types.map((t) => t.id))}`,
    `  ${count(slots.length, 'equipment slot')}${list(slots)}`,
    `  ${count(game.stats.length, 'stat')}${list(game.stats.map((s) => s.id))}`,
    `  ${count(game.elements.length, 'element')}${list(game.elements.map((e) => e.id))}`,
    `  ${count(game.rarities.length, 'rarity', 'rarities')}${list(game.rarities.map((r) => r.id))}`,
    `  ${count(game.item_fields.length, 'item field')}${list(game.item_fields.map((f) => f.id))}`,
    `  ${count(game.effects.length, 'effect')}${list(game.effects.map((e) => e.id))}`,
    `  ${count(game.enemies.length, 'enemy', 'enemies')} in ${count(game.tiers, 'tier')}, ${count(game.materials.length, 'material')}, ${count(game.stations.length, 'station')}${list(game.stations.map((s) => s.id))}`,
    `  icons ${game.icon_size}² px: ${artSummary(game.art)}`,
  ].join('\n');
}

/** "32×32 grid, 24 colours, outline #0b0a10, 2 references", or what a game without art gets. */
function artSummary(art: GameDefinition['art']): string {
  const said = [
    ...(art.pixel_size ? [`${art.pixel_size}×${art.pixel_size} grid`] : []),
    ...(art.palette ? [`${art.palette.length} colours`] : []),
    ...(art.outline ? [`outline ${art.outline}`] : []),
    ...(art.references.length
      ? [`${art.references.length} reference${art.references.length === 1 ? '' : 's'}`]
      : []),
  ];
  return said.length ? said.join(', ') : "each backend's own look";
}
