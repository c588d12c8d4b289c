import { z } from 'zod';
import { GeneratedItem } from './items.ts';

/** What the item pipeline asks a model for: `{ "items": [GeneratedItem, …] }`. */
export const GeneratedItemBatch = z.object({ items: z.array(GeneratedItem).min(1).max(8) });
export type GeneratedItemBatch = z.infer<typeof GeneratedItemBatch>;

/** A model's judgement of a crafting combination: a new item, or why not and what to try instead. */
export const CombineVerdict = z.object({
  sensible: z.boolean(),
  message: z.string().min(4).max(300),
  suggestions: z.array(z.string().min(2).max(120)).max(4),
  item: GeneratedItem.nullable(),
});
export type CombineVerdict = z.infer<typeof CombineVerdict>;
