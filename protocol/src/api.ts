import { z } from 'zod';
import { PlayerId } from './generation.ts';
import { InventoryEntry, Item, ItemType, Rarity } from './items.ts';

export const ItemId = z.string().min(1).max(64);
const Quantity = z.int().min(1).max(999);

/**
 * A player's words as they are kept and put in prompts: NFC, every run of control, format (bidi,
 * zero-width), private-use characters and white space made one space, trimmed; then capped.
 */
export function cleanPlayerText(text: string): string {
  return text
    .normalize('NFC')
    .replace(/[\p{Cc}\p{Cf}\p{Co}\p{Cs}\s]+/gu, ' ')
    .trim();
}
/** Capped as sent and as cleaned: a text too long as it came is refused, not shortened into shape. */
const PlayerText = (max: number) => z.string().max(max).overwrite(cleanPlayerText);
const ShortText = PlayerText(64).min(1);
const Intent = PlayerText(300);
/** Most visual preferences a create-item may give: each is a line of the prompt. */
export const MAX_VISUAL_PREFERENCES = 8;

/** A guest's proof that it is the guest a player was made for: given by its first session. */
export const GuestSecret = z.string().regex(/^[\w-]{16,128}$/, '16–128 letters, digits, _ and - only');

/**
 * Guest login (development): a new player id gets a token and a `guest_secret`; an id that exists
 * gets a token only with the secret its first session gave.
 */
export const SessionRequest = z.strictObject({ player_id: PlayerId, guest_secret: GuestSecret.optional() });
export type SessionRequest = z.infer<typeof SessionRequest>;

export const SessionResponse = z.looseObject({
  token: z.string(),
  player_id: PlayerId,
  expires_at: z.string(),
  /** Only when this session made the player: keep it to log in as the same guest again. */
  guest_secret: GuestSecret.optional(),
});
export type SessionResponse = z.infer<typeof SessionResponse>;

/** A signed, single-use drop grant (a compact JWT). */
export const DropGrant = z.string().min(1).max(2048);

/** Server credential: mint a drop grant for one player. */
export const DropGrantRequest = z.strictObject({
  enemy: ShortText.optional(),
  level: z.int().min(1).max(100),
  ttl_seconds: z.int().min(5).max(3600).optional(),
});
export type DropGrantRequest = z.infer<typeof DropGrantRequest>;

export const DropGrantResponse = z.looseObject({
  grant: DropGrant,
  expires_at: z.string(),
});
export type DropGrantResponse = z.infer<typeof DropGrantResponse>;

/** docs/SPEC.md 4.3.3 request. Players may leave out every item field; the server rolls what is missing. */
export const GenerateItemsRequest = z.strictObject({
  client_id: PlayerId,
  generation_context: z
    .strictObject({
      location: ShortText.optional(),
      enemy: ShortText.optional(),
      theme: ShortText.optional(),
      player_level: z.int().min(1).max(100).optional(),
    })
    .optional(),
  items: z
    .array(
      z.strictObject({
        type: ItemType.optional(),
        subtype: ShortText.optional(),
        rarity: Rarity.optional(),
        focus: ShortText.optional(),
      }),
    )
    .min(1)
    .max(8),
  constraints: z
    .strictObject({
      power_budget: ShortText.optional(),
      naming_style: ShortText.optional(),
      ensure_uniqueness: z.boolean().optional(),
    })
    .optional(),
  response_format: z.strictObject({ type: z.enum(['json_object', 'json']) }).optional(),
  /** A drop grant from the game server (required in `grant` mode): it names the player, enemy and level. */
  grant: DropGrant.optional(),
});
export type GenerateItemsRequest = z.infer<typeof GenerateItemsRequest>;

export const GenerateItemsResponse = z.looseObject({
  items: z.array(Item),
});
export type GenerateItemsResponse = z.infer<typeof GenerateItemsResponse>;

/** Whether a craft may use up what the player wears (combine's ingredients, create-item's materials). */
const ConsumeEquipped = z
  .boolean()
  .optional()
  .describe(
    'Whether an item the player wears may be used up (its slot empties). Default false: such a craft is refused with 409 `item_equipped` and nothing changes.',
  );

/** docs/SPEC.md 4.3.2 */
export const CombineRequest = z.strictObject({
  player_id: PlayerId,
  ingredients: z
    .array(z.strictObject({ item_id: ItemId, quantity: Quantity }))
    .min(1)
    .max(6),
  crafting_station: ShortText.optional(),
  crafting_tool: ShortText.optional(),
  description: Intent.optional(),
  consume_equipped: ConsumeEquipped,
});
export type CombineRequest = z.infer<typeof CombineRequest>;

export const CombineResponse = z.looseObject({
  success: z.boolean(),
  result_item: Item.optional(),
  consumed_items: z.array(z.string()),
  message: z.string(),
  recipe_discovered: z.boolean(),
  crafting_xp_earned: z.number(),
  suggestions: z.array(z.string()).optional(),
});
export type CombineResponse = z.infer<typeof CombineResponse>;

/** docs/SPEC.md 4.3.1 */
export const CreateItemRequest = z.strictObject({
  crafting_station: ShortText,
  materials: z
    .array(z.strictObject({ id: ItemId, quantity: Quantity }))
    .min(1)
    .max(6),
  item_parameters: z.strictObject({
    type: ItemType,
    description: Intent,
    focus_attributes: z.array(ShortText).max(4),
    visual_preferences: z
      .record(PlayerText(32).min(1), z.union([PlayerText(64), z.number(), z.boolean()]))
      .refine((prefs) => Object.keys(prefs).length <= MAX_VISUAL_PREFERENCES, {
        error: `at most ${MAX_VISUAL_PREFERENCES} visual preferences`,
      }),
  }),
  consume_equipped: ConsumeEquipped,
});
export type CreateItemRequest = z.infer<typeof CreateItemRequest>;

export const CreateItemResponse = z.looseObject({
  item: Item,
  consumed_materials: z.array(z.looseObject({ id: z.string(), quantity: z.int() })),
  crafting_xp: z.int(),
  cooldown_until: z.string(),
  /** What of the request the item could not follow, each with its reason ("Made of iron, not oak: …"). */
  notes: z.array(z.string()).optional(),
});
export type CreateItemResponse = z.infer<typeof CreateItemResponse>;

export const Recipe = z.looseObject({
  key: z.string(),
  ingredients: z.array(z.looseObject({ item_id: z.string(), quantity: z.int() })),
  crafting_station: z.string().nullable(),
  crafting_tool: z.string().nullable(),
  result_name: z.string(),
  discovered_at: z.string(),
});
export type Recipe = z.infer<typeof Recipe>;

export const InventoryResponse = z.looseObject({
  player_id: PlayerId,
  items: z.array(InventoryEntry),
  crafting_level: z.int(),
  crafting_xp: z.int(),
  recipes: z.array(Recipe),
});
export type InventoryResponse = z.infer<typeof InventoryResponse>;

/** Server-credential body: grant or remove stacks of items (materials by their game-definition id). */
export const InventoryChangeRequest = z.strictObject({
  items: z
    .array(z.strictObject({ item_id: ItemId, quantity: Quantity }))
    .min(1)
    .max(50),
});
export type InventoryChangeRequest = z.infer<typeof InventoryChangeRequest>;

/** Server-credential settings of one player: block, level cap, crafting level, daily generation budgets. */
export const PlayerSettingsRequest = z.strictObject({
  blocked: z.boolean().optional(),
  crafting_level: z.int().min(0).max(100).optional(),
  daily_items: z.int().min(0).max(100_000).nullable().optional(),
  daily_images: z.int().min(0).max(100_000).nullable().optional(),
  level: z.int().min(1).max(100).nullable().optional(),
});
export type PlayerSettingsRequest = z.infer<typeof PlayerSettingsRequest>;
