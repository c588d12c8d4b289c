import { type Item, type ItemType, LootsmithError } from '@lootsmith/plugin';
import type Phaser from 'phaser';
import { healingOf } from './hero-stats.ts';
import type { PlayerState } from './player-state.ts';
import { errorText } from './ui/error-text.ts';
import { statChange } from './ui/item-actions.ts';
import type { GearActions } from './ui/services.ts';
import type { Toasts } from './ui/Toasts.ts';
import { floatingNumber, sparkBurst } from './world/effects.ts';
import type { Hero } from './world/Hero.ts';

/** What wearing and using items needs of the dungeon scene. */
interface GearScene extends Phaser.Scene {
  readonly state: PlayerState;
  readonly toasts: Toasts;
  readonly hero: Hero;
  paintHealth(): void;
}

/** Wearing, taking off and using items: the server decides, then the hero shows it. */
export class HeroGear implements GearActions {
  readonly #scene: GearScene;

  constructor(scene: GearScene) {
    this.#scene = scene;
  }

  async equip(item: Item) {
    const { state, lootsmith, hero, toasts } = this.#scene;
    const before = state.wornInSlotOf(item);
    try {
      state.setEquipment(await lootsmith.equipment.equip(item));
      sparkBurst(this.#scene, hero.x, hero.y - 10, 0xf4d58d, 16);
      toasts.show('success', `Wearing ${item.name}`, statChange(item, before), 'gear');
    } catch (e) {
      this.#refused(e);
    }
  }

  async unequip(slot: ItemType) {
    const { state, lootsmith } = this.#scene;
    try {
      state.setEquipment(await lootsmith.equipment.unequip(slot));
    } catch (e) {
      this.#refused(e);
    }
  }

  /** Spends a consumable on the server, then heals the hero by its effects. */
  async use(item: Item) {
    const scene = this.#scene;
    const { hero } = scene;
    try {
      const { effects } = await scene.lootsmith.inventory.use(item);
      const healed = healingOf(effects);
      hero.heal(healed);
      floatingNumber(scene, hero.x, hero.y - 30, `+${healed}`, '#5fd35a', true);
      sparkBurst(scene, hero.x, hero.y, 0x5fd35a, 14);
      scene.paintHealth();
      scene.toasts.show('success', `You drink ${item.name}`, `+${healed} health`, 'drink');
      await scene.state.refresh(scene.lootsmith);
    } catch (e) {
      this.#refused(e);
    }
  }

  /** The potion that heals most, if the bag has one. */
  async drinkBest() {
    const best = this.#scene.state.consumables[0];
    if (best) return this.use(best.item);
    this.#scene.toasts.show(
      'info',
      'No potions',
      'Brew one at the Alchemy Table from Healing Herbs.',
      'drink',
    );
  }

  #refused(e: unknown) {
    const error = e instanceof LootsmithError ? e : new LootsmithError('network', String(e));
    if (error.code === 'aborted') return;
    const { title, detail } = errorText(error, (id) => this.#scene.state.item(id)?.name ?? id);
    this.#scene.toasts.show(error.reason ? 'warn' : 'error', title, detail);
  }
}
