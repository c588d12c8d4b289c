import type { Item } from '@lootsmith/protocol';
import Phaser from 'phaser';

/** What a custom drop sprite factory gets for each dropped item. */
export interface DropSpriteInfo {
  scene: Phaser.Scene;
  item: Item;
  /** The icon's texture key, or undefined when the item has no icon or it failed to load. */
  texture: string | undefined;
  /** A soft white disc texture, meant to be tinted with `color`. */
  glowTexture: string;
  color: number;
  x: number;
  y: number;
  size: number;
}

/** A dropped item: its icon over a rarity-coloured glow. Style `icon` and `glow`, or replace the whole thing. */
export class LootSprite extends Phaser.GameObjects.Container {
  readonly item: Item;
  readonly glow: Phaser.GameObjects.Image;
  readonly icon: Phaser.GameObjects.Image | undefined;

  constructor({ scene, item, texture, glowTexture, color, x, y, size }: DropSpriteInfo) {
    super(scene, x, y);
    this.item = item;
    this.glow = new Phaser.GameObjects.Image(scene, 0, 0, glowTexture)
      .setDisplaySize(size * 2, size * 2)
      .setTint(color)
      .setBlendMode(Phaser.BlendModes.ADD);
    this.add(this.glow);
    if (texture) {
      this.icon = new Phaser.GameObjects.Image(scene, 0, 0, texture).setDisplaySize(size, size);
      this.add(this.icon);
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
    this.once(Phaser.GameObjects.Events.DESTROY, () => scene.tweens?.killTweensOf([this, this.glow]));
  }
}

/** Adds the 64×64 radial gradient every glow is tinted from. */
export function addGlowTexture(textures: Phaser.Textures.TextureManager, key: string): Promise<void> {
  const canvas = textures.createCanvas(key, 64, 64);
  const context = canvas?.getContext();
  if (!canvas || !context) return Promise.resolve();
  const gradient = context.createRadialGradient(32, 32, 0, 32, 32, 32);
  gradient.addColorStop(0, 'rgba(255,255,255,0.9)');
  gradient.addColorStop(0.45, 'rgba(255,255,255,0.35)');
  gradient.addColorStop(1, 'rgba(255,255,255,0)');
  context.fillStyle = gradient;
  context.fillRect(0, 0, 64, 64);
  canvas.refresh();
  return Promise.resolve();
}
