import type Phaser from 'phaser';
import type { Toasts } from '../ui/Toasts.ts';
import { areaAt, BOSS_AREA, START_AREA } from '../world/dungeon-map.ts';
import { Fog } from '../world/Fog.ts';
import type { FrostDoor } from '../world/FrostDoor.ts';

/** The area the door stands in: seeing it is seeing the door. */
export const DOOR_AREA = 'cold';

/**
 * Where the hero has been: the dungeon is dark until the hero walks in; a room lights up on the
 * first visit, the HUD names the room the hero is in, and finding the door or the boss shows it.
 */
export class Exploration {
  readonly #scene: Phaser.Scene;
  readonly #toasts: Toasts;
  readonly #door: FrostDoor;
  readonly #fog: Fog;

  constructor(scene: Phaser.Scene, toasts: Toasts, door: FrostDoor) {
    this.#scene = scene;
    this.#toasts = toasts;
    this.#door = door;
    this.#fog = new Fog(scene);
    this.#fog.reveal(START_AREA);
  }

  /** The ids of the areas seen so far. */
  get revealed(): ReadonlySet<string> {
    return this.#fog.revealed;
  }

  /** Whether the hero has seen this area. */
  seen(areaId: string | undefined): boolean {
    return this.#fog.isRevealed(areaId);
  }

  /** Whether the hero has seen the room around this point. */
  seenAt(x: number, y: number): boolean {
    return this.seen(areaAt(x, y)?.id);
  }

  /** Lights the area the hero stands in and returns its name (undefined between areas). */
  visit(hero: { x: number; y: number }): string | undefined {
    const area = areaAt(hero.x, hero.y);
    if (!area) return undefined;
    if (this.#fog.reveal(area.id)) this.#found(area.id);
    return area.name;
  }

  #found(areaId: string) {
    if (areaId === DOOR_AREA) this.#door.showSign();
    if (areaId === BOSS_AREA) {
      this.#scene.cameras.main.shake(400, 0.008);
      this.#toasts.show('warn', 'The Frost Giant wakes!', 'Wear your best gear; drink a potion when hurt.');
    }
  }
}
