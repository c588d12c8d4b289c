import { type Item, type LootSprite, RARITY_COLORS } from '@lootsmith/plugin';
import Phaser from 'phaser';
import { isClear } from './dungeon-map.ts';
import { sparkBurst } from './effects.ts';

const PICKUP_RADIUS = 26;
/** The hero's own radius: loot lies where the hero can stand. */
const HERO_RADIUS = 10;
/** Loot cannot be taken until it has bounced to a stop. */
const LANDING_MS = 700;
const SHINY = new Set(['RARE', 'EPIC', 'LEGENDARY', 'MYTHIC']);

/** Loot on the floor: a swirl while it generates, then glowing items that the hero walks over to take. */
export class LootLayer {
  readonly #scene: Phaser.Scene;
  readonly #ground = new Set<LootSprite>();

  constructor(scene: Phaser.Scene) {
    this.#scene = scene;
  }

  get onGround(): LootSprite[] {
    return [...this.#ground];
  }

  /** The swirl shown where loot is being generated; destroy it when the loot arrives. */
  summoning(x: number, y: number): Phaser.GameObjects.Container {
    const scene = this.#scene;
    const glow = scene.add
      .image(0, 0, 'light')
      .setDisplaySize(64, 64)
      .setTint(0xb983ff)
      .setBlendMode(Phaser.BlendModes.ADD);
    const ring = scene.add.graphics();
    ring
      .lineStyle(2, 0xe9d5ff, 0.9)
      .beginPath()
      .arc(0, 0, 14, 0, Math.PI * 1.4)
      .strokePath();
    const swirl = scene.add.container(x, y, [glow, ring]).setDepth(y);
    scene.tweens.add({ targets: ring, angle: 360, duration: 700, repeat: -1 });
    scene.tweens.add({ targets: glow, alpha: { from: 0.5, to: 1 }, duration: 400, yoyo: true, repeat: -1 });
    return swirl;
  }

  /**
   * Dresses the plugin's drop sprites: a name label, a beam for rare ones, and a click target. Several
   * items fan out around the spot, their names showing on hover so they do not overlap.
   */
  place(sprites: LootSprite[]) {
    const scene = this.#scene;
    const centre = sprites.length ? sprites.reduce((x, s) => x + s.x, 0) / sprites.length : 0;
    sprites.forEach((sprite, i) => {
      const color = RARITY_COLORS[sprite.item.rarity] ?? RARITY_COLORS.COMMON;
      if (SHINY.has(sprite.item.rarity)) {
        const beam = scene.add
          .image(0, -30, 'light')
          .setDisplaySize(18, 90)
          .setTint(color)
          .setBlendMode(Phaser.BlendModes.ADD)
          .setAlpha(0.7);
        sprite.addAt(beam, 0);
        scene.tweens.add({
          targets: beam,
          alpha: { from: 0.35, to: 0.8 },
          duration: 700,
          yoyo: true,
          repeat: -1,
        });
      }
      const label = scene.add
        .text(0, 22, sprite.item.name, {
          fontFamily: 'Georgia, serif',
          fontSize: '11px',
          color: `#${color.toString(16).padStart(6, '0')}`,
          stroke: '#0b0a10',
          strokeThickness: 3,
        })
        .setOrigin(0.5, 0)
        .setVisible(sprites.length === 1);
      sprite.add(label);
      sprite.setInteractive({ useHandCursor: true }).setData('landsAt', scene.time.now + LANDING_MS);
      if (sprites.length > 1) {
        sprite.on('pointerover', () => label.setVisible(true).setDepth(1));
        sprite.on('pointerout', () => label.setVisible(false));
        const angle = -Math.PI / 2 + (i * Math.PI * 2) / sprites.length;
        const y = sprite.y;
        // Fanned out on the floor only: loot thrown into a wall could never be walked over.
        const [dx, dy] = [1, 0.5]
          .map((k) => [Math.cos(angle) * 44 * k, Math.sin(angle) * 34 * k] as const)
          .find(([dx, dy]) => isClear(centre + dx, y + dy, HERO_RADIUS)) ?? [0, 0];
        scene.tweens.killTweensOf(sprite);
        sprite.setPosition(centre, y - 20);
        scene.tweens.add({
          targets: sprite,
          x: centre + dx,
          y: y + dy,
          duration: 500,
          ease: 'Back.easeOut',
        });
      }
      sprite.setDepth(sprite.y - 1);
      sparkBurst(scene, sprite.x, sprite.y, color, 10);
      this.#ground.add(sprite);
    });
  }

  /** A pending icon was swapped in: a small flourish where the item lies, if it is still there. */
  iconArrived(sprite: LootSprite) {
    if (!this.#ground.has(sprite)) return;
    sparkBurst(this.#scene, sprite.x, sprite.y, RARITY_COLORS[sprite.item.rarity] ?? 0xffffff, 8);
  }

  /**
   * Items the hero walks onto, taken off the floor with a flourish toward the bag. Standing still
   * takes nothing, so loot that lands at the hero's feet stays until the player goes for it: walks
   * onto it, or clicks it.
   */
  pickUp(
    hero: { x: number; y: number; moving: boolean },
    bag: { x: number; y: number },
    /** Loot the player clicked: taken within reach even when the hero stands still on it. */
    clicked?: LootSprite,
  ): Item[] {
    const taken: Item[] = [];
    for (const sprite of this.#ground) {
      if (!hero.moving && sprite !== clicked) continue;
      if (this.#scene.time.now < (sprite.getData('landsAt') as number)) continue;
      if (Phaser.Math.Distance.Between(hero.x, hero.y, sprite.x, sprite.y) > PICKUP_RADIUS) continue;
      this.#ground.delete(sprite);
      taken.push(sprite.item);
      sprite.disableInteractive();
      sparkBurst(this.#scene, sprite.x, sprite.y, RARITY_COLORS[sprite.item.rarity] ?? 0xffffff, 16);
      this.#scene.tweens.killTweensOf(sprite);
      this.#scene.tweens.add({
        targets: sprite,
        x: bag.x,
        y: bag.y,
        scale: 0.4,
        alpha: 0.2,
        duration: 550,
        ease: 'Cubic.easeIn',
        onComplete: () => sprite.destroy(),
      });
    }
    return taken;
  }
}
