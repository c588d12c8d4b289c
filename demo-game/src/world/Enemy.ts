import Phaser from 'phaser';
import { isClear } from './dungeon-map.ts';
import type { EnemyKind } from './enemy-kinds.ts';

let spawned = 0;
const BOSS_REGEN_PER_SECOND = 4;
const CHILLED = 0x8fd8ff;
const BURNING = 0xff9a4d;

/** What one frame of a monster did to the hero: its blow (0 mostly), and whether it was a stomp. */
export interface EnemyBlow {
  damage: number;
  stomp: boolean;
}

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
  /** A mark per effect on it, left of its health bar: read on any monster, whatever its colour. */
  readonly #marks: { chill: Phaser.GameObjects.Text; burn: Phaser.GameObjects.Text };
  #wander = { x: 0, y: 0, until: 0 };
  #nextAttack = 0;
  #hurtUntil = 0;
  /** Frost slow: moves and strikes at `1 - percent/100` of its pace until then. */
  #chill = { percent: 0, until: 0 };
  /** Burn: `damage` each second until then. */
  #burn = { damage: 0, until: 0, next: 0 };
  /** The boss's stomp: when the next one starts, and when the one being wound up lands. */
  #nextStomp = 0;
  #stompLands = 0;
  #stompRing: Phaser.GameObjects.Graphics | undefined;

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
    const mark = (glyph: string, color: string) =>
      scene.add
        .text(0, 0, glyph, { fontFamily: 'DejaVu Sans, sans-serif', fontSize: '13px', color })
        .setStroke('#0b0a10', 4)
        .setOrigin(0.5)
        .setVisible(false);
    this.#marks = { chill: mark('❄', '#bfe6ff'), burn: mark('✹', '#ffb347') };
    const top = -this.sprite.displayHeight * 0.7 - 4;
    const left = -Math.max(28, kind.radius * 2) / 2 - 9;
    this.#marks.chill.setPosition(left, top);
    this.#marks.burn.setPosition(left - 14, top);
    this.add([shadow, this.sprite, this.#bar, this.#marks.chill, this.#marks.burn]);
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

  /** The per cent it is slowed by now (0 when not chilled). */
  get slowedBy(): number {
    return this.scene.time.now < this.#chill.until ? this.#chill.percent : 0;
  }

  get burning(): boolean {
    return this.scene.time.now < this.#burn.until;
  }

  /** Whether a stomp is being wound up (the ring on the floor shows where it lands). */
  get stompComing(): boolean {
    return this.#stompLands > 0;
  }

  /** Pixels per second while chasing, after any slow. */
  get speed(): number {
    return this.kind.speed * (1 - this.slowedBy / 100);
  }

  /** Slows it by `percent` for `seconds` (a stronger or longer chill replaces a weaker one). */
  chill(percent: number, seconds: number) {
    const until = this.scene.time.now + seconds * 1000;
    if (percent >= this.slowedBy) this.#chill = { percent, until: Math.max(until, this.#chill.until) };
    this.#tintStatus();
  }

  /** Sets it burning: `damage` each second for `seconds` (a new burn replaces the old). */
  ignite(damage: number, seconds: number) {
    const now = this.scene.time.now;
    this.#burn = { damage, until: now + seconds * 1000, next: this.burning ? this.#burn.next : now + 1000 };
    this.#tintStatus();
  }

  /** The burn's damage if a tick falls due now (0 mostly). */
  burnTick(time: number): number {
    if (!this.alive || this.#burn.damage <= 0 || time < this.#burn.next || time > this.#burn.until + 50)
      return 0;
    this.#burn.next += 1000;
    return this.#burn.damage;
  }

  /** Damage that is not a blow (a burn, thorns): no flinch; returns true when it killed. */
  wound(damage: number): boolean {
    if (!this.alive) return false;
    this.hp = Math.max(0, Math.round(this.hp - damage));
    this.provoked = true;
    this.#drawBar();
    return this.hp === 0;
  }

  /** The hero is gone (knocked out): any stomp being wound up is called off. */
  calm() {
    this.provoked = false;
    this.#endStomp();
    this.sprite.y = 0;
  }

  /** Takes a hit; returns true when this one killed it. */
  hit(damage: number, from: { x: number; y: number }): boolean {
    if (!this.alive) return false;
    this.hp = Math.max(0, Math.round(this.hp - damage));
    this.provoked = true;
    this.#hurtUntil = this.scene.time.now + 120;
    this.sprite.setTint(0xffffff).setTintMode(Phaser.TintModes.FILL);
    this.scene.time.delayedCall(90, () => {
      this.sprite.setTintMode(Phaser.TintModes.MULTIPLY);
      this.#tintStatus();
    });
    const away = new Phaser.Math.Vector2(this.x - from.x, this.y - from.y).normalize().scale(8);
    if (isClear(this.x + away.x, this.y + away.y, this.kind.radius * 0.6)) {
      this.scene.tweens.add({ targets: this, x: this.x + away.x, y: this.y + away.y, duration: 90 });
    }
    this.#drawBar();
    return this.hp === 0;
  }

  /** Moves for one frame; returns what it did to the hero this frame (no damage mostly). */
  step(time: number, delta: number, hero: { x: number; y: number; radius: number }): EnemyBlow {
    const none = { damage: 0, stomp: false };
    if (!this.alive) return none;
    const toHero = Phaser.Math.Distance.Between(this.x, this.y, hero.x, hero.y);
    if (this.#stompLands) return time < this.#stompLands ? none : this.#landStomp(toHero);
    if (time < this.#hurtUntil) return none;
    this.#tintStatus();
    const fromHome = Phaser.Math.Distance.Between(this.x, this.y, this.home.x, this.home.y);
    if (!this.provoked && toHero < 70 && this.kind.id !== 'slime') this.provoked = true;
    if (this.provoked && fromHome > 300) this.provoked = false;
    const { stomp } = this.kind;
    if (stomp && this.provoked && toHero <= stomp.radius) {
      if (!this.#nextStomp) this.#nextStomp = time + stomp.every;
      else if (time >= this.#nextStomp) {
        this.#windUpStomp(time);
        return none;
      }
    }
    const reach = this.kind.radius + hero.radius + 6;
    const pace = 1 - this.slowedBy / 100;
    if (this.provoked && toHero <= reach) {
      if (time < this.#nextAttack) return none;
      this.#nextAttack = time + this.kind.attackEvery / pace;
      this.scene.tweens.add({ targets: this.sprite, y: { from: 0, to: -6 }, duration: 90, yoyo: true });
      const [min, max] = this.kind.damage;
      return { damage: Phaser.Math.Between(min, max), stomp: false };
    }
    // A boss left alone gets its breath back: bare fists cannot wear it down one knock-out at a time.
    if (this.kind.boss && !this.provoked && this.hp < this.kind.hp) {
      this.hp = Math.min(this.kind.hp, this.hp + (BOSS_REGEN_PER_SECOND * delta) / 1000);
      this.#drawBar();
    }
    let target: { x: number; y: number } = this.provoked ? hero : this.#wanderTarget(time);
    if (!this.provoked && fromHome > 80) target = this.home;
    const speed = (this.provoked ? this.speed : this.speed * 0.35) * (delta / 1000);
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
    return none;
  }

  override destroy(fromScene?: boolean) {
    this.#stompRing?.destroy();
    super.destroy(fromScene);
  }

  /** The stomp is coming: the giant rears up and a ring on the floor shows where it will land. */
  #windUpStomp(time: number) {
    const stomp = this.kind.stomp;
    if (!stomp) return;
    this.#stompLands = time + stomp.windup;
    const ring = this.scene.add.graphics({ x: this.x, y: this.y }).setDepth(this.y - 1);
    ring.fillStyle(0x9ff6ff, 0.12).fillCircle(0, 0, stomp.radius);
    ring.lineStyle(3, 0xbfe6ff, 0.9).strokeCircle(0, 0, stomp.radius);
    this.#stompRing = ring;
    this.scene.tweens.add({ targets: ring, alpha: { from: 0.3, to: 1 }, duration: stomp.windup });
    this.scene.tweens.add({
      targets: this.sprite,
      y: { from: 0, to: -14 },
      scaleY: { from: 1, to: 1.12 },
      duration: stomp.windup,
    });
  }

  /** The stomp lands: it hurts the hero standing inside the ring. */
  #landStomp(toHero: number): EnemyBlow {
    const stomp = this.kind.stomp;
    this.#endStomp();
    if (!stomp) return { damage: 0, stomp: false };
    this.#nextStomp = this.scene.time.now + stomp.every;
    this.sprite.y = 0;
    this.sprite.scaleY = 1;
    this.scene.cameras.main.shake(250, 0.012);
    return { damage: toHero <= stomp.radius ? stomp.damage : 0, stomp: true };
  }

  #endStomp() {
    this.#stompLands = 0;
    this.#stompRing?.destroy();
    this.#stompRing = undefined;
  }

  /**
   * Blue while chilled, orange while burning (chilled shows first), and each effect's mark beside
   * the health bar: a tint alone is lost on a monster of that colour (a blue giant chilled).
   */
  #tintStatus() {
    const chilled = this.slowedBy > 0;
    const burning = this.burning;
    if (chilled) this.sprite.setTint(CHILLED);
    else if (burning) this.sprite.setTint(BURNING);
    else this.sprite.clearTint();
    this.#marks.chill.setVisible(chilled);
    this.#marks.burn.setVisible(burning).setX(this.#marks.chill.x - (chilled ? 14 : 0));
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
