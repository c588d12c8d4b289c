import type { StationId } from '../world/dungeon-map.ts';
import type { Enemy } from '../world/Enemy.ts';
import type { FrostDoor } from '../world/FrostDoor.ts';
import { findPath } from '../world/pathfinding.ts';
import type { Combat } from './combat.ts';
import type { DungeonContext } from './context.ts';
import { nearDoor, strikeDoor } from './door.ts';
import type { Stations } from './stations.ts';

/** What the hero walks toward and does on arrival. */
type Order = { kind: 'enemy'; enemy: Enemy } | { kind: 'station'; id: StationId } | { kind: 'door' };

/**
 * What the player told the hero to do: walk somewhere, fight an enemy (walking up to it), use a
 * station or strike the door once there. Carried out frame by frame until done or replaced.
 */
export class HeroOrders {
  readonly #c: DungeonContext;
  readonly #combat: Combat;
  readonly #door: FrostDoor;
  readonly #stations: Stations;
  readonly #openStation: (id: StationId) => void;
  #order: Order | undefined;
  #repathAt = 0;

  constructor(
    context: DungeonContext,
    parts: { combat: Combat; door: FrostDoor; stations: Stations; openStation: (id: StationId) => void },
  ) {
    this.#c = context;
    this.#combat = parts.combat;
    this.#door = parts.door;
    this.#stations = parts.stations;
    this.#openStation = parts.openStation;
  }

  /** Forgets the order (the player took the keys, or the hero was knocked out). */
  clear() {
    this.#order = undefined;
  }

  walk(x: number, y: number) {
    this.#go(x, y, undefined);
  }

  fight(enemy: Enemy) {
    this.#go(enemy.x, enemy.y, { kind: 'enemy', enemy });
  }

  breakDoor() {
    const front = this.#door.front;
    this.#go(front.x, front.y, { kind: 'door' });
  }

  useStation(id: StationId) {
    const front = this.#stations.front(id);
    if (front) this.#go(front.x, front.y, { kind: 'station', id });
  }

  /** A swing where the hero stands: at the nearest enemy in reach, else the door, else the air. */
  swing() {
    const { hero } = this.#c;
    const enemy = this.#combat.enemyInReach(12);
    if (enemy) this.#combat.strike(enemy);
    else if (nearDoor(hero, this.#door)) this.#strike();
    else hero.swing({ x: hero.x + (hero.facingLeft ? -1 : 1), y: hero.y });
  }

  /** Opens the station the hero stands at, if any. */
  useNearestStation() {
    const near = this.#stations.nearest(this.#c.hero);
    if (near) this.#use(near.id);
  }

  /** One frame of the order: chase and fight, strike the door once there, open the station on arrival. */
  update(time: number) {
    const { hero } = this.#c;
    const order = this.#order;
    if (order?.kind === 'enemy') {
      const enemy = order.enemy;
      if (!enemy.alive) {
        // Stop where the fight ended: the player sees the loot land, then goes for it.
        this.#order = undefined;
        hero.stop();
        return;
      }
      if (this.#combat.inReach(enemy)) {
        hero.stop();
        this.#combat.strike(enemy);
      } else if (time > this.#repathAt) {
        this.#repathAt = time + 250;
        const path = findPath(hero, enemy);
        if (path.length) hero.follow(path);
      }
    } else if (order?.kind === 'door') {
      if (this.#door.open) this.#order = undefined;
      else if (nearDoor(hero, this.#door)) {
        hero.stop();
        this.#strike();
      } else if (!hero.walking) this.#order = undefined;
    } else if (order?.kind === 'station' && !hero.walking) {
      this.#order = undefined;
      if (this.#stations.nearest(hero)?.id === order.id) this.#use(order.id);
    }
  }

  /** A blow on the door when the swing is ready; a weak blow stops the hero, a last one ends the order. */
  #strike() {
    if (this.#door.open || !this.#combat.swingReady()) return;
    const blow = strikeDoor(this.#c, this.#door);
    if (blow === 'cracked') return;
    this.#order = undefined;
    if (blow !== 'shattered') this.#c.hero.stop();
  }

  /** Walks to a spot, then carries out the order given with it. */
  #go(x: number, y: number, order: Order | undefined) {
    const { hero } = this.#c;
    this.#order = order;
    const path = findPath(hero, { x, y });
    if (path.length) hero.follow(path);
    else if (!order) hero.stop();
  }

  #use(id: StationId) {
    this.#c.hero.stop();
    this.#openStation(id);
  }
}
