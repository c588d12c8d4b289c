import Phaser from 'phaser';
import { isClear } from './dungeon-map.ts';
import type { EnemyKind } from './enemy-kinds.ts';

let spawned = 0;
const BOSS_REGEN_PER_SECOND = 1.5;

/** One monster: wanders near its spawn, chases the hero once provoked, flashes and falls when hit. */
export class Enemy extends Phaser.GameObjects.Container {
  /** Unique per spawn; names the loot drop so a retried drop is granted once. */
  readonly uid = `${Date.now().toString(36)}-${++spawned}`;
  readonly kind: EnemyKind;
  readonly home: { x: number; y: number };
  hp: number;
  provoked = false;
  readonly sprite: Phaser.GameObjects.Image;
  readonly #bar: Phaser.GameObjects.Graphics;
  #wander = { x: 0, y: 0, until: 0 };
  #nextAttack = 0;
  #hurtUntil = 0;

  constructor(scene: Phaser.Scene, kind: EnemyKind, x: number, y: number) {
    super(scene, x, y);
    this.kind = kind;
    this.home = { x, y };
    this.hp = kind.hp;
    const shadow = scene.add
      .image(0, kind.radius * 0.6, 'shadow')
      .setDisplaySize(kind.radius * 2.6, kind.radius);
    this.sprite = scene.add.image(0, 0, `enemy-${kind.id}`).setOrigin(0.5, 0.7);
    this.#bar = scene.add.graphics();
    this.add([shadow, this.sprite, this.#bar]);
    if (kind.boss) {
      const label = scene.add
        .text(0, -this.sprite.displayHeight * 0.7 - 18, kind.name, {
          fontFamily: 'Georgia, serif',
          fontSize: '13px',
          color: '#bfe6ff',
          stroke: '#0b0a10',
          strokeThickness: 4,
        })
        .setOrigin(0.5);
      this.add(label);
    }
    this.setSize(kind.radius * 2.4, kind.radius * 2.8);
    this.setInteractive({ useHandCursor: true });
    this.#drawBar();
    scene.tweens.add({
      targets: this.sprite,
      scaleY: { from: 1, to: kind.id === 'slime' ? 0.86 : 0.95 },
      scaleX: { from: 1, to: kind.id === 'slime' ? 1.1 : 1.02 },
      duration: 500 + Math.random() * 300,
      yoyo: true,
      repeat: -1,
      ease: 'Sine.easeInOut',
    });
    scene.add.existing(this);
  }

  get alive() {
    return this.hp > 0;
  }

  /** Takes a hit; returns true when this one killed it. */
  hit(damage: number, from: { x: number; y: number }): boolean {
    if (!this.alive) return false;
    this.hp = Math.max(0, Math.round(this.hp - damage));
    this.provoked = true;
    this.#hurtUntil = this.scene.time.now + 120;
    this.sprite.setTint(0xffffff).setTintMode(Phaser.TintModes.FILL);
    this.scene.time.delayedCall(90, () => this.sprite.setTintMode(Phaser.TintModes.MULTIPLY).clearTint());
    const away = new Phaser.Math.Vector2(this.x - from.x, this.y - from.y).normalize().scale(8);
    if (isClear(this.x + away.x, this.y + away.y, this.kind.radius * 0.6)) {
      this.scene.tweens.add({ targets: this, x: this.x + away.x, y: this.y + away.y, duration: 90 });
    }
    this.#drawBar();
    return this.hp === 0;
  }

  /** Moves for one frame; returns the damage dealt to the hero this frame (0 mostly). */
  step(time: number, delta: number, hero: { x: number; y: number; radius: number }): number {
    if (!this.alive || time < this.#hurtUntil) return 0;
    const toHero = Phaser.Math.Distance.Between(this.x, this.y, hero.x, hero.y);
    const fromHome = Phaser.Math.Distance.Between(this.x, this.y, this.home.x, this.home.y);
    if (!this.provoked && toHero < 70 && this.kind.id !== 'slime') this.provoked = true;
    if (this.provoked && fromHome > 300) this.provoked = false;
    const reach = this.kind.radius + hero.radius + 6;
    if (this.provoked && toHero <= reach) {
      if (time < this.#nextAttack) return 0;
      this.#nextAttack = time + this.kind.attackEvery;
      this.scene.tweens.add({ targets: this.sprite, y: { from: 0, to: -6 }, duration: 90, yoyo: true });
      const [min, max] = this.kind.damage;
      return Phaser.Math.Between(min, max);
    }
    // A boss left alone gets its breath back: bare fists cannot wear it down one knock-out at a time.
    if (this.kind.boss && !this.provoked && this.hp < this.kind.hp) {
      this.hp = Math.min(this.kind.hp, this.hp + (BOSS_REGEN_PER_SECOND * delta) / 1000);
      this.#drawBar();
    }
    let target: { x: number; y: number } = this.provoked ? hero : this.#wanderTarget(time);
    if (!this.provoked && fromHome > 80) target = this.home;
    const speed = (this.provoked ? this.kind.speed : this.kind.speed * 0.35) * (delta / 1000);
    const angle = Phaser.Math.Angle.Between(this.x, this.y, target.x, target.y);
    const dx = Math.cos(angle) * speed;
    const dy = Math.sin(angle) * speed;
    const r = this.kind.radius * 0.6;
    if (Phaser.Math.Distance.Between(this.x, this.y, target.x, target.y) > 4) {
      if (isClear(this.x + dx, this.y, r)) this.x += dx;
      if (isClear(this.x, this.y + dy, r)) this.y += dy;
      this.sprite.setFlipX(dx < 0);
    }
    this.setDepth(this.y);
    return 0;
  }

  #wanderTarget(time: number) {
    if (time > this.#wander.until) {
      const angle = Math.random() * Math.PI * 2;
      const distance = Math.random() * 50;
      this.#wander = {
        x: this.home.x + Math.cos(angle) * distance,
        y: this.home.y + Math.sin(angle) * distance,
        until: time + 1500 + Math.random() * 2500,
      };
    }
    return this.#wander;
  }

  #drawBar() {
    const width = Math.max(28, this.kind.radius * 2);
    const y = -this.sprite.displayHeight * 0.7 - 6;
    this.#bar.clear();
    if (this.hp === this.kind.hp && !this.kind.boss) return;
    this.#bar.fillStyle(0x0b0a10, 0.85).fillRect(-width / 2 - 1, y - 1, width + 2, 6);
    this.#bar.fillStyle(0x5a1a1a).fillRect(-width / 2, y, width, 4);
    this.#bar
      .fillStyle(this.kind.boss ? 0x7fd3ff : 0xe5484d)
      .fillRect(-width / 2, y, (width * this.hp) / this.kind.hp, 4);
  }
}
