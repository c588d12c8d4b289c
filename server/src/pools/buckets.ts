import { createHash } from 'node:crypto';
import type { GameDefinition, Rarity } from '@lootsmith/protocol';
import type { DropSite } from '../game/loot-authority.ts';
import { clampLevel, dropLevels, dropReach, rarityIds, rarityWeights } from '../game/rules.ts';

/**
 * One pool: items for an enemy (or, without one, an enemy tier), a band of three player levels, an
 * item type (or any) and a location the game names.
 */
export interface Bucket {
  key: string;
  site: DropSite;
  /** The type a request named; `*` when the server rolls it (pooled items then carry any loot type). */
  type: string;
  /** A location the game definition names; undefined for every other place. */
  location?: string;
  /** The level every item of the bucket is made at (see `poolLevel`). */
  level: number;
}

/** Player levels per bucket: a drop's level is the player's ± 1, so one item level fits three. */
export const BAND = 3;

/** The game definition's fingerprint: pools made under other rules (or for another game) are never served. */
export function gameKey(game: GameDefinition): string {
  return createHash('sha256').update(JSON.stringify(game)).digest('hex').slice(0, 16);
}

/** The game's spelling of a location it names, or undefined for free text. */
export function namedLocation(game: GameDefinition, text: string | undefined): string | undefined {
  const needle = text?.trim().toLowerCase();
  return needle ? game.loot_pools.locations.find((l) => l.toLowerCase() === needle) : undefined;
}

/**
 * The level pooled items for a site are made at: the lowest level of its band of three player levels
 * plus the drop's reach, which is inside the level window of every player of the band.
 */
export function poolLevel(game: GameDefinition, site: DropSite): number {
  const lowest = BAND * Math.floor((site.playerLevel - 1) / BAND) + 1;
  return clampLevel(game, lowest + dropReach(game, site.tier));
}

export function bucketOf(
  game: GameDefinition,
  site: DropSite,
  type: string,
  location: string | undefined,
): Bucket {
  const lo = BAND * Math.floor((site.playerLevel - 1) / BAND) + 1;
  const who = site.enemy?.id ?? `tier${site.tier}`;
  const key = `${who}/${lo}-${lo + BAND - 1}/${type}/${location ?? '*'}`;
  return { key, site, type, location, level: poolLevel(game, site) };
}

/** The bucket of the level band below (side 0) or above (side 1), when there is one. */
export function neighbourBand(game: GameDefinition, bucket: Bucket, side: 0 | 1): Bucket | undefined {
  const lo = BAND * Math.floor((bucket.site.playerLevel - 1) / BAND) + 1;
  const level = side === 0 ? lo - 1 : lo + BAND;
  if (level < 1 || level > game.max_item_level) return undefined;
  return bucketOf(game, { ...bucket.site, playerLevel: level }, bucket.type, bucket.location);
}

/** The item levels a drop at this site may give: the same window the drop's own roll draws from. */
export function levelWindow(game: GameDefinition, site: DropSite): [number, number] {
  return dropLevels(game, site.playerLevel, site.tier);
}

/** The chance of each rarity a drop at this site can roll (zero-weight rarities left out). */
export function rarityOdds(game: GameDefinition, site: DropSite): Array<[Rarity, number]> {
  const weights = rarityWeights(game, site.tier, site.playerLevel);
  const total = weights.reduce((a, b) => a + b, 0) || 1;
  return rarityIds(game).flatMap((r, i) =>
    (weights[i] ?? 0) > 0 ? [[r, (weights[i] ?? 0) / total] as [Rarity, number]] : [],
  );
}
