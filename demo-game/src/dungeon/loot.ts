import type { LootSprite, Rarity } from '@lootsmith/plugin';
import type Phaser from 'phaser';
import { bagKey } from '../objective.ts';
import type { IconSource } from '../ui/IconSource.ts';
import { failureWords } from '../ui/show-failure.ts';
import { touchFirst } from '../ui/touch.ts';
import { areaAt } from '../world/dungeon-map.ts';
import type { Enemy } from '../world/Enemy.ts';
import { LootLayer } from '../world/LootLayer.ts';
import type { DungeonContext } from './context.ts';

/** The dungeon's setting, for the writer of the loot. */
const THEME = 'dark fantasy dungeon';
const RARITY_ORDER: Rarity[] = ['COMMON', 'UNCOMMON', 'RARE', 'EPIC', 'LEGENDARY', 'MYTHIC'];
const rank = (rarity: Rarity) => RARITY_ORDER.indexOf(rarity);

/**
 * Loot from kills: the server is asked for a fallen monster's drop (granted to the player at once),
 * the items land on the floor where it fell, and the hero takes them by walking over or clicking
 * them; only then do they show in the bag.
 */
export class Loot {
  readonly #c: DungeonContext;
  readonly #icons: IconSource;
  /** The HUD's Bag button: loot taken flies toward it. */
  readonly #bag: HTMLElement;
  readonly #layer: LootLayer;
  /** The loot last clicked: taken when in reach, even if the hero stands on it. */
  #clicked: LootSprite | undefined;

  constructor(context: DungeonContext, icons: IconSource, bag: HTMLElement) {
    this.#c = context;
    this.#icons = icons;
    this.#bag = bag;
    this.#layer = new LootLayer(context.scene);
    // With a slow model the server answers before an icon is painted: the plugin swaps it in later.
    context.plugin.on('iconready', ({ sprite }) => this.#layer.iconArrived(sprite as LootSprite));
  }

  get onGround(): readonly LootSprite[] {
    return this.#layer.onGround;
  }

  /** Notes which loot, if any, a click landed on (the hero walks there next). */
  clicked(over: Phaser.GameObjects.GameObject[]) {
    this.#clicked = this.#layer.onGround.find((sprite) => over.includes(sprite));
  }

  /** Asks for a fallen monster's loot, dropped where it fell; a rare find is announced. */
  async drop(enemy: Enemy, { x, y }: { x: number; y: number }) {
    const { plugin, state, progress, toasts } = this.#c;
    const swirl = this.#layer.summoning(x, y);
    try {
      const drop = await plugin.loot.drop<LootSprite>({
        enemy: enemy.kind.id,
        location: areaAt(x, y)?.name ?? 'Dungeon',
        theme: THEME,
        playerLevel: progress.level,
        count: enemy.kind.loot,
        dropId: enemy.uid,
        x,
        y,
        size: 36,
      });
      state.dropped(drop.items);
      this.#layer.place(drop.sprites);
      const best = drop.items.toSorted((a, b) => rank(b.rarity) - rank(a.rarity))[0];
      if (best && rank(best.rarity) >= rank('RARE'))
        toasts.show('success', `${best.rarity.toLowerCase()} drop!`, best.name, 'rare');
      // The drop is already in the player's inventory on the server: keep the local copy in step.
      await state.refresh(plugin);
    } catch (e) {
      const words = failureWords(e, { action: 'drop' });
      if (words) toasts.show(words.error.reason ? 'warn' : 'error', words.title, words.detail);
    } finally {
      swirl.destroy();
    }
  }

  /** Takes the loot the hero reaches this frame: into the bag, with a word on what it is. */
  collect() {
    const { scene, hero, state, toasts, run } = this.#c;
    // Loot flies toward the Bag button, wherever the layout put it (the canvas fills the window).
    const button = this.#bag.getBoundingClientRect();
    const bag = scene.cameras.main.getWorldPoint(button.x + button.width / 2, button.y + button.height / 2);
    const taken = this.#layer.pickUp(hero, bag, this.#clicked);
    for (const item of taken) {
      run.itemsTaken += 1;
      state.pickedUp(item);
      const wearable = state.canWear(item) ? ` · wear it from your Bag (${bagKey(touchFirst())})` : '';
      toasts.show(
        'info',
        `Picked up ${item.name}`,
        `${item.rarity.toLowerCase()} ${item.type.toLowerCase()}${wearable}`,
        'pickup',
      );
      void this.#icons.url(item);
    }
    if (taken.length) this.#bag.animate([{ transform: 'scale(1.25)' }, { transform: 'scale(1)' }], 300);
  }
}
