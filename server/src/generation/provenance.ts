import type { GameDefinition, Item } from '@lootsmith/protocol';
import type { ProvenanceRow, RecordedCost } from '../admin/store.ts';
import { statBudget, valueCap } from '../game/rules.ts';
import type { Nanos } from '../money/pricing.ts';

/** What one model call was asked and how it answered: filled in by `askJson` as it goes. */
export interface GenerationTrace {
  system?: string;
  user?: string;
  /** The seed of the accepted answer's call. */
  seed?: number;
  /** Which backend answered: `chat:openai`…, or `fallback` (see `backendLabel`). */
  backend?: string;
  model?: string;
  /** The problems of each answer the rules refused, in order. */
  rejected: string[][];
  /** What its model calls cost, re-asks included: `unpriced` once any of them had no price. */
  cost: Nanos | 'unpriced';
}

export const newTrace = (): GenerationTrace => ({ rejected: [], cost: 0 });

/** Adds a call's cost (`null`: unpriced) to a trace: what `askJson` meters its calls with. */
export function addCost(trace: GenerationTrace, cost: Nanos | null) {
  trace.cost = cost === null || trace.cost === 'unpriced' ? 'unpriced' : trace.cost + cost;
}

/** Item `i`'s share of `n` items made by calls costing `cost`: equal whole shares that add up to it. */
function share(cost: Nanos | 'unpriced', i: number, n: number): RecordedCost {
  if (cost === 'unpriced') return cost;
  return Math.floor(cost / n) + (i < cost % n ? 1 : 0);
}

/**
 * The console's activity recorder, as the services see it: provenance (kept apart from the items),
 * counts, and the level the game reported for a player.
 */
export interface ActivitySink {
  record(rows: ProvenanceRow[]): void;
  count(name: string, label: string, n: number): void;
  level(playerId: string, level: number): void;
}

export interface ItemOrigin {
  source: ProvenanceRow['source'];
  playerId: string | null;
  enemy?: string;
  /** Undefined for an item that needed no model call (a recipe-book result). */
  trace?: GenerationTrace;
  /** What the server capped before asking. */
  clamps?: string[];
}

/** How each of these items was made, for the console; the items themselves are left as they are. */
export function provenanceRows(game: GameDefinition, items: Item[], origin: ItemOrigin): ProvenanceRow[] {
  const { trace } = origin;
  const prompt = trace?.system && `${trace.system}\n\n${trace.user ?? ''}`;
  return items.map((item, i) => ({
    itemId: item.id,
    source: origin.source,
    playerId: origin.playerId,
    rarity: item.rarity,
    type: item.type,
    level: item.level,
    enemy: origin.enemy ?? null,
    backend: trace?.backend ?? null,
    model: trace?.model ?? null,
    seed: trace?.seed ?? null,
    prompt: prompt || null,
    rules: {
      rarity: item.rarity,
      level: item.level,
      stat_budget: statBudget(game, item.rarity, item.level),
      value_cap: valueCap(game, item.rarity, item.level),
      clamps: origin.clamps ?? [],
      rejected: trace?.rejected ?? [],
    },
    // An item made with no model call (a recipe-book result) cost nothing.
    cost: trace ? share(trace.cost, i, items.length) : 0,
    createdAt: item.created_at,
  }));
}
