import { type LootSprite, LootsmithError, type Rarity } from '@lootsmith/plugin';
import Phaser from 'phaser';
import type { HeroProgress } from '../hero-progress.ts';
import type { PlayerState } from '../player-state.ts';
import { CraftingPanel } from '../ui/CraftingPanel.ts';
import { typing } from '../ui/dom.ts';
import { errorText } from '../ui/error-text.ts';
import { ForgePanel } from '../ui/ForgePanel.ts';
import { Hud } from '../ui/Hud.ts';
import { IconSource } from '../ui/IconSource.ts';
import { InventoryPanel } from '../ui/InventoryPanel.ts';
import { PanelHost } from '../ui/Panel.ts';
import type { Toasts } from '../ui/Toasts.ts';
import {
  ENEMY_SPAWNS,
  HERO_SPAWN,
  MAP_COLS,
  roomAt,
  STATIONS,
  type StationId,
  TILE,
} from '../world/dungeon-map.ts';
import { drawDungeon, placeStations } from '../world/dungeon-view.ts';
import { Enemy } from '../world/Enemy.ts';
import { floatingNumber, sparkBurst } from '../world/effects.ts';
import { ENEMY_KINDS } from '../world/enemy-kinds.ts';
import { Hero } from '../world/Hero.ts';
import { LootLayer } from '../world/LootLayer.ts';
import { findPath } from '../world/pathfinding.ts';

const ATTACK_COOLDOWN = 380;
const STATION_REACH = 52;
const THEME = 'dark fantasy dungeon';
const RARITY_ORDER: Rarity[] = ['COMMON', 'UNCOMMON', 'RARE', 'EPIC', 'LEGENDARY', 'MYTHIC'];

type Target = { kind: 'enemy'; enemy: Enemy } | { kind: 'station'; id: StationId } | undefined;

/** The playable dungeon: two rooms, crafting stations, monsters that drop Lootsmith loot. */
export class DungeonScene extends Phaser.Scene {
  readonly state: PlayerState;
  readonly progress: HeroProgress;
  readonly toasts: Toasts;
  readonly uiRoot: HTMLElement;
  hero!: Hero;
  enemies: Enemy[] = [];
  loot!: LootLayer;
  panels!: PanelHost;
  hud!: Hud;
  icons!: IconSource;
  inventory!: InventoryPanel;
  crafting!: CraftingPanel;
  forge!: ForgePanel;
  #keys!: Record<'up' | 'down' | 'left' | 'right' | 'w' | 'a' | 's' | 'd', Phaser.Input.Keyboard.Key>;
  #target: Target;
  #nextSwing = 0;
  #repathAt = 0;
  #lastHurt = 0;
  #nextRegen = 0;
  #stationPrompt!: Phaser.GameObjects.Text;

  constructor(state: PlayerState, progress: HeroProgress, toasts: Toasts, uiRoot: HTMLElement) {
    super('Dungeon');
    this.state = state;
    this.progress = progress;
    this.toasts = toasts;
    this.uiRoot = uiRoot;
  }

  create() {
    drawDungeon(this);
    placeStations(this, (id) => this.state.game?.stations.find((s) => s.id === id)?.name ?? id);
    this.loot = new LootLayer(this);
    // With a slow model the server answers before an icon is painted: the plugin swaps it in later.
    this.lootsmith.on('iconready', ({ sprite }) => this.loot.iconArrived(sprite as LootSprite));
    this.hero = new Hero(this, HERO_SPAWN.x * TILE, HERO_SPAWN.y * TILE);
    for (const spawn of ENEMY_SPAWNS) this.#spawn(spawn.kind, spawn.x * TILE, spawn.y * TILE);
    this.#stationPrompt = this.add
      .text(0, 0, '', {
        fontFamily: 'Georgia, serif',
        fontSize: '13px',
        color: '#f4d58d',
        backgroundColor: '#0b0a10cc',
        padding: { x: 6, y: 3 },
      })
      .setOrigin(0.5, 1)
      .setDepth(30_000)
      .setVisible(false);
    this.#createUi();
    this.#bindInput();
    this.cameras.main.fadeIn(400, 11, 10, 16);
  }

  override update(time: number, delta: number) {
    this.#promptNearStation();
    // An open panel pauses the dungeon: nothing moves or fights while the player reads or crafts.
    if (this.panels.current) {
      this.hero.step(0, new Phaser.Math.Vector2());
      return;
    }
    const direction = new Phaser.Math.Vector2();
    if (!typing()) {
      const k = this.#keys;
      direction.x = Number(k.right.isDown || k.d.isDown) - Number(k.left.isDown || k.a.isDown);
      direction.y = Number(k.down.isDown || k.s.isDown) - Number(k.up.isDown || k.w.isDown);
    }
    if (direction.lengthSq() > 0) this.#target = undefined;
    this.#chase(time);
    this.hero.step(delta, direction);
    this.#stepEnemies(time, delta);
    this.#regenerate(time);
    this.#collectLoot();
    this.hud.setRoom(roomAt(this.hero.x, this.hero.y)?.name ?? 'The Passage');
  }

  /** An enemy within sword reach of the hero, nearest first. */
  #enemyInReach(extra = 0): Enemy | undefined {
    return this.enemies
      .filter((e) => e.alive && this.#distance(e) <= this.#reach(e) + extra)
      .sort((a, b) => this.#distance(a) - this.#distance(b))[0];
  }

  /** Walks to a spot, an enemy (then fights it) or a station (then opens it). */
  #walkTo(x: number, y: number, target: Target = undefined) {
    this.#target = target;
    const path = findPath(this.hero, { x, y });
    if (path.length) this.hero.follow(path);
    else if (!target) this.hero.stop();
  }

  #attack(enemy: Enemy) {
    const now = this.time.now;
    if (now < this.#nextSwing) return;
    this.#nextSwing = now + ATTACK_COOLDOWN;
    this.hero.swing(enemy);
    const crit = Math.random() < 0.15;
    const damage = Phaser.Math.Between(1, 3) * (crit ? 2 : 1);
    floatingNumber(
      this,
      enemy.x,
      enemy.y - enemy.sprite.displayHeight * 0.6,
      crit ? `${damage}!` : String(damage),
      crit ? '#ffd166' : '#ffffff',
      crit,
    );
    if (enemy.hit(damage, this.hero)) this.#defeat(enemy);
  }

  #openStation(id: StationId) {
    this.hero.stop();
    if (id === 'forge' || id === 'enchanting_altar') this.forge.openAt(id);
    else this.crafting.openAt(id);
  }

  #paintHealth() {
    this.hud.setHealth(this.hero.hp, this.hero.maxHp, this.progress.level);
  }

  #createUi() {
    this.panels = new PanelHost();
    this.icons = new IconSource(this.lootsmith, this.textures);
    const services = { plugin: this.lootsmith, state: this.state, icons: this.icons, toasts: this.toasts };
    this.inventory = new InventoryPanel(this.panels, this.state, this.icons);
    this.crafting = new CraftingPanel(this.panels, services);
    this.forge = new ForgePanel(this.panels, services);
    this.hud = new Hud(this.lootsmith, this.state, {
      inventory: () => this.inventory.toggle(),
      crafting: () => (this.crafting.isOpen ? this.crafting.close() : this.crafting.openAt('workbench')),
      forge: () => (this.forge.isOpen ? this.forge.close() : this.forge.openAt('workbench')),
    });
    this.#paintHealth();
    this.uiRoot.prepend(this.hud.root, this.panels.root);
    // Icons of everything owned start loading now, so the bag opens with pictures in it.
    for (const { item } of this.state.items) void this.icons.url(item);
    this.events.once(Phaser.Scenes.Events.SHUTDOWN, () => {
      this.hud.root.remove();
      this.panels.root.remove();
    });
  }

  #bindInput() {
    const keyboard = this.input.keyboard as Phaser.Input.Keyboard.KeyboardPlugin;
    // No key capture: the panels' text fields must still receive every letter.
    const key = (code: number) => keyboard.addKey(code, false);
    const K = Phaser.Input.Keyboard.KeyCodes;
    this.#keys = {
      up: key(K.UP),
      down: key(K.DOWN),
      left: key(K.LEFT),
      right: key(K.RIGHT),
      w: key(K.W),
      a: key(K.A),
      s: key(K.S),
      d: key(K.D),
    };
    const onKey = (event: KeyboardEvent) => {
      if (typing() || event.repeat) return;
      const k = event.key.toLowerCase();
      if (k === 'i') this.inventory.toggle();
      else if (k === 'c') this.crafting.isOpen ? this.crafting.close() : this.crafting.openAt('workbench');
      else if (k === 'f') this.forge.isOpen ? this.forge.close() : this.forge.openAt('workbench');
      else if (this.panels.current) return;
      else if (k === ' ') {
        event.preventDefault();
        const enemy = this.#enemyInReach(12);
        if (enemy) this.#attack(enemy);
        else this.hero.swing({ x: this.hero.x + (this.hero.sprite.flipX ? -1 : 1), y: this.hero.y });
      } else if (k === 'e') {
        const near = this.#nearestStation();
        if (near) this.#openStation(near.id);
      } else if (k.startsWith('arrow')) event.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    this.events.once(Phaser.Scenes.Events.SHUTDOWN, () => window.removeEventListener('keydown', onKey));

    this.input.on('pointerdown', (pointer: Phaser.Input.Pointer, over: Phaser.GameObjects.GameObject[]) => {
      if (this.panels.current) return;
      const enemy = over.find((o): o is Enemy => o instanceof Enemy && o.alive);
      if (enemy) return this.#walkTo(enemy.x, enemy.y, { kind: 'enemy', enemy });
      const station = over.find((o) => o.getData('station'));
      if (station) {
        const id = station.getData('station') as StationId;
        const spot = STATIONS.find((s) => s.id === id);
        if (spot) this.#walkTo(spot.x * TILE, (spot.y + 1) * TILE, { kind: 'station', id });
        return;
      }
      this.#walkTo(pointer.worldX, pointer.worldY);
      this.#clickMarker(pointer.worldX, pointer.worldY);
    });
  }

  #chase(time: number) {
    const target = this.#target;
    if (target?.kind === 'enemy') {
      const enemy = target.enemy;
      if (!enemy.alive) {
        // Stop where the fight ended: the player sees the loot land, then goes for it.
        this.#target = undefined;
        this.hero.stop();
        return;
      }
      if (this.#distance(enemy) <= this.#reach(enemy)) {
        this.hero.stop();
        this.#attack(enemy);
      } else if (time > this.#repathAt) {
        this.#repathAt = time + 250;
        const path = findPath(this.hero, enemy);
        if (path.length) this.hero.follow(path);
      }
    } else if (target?.kind === 'station' && !this.hero.walking) {
      this.#target = undefined;
      if (this.#nearestStation()?.id === target.id) this.#openStation(target.id);
    }
  }

  #stepEnemies(time: number, delta: number) {
    for (const enemy of this.enemies) {
      const damage = enemy.step(time, delta, this.hero);
      if (!damage) continue;
      this.hero.hurt(damage);
      this.#lastHurt = time;
      floatingNumber(this, this.hero.x, this.hero.y - 24, `-${damage}`, '#ff6b6b');
      this.cameras.main.shake(80, 0.004);
      this.#paintHealth();
      if (this.hero.hp === 0) this.#knockOut();
    }
  }

  #regenerate(time: number) {
    if (time - this.#lastHurt < 4000 || time < this.#nextRegen || this.hero.hp === this.hero.maxHp) return;
    this.#nextRegen = time + 700;
    this.hero.heal(1);
    this.#paintHealth();
  }

  #knockOut() {
    this.toasts.show('warn', 'You were knocked out', 'You come to in the Crafters’ Hall, a little bruised.');
    for (const enemy of this.enemies) enemy.provoked = false;
    this.#target = undefined;
    this.hero.stop();
    this.hero.setPosition(HERO_SPAWN.x * TILE, HERO_SPAWN.y * TILE);
    this.hero.heal(this.hero.maxHp);
    this.#paintHealth();
    this.cameras.main.flash(300, 120, 0, 0);
  }

  #defeat(enemy: Enemy) {
    const { x, y } = enemy;
    const kind = enemy.kind;
    sparkBurst(this, x, y, kind.boss ? 0x9ff6ff : 0xffe3a3, kind.boss ? 40 : 18);
    if (kind.boss) this.cameras.main.shake(300, 0.01);
    floatingNumber(this, this.hero.x, this.hero.y - 40, `+${kind.xp} XP`, '#9fd3ff');
    if (this.progress.gain(kind.xp)) {
      this.hero.heal(this.hero.maxHp);
      this.toasts.show('success', `Hero level ${this.progress.level}!`, 'Fully healed; better loot awaits.');
      sparkBurst(this, this.hero.x, this.hero.y, 0xf4d58d, 30);
    }
    this.#paintHealth();
    this.tweens.add({
      targets: enemy,
      alpha: 0,
      scale: 0.3,
      angle: 25,
      duration: 350,
      onComplete: () => enemy.destroy(),
    });
    this.enemies = this.enemies.filter((e) => e !== enemy);
    this.time.delayedCall(kind.respawn * 1000, () => this.#spawn(kind.id, enemy.home.x, enemy.home.y));
    void this.#dropLoot(enemy, x, y);
  }

  async #dropLoot(enemy: Enemy, x: number, y: number) {
    const swirl = this.loot.summoning(x, y);
    try {
      const drop = await this.lootsmith.loot.drop<LootSprite>({
        enemy: enemy.kind.id,
        location: roomAt(x, y)?.name ?? 'Dungeon',
        theme: THEME,
        playerLevel: this.progress.level,
        count: enemy.kind.loot,
        dropId: enemy.uid,
        x,
        y,
        size: 36,
      });
      this.state.dropped(drop.items);
      this.loot.place(drop.sprites);
      const best = drop.items.toSorted(
        (a, b) => RARITY_ORDER.indexOf(b.rarity) - RARITY_ORDER.indexOf(a.rarity),
      )[0];
      if (best && RARITY_ORDER.indexOf(best.rarity) >= RARITY_ORDER.indexOf('RARE'))
        this.toasts.show('success', `${best.rarity.toLowerCase()} drop!`, best.name);
      // The drop is already in the player's inventory on the server: keep the local copy in step.
      await this.state.refresh(this.lootsmith);
    } catch (e) {
      const error = e instanceof LootsmithError ? e : new LootsmithError('network', String(e));
      if (error.code === 'aborted') return;
      const { title, detail } = errorText(error);
      this.toasts.show('error', `The loot fizzled: ${title}`, detail);
    } finally {
      swirl.destroy();
    }
  }

  #collectLoot() {
    const taken = this.loot.pickUp(this.hero, { x: MAP_COLS * TILE - 120, y: 20 });
    for (const item of taken) {
      this.state.pickedUp(item);
      this.toasts.show(
        'info',
        `Picked up ${item.name}`,
        `${item.rarity.toLowerCase()} ${item.type.toLowerCase()}`,
      );
      void this.icons.url(item);
    }
    if (taken.length) this.hud.bag.animate([{ transform: 'scale(1.25)' }, { transform: 'scale(1)' }], 300);
  }

  #spawn(kind: keyof typeof ENEMY_KINDS, x: number, y: number) {
    const enemy = new Enemy(this, ENEMY_KINDS[kind], x, y);
    enemy.setAlpha(0);
    this.tweens.add({ targets: enemy, alpha: 1, duration: 500 });
    this.enemies.push(enemy);
  }

  #nearestStation() {
    return STATIONS.map((s) => ({
      ...s,
      d: Phaser.Math.Distance.Between(this.hero.x, this.hero.y, s.x * TILE, (s.y + 0.6) * TILE),
    }))
      .filter((s) => s.d <= STATION_REACH)
      .sort((a, b) => a.d - b.d)[0];
  }

  #promptNearStation() {
    const near = this.panels.current ? undefined : this.#nearestStation();
    this.#stationPrompt.setVisible(near !== undefined);
    if (!near) return;
    const name = this.state.game?.stations.find((s) => s.id === near.id)?.name ?? near.id;
    this.#stationPrompt.setText(`E — use the ${name}`).setPosition(near.x * TILE, (near.y - 0.9) * TILE);
  }

  #distance(enemy: Enemy) {
    return Phaser.Math.Distance.Between(this.hero.x, this.hero.y, enemy.x, enemy.y);
  }

  #reach(enemy: Enemy) {
    return enemy.kind.radius + this.hero.radius + 18;
  }

  #clickMarker(x: number, y: number) {
    const ring = this.add.graphics({ x, y }).setDepth(1);
    ring.lineStyle(2, 0xf4d58d, 0.9).strokeCircle(0, 0, 8);
    this.tweens.add({ targets: ring, scale: 1.8, alpha: 0, duration: 350, onComplete: () => ring.destroy() });
  }
}
