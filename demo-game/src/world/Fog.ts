import type Phaser from 'phaser';
import { AREAS, areaOfTile, isFloorTile, MAP_COLS, MAP_ROWS, TILE } from './dungeon-map.ts';

const DARK = 0x0b0a10;
const ABOVE_EVERYTHING_IN_THE_WORLD = 25_000;

/**
 * Darkness over the parts of the dungeon the hero has not entered: an area lights up (with its
 * walls) the first time the hero steps into it.
 */
export class Fog {
  readonly revealed = new Set<string>();
  readonly #scene: Phaser.Scene;
  readonly #layer: Phaser.GameObjects.Graphics;

  constructor(scene: Phaser.Scene) {
    this.#scene = scene;
    this.#layer = scene.add.graphics().setDepth(ABOVE_EVERYTHING_IN_THE_WORLD);
    this.#paint(this.#layer, (tx, ty) => !this.#visible(tx, ty));
  }

  isRevealed(areaId: string | undefined) {
    return areaId !== undefined && this.revealed.has(areaId);
  }

  /** Lights an area; true when it was dark until now. */
  reveal(areaId: string): boolean {
    if (this.revealed.has(areaId) || !AREAS.some((a) => a.id === areaId)) return false;
    const wasVisible = (tx: number, ty: number) => this.#visible(tx, ty);
    const before = new Set<number>();
    for (let ty = 0; ty < MAP_ROWS; ty++)
      for (let tx = 0; tx < MAP_COLS; tx++) if (wasVisible(tx, ty)) before.add(ty * MAP_COLS + tx);
    this.revealed.add(areaId);
    this.#layer.clear();
    this.#paint(this.#layer, (tx, ty) => !this.#visible(tx, ty));
    // What just came into view fades in rather than popping.
    const fading = this.#scene.add.graphics().setDepth(ABOVE_EVERYTHING_IN_THE_WORLD);
    this.#paint(fading, (tx, ty) => this.#visible(tx, ty) && !before.has(ty * MAP_COLS + tx));
    this.#scene.tweens.add({
      targets: fading,
      alpha: 0,
      duration: 700,
      ease: 'Sine.easeOut',
      onComplete: () => fading.destroy(),
    });
    return true;
  }

  /** A tile shows once it, or a floor tile next to it, belongs to a revealed area. */
  #visible(tx: number, ty: number): boolean {
    for (let dy = -1; dy <= 1; dy++)
      for (let dx = -1; dx <= 1; dx++) {
        const x = tx + dx;
        const y = ty + dy;
        if (!isFloorTile(x, y) && !(dx === 0 && dy === 0)) continue;
        if (this.isRevealed(areaOfTile(x, y)?.id)) return true;
      }
    return false;
  }

  /** Fills the tiles that `dark` picks, a row's neighbouring tiles as one rectangle. */
  #paint(g: Phaser.GameObjects.Graphics, dark: (tx: number, ty: number) => boolean) {
    g.fillStyle(DARK, 1);
    for (let ty = 0; ty < MAP_ROWS; ty++) {
      let start = -1;
      for (let tx = 0; tx <= MAP_COLS; tx++) {
        const isDark = tx < MAP_COLS && dark(tx, ty);
        if (isDark && start < 0) start = tx;
        if (!isDark && start >= 0) {
          g.fillRect(start * TILE, ty * TILE, (tx - start) * TILE, TILE);
          start = -1;
        }
      }
    }
  }
}
