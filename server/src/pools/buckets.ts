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

/** The lowest player level of the band a level is in. */
export function bandStart(level: number): number {
  return BAND * Math.floor((level - 1) / BAND) + 1;
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
  const lowest = bandStart(site.playerLevel);
  return clampLevel(game, lowest + dropReach(game, site.tier));
}

export function bucketOf(
  game: GameDefinition,
  site: DropSite,
  type: string,
  location: string | undefined,
): Bucket {
  const lo = bandStart(site.playerLevel);
  const who = site.enemy?.id ?? `tier${site.tier}`;
  const key = `${who}/${lo}-${lo + BAND - 1}/${type}/${location ?? '*'}`;
  return { key, site, type, location, level: poolLevel(game, site) };
}

/**
 * Where a near miss looks, nearest first: the band below (whose players have moved up), the band
 * above, then further down (stock left behind by players who levelled up faster than it was drawn).
 */
export const NEAR_BANDS = [-1, 1, -2, -3, -4];

/** The bucket `offset` level bands away (-1 the band below, 1 the band above), when there is one. */
export function bandAway(game: GameDefinition, bucket: Bucket, offset: number): Bucket | undefined {
  const level = bandStart(bucket.site.playerLevel) + offset * BAND;
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
