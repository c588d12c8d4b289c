import { z } from 'zod';
import { ItemType, Rarity, StatName } from './items.ts';

const Id = z.string().regex(/^[a-z0-9_]+$/, 'lower-case letters, digits and _ only');
const RarityWeights = z.partialRecord(Rarity, z.number().min(0));

/** What a player may ask of one enemy tier: items per drop, and drops in a minute and in an hour. */
export const DropLimits = z.strictObject({
  max_items: z.int().min(1).max(8),
  drops_per_minute: z.int().min(1),
  drops_per_hour: z.int().min(1),
});
export type DropLimits = z.infer<typeof DropLimits>;

/**
 * How far a player token is believed. `open`: players ask for drops themselves, within the limits, and
 * their level claims are checked against what the server recorded. `grant`: every player drop carries
 * a grant signed by the game server (see docs/SECURITY.md).
 */
export const LootAuthority = z.strictObject({
  mode: z.enum(['open', 'grant']),
  /** Limits by enemy tier (index 0 is tier 1; higher tiers use the last entry). No enemy counts as tier 1. */
  drop_limits: z.array(DropLimits).min(1),
  /** The highest level a player's first claim is served at, when the game server has set no level. */
  first_level_max: z.int().min(1).max(100),
  /** How far above the highest level served before a claim may go. */
  level_step: z.int().min(0).max(100),
  /** Longest lifetime of a drop grant. */
  grant_max_ttl_seconds: z.int().min(5).max(3600),
});
export type LootAuthority = z.infer<typeof LootAuthority>;

/**
 * What a game's loot pools (generated ahead of drops, when the server turns pools on) are split by
 * beyond enemy, band of player levels and item type: the locations the game names.
 */
export const LootPools = z.strictObject({
  /** Locations (rooms, zones) that get pools of their own; a drop anywhere else uses the enemy's. */
  locations: z.array(z.string().trim().min(1).max(64)).max(64),
});
export type LootPools = z.infer<typeof LootPools>;

/** A game's rules as data: the server loads one, the demo reads its public part from `GET /api/v1/game`. */
export const GameDefinition = z.strictObject({
  name: z.string().min(1),
  /** Style tags appended to every icon prompt (SPEC 2.3). */
  icon_style: z.string().min(1),
  materials: z
    .array(
      z.strictObject({
        id: Id,
        name: z.string().min(1),
        description: z.string().min(1),
        rarity: Rarity,
        element: z.string().optional(),
      }),
    )
    .min(1),
  enemies: z.array(
    z.strictObject({
      id: Id,
      name: z.string().min(1),
      tier: z.int().min(1).max(5),
      element: z.string().optional(),
    }),
  ),
  /** Rarity weights by enemy tier (index 0 is tier 1). */
  loot_tables: z.array(RarityWeights).min(1),
  /** Each player level above 1 shifts this share of weight one rarity up. */
  level_luck: z.number().min(0).max(0.1),
  loot_types: z.array(ItemType).min(1),
  /** Stat points an item may carry: base × level × rarity multiplier. */
  stat_budget: z.strictObject({
    base: z.number().positive(),
    per_level: z.number().positive(),
    rarity_multiplier: z.record(Rarity, z.number().positive()),
    tolerance: z.number().min(1),
  }),
  /** Bounds on what a model writes beyond stats; every generated item is checked against them. */
  item_limits: z
    .strictObject({
      /** Most gold an item is worth, per point of its stat budget. */
      value_per_budget_point: z.number().positive(),
      /** Most affixes an item of each rarity carries. */
      affixes_by_rarity: z.record(Rarity, z.int().min(0).max(4)),
    })
    .default({
      value_per_budget_point: 25,
      affixes_by_rarity: { COMMON: 1, UNCOMMON: 1, RARE: 2, EPIC: 3, LEGENDARY: 4, MYTHIC: 4 },
    }),
  primary_stats: z.partialRecord(ItemType, z.array(StatName).min(1)),
  max_item_level: z.int().min(1).max(100),
  stations: z
    .array(
      z.strictObject({
        id: Id,
        name: z.string().min(1),
        min_level: z.int().min(0),
        types: z.array(ItemType).min(1),
        tools: z.array(z.string()),
      }),
    )
    .min(1),
  /** Crafting level is crafting XP ÷ xp_per_level, rounded down. */
  xp_per_level: z.int().positive(),
  create_item: z.strictObject({
    min_level_by_rarity: z.partialRecord(Rarity, z.int().min(0)),
    xp: z.int().min(0),
  }),
  combine: z.strictObject({ xp: z.int().min(0), discovery_xp: z.int().min(0) }),
  starting_materials: z.array(z.strictObject({ id: Id, quantity: z.int().min(1) })),
  loot_authority: LootAuthority,
  loot_pools: LootPools.default({ locations: [] }),
});
export type GameDefinition = z.infer<typeof GameDefinition>;
