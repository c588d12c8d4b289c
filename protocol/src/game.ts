import { z } from 'zod';
import { ItemType, Rarity, StatName } from './items.ts';

const Id = z.string().regex(/^[a-z0-9_]+$/, 'lower-case letters, digits and _ only');
const RarityWeights = z.partialRecord(Rarity, z.number().min(0));

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
});
export type GameDefinition = z.infer<typeof GameDefinition>;
