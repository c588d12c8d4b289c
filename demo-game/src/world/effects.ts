import Phaser from 'phaser';

/** A number that pops up and floats away: damage dealt (white/gold) or taken (red). */
export function floatingNumber(
  scene: Phaser.Scene,
  x: number,
  y: number,
  text: string,
  color: string,
  big = false,
) {
  const label = scene.add
    .text(x + Phaser.Math.Between(-8, 8), y, text, {
      fontFamily: 'Georgia, serif',
      fontSize: big ? '22px' : '16px',
      fontStyle: 'bold',
      color,
      stroke: '#0b0a10',
      strokeThickness: 4,
    })
    .setOrigin(0.5)
    .setDepth(20_000);
  scene.tweens.add({
    targets: label,
    y: y - 36,
    alpha: { from: 1, to: 0 },
    scale: { from: big ? 1.4 : 1.1, to: 0.9 },
    duration: 800,
    ease: 'Cubic.easeOut',
    onComplete: () => label.destroy(),
  });
}

/** A burst of coloured sparks, for a death or a pick-up. */
export function sparkBurst(scene: Phaser.Scene, x: number, y: number, color: number, count = 14) {
  const emitter = scene.add
    .particles(x, y, 'spark', {
      speed: { min: 40, max: 140 },
      lifespan: 600,
      scale: { start: 1.4, end: 0 },
      alpha: { start: 1, end: 0 },
      tint: color,
      emitting: false,
    })
    .setDepth(20_000);
  emitter.explode(count);
  scene.time.delayedCall(800, () => emitter.destroy());
}
