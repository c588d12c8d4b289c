import type { Item } from '@lootsmith/plugin';
import Phaser from 'phaser';
import { heroEffects } from '../hero-effects.ts';
import { HeroGear } from '../hero-gear.ts';
import { heroStats } from '../hero-stats.ts';
import { forgetPlayer } from '../player-id.ts';
import { CharacterPanel } from '../ui/CharacterPanel.ts';
import { CraftingPanel } from '../ui/CraftingPanel.ts';
import { ForgePanel } from '../ui/ForgePanel.ts';
import { Hud } from '../ui/Hud.ts';
import { IconSource } from '../ui/IconSource.ts';
import { InventoryPanel } from '../ui/InventoryPanel.ts';
import { PanelHost } from '../ui/Panel.ts';
import type { Services } from '../ui/services.ts';
import { WinPanel } from '../ui/WinPanel.ts';
import type { StationId } from '../world/dungeon-map.ts';
import type { DungeonContext } from './context.ts';

/** The panels a key or a HUD button opens and closes. */
export type PanelName = 'inventory' | 'hero' | 'crafting' | 'forge';

/**
 * The interface over the dungeon, in the DOM: the HUD and the panels (bag, hero, crafting, forge,
 * victory), wired to the player's state; what is worn changes the hero's stats and looks.
 */
export class DungeonUi {
  readonly hud: Hud;
  readonly icons: IconSource;
  readonly #c: DungeonContext;
  readonly #gear: HeroGear;
  readonly #panels = new PanelHost();
  readonly #inventory: InventoryPanel;
  readonly #character: CharacterPanel;
  readonly #crafting: CraftingPanel;
  readonly #forge: ForgePanel;
  readonly #win: WinPanel;
  readonly #stationHere: () => StationId | undefined;

  /** `stationHere`: the station the hero stands at, if any (crafting happens only there). */
  constructor(context: DungeonContext, root: HTMLElement, stationHere: () => StationId | undefined) {
    const { scene, plugin, state, toasts, hero, progress, run } = context;
    this.#c = context;
    this.#stationHere = stationHere;
    this.#gear = new HeroGear(context, () => this.paintHealth());
    this.icons = new IconSource(plugin, scene.textures);
    const services: Services = { plugin, state, icons: this.icons, toasts, gear: this.#gear };
    this.#inventory = new InventoryPanel(this.#panels, services);
    this.#character = new CharacterPanel(this.#panels, services, () => ({
      stats: hero.stats,
      hp: hero.hp,
      level: progress.level,
    }));
    this.#crafting = new CraftingPanel(this.#panels, services, (at) => this.#forge.openAt(at));
    this.#forge = new ForgePanel(this.#panels, services, (at) => this.#crafting.openAt(at));
    this.#win = new WinPanel(this.#panels, services, () => {
      forgetPlayer();
      window.location.reload();
    });
    this.hud = new Hud(plugin, state, {
      inventory: () => this.toggle('inventory'),
      hero: () => this.toggle('hero'),
      crafting: () => this.toggle('crafting'),
      forge: () => this.toggle('forge'),
      potion: () => this.drinkPotion(),
    });
    plugin.on('craft', (e) => {
      if (e.op === 'createItem' || e.result.success) run.itemsMade += 1;
    });
    root.prepend(this.hud.root, this.#panels.root);
    const stopWatching = state.onChange(() => this.applyGear());
    this.applyGear();
    // Icons of everything owned start loading now, so the bag opens with pictures in it.
    for (const { item } of state.items) void this.icons.url(item);
    scene.events.once(Phaser.Scenes.Events.SHUTDOWN, () => {
      stopWatching();
      this.hud.root.remove();
      this.#panels.root.remove();
    });
  }

  /** The id of the open panel, if any: an open panel pauses the dungeon. */
  get panel(): string | undefined {
    return this.#panels.current?.root.id;
  }

  /**
   * Opens a panel, or closes it when it is open. Crafting and forging open at the station the hero
   * stands at; elsewhere they say where to go.
   */
  toggle(name: PanelName) {
    if (name === 'inventory') this.#inventory.toggle();
    else if (name === 'hero') this.#character.toggle();
    else {
      const panel = name === 'crafting' ? this.#crafting : this.#forge;
      if (panel.isOpen) panel.close();
      else panel.openAt(this.#stationHere());
    }
  }

  /**
   * Opens what the station the hero walked up to does: the Forge forges new things from materials,
   * the Workbench and the Alchemy Table combine, the Enchanting Altar enchants gear (a combine).
   */
  openStation(id: StationId) {
    if (id === 'forge') this.#forge.openAt(id);
    else this.#crafting.openAt(id);
  }

  drinkPotion() {
    void this.#gear.drinkBest();
  }

  paintHealth() {
    const { hero, progress } = this.#c;
    this.hud.setHealth(hero.hp, hero.stats, progress.level);
  }

  /** The victory screen, with how the run went. */
  showVictory() {
    const { scene, run } = this.#c;
    this.#win.show({ ...run, seconds: (scene.time.now - run.startedAt) / 1000 });
  }

  /** The hero's stats (from what the server says is worn, and the hero's level) and looks. */
  applyGear() {
    const { hero, state, progress } = this.#c;
    const worn = state.slots.flatMap((s) => (s.item ? [s.item] : []));
    hero.setStats(heroStats(state.wornStats, progress.level));
    hero.effects = heroEffects(worn);
    const look = (item: Item) => ({ icon: this.icons.keyFor(item), color: this.icons.colorOf(item) });
    hero.wear(state.slots, look);
    this.paintHealth();
    // Drawn again once every worn item's icon has loaded (a weapon in hand is its own picture).
    if (worn.some((item) => item.icon && !this.icons.keyFor(item)))
      void Promise.all(worn.map((item) => this.icons.url(item))).then(() => hero.wear(state.slots, look));
  }
}
