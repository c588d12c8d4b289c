import Phaser from 'phaser';
import { typing } from '../ui/dom.ts';
import type { StationId } from '../world/dungeon-map.ts';
import { Enemy } from '../world/Enemy.ts';
import type { FrostDoor } from '../world/FrostDoor.ts';
import type { Loot } from './loot.ts';
import type { HeroOrders } from './orders.ts';
import type { DungeonUi } from './ui.ts';

type MoveKey = 'up' | 'down' | 'left' | 'right' | 'w' | 'a' | 's' | 'd';

/**
 * The player's keys, clicks and taps, turned into what they ask: WASD or arrows move, I/H/C/F open
 * panels, Q drinks, Space swings, E uses a station; a click walks there, fights the enemy, strikes
 * the door, uses the station or takes the loot it landed on. Nothing reaches the dungeon while the
 * player types into a panel, and only the panel keys while one is open.
 */
export class DungeonInput {
  readonly #keys: Record<MoveKey, Phaser.Input.Keyboard.Key>;

  constructor(
    scene: Phaser.Scene,
    { ui, orders, loot, door }: { ui: DungeonUi; orders: HeroOrders; loot: Loot; door: FrostDoor },
  ) {
    const keyboard = scene.input.keyboard as Phaser.Input.Keyboard.KeyboardPlugin;
    // No key capture: the panels' text fields must still receive every letter.
    const key = (code: number) => keyboard.addKey(code, false);
    const K = Phaser.Input.Keyboard.KeyCodes;
    this.#keys = {
      up: key(K.UP),
      down: key(K.DOWN),
      left: key(K.LEFT),
      right: key(K.RIGHT),
      w: key(K.W),
      a: key(K.A),
      s: key(K.S),
      d: key(K.D),
    };

    const onKey = (event: KeyboardEvent) => {
      if (typing() || event.repeat) return;
      const k = event.key.toLowerCase();
      if (k === 'i') ui.toggle('inventory');
      else if (k === 'h') ui.toggle('hero');
      else if (k === 'c') ui.toggle('crafting');
      else if (k === 'f') ui.toggle('forge');
      else if (ui.panel) return;
      else if (k === 'q') ui.drinkPotion();
      else if (k === ' ') {
        event.preventDefault();
        orders.swing();
      } else if (k === 'e') orders.useNearestStation();
      else if (k.startsWith('arrow')) event.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    scene.events.once(Phaser.Scenes.Events.SHUTDOWN, () => window.removeEventListener('keydown', onKey));

    scene.input.on('pointerdown', (pointer: Phaser.Input.Pointer, over: Phaser.GameObjects.GameObject[]) => {
      if (ui.panel) return;
      const enemy = over.find((o): o is Enemy => o instanceof Enemy && o.alive && o.visible);
      if (enemy) return orders.fight(enemy);
      if (over.includes(door) && !door.open) return orders.breakDoor();
      const station = over.find((o) => o.getData('station'));
      if (station) return orders.useStation(station.getData('station') as StationId);
      loot.clicked(over);
      orders.walk(pointer.worldX, pointer.worldY);
      clickMarker(scene, pointer.worldX, pointer.worldY);
    });
  }

  /** Where the movement keys point this frame (none while the player types). */
  direction(): Phaser.Math.Vector2 {
    const direction = new Phaser.Math.Vector2();
    if (typing()) return direction;
    const k = this.#keys;
    direction.x = Number(k.right.isDown || k.d.isDown) - Number(k.left.isDown || k.a.isDown);
    direction.y = Number(k.down.isDown || k.s.isDown) - Number(k.up.isDown || k.w.isDown);
    return direction;
  }
}

/** A ring that fades where the player clicked the floor. */
function clickMarker(scene: Phaser.Scene, x: number, y: number) {
  const ring = scene.add.graphics({ x, y }).setDepth(1);
  ring.lineStyle(2, 0xf4d58d, 0.9).strokeCircle(0, 0, 8);
  scene.tweens.add({ targets: ring, scale: 1.8, alpha: 0, duration: 350, onComplete: () => ring.destroy() });
}
