import type { Item, Recipe } from '@lootsmith/protocol';

export interface PlayerRecord {
  id: string;
  crafting_xp: number;
  blocked: boolean;
  daily_items: number | null;
  daily_images: number | null;
  /** The player's level as the game server last set it; null when it never did. */
  level: number | null;
}

export const PLAYER_SETTINGS = ['crafting_xp', 'blocked', 'daily_items', 'daily_images', 'level'] as const;

export interface Stack {
  item_id: string;
  quantity: number;
}

export interface CraftInput {
  playerId: string;
  consume: Stack[];
  item: Item;
  recipe: { key: string; ingredients: Stack[]; station: string | null; tool: string | null } | null;
  xp: number;
  discoveryXp: number;
  reason: 'combine' | 'create_item';
}

export interface CraftResult {
  discovered: boolean;
  xpEarned: number;
}

export interface StoredResponse {
  status: number;
  body: string;
}

/** Raised inside a transaction when a player lacks what it would spend; the transaction rolls back. */
export class InsufficientError extends Error {
  constructor(readonly missing: Array<{ item_id: string; have: number; need: number }>) {
    super('insufficient materials');
  }
}

/**
 * Everything Lootsmith keeps. Every method that changes state is one transaction.
 * SQLite is the default; a PostgreSQL store implements the same interface.
 */
export interface Store {
  ensurePlayer(id: string, starting: Stack[]): Promise<PlayerRecord>;
  getPlayer(id: string): Promise<PlayerRecord | null>;
  updatePlayer(id: string, patch: Partial<Omit<PlayerRecord, 'id'>>): Promise<PlayerRecord>;
  stacks(playerId: string): Promise<Stack[]>;
  getItems(ids: string[]): Promise<Item[]>;
  playerItemNames(playerId: string): Promise<string[]>;
  /** Stores new items and grants one of each, plus stacks of existing ones (materials), in one transaction. */
  grantLoot(playerId: string, items: Item[], stacks: Stack[], reason: string): Promise<void>;
  /** Adds (positive) or removes (negative) stacks; throws InsufficientError when a removal exceeds what is owned. */
  changeStacks(playerId: string, changes: Stack[], reason: string): Promise<void>;
  craft(input: CraftInput): Promise<CraftResult>;
  recipe(key: string): Promise<Item | null>;
  recipes(playerId: string): Promise<Recipe[]>;
  icon(id: string): Promise<Buffer | null>;
  putIcon(id: string, prompt: string, png: Buffer): Promise<void>;
  dailyUsage(playerId: string, day: string): Promise<{ items: number; images: number }>;
  countUsage(playerId: string, day: string, kind: 'items' | 'images', n: number): Promise<void>;
  idempotent(scope: string): Promise<StoredResponse | null>;
  saveIdempotent(scope: string, response: StoredResponse): Promise<void>;
  /** Rate-limit counter for a fixed window; survives restarts. */
  hit(key: string, windowMs: number, now: number): Promise<{ count: number; resetAt: number }>;
  close(): Promise<void>;
}
