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

/** What a player may ask of the image forward (`POST /v1/image/generations`); the server credential is not bound by it. */
export const ImageForward = z.strictObject({
  /** Largest width and height a player's image may have. */
  max_size: z.int().min(16).max(768),
  /** Most steps a player's image may be painted with. */
  max_steps: z.int().min(1).max(50),
});
export type ImageForward = z.infer<typeof ImageForward>;

/** A word or phrase of a game's own allow or deny list: letters, digits, spaces, ' and -. */
const FilterWord = z
  .string()
  .trim()
  .min(2)
  .max(64)
  .regex(/^[\p{L}\p{N}' -]+$/u, "letters, digits, spaces, ' and - only");

/**
 * The game's own words for its text filter (a maintained profanity and slur list is always on):
 * words of its world the list would refuse (`allow`, e.g. "bastard sword"), words it refuses on top
 * (`deny`), and when a player whose text is refused again and again loses free text for a while.
 */
export const ContentFilter = z.strictObject({
  allow: z.array(FilterWord).max(1000),
  deny: z.array(FilterWord).max(1000),
  /** `refusals` of a player's own text within `hours` restrict the player's free text for the rest of those hours. */
  restrict_after: z.strictObject({
    refusals: z.int().min(1).max(1000),
    hours: z
      .int()
      .min(1)
      .max(24 * 30),
  }),
});
export type ContentFilter = z.infer<typeof ContentFilter>;

export const DEFAULT_CONTENT_FILTER: ContentFilter = {
  allow: [],
  deny: [],
  restrict_after: { refusals: 5, hours: 24 },
};

/** How crafting turns ingredients and skill into a result, on every crafting route. */
export const CraftingRules = z.strictObject({
  /** A crafted item's level is its best ingredient's level plus this many per crafting level… */
  levels_per_crafting_level: z.number().min(0).max(10),
  /** …but never more than this many levels above the player's level (nor above max_item_level). */
  max_levels_above_player: z.int().min(0).max(100),
  /** The result is one rarity above its best ingredient for this many ingredients in all… */
  rarity_step_quantity: z.int().min(1),
  /** …and one more for each this many crafting levels (0: skill does not raise rarity)… */
  rarity_step_crafting_levels: z.int().min(0),
  /** …up to this rarity. */
  max_rarity: Rarity,
  /** Crafting XP is the route's XP (combine.xp, create_item.xp) times the factor of the result's rarity. */
  xp_factor_by_rarity: z.partialRecord(Rarity, z.number().min(0)),
});
export type CraftingRules = z.infer<typeof CraftingRules>;

/** The rules a game file without a `crafting` block gets. */
export const DEFAULT_CRAFTING: CraftingRules = {
  levels_per_crafting_level: 0.5,
  max_levels_above_player: 2,
  rarity_step_quantity: 5,
  rarity_step_crafting_levels: 5,
  max_rarity: 'LEGENDARY',
  xp_factor_by_rarity: { COMMON: 1, UNCOMMON: 1.2, RARE: 1.5, EPIC: 2, LEGENDARY: 3 },
};

/** A game's rules as data: the server loads one, the demo reads its public part from `GET /api/v1/game`. */
export const GameDefinition = z.strictObject({
  name: z.string().min(1),
  /** Style tags appended to every icon prompt (docs/SPEC.md 2.3). */
  icon_style: z.string().min(1),
  /** Side of the square PNG every icon is made into, whatever a backend paints (128 covers a 64 px slot at 2×). */
  icon_size: z.int().min(16).max(512).default(128),
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
      /** Item types whose affixes may act on a hit; others (a potion, a helmet) take use or passive effects. */
      on_hit_types: z.array(ItemType).default(['WEAPON', 'GLOVES']),
    })
    .default({
      value_per_budget_point: 25,
      affixes_by_rarity: { COMMON: 1, UNCOMMON: 1, RARE: 2, EPIC: 3, LEGENDARY: 4, MYTHIC: 4 },
      on_hit_types: ['WEAPON', 'GLOVES'],
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
  /** Rarity gates (crafting level per rarity) of every crafting route, create-item's XP and per-player limit. */
  create_item: z.strictObject({
    min_level_by_rarity: z.partialRecord(Rarity, z.int().min(0)),
    xp: z.int().min(0),
    /** Create-items one player may ask for per hour (docs/SPEC.md 4.3.1: 5). */
    per_hour: z.int().min(1).default(5),
  }),
  combine: z.strictObject({
    xp: z.int().min(0),
    discovery_xp: z.int().min(0),
    /** Combines one player may send to the model per minute and per hour. */
    per_minute: z.int().min(1).default(10),
    per_hour: z.int().min(1).default(120),
  }),
  crafting: CraftingRules.default(DEFAULT_CRAFTING),
  starting_materials: z.array(z.strictObject({ id: Id, quantity: z.int().min(1) })),
  loot_authority: LootAuthority,
  loot_pools: LootPools.default({ locations: [] }),
  image_forward: ImageForward.default({ max_size: 512, max_steps: 15 }),
  content_filter: ContentFilter.default(DEFAULT_CONTENT_FILTER),
  /**
   * Daily budgets of a player the game server set none for, in production (a server that is not
   * production leaves them unlimited); `PATCH /api/v1/player/{id}` sets a player's own.
   */
  default_budgets: z
    .strictObject({ daily_items: z.int().min(0), daily_images: z.int().min(0) })
    .default({ daily_items: 500, daily_images: 200 }),
});
export type GameDefinition = z.infer<typeof GameDefinition>;
