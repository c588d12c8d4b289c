import { createHash } from 'node:crypto';
import type { GameDefinition, ItemType, Rarity } from '@lootsmith/protocol';
import { clampLevel } from '../game/rules.ts';
import type { DropSite } from '../pipeline/loot.ts';

/** One pool: items for an enemy, a band of player levels, an item type (or any) and a named location. */
export interface Bucket {
  key: string;
  site: DropSite;
  /** The type a request named; `*` when the server rolls it (pooled items then carry any loot type). */
  type: ItemType | '*';
  /** A location the game definition names; undefined for every other place. */
  location?: string;
}

/** The game definition's fingerprint: pools made under other rules (or for another game) are never served. */
export function gameKey(game: GameDefinition): string {
  return createHash('sha256').update(JSON.stringify(game)).digest('hex').slice(0, 16);
}

/** The game's spelling of a location it names, or undefined for free text. */
export function namedLocation(game: GameDefinition, text: string | undefined): string | undefined {
  const needle = text?.trim().toLowerCase();
  return needle ? game.loot_pools.locations.find((l) => l.toLowerCase() === needle) : undefined;
}

export function bucketOf(
  game: GameDefinition,
  site: DropSite,
  type: ItemType | '*',
  location: string | undefined,
): Bucket {
  const band = Math.floor((site.playerLevel - 1) / game.loot_pools.level_band);
  const lo = band * game.loot_pools.level_band + 1;
  const levels = `${lo}-${lo + game.loot_pools.level_band - 1}`;
  const who = site.enemy?.id ?? `tier${site.tier}`;
  return { key: `${who}/${levels}/${type}/${location ?? '*'}`, site, type, location };
}

/** The item levels a drop at this site may give: the same window the drop's own roll draws from. */
export function levelWindow(game: GameDefinition, site: DropSite): [number, number] {
  const centre = site.playerLevel + site.tier - 1;
  return [clampLevel(game, centre - 1), clampLevel(game, centre + 1)];
}

/** Rarities a drop of this tier can roll (the loot table's; level luck moves weight only among them). */
export function rollableRarities(game: GameDefinition, tier: number): Rarity[] {
  const table = game.loot_tables[Math.min(tier, game.loot_tables.length) - 1] ?? game.loot_tables[0] ?? {};
  return (Object.entries(table) as Array<[Rarity, number]>).filter(([, w]) => w > 0).map(([r]) => r);
}
