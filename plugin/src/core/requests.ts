import type {
  CombineRequest,
  CreateItemRequest,
  GenerateItemsRequest,
  ImageGenerationRequest,
} from '@lootsmith/protocol';
import type { ItemType } from './game-types.ts';

export interface DropParams {
  enemy?: string;
  location?: string;
  theme?: string;
  playerLevel?: number;
  /** Items wanted, 1–8 (default 1). The server rolls rarity. */
  count?: number;
  /**
   * Names one logical drop (e.g. an enemy's instance id). Drops with the same id in flight are sent once,
   * and a retry reuses its Idempotency-Key; without an id every call is a drop of its own.
   */
  dropId?: string;
  /**
   * A drop grant your game server minted for this kill (`signDropGrant` or `POST
   * /api/v1/player/:id/drop-grant`): required when the game's loot authority is `grant`. It names the
   * enemy and level, so leave `enemy` and `playerLevel` out or send the same values.
   */
  grant?: string;
}

/** An item id, or anything with an `id` (an `Item` works), with an optional quantity (default 1). */
export type ItemRef = string | { id: string; quantity?: number };

export interface CombineParams {
  ingredients: ItemRef[];
  station?: string;
  tool?: string;
  /** What the player means to make, in their words. */
  intent?: string;
  /**
   * Let the combine use up an item the player wears (its slot empties). Without it such a combine is
   * refused with code `item_equipped` and nothing changes: ask the player, then send it again with this.
   */
  consumeEquipped?: boolean;
}

export interface CreateItemParams {
  station: string;
  materials: ItemRef[];
  type: ItemType;
  description: string;
  focusAttributes?: string[];
  visualPreferences?: Record<string, string | number | boolean>;
  /** Let the item use up a material the player wears, as `CombineParams.consumeEquipped`. */
  consumeEquipped?: boolean;
}

export interface IconPromptOptions {
  width?: number;
  height?: number;
  steps?: number;
  negativePrompt?: string;
  seed?: number;
}

/** Drops keys whose value is undefined, so bodies stay within the strict protocol schemas. */
function defined<T extends object>(fields: T): T {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as T;
}

export const refId = (ref: ItemRef) => (typeof ref === 'string' ? ref : ref.id);

/** Sums quantities of repeated ids, so `[ore, ore]` means two ore. */
export function stacks(refs: ItemRef[]): Array<{ id: string; quantity: number }> {
  const totals = new Map<string, number>();
  for (const ref of refs) {
    const [id, quantity] = [refId(ref), typeof ref === 'string' ? 1 : (ref.quantity ?? 1)];
    totals.set(id, (totals.get(id) ?? 0) + quantity);
  }
  return [...totals].map(([id, quantity]) => ({ id, quantity }));
}

export function generateItemsBody(playerId: string, p: DropParams): GenerateItemsRequest {
  const context = defined({
    location: p.location,
    enemy: p.enemy,
    theme: p.theme,
    player_level: p.playerLevel,
  });
  return defined({
    client_id: playerId,
    generation_context: Object.keys(context).length ? context : undefined,
    items: Array.from({ length: p.count ?? 1 }, () => ({})),
    grant: p.grant,
  });
}

export function combineBody(playerId: string, p: CombineParams): CombineRequest {
  return defined({
    player_id: playerId,
    ingredients: stacks(p.ingredients).map(({ id, quantity }) => ({ item_id: id, quantity })),
    crafting_station: p.station,
    crafting_tool: p.tool,
    description: p.intent,
    consume_equipped: p.consumeEquipped,
  });
}

export function createItemBody(p: CreateItemParams): CreateItemRequest {
  return defined({
    crafting_station: p.station,
    materials: stacks(p.materials),
    item_parameters: {
      type: p.type,
      description: p.description,
      focus_attributes: p.focusAttributes ?? [],
      visual_preferences: p.visualPreferences ?? {},
    },
    consume_equipped: p.consumeEquipped,
  });
}

export function imageBody(
  playerId: string,
  prompt: string,
  o: IconPromptOptions = {},
): ImageGenerationRequest {
  return defined({
    client_id: playerId,
    prompt,
    negative_prompt: o.negativePrompt,
    width: o.width,
    height: o.height,
    steps: o.steps,
    seed: o.seed,
  });
}

/** cyrb53: a 53-bit string hash, short and spread enough for cache and texture keys. */
export function hash(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}
