import type { GameDefinition } from '@lootsmith/protocol';
import { type DropSite, dropLimits, type GameEnemy } from '../game/loot-authority.ts';
import { BAND, type Bucket, bandStart, bucketOf, namedLocation } from './buckets.ts';

/** Why a bucket was warmed: drawn from, about to be reached by a live player, or a fresh game's start. */
export type WarmReason = 'seen' | 'predicted' | 'start-up';

/** A predicted bucket is looked at again no sooner than this: a busy game's draws do not re-ask it each time. */
const REPEAT_MS = 10_000;
/** Buckets remembered as asked for; older ones are forgotten first beyond this. */
const MAX_REMEMBERED = 5_000;
/** How many levels ahead of a player its next band (and the tiers it meets) are warmed. */
const LOOKAHEAD = 2;
/** How many steps from the first room a new player's reach is warmed at start-up. */
const REACH = 2;
/** A player counts as playing this long after its last drop. */
const LIVE_MS = 60_000;
/** Drops closer together than this count as this far apart (a burst of kills is not a pace). */
const MIN_GAP_MS = 500;
/** Players whose place is remembered; the longest idle is forgotten first beyond this. */
const MAX_PLAYERS = 10_000;

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
  /** Each live player's level and room at its last drop, and the enemies it has looted; the longest idle first. */
  private readonly players = new Map<
    string,
    { level: number; room?: Room; at: number; every?: number; met: Set<string> }
  >();
  /** Per enemy that lives somewhere on the map: the rooms at most two steps from where it lives. */
  private readonly near = new Map<string, Set<Room>>();

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
    for (const e of game.enemies) {
      const lairs = [...this.rooms.values()].filter((r) => r.enemies.includes(e));
      if (!lairs.length) continue;
      const near = new Set(lairs.flatMap((r) => [r, ...r.neighbours]));
      for (const r of [...near]) for (const n of r.neighbours) near.add(n);
      this.near.set(e.id, near);
    }
  }

  /**
   * The buckets a fresh game's players ask for first: the enemies of the first room (where players
   * start), or without a map every tier-1 enemy, for player levels 1–3, any item type; and `next`,
   * those of every room a new player can walk to within `REACH` steps of the first, whatever their
   * tier: a stranger's play fights what it finds, not what `tier_levels` expects at its level.
   */
  startBuckets(): { first: Bucket[]; next: Bucket[] } {
    const start = this.game.loot_pools.rooms[0];
    const room = start && this.rooms.get(start.name.toLowerCase());
    if (!room)
      return {
        first: this.game.enemies.filter((e) => e.tier === 1).map((e) => this.bucket(e, 1, '*', undefined)),
        next: [],
      };
    const first = room.enemies.map((e) => this.bucket(e, 1, '*', room.name));
    const keys = new Set(first.map((b) => b.key));
    const reached = new Set([room]);
    for (let step = 0; step < REACH; step++)
      for (const r of [...reached]) for (const n of r.neighbours) reached.add(n);
    reached.delete(room);
    const next = [...reached]
      .flatMap((r) => r.enemies.map((e) => this.bucket(e, 1, '*', r.name)))
      .filter((b) => !keys.has(b.key) && keys.add(b.key));
    return { first, next };
  }

  /**
   * The buckets a player who drew from `seen` (at `location`) is about to reach, each returned at
   * most once in `REPEAT_MS`; the drawn bucket itself is not among them.
   */
  predict(seen: Bucket, location: string | undefined, now: number): Bucket[] {
    const { site, type } = seen;
    const level = site.playerLevel;
    const room = this.roomOf(location);
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

  /** Notes where a player is, its level and room at a drop, how often it drops, and the enemy it looted. */
  saw(player: string, level: number, location: string | undefined, now: number, enemy?: string) {
    const last = this.players.get(player);
    const gap = last && now - last.at <= LIVE_MS ? Math.max(MIN_GAP_MS, now - last.at) : undefined;
    const every =
      gap === undefined || last?.every === undefined ? (gap ?? last?.every) : 0.7 * last.every + 0.3 * gap;
    const met = last?.met ?? new Set<string>();
    if (enemy !== undefined) met.add(enemy);
    this.players.delete(player);
    this.players.set(player, { level, room: this.roomOf(location), at: now, every, met });
    if (this.players.size > MAX_PLAYERS) this.players.delete(this.players.keys().next().value as string);
  }

  /** Live players whose level lies in the bucket's band (none left: its stock is free for the bands above). */
  inBand(bucket: Bucket, now: number): number {
    const lo = bandStart(bucket.site.playerLevel);
    let n = 0;
    for (const p of this.live(now)) if (p.level >= lo && p.level < lo + BAND) n++;
    return n;
  }

  /**
   * Live players meeting the bucket's enemy for the first time: its tier is met (`tier_levels`) in
   * the bucket's band, they are up to `LOOKAHEAD` levels short of it or already in that band, at
   * most two rooms from where it lives (anywhere, without a map), and have not looted it yet (one
   * who has shows in a rate already): the drops they make in `seconds` at their own pace (at least
   * one each). No band below holds anything for them, and
   * while they arrive no rate shows their demand yet.
   */
  arriving(bucket: Bucket, now: number, seconds: number): number {
    const enemy = bucket.site.enemy;
    if (!enemy) return 0;
    const meets = this.metAt(enemy, 1);
    const band = bandStart(meets);
    if (band !== bandStart(bucket.site.playerLevel)) return 0;
    const near = this.near.get(enemy.id);
    let n = 0;
    for (const p of this.live(now))
      if (
        p.level >= meets - LOOKAHEAD &&
        p.level < band + BAND &&
        !p.met.has(enemy.id) &&
        (!near || !p.room || near.has(p.room))
      )
        n += p.every ? Math.max(1, (seconds * 1000) / p.every) : 1;
    return n;
  }

  private *live(now: number) {
    for (const [id, p] of this.players) {
      if (now - p.at <= LIVE_MS) yield p;
      else this.players.delete(id);
    }
  }

  private roomOf(location: string | undefined): Room | undefined {
    return location === undefined ? undefined : this.rooms.get(location.trim().toLowerCase());
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
