import Phaser from 'phaser';
import { bakeDungeonTextures } from '../art/dungeon-textures.ts';
import type { PlayerState } from '../player-state.ts';
import { failureWords } from '../ui/show-failure.ts';
import type { Toasts } from '../ui/Toasts.ts';

/** Bakes the art, logs the guest in and loads the rules and inventory, then opens the dungeon. */
export class BootScene extends Phaser.Scene {
  readonly #state: PlayerState;
  readonly #toasts: Toasts;
  readonly #playerId: string;

  constructor(state: PlayerState, toasts: Toasts, playerId: string) {
    super('Boot');
    this.#state = state;
    this.#toasts = toasts;
    this.#playerId = playerId;
  }

  create() {
    bakeDungeonTextures(this);
    const { width, height } = this.scale;
    this.add
      .text(width / 2, height / 2 - 40, 'Lootsmith Dungeon', {
        fontFamily: 'Georgia, serif',
        fontSize: '44px',
        color: '#f4d58d',
        stroke: '#0b0a10',
        strokeThickness: 6,
      })
      .setOrigin(0.5);
    const status = this.add
      .text(width / 2, height / 2 + 20, 'Lighting the torches…', {
        fontFamily: 'Georgia, serif',
        fontSize: '18px',
        color: '#c9c2d6',
      })
      .setOrigin(0.5);
    this.add.image(width / 2, height / 2 + 80, 'hero').setScale(2);
    this.lootsmith.configure({ playerId: this.#playerId });
    void this.#load(status);
  }

  async #load(status: Phaser.GameObjects.Text) {
    const cached = await this.lootsmith.inventory.cached().catch(() => undefined);
    if (cached) this.#state.setInventory(cached);
    for (let attempt = 1; ; attempt++) {
      try {
        this.#state.game = await this.lootsmith.gameDefinition();
        await this.#state.refresh(this.lootsmith);
        break;
      } catch (e) {
        const words = failureWords(e, { action: 'start' });
        if (!words) return;
        const { title, detail } = words;
        if (attempt === 1) this.#toasts.show('error', title, detail);
        status.setText(`${title} — retrying…`);
        await new Promise((resolve) => setTimeout(resolve, 3000));
      }
    }
    this.scene.start('Dungeon');
  }
}
