import type { Item, ItemType, LootsmithPlugin } from '@lootsmith/plugin';
import type Phaser from 'phaser';
import { healingOf } from './hero-stats.ts';
import type { PlayerState } from './player-state.ts';
import { statChange } from './ui/item-actions.ts';
import type { GearActions } from './ui/services.ts';
import { failureWords } from './ui/show-failure.ts';
import type { Toasts } from './ui/Toasts.ts';
import { floatingNumber, sparkBurst } from './world/effects.ts';
import type { Hero } from './world/Hero.ts';

/** What wearing and using items works with. */
interface GearContext {
  readonly scene: Phaser.Scene;
  readonly plugin: LootsmithPlugin;
  readonly state: PlayerState;
  readonly toasts: Toasts;
  readonly hero: Hero;
}

/** Wearing, taking off and using items: the server decides, then the hero shows it. */
export class HeroGear implements GearActions {
  readonly #c: GearContext;
  readonly #paintHealth: () => void;

  constructor(context: GearContext, paintHealth: () => void) {
    this.#c = context;
    this.#paintHealth = paintHealth;
  }

  async equip(item: Item) {
    const { scene, plugin, state, hero, toasts } = this.#c;
    const before = state.wornInSlotOf(item);
    try {
      state.setEquipment(await plugin.equipment.equip(item));
      sparkBurst(scene, hero.x, hero.y - 10, 0xf4d58d, 16);
      toasts.show(
        'success',
        `Wearing ${item.name}`,
        statChange(item, before, state.mainStatOf(item)),
        'gear',
      );
    } catch (e) {
      this.#refused(e);
    }
  }

  async unequip(slot: ItemType) {
    const { plugin, state } = this.#c;
    try {
      state.setEquipment(await plugin.equipment.unequip(slot));
    } catch (e) {
      this.#refused(e);
    }
  }

  /** Spends a consumable on the server, then heals the hero by its effects. */
  async use(item: Item) {
    const { scene, plugin, state, hero, toasts } = this.#c;
    try {
      const { effects } = await plugin.inventory.use(item);
      const healed = healingOf(effects);
      hero.heal(healed);
      floatingNumber(scene, hero.x, hero.y - 30, `+${healed}`, '#5fd35a', true);
      sparkBurst(scene, hero.x, hero.y, 0x5fd35a, 14);
      this.#paintHealth();
      toasts.show('success', `You drink ${item.name}`, `+${healed} health`, 'drink');
      await state.refresh(plugin);
    } catch (e) {
      this.#refused(e);
    }
  }

  /** The potion that heals most, if the bag has one. */
  async drinkBest() {
    const best = this.#c.state.consumables[0];
    if (best) return this.use(best.item);
    this.#c.toasts.show('info', 'No potions', 'Brew one at the Alchemy Table from Healing Herbs.', 'drink');
  }

  #refused(e: unknown) {
    const words = failureWords(e, { action: 'gear', nameOf: (id) => this.#c.state.item(id)?.name ?? id });
    if (words) this.#c.toasts.show(words.error.reason ? 'warn' : 'error', words.title, words.detail);
  }
}
