import type Phaser from 'phaser';
import { ENEMY_SPAWNS, TILE } from '../world/dungeon-map.ts';
import { Enemy, type EnemyBlow } from '../world/Enemy.ts';
import { ENEMY_KINDS } from '../world/enemy-kinds.ts';
import type { Hero } from '../world/Hero.ts';

/**
 * The dungeon's monsters: each at its spawn, asleep and unseen until the hero has seen its room,
 * and back at its spawn some time after it falls (all but the boss).
 */
export class Monsters {
  readonly #scene: Phaser.Scene;
  readonly #awake: (enemy: Enemy) => boolean;
  #all: Enemy[] = [];

  constructor(scene: Phaser.Scene, awake: (enemy: Enemy) => boolean) {
    this.#scene = scene;
    this.#awake = awake;
    for (const spawn of ENEMY_SPAWNS) this.#spawn(spawn.kind, spawn.x * TILE, spawn.y * TILE);
  }

  get all(): readonly Enemy[] {
    return this.#all;
  }

  /** Moves every awake monster for a frame; `hits` hears each blow one lands on the hero. */
  step(time: number, delta: number, hero: Hero, hits: (enemy: Enemy, blow: EnemyBlow) => void) {
    for (const enemy of [...this.#all]) {
      const awake = this.#awake(enemy);
      enemy.setVisible(awake);
      if (!awake) continue;
      const blow = enemy.step(time, delta, hero);
      if (blow.damage || blow.stomp) hits(enemy, blow);
    }
  }

  /** Every monster forgets the hero (who was knocked out); a boss left alone gets its breath back. */
  calm() {
    for (const enemy of this.#all) enemy.calm();
  }

  /** A fallen monster fades away; its kind comes back later at the same spawn. */
  remove(enemy: Enemy) {
    this.#scene.tweens.add({
      targets: enemy,
      alpha: 0,
      scale: 0.3,
      angle: 25,
      duration: 350,
      onComplete: () => enemy.destroy(),
    });
    this.#all = this.#all.filter((e) => e !== enemy);
    const { kind, home } = enemy;
    if (kind.respawn)
      this.#scene.time.delayedCall(kind.respawn * 1000, () => this.#spawn(kind.id, home.x, home.y));
  }

  #spawn(kind: keyof typeof ENEMY_KINDS, x: number, y: number) {
    const enemy = new Enemy(this.#scene, ENEMY_KINDS[kind], x, y);
    enemy.setAlpha(0);
    this.#scene.tweens.add({ targets: enemy, alpha: 1, duration: 500 });
    this.#all.push(enemy);
  }
}
