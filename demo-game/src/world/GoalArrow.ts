import Phaser from 'phaser';

/** How far from the hero the arrow floats, and how near the goal it hides, in pixels. */
const RING = 34;
const HIDE_WITHIN = 110;

/** A gold arrow beside the hero, pointing at where the goal line's next step happens. */
export class GoalArrow extends Phaser.GameObjects.Graphics {
  constructor(scene: Phaser.Scene) {
    super(scene);
    this.fillStyle(0xf4d58d, 0.95).fillTriangle(10, 0, -6, -8, -6, 8);
    this.lineStyle(2, 0x0b0a10, 0.9).strokeTriangle(10, 0, -6, -8, -6, 8);
    this.setDepth(25_000).setVisible(false);
    scene.tweens.add({ targets: this, alpha: { from: 1, to: 0.45 }, duration: 600, yoyo: true, repeat: -1 });
    scene.add.existing(this);
  }

  /** Points from the hero at the target; hidden without one, or once the hero is near it. */
  point(hero: { x: number; y: number }, target: { x: number; y: number } | undefined) {
    const near = !target || Phaser.Math.Distance.BetweenPoints(hero, target) < HIDE_WITHIN;
    this.setVisible(!near);
    if (near) return;
    const angle = Phaser.Math.Angle.BetweenPoints(hero, target);
    this.setPosition(hero.x + Math.cos(angle) * RING, hero.y - 8 + Math.sin(angle) * RING).setRotation(angle);
  }
}
