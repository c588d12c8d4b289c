import Phaser from 'phaser';
import { TILE } from '../world/dungeon-map.ts';
import { floatingNumber } from '../world/effects.ts';
import type { FrostDoor } from '../world/FrostDoor.ts';
import type { DungeonContext } from './context.ts';

/** Attack a blow needs to crack the Frost Door: more than bare hands, less than any real weapon. */
export const DOOR_NEEDS = 6;
/** How close to the door's front the hero must stand to strike it, in pixels. */
const DOOR_REACH = 44;

/** Whether the hero stands close enough to strike the (still closed) door. */
export function nearDoor(hero: { x: number; y: number }, door: FrostDoor): boolean {
  return !door.open && Phaser.Math.Distance.BetweenPoints(hero, door.front) <= DOOR_REACH;
}

/** The hero's blow on the door, and what the player sees and is told of it. */
export function strikeDoor({ scene, hero, toasts }: DungeonContext, door: FrostDoor) {
  hero.swing(door);
  const attack = hero.stats.attack;
  const blow = door.strike(attack);
  const top = door.y - TILE;
  if (blow === 'weak') {
    floatingNumber(scene, door.x, top, 'clang', '#9fb7c9');
    toasts.show(
      'warn',
      'The ice holds',
      `The Frost Door needs ${door.needs} attack; you have ${attack}. Wear a weapon from your bag, or forge one at the Workbench.`,
      'door',
    );
  } else if (blow === 'cracked') floatingNumber(scene, door.x, top, 'crack!', '#bfe6ff', true);
  else {
    scene.cameras.main.shake(200, 0.006);
    toasts.show('success', 'The Frost Door shatters!', 'The Frozen Throne lies open to the east.', 'door');
  }
  return blow;
}
