import type { Item } from '@lootsmith/protocol';
import * as Phaser from 'phaser';
import { roundCorners } from './compat.ts';

/** What a custom drop sprite factory gets for each dropped item. */
export interface DropSpriteInfo {
  scene: Phaser.Scene;
  item: Item;
  /** The icon's texture key, or undefined when the item has no icon, it failed or it is pending. */
  texture: string | undefined;
  /**
   * The icon is still being painted: show a placeholder. The plugin emits `iconready` with the
   * sprite once the texture is loaded (a {@link LootSprite} swaps it in by itself).
   */
  pending?: boolean;
  /**
   * A soft disc texture: white, to be tinted with `color`, or already in `color` under a renderer that
   * cannot tint (Canvas).
   */
  glowTexture: string;
  color: number;
  x: number;
  y: number;
  size: number;
}

/**
 * A dropped item: its icon over a rarity-coloured glow, or while the icon is painted a pulsing
 * placeholder in the rarity colour. Style `icon` and `glow`, or replace the whole thing.
 */
export class LootSprite extends Phaser.GameObjects.Container {
  readonly item: Item;
  readonly glow: Phaser.GameObjects.Image;
  icon: Phaser.GameObjects.Image | undefined;
  placeholder: Phaser.GameObjects.Rectangle | undefined;
  readonly #size: number;

  constructor({ scene, item, texture, glowTexture, color, x, y, size, pending }: DropSpriteInfo) {
    super(scene, x, y);
    this.item = item;
    this.#size = size;
    this.glow = new Phaser.GameObjects.Image(scene, 0, 0, glowTexture)
      .setDisplaySize(size * 2, size * 2)
      .setTint(color)
      .setBlendMode(Phaser.BlendModes.ADD);
    this.add(this.glow);
    if (texture) this.setIconTexture(texture);
    else if (pending) {
      this.placeholder = roundCorners(
        new Phaser.GameObjects.Rectangle(scene, 0, 0, size * 0.7, size * 0.7, color, 0.45).setStrokeStyle(
          2,
          color,
          1,
        ),
        size * 0.15,
      );
      this.add(this.placeholder);
      scene.tweens?.add({
        targets: this.placeholder,
        alpha: { from: 1, to: 0.4 },
        duration: 500,
        yoyo: true,
        repeat: -1,
      });
    }
    this.setSize(size, size);
    scene.tweens?.add({ targets: this, y: { from: y - size, to: y }, duration: 600, ease: 'Bounce.easeOut' });
    scene.tweens?.add({
      targets: this.glow,
      alpha: { from: 1, to: 0.55 },
      duration: 900,
      yoyo: true,
      repeat: -1,
    });
    // The pulse repeats forever: stop it with the sprite rather than leave it tweening a dead object.
    this.once(Phaser.GameObjects.Events.DESTROY, () =>
      scene.tweens?.killTweensOf([this, this.glow, ...(this.placeholder ? [this.placeholder] : [])]),
    );
  }

  /** Whether the icon is still being painted (the placeholder shows). */
  get pending(): boolean {
    return this.placeholder !== undefined;
  }

  /** Shows the icon: replaces the placeholder, or the icon shown before. */
  setIconTexture(key: string): this {
    if (this.placeholder) {
      this.scene?.tweens?.killTweensOf(this.placeholder);
      this.placeholder.destroy();
      this.placeholder = undefined;
    }
    if (this.icon) this.icon.setTexture(key).setDisplaySize(this.#size, this.#size);
    else {
      this.icon = new Phaser.GameObjects.Image(this.scene, 0, 0, key).setDisplaySize(this.#size, this.#size);
      this.addAt(this.icon, this.getIndex(this.glow) + 1);
    }
    return this;
  }
}

/** Adds a 64×64 radial gradient in `color`: white for glows that are tinted, a rarity colour where tints are not drawn. */
export function addGlowTexture(
  textures: Phaser.Textures.TextureManager,
  key: string,
  color = 0xffffff,
): Promise<void> {
  const canvas = textures.createCanvas(key, 64, 64);
  const context = canvas?.getContext();
  if (!canvas || !context) return Promise.resolve();
  const rgb = `${(color >> 16) & 255},${(color >> 8) & 255},${color & 255}`;
  const gradient = context.createRadialGradient(32, 32, 0, 32, 32, 32);
  gradient.addColorStop(0, `rgba(${rgb},0.9)`);
  gradient.addColorStop(0.45, `rgba(${rgb},0.35)`);
  gradient.addColorStop(1, `rgba(${rgb},0)`);
  context.fillStyle = gradient;
  context.fillRect(0, 0, 64, 64);
  canvas.refresh();
  return Promise.resolve();
}
