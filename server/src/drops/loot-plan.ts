import type { DropContext, Rarity } from '@lootsmith/protocol';
import type { DropSite } from '../game/loot-authority.ts';

/** One item a drop fills: what the caller fixed; the rest is rolled. */
export interface LootWant {
  /** The item type asked for; rolled from the game's loot types when absent. */
  type?: string;
  /** A rarity only the game server may fix; rolled by the enemy's tier and the level when absent. */
  rarity?: Rarity;
  /** The player's own words for this item: they steer the writing, so no pool serves it. */
  subtype?: string;
  focus?: string;
}

/**
 * A drop as the layers below the service take it: the request translated once at the door, so
 * nothing below reads the HTTP body or re-derives its theme, element or place.
 */
export interface LootPlan {
  /** Who the drop is for and who pays: the player's budget, and its share of the pools' refills. */
  playerId: string;
  /** The game server itself asked (rarities it fixed are kept; its theme steers materials). */
  trusted: boolean;
  /** The enemy, tier, level and limits the loot authority settled. */
  site: DropSite;
  /** What to fill, one entry per item asked for, in order. */
  wants: LootWant[];
  /** What the writer is told of the drop: the game's enemy (its name, tier, element), theme, level, place. */
  context: DropContext;
  /** The element a material drop favours: the enemy's, or the game server's theme. */
  materialElement?: string;
  /** The game's own place the drop names (a location or room of the game file, its spelling); none for free text. */
  place?: string;
  constraints: {
    namingStyle?: string;
    powerBudget?: string;
    /** Items must not take a name the player already owns. */
    ensureUniqueness: boolean;
  };
  /** The player's own words, by field: screened before anything is generated, and never copied at length. */
  playerWords: Array<[field: string, text: string]>;
  /** Whether the loot pools may serve this drop: no free text steers the writing, and the enemy is the game's. */
  poolable: boolean;
  /** For the items' provenance: what the server capped before asking. */
  clamps: string[];
}
