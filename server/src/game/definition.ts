import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type GameDefinition, GameFile, SPEC_RARITIES } from '@lootsmith/protocol';
import type { z } from 'zod';
import { checkGame, type GameProblem } from './check.ts';

/** The game a server runs when `LOOTSMITH_GAME_FILE` names none: the shipped fantasy RPG. */
export const DEFAULT_GAME_FILE = fileURLToPath(new URL('../../game/fantasy-rpg.json', import.meta.url));

/** Vocabulary a file may leave out: it then speaks the default game's. */
const VOCABULARY = ['stats', 'elements', 'item_types', 'effects'] as const;

/** A game file that cannot be run: every problem found, each named by its JSON path. */
export class GameFileError extends Error {
  constructor(
    readonly file: string,
    readonly problems: GameProblem[],
  ) {
    super(
      `Game definition ${file} is invalid:\n  ${problems.map((p) => `${p.path || '(file)'}: ${p.message}`).join('\n  ')}`,
    );
  }
}

const titleCase = (id: string) =>
  id
    .toLowerCase()
    .split('_')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(' ');
const round2 = (n: number) => Math.round(n * 100) / 100;
const byRarity = <T>(rarities: string[], value: (index: number) => T) =>
  Object.fromEntries(rarities.map((r, i) => [r, value(i)]));

/**
 * Rarity weights for each tier when a file gives none: the commonest rarities at tier 1, the
 * weight's centre a step rarer each tier up, the rarest always a thin tail.
 */
function defaultLootTables(rarities: string[], tiers: number): Array<Record<string, number>> {
  const top = Math.max(0, rarities.length - 3);
  return Array.from({ length: tiers }, (_, t) => {
    const centre = tiers === 1 ? 0 : Math.floor((t * top) / (tiers - 1));
    const weights = rarities.map((_, i) =>
      Math.round(100 * (i < centre ? 0.5 ** (centre - i) : 0.35 ** (i - centre))),
    );
    return Object.fromEntries(
      rarities.flatMap((r, i) => ((weights[i] ?? 0) >= 1 ? [[r, weights[i] as number]] : [])),
    );
  });
}

/** The defaults a file leaves to the server, filled in from what it does say. */
export function resolveGame(file: z.output<typeof GameFile>): GameDefinition {
  const { $schema: _schema, ...game } = file;
  const listed: Array<{ id: string; name?: string }> = game.rarities ?? SPEC_RARITIES.map((id) => ({ id }));
  const rarities = listed.map((r) => ({
    id: r.id,
    name: r.name ?? titleCase(r.id),
  }));
  const rarityIds = rarities.map((r) => r.id);
  const onHit = game.item_limits.on_hit_types;
  const stats = game.stats ?? [];
  const itemTypes = (game.item_types ?? []).map((t) => {
    const main =
      t.main_stat ??
      game.primary_stats[t.id]?.[0] ??
      stats.find((s) => !s.types || s.types.includes(t.id))?.id;
    return {
      ...t,
      name: t.name ?? t.id.toLowerCase().replaceAll('_', ' '),
      strikes: onHit ? onHit.includes(t.id) : t.strikes,
      ...(main ? { main_stat: main } : {}),
    };
  });
  const made = itemTypes.filter((t) => !t.stackable).map((t) => t.id);
  const material = itemTypes.find((t) => t.stackable)?.id ?? '';
  const tiers =
    game.tiers ??
    Math.max(
      1,
      ...game.enemies.map((e) => e.tier),
      game.loot_tables?.length ?? 0,
      game.loot_authority.drop_limits?.length ?? 0,
    );
  return {
    ...game,
    theme: game.theme ?? 'role-playing game',
    rarities,
    stats: stats.map((s) => ({ ...s, name: s.name ?? s.id.replaceAll('_', ' ') })),
    elements: (game.elements ?? []).map((e) => ({ ...e, name: e.name ?? titleCase(e.id) })),
    item_types: itemTypes,
    item_fields: game.item_fields.map((f) => ({ ...f, types: f.types ?? made })),
    effects: game.effects ?? [],
    tiers,
    materials: game.materials.map((m) => ({
      ...m,
      description: m.description ?? `${m.name}, a crafting material.`,
      rarity: m.rarity ?? (rarityIds[0] as string),
      type: m.type ?? material,
    })),
    loot_tables: game.loot_tables ?? defaultLootTables(rarityIds, tiers),
    loot_types: game.loot_types ?? itemTypes.map((t) => t.id),
    stat_budget: {
      ...game.stat_budget,
      rarity_multiplier: game.stat_budget.rarity_multiplier ?? byRarity(rarityIds, (i) => round2(1.3 ** i)),
    },
    item_limits: {
      ...game.item_limits,
      affixes_by_rarity:
        game.item_limits.affixes_by_rarity ?? byRarity(rarityIds, (i) => Math.min(4, Math.max(1, i))),
    },
    stations: game.stations.map((s) => ({ ...s, types: s.types ?? made })),
    create_item: {
      ...game.create_item,
      min_level_by_rarity:
        game.create_item.min_level_by_rarity ?? byRarity(rarityIds, (i) => (i <= 2 ? i : 2 * (i - 1))),
    },
    crafting: {
      ...game.crafting,
      max_rarity: game.crafting.max_rarity ?? (rarityIds[Math.max(0, rarityIds.length - 2)] as string),
      xp_factor_by_rarity: game.crafting.xp_factor_by_rarity ?? byRarity(rarityIds, (i) => round2(1.25 ** i)),
    },
    loot_authority: {
      ...game.loot_authority,
      drop_limits:
        game.loot_authority.drop_limits ??
        Array.from({ length: tiers }, (_, t) => ({
          max_items: Math.min(8, 2 + Math.floor(t / 2)),
          drops_per_minute: Math.max(1, Math.round(20 / (t + 1))),
          drops_per_hour: Math.max(1, Math.round(400 / (t + 1))),
        })),
    },
  };
}

/**
 * The default game's vocabulary a file leaves out. Its elements keep a resist only where the file's
 * own stats have it: a game with stats of its own need not resist fire.
 */
function defaultVocabulary(file: Record<string, unknown>): Record<string, unknown> {
  const missing = VOCABULARY.filter((key) => !(key in file));
  if (!missing.length) return {};
  const base = JSON.parse(readFileSync(DEFAULT_GAME_FILE, 'utf8')) as Record<string, unknown>;
  const out = Object.fromEntries(missing.map((key) => [key, base[key]]));
  const stats = Array.isArray(file.stats)
    ? new Set(file.stats.map((s: { id?: unknown }) => s?.id))
    : undefined;
  // The default game's effects, on the item types this file has: a game of its own types has none of them.
  const types = new Set(
    ((Array.isArray(file.item_types) ? file.item_types : base.item_types) as Array<{ id?: unknown }>).map(
      (t) => t?.id,
    ),
  );
  if (Array.isArray(out.effects))
    out.effects = out.effects
      .map((e: { types: string[] }) => ({ ...e, types: e.types.filter((t) => types.has(t)) }))
      .filter((e: { types: string[] }) => e.types.length > 0);
  if (stats && Array.isArray(out.elements))
    out.elements = out.elements.map(({ resist, ...e }: { resist?: string }) =>
      resist && stats.has(resist) ? { ...e, resist } : e,
    );
  return out;
}

/** A zod issue path as JSON paths are written: `materials[2].rarity`. */
const jsonPath = (path: readonly PropertyKey[]) =>
  path.reduce<string>(
    (out, key) => (typeof key === 'number' ? `${out}[${key}]` : out ? `${out}.${String(key)}` : String(key)),
    '',
  );

/**
 * Reads a game file: its JSON, its schema (every problem named by its JSON path), its defaults, then
 * the checks across fields (ids that repeat, names of things the game lacks, tier tables that miss a
 * tier). Vocabulary the file leaves out (stats, elements, item types, effects) is the default game's.
 */
export function parseGameFile(file: string, text: string): GameDefinition {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new GameFileError(file, [{ path: '', message: `not JSON: ${(err as Error).message}` }]);
  }
  return parseGame(file, raw);
}

/** A game file's value already read from JSON (`file` names it in errors): checked as `parseGameFile` does. */
export function parseGame(file: string, raw: unknown): GameDefinition {
  const withVocabulary =
    raw && typeof raw === 'object' && !Array.isArray(raw) && file !== DEFAULT_GAME_FILE
      ? { ...defaultVocabulary(raw as Record<string, unknown>), ...raw }
      : raw;
  const parsed = GameFile.safeParse(withVocabulary);
  if (!parsed.success)
    throw new GameFileError(
      file,
      parsed.error.issues.map((i) => ({
        path: jsonPath(i.path),
        message:
          i.code === 'unrecognized_keys'
            ? `unknown field${i.keys.length > 1 ? 's' : ''} ${i.keys.join(', ')}`
            : i.message,
      })),
    );
  const game = resolveGame(parsed.data);
  const problems = checkGame(game);
  if (problems.length) throw new GameFileError(file, problems);
  return game;
}

/** Loads a game definition file (default: the shipped fantasy RPG); a bad file stops start-up naming each problem. */
export function loadGameDefinition(file = DEFAULT_GAME_FILE): GameDefinition {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new GameFileError(file, [{ path: '', message: `cannot be read: ${(err as Error).message}` }]);
  }
  return parseGameFile(file, text);
}

/**
 * The game definition's fingerprint: what was made under other rules (or for another game) is never
 * handed out under these, neither a pooled item nor a shared combine.
 */
export function gameKey(game: GameDefinition): string {
  return createHash('sha256').update(JSON.stringify(game)).digest('hex').slice(0, 16);
}
