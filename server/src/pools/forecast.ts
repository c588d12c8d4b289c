import type { GameDefinition } from '@lootsmith/protocol';
import { type DropSite, dropLimits, type GameEnemy } from '../game/loot-authority.ts';
import { BAND, type Bucket, bucketOf, namedLocation } from './buckets.ts';

/** Why a bucket was warmed: drawn from, about to be reached by a live player, or a fresh game's start. */
export type WarmReason = 'seen' | 'predicted' | 'start-up';

/** A predicted bucket is looked at again no sooner than this: a busy game's draws do not re-ask it each time. */
const REPEAT_MS = 10_000;
/** Buckets remembered as asked for; older ones are forgotten first beyond this. */
const MAX_REMEMBERED = 5_000;
/** How many levels ahead of a player its next band (and the tiers it meets) are warmed. */
const LOOKAHEAD = 2;

interface Room {
  name: string;
  enemies: GameEnemy[];
  /** Rooms it leads to, either way round. */
  neighbours: Set<Room>;
}

/**
 * What live players are about to ask for, from what their drops show: the player's next level band
 * (for the enemy it fights, in the room it is in), the enemies of that room and of the rooms next to
 * it, and the enemies of the tier its level is about to meet (`loot_pools.rooms`, `tier_levels`).
 */
export class Forecast {
  private readonly rooms = new Map<string, Room>();
  private readonly asked = new Map<string, number>();

  constructor(private readonly game: GameDefinition) {
    const enemy = (id: string) => game.enemies.find((e) => e.id === id);
    for (const r of game.loot_pools.rooms)
      this.rooms.set(r.name.toLowerCase(), {
        name: r.name,
        enemies: r.enemies.flatMap((id) => enemy(id) ?? []),
        neighbours: new Set(),
      });
    for (const r of game.loot_pools.rooms) {
      const room = this.rooms.get(r.name.toLowerCase()) as Room;
      for (const n of r.next_to) {
        const other = this.rooms.get(n.toLowerCase());
        if (!other || other === room) continue;
        room.neighbours.add(other);
        other.neighbours.add(room);
      }
    }
  }

  /**
   * The buckets a fresh game's players ask for first: the enemies of the first room (where players
   * start), or without a map every tier-1 enemy, for player levels 1–3, any item type.
   */
  startBuckets(): Bucket[] {
    const first = this.game.loot_pools.rooms[0];
    const room = first && this.rooms.get(first.name.toLowerCase());
    const enemies = room ? room.enemies : this.game.enemies.filter((e) => e.tier === 1);
    return enemies.map((e) => this.bucket(e, 1, '*', room?.name));
  }

  /**
   * The buckets a player who drew from `seen` (at `location`) is about to reach, each returned at
   * most once in `REPEAT_MS`; the drawn bucket itself is not among them.
   */
  predict(seen: Bucket, location: string | undefined, now: number): Bucket[] {
    const { site, type } = seen;
    const level = site.playerLevel;
    const room = location === undefined ? undefined : this.rooms.get(location.trim().toLowerCase());
    const out = new Map<string, Bucket>();
    const add = (b: Bucket) => {
      if (b.key !== seen.key) out.set(b.key, b);
    };
    // Within LOOKAHEAD levels of the band's top: the same enemy, type and place one band up.
    if (site.enemy && Math.floor((level - 1 + LOOKAHEAD) / BAND) > Math.floor((level - 1) / BAND))
      add(this.bucket(site.enemy, level + LOOKAHEAD, type, location));
    if (room)
      for (const r of [room, ...room.neighbours])
        for (const e of r.enemies)
          if (this.meets(e, level)) add(this.bucket(e, this.metAt(e, level), type, r.name));
    for (const e of this.nextTierEnemies(level))
      for (const where of this.whereMet(e)) add(this.bucket(e, this.metAt(e, level), type, where));
    return [...out.values()].filter((b) => this.fresh(b.key, now));
  }

  /** Whether a player of this level meets (or is about to meet) the enemy, by `tier_levels`. */
  private meets(enemy: GameEnemy, level: number): boolean {
    return this.metAt(enemy, 1) <= level + LOOKAHEAD;
  }

  /** The level a player of `level` will have when it first meets the enemy: its tier's level, if higher. */
  private metAt(enemy: GameEnemy, level: number): number {
    return Math.max(level, this.game.loot_pools.tier_levels?.[enemy.tier - 1] ?? 1);
  }

  /** Enemies of the tiers a player of this level is about to meet and has not yet (by `tier_levels`). */
  private nextTierEnemies(level: number): GameEnemy[] {
    const from = this.game.loot_pools.tier_levels;
    if (!from) return [];
    return this.game.enemies.filter((e) => {
      const at = from[e.tier - 1];
      return at !== undefined && at > level && at <= level + LOOKAHEAD;
    });
  }

  /** The rooms an enemy is met in (undefined: anywhere the map leaves out). */
  private whereMet(enemy: GameEnemy): Array<string | undefined> {
    const rooms = [...this.rooms.values()].filter((r) => r.enemies.includes(enemy)).map((r) => r.name);
    return rooms.length ? rooms : [undefined];
  }

  private bucket(enemy: GameEnemy, level: number, type: string, location: string | undefined): Bucket {
    const site: DropSite = {
      enemy,
      tier: enemy.tier,
      playerLevel: level,
      limits: dropLimits(this.game, enemy.tier),
    };
    return bucketOf(this.game, site, type, namedLocation(this.game, location));
  }

  /** True when the bucket was not asked for lately (and notes that it is now). */
  private fresh(key: string, now: number): boolean {
    const last = this.asked.get(key);
    if (last !== undefined && now - last < REPEAT_MS) return false;
    this.asked.delete(key);
    this.asked.set(key, now);
    if (this.asked.size > MAX_REMEMBERED) this.asked.delete(this.asked.keys().next().value as string);
    return true;
  }
}
