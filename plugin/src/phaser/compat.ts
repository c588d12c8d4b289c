import * as Phaser from 'phaser';

// What differs between the Phaser versions the plugin supports (3.80+ and 4.0+), in one place. The
// namespace import is itself one: Phaser 3's ESM build has no default export.

/** Only the WebGL renderer draws tints; the Canvas renderer (Phaser 3's, 4's deprecated one) ignores them. */
export const canTint = (game: Phaser.Game): boolean => game.renderer?.type === Phaser.WEBGL;

/**
 * Rounded corners where the Rectangle has them (Phaser 3.90+ and 4): square on 3.80, and on 4.0.0,
 * whose WebGL renderer throws drawing a rounded one (fixed in 4.1.0).
 */
export function roundCorners<R extends Phaser.GameObjects.Rectangle>(rect: R, radius: number): R {
  if (Phaser.VERSION !== '4.0.0') (rect as { setRounded?: (radius: number) => unknown }).setRounded?.(radius);
  return rect;
}

/**
 * A position on whole pixels. Phaser 3.80 rounds every texture's position by default, 3.90 and 4 do not
 * (`roundPixels: false`), and Phaser 4 rounds only unscaled objects even when asked: a drop that comes
 * to rest on a whole pixel shows its pixel-art icon crisp under all of them.
 */
export const wholePixel = (n: number): number => Math.round(n);
