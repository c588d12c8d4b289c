import { z } from 'zod';
import type { EffectLine } from './effect-line.ts';
import { type ItemFieldDefinition, NO_ELEMENT } from './game.ts';
import { ItemLook, ItemOrigin } from './item-plan.ts';

/** Where a vocabulary value comes from: the game definition the server runs (GET /api/v1/game). */
const fromGame = (field: string) => `One of the game definition's ${field} (GET /api/v1/game)`;
const Word = z.string().min(1).max(32);

export const ItemType = Word.describe(fromGame('item_types[].id'));
export type ItemType = z.infer<typeof ItemType>;
export const Rarity = Word.describe(fromGame('rarities[].id'));
export type Rarity = z.infer<typeof Rarity>;
export const Element = Word.describe(
  `"${NO_ELEMENT}", or one of the game definition's elements[].id (GET /api/v1/game)`,
);
export type Element = z.infer<typeof Element>;
export const StatName = Word.describe(fromGame('stats[].id'));
export type StatName = z.infer<typeof StatName>;
export const SlotName = Word.describe(fromGame('item_types[].slot'));
export type SlotName = z.infer<typeof SlotName>;

const StatValue = z.int().min(-999).max(9999);

export const ItemStat = z.object({ name: StatName, value: StatValue });
export type ItemStat = z.infer<typeof ItemStat>;

/** An effect of the game's catalogue an item carries, with its numbers (`effects[]` of the game definition). */
export const ItemEffect = z.object({
  id: z.string().min(1).max(64).describe(fromGame('effects[].id')),
  params: z.record(z.string(), z.number()).describe("The effect's numbers by name, within its ranges"),
});
export type ItemEffect = z.infer<typeof ItemEffect>;

/** A colour word ("crimson"): the colour a player asked for, which its icon is painted in. */
const Color = z.string().min(2).max(24);

const generatedFields = {
  name: z.string().min(2).max(48),
  type: ItemType,
  subtype: z.string().min(2).max(32),
  rarity: Rarity,
  level: z.int().min(1).max(100),
  element: Element,
  material: z.string().min(2).max(32),
  description: z.string().min(8).max(400),
  lore: z.string().min(8).max(400),
  stats: z.array(ItemStat).max(6),
  effects: z.array(ItemEffect).max(4),
  value: z.int().min(0).max(10_000_000),
  color: Color.optional(),
  /** The item's plan (its look), which its words and icon are made from; items of older servers lack it. */
  look: ItemLook.optional(),
  /** How it came to be, which the server sets (a model is told it, and writes lore to match). */
  origin: ItemOrigin.optional(),
};

/**
 * What a model writes for one item, in any game: the game's own fields (its `item_fields`) ride
 * along beside these. The `response_format` sent to a model is the game's own, from `itemSchemasFor`.
 */
export const GeneratedItem = z.looseObject(generatedFields);
export type GeneratedItem = z.infer<typeof GeneratedItem>;

/** Keys an item has in every game: no game's own field may take one. */
export const ITEM_KEYS = [...Object.keys(generatedFields), 'id', 'icon', 'created_at', 'quantity'];

function fieldSchema(field: ItemVocabulary['item_fields'][number]): z.ZodType {
  const carriers = field.types.join(', ');
  const about = `${field.description} (only on items of type ${carriers})`;
  const bounded = (n: z.ZodNumber) => {
    let out = n;
    if (field.minimum !== undefined) out = out.min(field.minimum);
    if (field.maximum !== undefined) out = out.max(field.maximum);
    return out;
  };
  switch (field.type) {
    case 'integer':
      return bounded(z.int()).describe(about);
    case 'number':
      return bounded(z.number()).describe(about);
    case 'boolean':
      return z.boolean().describe(about);
    case 'string':
      return (
        field.values
          ? z.enum(field.values as [string, ...string[]])
          : z
              .string()
              .min(1)
              .max(field.max_length ?? 64)
      ).describe(about);
  }
}

type Ids = ReadonlyArray<{ id: string }>;
/** What an item schema needs of a game: the ids of its vocabulary, and its own fields. */
export interface ItemVocabulary {
  item_types: Ids;
  rarities: Ids;
  elements: Ids;
  stats: Ids;
  effects: ReadonlyArray<EffectLine>;
  item_fields: ReadonlyArray<
    Pick<ItemFieldDefinition, 'id' | 'type' | 'description' | 'minimum' | 'maximum' | 'values' | 'types'> & {
      max_length?: number;
    }
  >;
  max_item_level: number;
}

const ids = (list: Ids) => list.map((x) => x.id) as [string, ...string[]];

/** One effect of the catalogue as a model writes it: its id, and each of its numbers within its range. */
function effectSchema(effect: ItemVocabulary['effects'][number]) {
  const params = Object.entries(effect.params ?? {}).map(([name, p]) => [
    name,
    z
      .number()
      .min(p.min)
      .max(p.max)
      .describe(`${p.unit ? `In ${p.unit}; ` : ''}the item's rarity and level bound it (checked)`),
  ]);
  return z
    .object({ id: z.literal(effect.id), params: z.object(Object.fromEntries(params)) })
    .describe(`${effect.name ?? effect.id}: ${effect.text ?? ''}`);
}

/**
 * The item a model writes for one game: enums of the game's own types, rarities, elements and
 * stats, and the game's own fields (optional here: `checkItem` asks them of the types that carry them).
 */
export function itemSchemasFor(game: ItemVocabulary) {
  const { origin: _set_by_the_server, ...modelFields } = generatedFields;
  const item = z.object({
    ...modelFields,
    look: ItemLook.describe("The item's look, which its name, text and icon are all made from"),
    type: z.enum(ids(game.item_types)).describe('The item type'),
    rarity: z.enum(ids(game.rarities)).describe('The rarity'),
    level: z.int().min(1).max(game.max_item_level),
    element: z.enum([NO_ELEMENT, ...ids(game.elements)]).describe('The element'),
    stats: z.array(z.object({ name: z.enum(ids(game.stats)), value: StatValue })).max(6),
    effects: z
      .array(
        game.effects.length
          ? z.union(game.effects.map(effectSchema) as unknown as [z.ZodType, z.ZodType], {
              error: `an effect of the game's catalogue (${game.effects.map((e) => e.id).join(', ')}) with exactly its params, each within its range`,
            })
          : z.never(),
      )
      .max(4)
      .describe("Effects of the game's catalogue only, each with its numbers; none is fine"),
    color: Color.nullish().describe('The colour the player asked for, if any'),
    // Null as well as absent: a strict structured-output mode writes every field, null where it has none.
    ...Object.fromEntries(game.item_fields.map((f) => [f.id, fieldSchema(f).nullish()])),
  }) as unknown as z.ZodType<GeneratedItem>;
  return {
    item,
    batch: z.object({ items: z.array(item).min(1).max(8) }),
    verdict: z.object({
      sensible: z.boolean(),
      message: z.string().min(4).max(300),
      suggestions: z.array(z.string().min(2).max(120)).max(4),
      item: item.nullable(),
    }),
  };
}
export type ItemSchemas = ReturnType<typeof itemSchemasFor>;

export const ItemIcon = z.looseObject({
  /** Content hash of the icon prompt; also its cache key. */
  id: z.string(),
  /** Path of the PNG (immutable) relative to the Lootsmith server's base URL, e.g. `/api/v1/icons/….png`. */
  url: z.string(),
  prompt: z.string(),
  /**
   * `pending` while the icon is still being painted: the item is already granted, and `url` answers
   * 202 ({@link IconPending}) until the PNG is there. Absent or `ready`: `url` serves the PNG.
   */
  status: z.enum(['ready', 'pending']).optional(),
});
export type ItemIcon = z.infer<typeof ItemIcon>;

/** The 202 answer of an icon URL while the icon is painted: ask again after `retry_after_ms`. */
export const IconPending = z.looseObject({
  status: z.literal('pending'),
  retry_after_ms: z.int().min(0),
});
export type IconPending = z.infer<typeof IconPending>;

/** An item as the server stores and returns it. */
export const Item = z.looseObject({
  ...generatedFields,
  // Items stored before the effect catalogue have none.
  effects: generatedFields.effects.default([]),
  id: z.string(),
  icon: ItemIcon.nullable(),
  created_at: z.string(),
});
export type Item = z.infer<typeof Item>;

export const InventoryEntry = z.looseObject({
  item: Item,
  quantity: z.int().min(1),
});
export type InventoryEntry = z.infer<typeof InventoryEntry>;
