import { type Item, RARITY_COLORS } from '@lootsmith/plugin';
import Phaser from 'phaser';
import { BEHIND_HERO, GEAR_SPRITES } from '../art/gear.ts';
import { type HeroEffects, heroEffects } from '../hero-effects.ts';
import { BASE, type HeroStats, heroStats } from '../hero-stats.ts';
import { isClear } from './dungeon-map.ts';

/** How a worn item looks: its icon's texture key once loaded, and its colour. */
export interface GearLook {
  icon?: string;
  color?: number;
}

/**
 * Slots whose item is drawn as its own icon, held where the hero holds it (x, y, size and angle in
 * the figure's pixels); other slots are a shape of the slot in the item's colour.
 */
const HELD: Record<string, { x: number; y: number; size: number; angle: number }> = {
  WEAPON: { x: 13, y: -9, size: 22, angle: 0 },
  SHIELD: { x: -13, y: -5, size: 16, angle: 0 },
};

/** The player's knight: walks by keys or along a clicked path, swings at enemies, takes hits, wears gear. */
export class Hero extends Phaser.GameObjects.Container {
  readonly radius = 10;
  stats: HeroStats = heroStats({});
  /** What the worn items' effects add up to. */
  effects: HeroEffects = heroEffects([]);
  hp = BASE.health;
  /** Whether the hero moved in the last frame. */
  moving = false;
  readonly sprite: Phaser.GameObjects.Image;
  /** The figure and its gear: flipped and bobbed together. */
  readonly #body: Phaser.GameObjects.Container;
  readonly #gear = new Map<string, Phaser.GameObjects.Image>();
  readonly #held = new Map<string, Phaser.GameObjects.Image>();
  #path: Array<{ x: number; y: number }> = [];
  #walk: Phaser.Tweens.Tween;

  constructor(scene: Phaser.Scene, x: number, y: number) {
    super(scene, x, y);
    const shadow = scene.add.image(0, 11, 'shadow').setDisplaySize(28, 10);
    this.sprite = scene.add.image(0, 0, 'hero').setOrigin(0.5, 0.72);
    this.#body = scene.add.container(0, 0, [this.sprite]);
    for (const slot of Object.keys(GEAR_SPRITES)) {
      const image = scene.add.image(0, 0, `gear-${slot}`).setOrigin(0.5, 0.72).setVisible(false);
      if (BEHIND_HERO.has(slot)) this.#body.addAt(image, 0);
      else this.#body.add(image);
      this.#gear.set(slot, image);
    }
    for (const [slot, at] of Object.entries(HELD)) {
      const image = scene.add.image(at.x, at.y, '__DEFAULT').setAngle(at.angle).setVisible(false);
      this.#body.add(image);
      this.#held.set(slot, image);
    }
    this.add([shadow, this.#body]);
    this.#walk = scene.tweens.add({
      targets: this.#body,
      y: { from: 0, to: -2 },
      duration: 140,
      yoyo: true,
      repeat: -1,
      paused: true,
    });
    scene.add.existing(this);
  }

  get maxHp() {
    return this.stats.maxHp;
  }

  get walking() {
    return this.#path.length > 0;
  }

  get facingLeft() {
    return this.#body.scaleX < 0;
  }

  /** New stats from what is worn; a bigger health bar adds its extra, a smaller one caps the health. */
  setStats(stats: HeroStats) {
    const gained = Math.max(0, stats.maxHp - this.stats.maxHp);
    this.stats = stats;
    this.hp = Math.min(stats.maxHp, this.hp + gained);
  }

  /**
   * Shows the items worn: a weapon or shield as its own icon in hand (the slot's shape until the icon
   * has loaded), other gear as the slot's shape in the item's colour (its rarity's, lacking one).
   * Nothing worn shows nothing: bare hands hold no sword.
   */
  wear(worn: ReadonlyArray<{ slot: string; item: Item | null }>, look: (item: Item) => GearLook) {
    for (const [slot, image] of this.#gear) {
      const item = worn.find((w) => w.slot === slot)?.item;
      const seen = item ? look(item) : {};
      const held = this.#held.get(slot);
      const asIcon = Boolean(item && held && seen.icon);
      if (held && seen.icon && asIcon) {
        const size = HELD[slot]?.size ?? 16;
        held.setTexture(seen.icon).setDisplaySize(size, size);
      }
      held?.setVisible(asIcon);
      image.setVisible(Boolean(item) && !asIcon);
      if (item) image.setTint(seen.color ?? RARITY_COLORS[item.rarity] ?? 0xffffff);
    }
  }

  /** What the hero shows for each worn slot: 'icon' (the item's own picture), 'shape' or nothing. */
  get shown(): Record<string, 'icon' | 'shape'> {
    const out: Record<string, 'icon' | 'shape'> = {};
    for (const [slot, image] of this.#gear) {
      if (this.#held.get(slot)?.visible) out[slot] = 'icon';
      else if (image.visible) out[slot] = 'shape';
    }
    return out;
  }

  /** Follows these waypoints (replacing any earlier path). */
  follow(path: Array<{ x: number; y: number }>) {
    this.#path = path;
  }

  stop() {
    this.#path = [];
  }

  /** Moves for one frame, by keyboard direction if any, else along the path. */
  step(delta: number, direction: Phaser.Math.Vector2) {
    const distance = this.stats.speed * (delta / 1000);
    let move = new Phaser.Math.Vector2();
    if (direction.lengthSq() > 0) {
      this.#path = [];
      move = direction.clone().normalize().scale(distance);
    } else if (this.#path[0]) {
      const next = this.#path[0];
      const to = new Phaser.Math.Vector2(next.x - this.x, next.y - this.y);
      if (to.length() <= distance) {
        move = to;
        this.#path.shift();
      } else move = to.normalize().scale(distance);
    }
    const moved = move.lengthSq() > 0.01;
    this.moving = moved;
    if (moved) {
      if (isClear(this.x + move.x, this.y, this.radius)) this.x += move.x;
      if (isClear(this.x, this.y + move.y, this.radius)) this.y += move.y;
      if (Math.abs(move.x) > 0.1) this.#face(move.x < 0);
    }
    if (moved && this.#walk.isPaused()) this.#walk.resume();
    if (!moved && !this.#walk.isPaused()) {
      this.#walk.pause();
      this.#body.y = 0;
    }
    this.setDepth(this.y);
  }

  /** The sword swing toward a point: an arc that flashes and fades. */
  swing(toward: { x: number; y: number }) {
    const angle = Phaser.Math.Angle.Between(this.x, this.y, toward.x, toward.y);
    this.#face(Math.cos(angle) < 0);
    const slash = this.scene.add.graphics({ x: this.x, y: this.y - 8 }).setDepth(10_000);
    slash
      .lineStyle(4, 0xffffff, 0.95)
      .beginPath()
      .arc(0, 0, 24, angle - 1, angle + 1)
      .strokePath();
    slash
      .lineStyle(2, 0x9fd3ff, 0.8)
      .beginPath()
      .arc(0, 0, 30, angle - 0.8, angle + 0.8)
      .strokePath();
    this.scene.tweens.add({
      targets: slash,
      alpha: 0,
      scale: 1.25,
      duration: 180,
      onComplete: () => slash.destroy(),
    });
  }

  hurt(damage: number) {
    this.hp = Math.max(0, this.hp - damage);
    this.sprite.setTint(0xff5555);
    this.scene.time.delayedCall(120, () => this.sprite.clearTint());
  }

  heal(amount: number) {
    this.hp = Math.min(this.maxHp, this.hp + amount);
  }

  #face(left: boolean) {
    this.#body.scaleX = left ? -1 : 1;
  }
}
