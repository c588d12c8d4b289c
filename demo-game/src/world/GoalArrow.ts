import Phaser from 'phaser';

/** How far from the hero the arrow floats, and how near the goal it hides, in pixels. */
const RING = 38;
const HIDE_WITHIN = 110;

/** A gold arrow beside the hero, pointing at where the goal line's next step happens. */
export class GoalArrow extends Phaser.GameObjects.Graphics {
  constructor(scene: Phaser.Scene) {
    super(scene);
    this.fillStyle(0xffd166, 1).fillTriangle(13, 0, -8, -10, -8, 10);
    this.lineStyle(3, 0x0b0a10, 1).strokeTriangle(13, 0, -8, -10, -8, 10);
    this.setDepth(25_000).setVisible(false);
    scene.tweens.add({ targets: this, alpha: { from: 1, to: 0.7 }, duration: 600, yoyo: true, repeat: -1 });
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
