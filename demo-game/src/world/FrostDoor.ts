import Phaser from 'phaser';
import { DOOR, setDoorOpen, TILE } from './dungeon-map.ts';
import { sparkBurst } from './effects.ts';

/** Damage the ice takes before it shatters. */
export const DOOR_HP = 80;

/** What a blow on the door did. */
export type DoorBlow = 'unarmed' | 'weak' | 'cracked' | 'shattered';

/**
 * The ice wall before the Frost Giant's throne. Only a weapon's blow of `needs` attack or more
 * cracks it: bare fists (and gloves and rings without a weapon) cannot, a weapon found or forged can;
 * its ice takes some blows to shatter.
 */
export class FrostDoor extends Phaser.GameObjects.Container {
  readonly needs: number;
  /** Blows that cracked it. */
  cracks = 0;
  hp = DOOR_HP;
  readonly #ice: Phaser.GameObjects.Image;
  readonly #label: Phaser.GameObjects.Text;

  constructor(scene: Phaser.Scene, needs: number) {
    const x = (DOOR.x + 0.5) * TILE;
    const y = ((DOOR.y0 + DOOR.y1 + 1) / 2) * TILE;
    super(scene, x, y);
    this.needs = needs;
    setDoorOpen(false);
    this.#ice = scene.add.image(0, 0, 'frost-door-0');
    const glow = scene.add
      .image(0, 0, 'light')
      .setDisplaySize(90, 130)
      .setTint(0x5fb4ff)
      .setAlpha(0.35)
      .setBlendMode(Phaser.BlendModes.ADD);
    // A sign above the fog, which still hides the throne room behind the door.
    this.#label = scene.add
      .text(x, y - 52, `Frost Door\nneeds a weapon, ${needs}+ attack`, {
        fontFamily: 'Georgia, serif',
        fontSize: '12px',
        color: '#bfe6ff',
        align: 'center',
        stroke: '#0b0a10',
        strokeThickness: 4,
      })
      .setOrigin(0.5, 1)
      .setDepth(30_000)
      .setVisible(false);
    this.add([glow, this.#ice]);
    this.setSize(TILE * 1.6, TILE * 3.2).setInteractive({ useHandCursor: true });
    this.setDepth(y + TILE * 1.5);
    scene.add.existing(this);
  }

  /** Shows the sign once the hero has found the door. */
  showSign() {
    if (!this.open) this.#label.setVisible(true);
  }

  get open() {
    return this.hp <= 0;
  }

  /** Where the hero stands to strike it. */
  get front() {
    return { x: this.x - TILE * 1.1, y: this.y };
  }

  /**
   * A blow: without a weapon it is 'unarmed' and below `needs` attack 'weak' (both glance off);
   * else its damage 'cracked' the ice, or 'shattered' it and opened the way.
   */
  strike(blow: { armed: boolean; attack: number; damage: number }): DoorBlow {
    if (this.open) return 'shattered';
    this.scene.tweens.add({
      targets: this.#ice,
      x: { from: -3, to: 0 },
      duration: 120,
      ease: 'Bounce.easeOut',
    });
    if (!blow.armed) return 'unarmed';
    if (blow.attack < this.needs) return 'weak';
    this.cracks += 1;
    this.hp = Math.max(0, this.hp - blow.damage);
    sparkBurst(this.scene, this.x, this.y, 0xbfe6ff, 12);
    if (!this.open) {
      this.#ice.setTexture(`frost-door-${this.hp > DOOR_HP * 0.6 ? 0 : this.hp > DOOR_HP * 0.3 ? 1 : 2}`);
      return 'cracked';
    }
    setDoorOpen(true);
    sparkBurst(this.scene, this.x, this.y - TILE, 0xe8f7ff, 30);
    sparkBurst(this.scene, this.x, this.y + TILE, 0x9ff6ff, 30);
    this.disableInteractive();
    this.#label.destroy();
    this.scene.tweens.add({
      targets: this,
      alpha: 0,
      scaleY: 0.2,
      duration: 450,
      ease: 'Cubic.easeIn',
      onComplete: () => this.setVisible(false),
    });
    return 'shattered';
  }
}
