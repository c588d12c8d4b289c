import Phaser from 'phaser';
import { rollDamage } from '../hero-stats.ts';
import { TILE } from '../world/dungeon-map.ts';
import { floatingNumber } from '../world/effects.ts';
import type { FrostDoor } from '../world/FrostDoor.ts';
import type { DungeonContext } from './context.ts';

/** Where a weapon comes from, as the door's message says it. */
export const WEAPON_HINT =
  'Wear your best weapon from your Bag; the Bone Gallery and the Ember Shrine hold better ones.';

/** How close to the door's front the hero must stand to strike it, in pixels. */
const DOOR_REACH = 44;

/** Whether the hero stands close enough to strike the (still closed) door. */
export function nearDoor(hero: { x: number; y: number }, door: FrostDoor): boolean {
  return !door.open && Phaser.Math.Distance.BetweenPoints(hero, door.front) <= DOOR_REACH;
}

/** The hero's blow on the door, and what the player sees and is told of it. */
export function strikeDoor({ scene, hero, toasts, state }: DungeonContext, door: FrostDoor) {
  hero.swing(door);
  const attack = hero.stats.attack;
  const { damage } = rollDamage(hero.stats);
  const blow = door.strike({ armed: state.wearsWeapon, attack, damage });
  const top = door.y - TILE;
  if (blow === 'unarmed' || blow === 'weak') {
    floatingNumber(scene, door.x, top, 'clang', '#9fb7c9');
    toasts.show(
      'warn',
      'The ice holds',
      blow === 'unarmed'
        ? `The Frost Door only cracks under a weapon. ${WEAPON_HINT}`
        : `The Frost Door needs a weapon of ${door.needs}+ attack; you have ${attack}. ${WEAPON_HINT}`,
      'door',
    );
  } else if (blow === 'cracked') floatingNumber(scene, door.x, top, String(damage), '#bfe6ff', true);
  else {
    scene.cameras.main.shake(200, 0.006);
    toasts.show('success', 'The Frost Door shatters!', 'The Frozen Throne lies open to the east.', 'door');
  }
  return blow;
}
