import { type LootSprite, LootsmithError, type Rarity } from '@lootsmith/plugin';
import Phaser from 'phaser';
import { HeroGear } from '../hero-gear.ts';
import type { HeroProgress } from '../hero-progress.ts';
import { damageTaken, heroStats, rollDamage } from '../hero-stats.ts';
import { objective } from '../objective.ts';
import { forgetPlayer } from '../player-id.ts';
import type { PlayerState } from '../player-state.ts';
import { CharacterPanel } from '../ui/CharacterPanel.ts';
import { CraftingPanel } from '../ui/CraftingPanel.ts';
import { typing } from '../ui/dom.ts';
import { errorText } from '../ui/error-text.ts';
import { ForgePanel } from '../ui/ForgePanel.ts';
import { Hud } from '../ui/Hud.ts';
import { IconSource } from '../ui/IconSource.ts';
import { InventoryPanel } from '../ui/InventoryPanel.ts';
import { PanelHost } from '../ui/Panel.ts';
import type { Services } from '../ui/services.ts';
import type { Toasts } from '../ui/Toasts.ts';
import { touchFirst } from '../ui/touch.ts';
import { WinPanel } from '../ui/WinPanel.ts';
import {
  areaAt,
  BOSS_AREA,
  ENEMY_SPAWNS,
  HERO_SPAWN,
  MAP_COLS,
  MAP_ROWS,
  START_AREA,
  STATIONS,
  type StationId,
  TILE,
} from '../world/dungeon-map.ts';
import { drawDungeon, placeStations } from '../world/dungeon-view.ts';
import { Enemy } from '../world/Enemy.ts';
import { floatingNumber, sparkBurst } from '../world/effects.ts';
import { ENEMY_KINDS } from '../world/enemy-kinds.ts';
import { Fog } from '../world/Fog.ts';
import { FrostDoor } from '../world/FrostDoor.ts';
import { Hero } from '../world/Hero.ts';
import { LootLayer } from '../world/LootLayer.ts';
import { findPath } from '../world/pathfinding.ts';

const ATTACK_COOLDOWN = 380;
const STATION_REACH = 52;
const DOOR_REACH = 44;
/** Attack a blow needs to crack the Frost Door: more than bare hands, less than any real weapon. */
const DOOR_NEEDS = 6;
const THEME = 'dark fantasy dungeon';
const RARITY_ORDER: Rarity[] = ['COMMON', 'UNCOMMON', 'RARE', 'EPIC', 'LEGENDARY', 'MYTHIC'];
/** The area the door stands in: seeing it is seeing the door. */
const DOOR_AREA = 'cold';

type Target =
  | { kind: 'enemy'; enemy: Enemy }
  | { kind: 'station'; id: StationId }
  | { kind: 'door' }
  | undefined;

/** The camera's zoom for a viewport: about 26 × 16 tiles on a desktop, never below 1. */
function zoomFor(width: number, height: number) {
  const fit = Math.min(width / (26 * TILE), height / (16 * TILE));
  return Phaser.Math.Clamp(Math.floor(fit * 4) / 4, 1, 2);
}

/** The playable dungeon: rooms revealed as the hero walks in, monsters with loot, gear, the boss. */
export class DungeonScene extends Phaser.Scene {
  readonly state: PlayerState;
  readonly progress: HeroProgress;
  readonly toasts: Toasts;
  readonly uiRoot: HTMLElement;
  hero!: Hero;
  enemies: Enemy[] = [];
  loot!: LootLayer;
  fog!: Fog;
  door!: FrostDoor;
  panels!: PanelHost;
  hud!: Hud;
  icons!: IconSource;
  inventory!: InventoryPanel;
  character!: CharacterPanel;
  crafting!: CraftingPanel;
  forge!: ForgePanel;
  win!: WinPanel;
  gear!: HeroGear;
  /** The run so far, for the goal line and the victory screen. */
  run = { startedAt: 0, kills: 0, itemsTaken: 0, itemsMade: 0, won: false };
  /** The hero's last hits, newest last (for the test hook). */
  readonly hits: number[] = [];
  #keys!: Record<'up' | 'down' | 'left' | 'right' | 'w' | 'a' | 's' | 'd', Phaser.Input.Keyboard.Key>;
  #target: Target;
  #nextSwing = 0;
  #repathAt = 0;
  #lastHurt = 0;
  #nextRegen = 0;
  /** The loot last clicked: taken when in reach, even if the hero stands on it. */
  #clickedLoot: LootSprite | undefined;
  #stationPrompt!: Phaser.GameObjects.Text;
  #stationLabels = new Map<StationId, Phaser.GameObjects.Text>();

  constructor(state: PlayerState, progress: HeroProgress, toasts: Toasts, uiRoot: HTMLElement) {
    super('Dungeon');
    this.state = state;
    this.progress = progress;
    this.toasts = toasts;
    this.uiRoot = uiRoot;
  }

  create() {
    this.enemies = [];
    this.run = { startedAt: this.time.now, kills: 0, itemsTaken: 0, itemsMade: 0, won: false };
    drawDungeon(this);
    this.#stationLabels = placeStations(
      this,
      (id) => this.state.game?.stations.find((s) => s.id === id)?.name ?? id,
    );
    this.loot = new LootLayer(this);
    // With a slow model the server answers before an icon is painted: the plugin swaps it in later.
    this.lootsmith.on('iconready', ({ sprite }) => this.loot.iconArrived(sprite as LootSprite));
    this.hero = new Hero(this, HERO_SPAWN.x * TILE, HERO_SPAWN.y * TILE);
    this.door = new FrostDoor(this, DOOR_NEEDS);
    for (const spawn of ENEMY_SPAWNS) this.#spawn(spawn.kind, spawn.x * TILE, spawn.y * TILE);
    this.fog = new Fog(this);
    this.fog.reveal(START_AREA);
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
    this.#followHero();
    this.cameras.main.fadeIn(400, 11, 10, 16);
  }

  override update(time: number, delta: number) {
    this.#promptNearStation();
    this.hud.setGoal(this.#goal());
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
    this.#explore();
    this.#stepEnemies(time, delta);
    this.#regenerate(time);
    this.#collectLoot();
  }

  /** The station prompt and which station names show, for the test hook. */
  get stationPrompt() {
    const prompt = this.#stationPrompt;
    const hidden = [...this.#stationLabels].filter(([, label]) => !label.visible).map(([id]) => id);
    return { visible: prompt.visible, text: prompt.text, x: prompt.x, y: prompt.y, namesHidden: hidden };
  }

  /** What the HUD and panels show of the hero. */
  get heroView() {
    return { stats: this.hero.stats, hp: this.hero.hp, level: this.progress.level };
  }

  /** An enemy within sword reach of the hero, nearest first. */
  #enemyInReach(extra = 0): Enemy | undefined {
    return this.enemies
      .filter((e) => e.alive && e.visible && this.#distance(e) <= this.#reach(e) + extra)
      .sort((a, b) => this.#distance(a) - this.#distance(b))[0];
  }

  /** Walks to a spot, an enemy (then fights it), a station (then opens it) or the door (then strikes it). */
  #walkTo(x: number, y: number, target: Target = undefined) {
    this.#target = target;
    const path = findPath(this.hero, { x, y });
    if (path.length) this.hero.follow(path);
    else if (!target) this.hero.stop();
  }

  #swingReady() {
    if (this.time.now < this.#nextSwing) return false;
    this.#nextSwing = this.time.now + ATTACK_COOLDOWN;
    return true;
  }

  #attack(enemy: Enemy) {
    if (!this.#swingReady()) return;
    this.hero.swing(enemy);
    const { damage, crit } = rollDamage(this.hero.stats);
    this.hits.push(damage);
    if (this.hits.length > 50) this.hits.shift();
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

  #strikeDoor() {
    if (this.door.open || !this.#swingReady()) return;
    this.hero.swing(this.door);
    const attack = this.hero.stats.attack;
    const blow = this.door.strike(attack);
    const top = this.door.y - TILE;
    if (blow === 'weak') {
      floatingNumber(this, this.door.x, top, 'clang', '#9fb7c9');
      this.toasts.show(
        'warn',
        'The ice holds',
        `The Frost Door needs ${this.door.needs} attack; you have ${attack}. Wear a weapon from your bag, or forge one at the Workbench.`,
        'door',
      );
      this.#target = undefined;
      this.hero.stop();
    } else if (blow === 'cracked') floatingNumber(this, this.door.x, top, 'crack!', '#bfe6ff', true);
    else {
      this.#target = undefined;
      this.cameras.main.shake(200, 0.006);
      this.toasts.show(
        'success',
        'The Frost Door shatters!',
        'The Frozen Throne lies open to the east.',
        'door',
      );
    }
  }

  #openStation(id: StationId) {
    this.hero.stop();
    if (id === 'forge' || id === 'enchanting_altar') this.forge.openAt(id);
    else this.crafting.openAt(id);
  }

  paintHealth() {
    this.hud.setHealth(this.hero.hp, this.hero.stats, this.progress.level);
  }

  /** The hero's stats and looks follow what the server says is worn. */
  #applyGear() {
    this.hero.setStats(heroStats(this.state.wornStats));
    this.hero.wear(this.state.slots);
    this.paintHealth();
  }

  #createUi() {
    this.gear = new HeroGear(this);
    this.panels = new PanelHost();
    this.icons = new IconSource(this.lootsmith, this.textures);
    const services: Services = {
      plugin: this.lootsmith,
      state: this.state,
      icons: this.icons,
      toasts: this.toasts,
      gear: this.gear,
    };
    this.inventory = new InventoryPanel(this.panels, services);
    this.character = new CharacterPanel(this.panels, services, () => this.heroView);
    this.crafting = new CraftingPanel(this.panels, services);
    this.forge = new ForgePanel(this.panels, services);
    this.win = new WinPanel(this.panels, services, () => {
      forgetPlayer();
      window.location.reload();
    });
    this.hud = new Hud(this.lootsmith, this.state, {
      inventory: () => this.inventory.toggle(),
      hero: () => this.character.toggle(),
      crafting: () => (this.crafting.isOpen ? this.crafting.close() : this.crafting.openAt('workbench')),
      forge: () => (this.forge.isOpen ? this.forge.close() : this.forge.openAt('workbench')),
      potion: () => void this.gear.drinkBest(),
    });
    this.lootsmith.on('craft', (e) => {
      if (e.op === 'createItem' || e.result.success) this.run.itemsMade += 1;
    });
    this.uiRoot.prepend(this.hud.root, this.panels.root);
    const stopWatching = this.state.onChange(() => this.#applyGear());
    this.#applyGear();
    // Icons of everything owned start loading now, so the bag opens with pictures in it.
    for (const { item } of this.state.items) void this.icons.url(item);
    this.events.once(Phaser.Scenes.Events.SHUTDOWN, () => {
      stopWatching();
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
      else if (k === 'h') this.character.toggle();
      else if (k === 'c') this.crafting.isOpen ? this.crafting.close() : this.crafting.openAt('workbench');
      else if (k === 'f') this.forge.isOpen ? this.forge.close() : this.forge.openAt('workbench');
      else if (this.panels.current) return;
      else if (k === 'q') void this.gear.drinkBest();
      else if (k === ' ') {
        event.preventDefault();
        const enemy = this.#enemyInReach(12);
        if (enemy) this.#attack(enemy);
        else if (this.#nearDoor()) this.#strikeDoor();
        else this.hero.swing({ x: this.hero.x + (this.hero.facingLeft ? -1 : 1), y: this.hero.y });
      } else if (k === 'e') {
        const near = this.#nearestStation();
        if (near) this.#openStation(near.id);
      } else if (k.startsWith('arrow')) event.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    this.events.once(Phaser.Scenes.Events.SHUTDOWN, () => window.removeEventListener('keydown', onKey));

    this.input.on('pointerdown', (pointer: Phaser.Input.Pointer, over: Phaser.GameObjects.GameObject[]) => {
      if (this.panels.current) return;
      const enemy = over.find((o): o is Enemy => o instanceof Enemy && o.alive && o.visible);
      if (enemy) return this.#walkTo(enemy.x, enemy.y, { kind: 'enemy', enemy });
      if (over.includes(this.door) && !this.door.open)
        return this.#walkTo(this.door.front.x, this.door.front.y, { kind: 'door' });
      const station = over.find((o) => o.getData('station'));
      if (station) {
        const id = station.getData('station') as StationId;
        const spot = STATIONS.find((s) => s.id === id);
        if (spot) this.#walkTo(spot.x * TILE, (spot.y + 1) * TILE, { kind: 'station', id });
        return;
      }
      this.#clickedLoot = this.loot.onGround.find((sprite) => over.includes(sprite));
      this.#walkTo(pointer.worldX, pointer.worldY);
      this.#clickMarker(pointer.worldX, pointer.worldY);
    });
  }

  #followHero() {
    const camera = this.cameras.main;
    camera.setBounds(0, 0, MAP_COLS * TILE, MAP_ROWS * TILE);
    camera.startFollow(this.hero, true, 0.15, 0.15);
    const fit = () => camera.setZoom(zoomFor(this.scale.width, this.scale.height));
    fit();
    this.scale.on(Phaser.Scale.Events.RESIZE, fit);
    this.events.once(Phaser.Scenes.Events.SHUTDOWN, () => this.scale.off(Phaser.Scale.Events.RESIZE, fit));
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
    } else if (target?.kind === 'door') {
      if (this.door.open) this.#target = undefined;
      else if (this.#nearDoor()) {
        this.hero.stop();
        this.#strikeDoor();
      } else if (!this.hero.walking) this.#target = undefined;
    } else if (target?.kind === 'station' && !this.hero.walking) {
      this.#target = undefined;
      if (this.#nearestStation()?.id === target.id) this.#openStation(target.id);
    }
  }

  /** Lights the area the hero stands in, names it in the HUD, and notes what the hero has found. */
  #explore() {
    const area = areaAt(this.hero.x, this.hero.y);
    if (!area) return;
    this.hud.setRoom(area.name);
    if (!this.fog.reveal(area.id)) return;
    if (area.id === DOOR_AREA) this.door.showSign();
    if (area.id === BOSS_AREA) {
      this.cameras.main.shake(400, 0.008);
      this.toasts.show('warn', 'The Frost Giant wakes!', 'Wear your best gear; drink a potion when hurt.');
    }
  }

  /** Monsters in rooms the hero has not entered yet wait there, unseen. */
  #asleep(enemy: Enemy) {
    return !this.fog.isRevealed(areaAt(enemy.home.x, enemy.home.y)?.id);
  }

  #stepEnemies(time: number, delta: number) {
    for (const enemy of this.enemies) {
      const asleep = this.#asleep(enemy);
      enemy.setVisible(!asleep);
      if (asleep) continue;
      const raw = enemy.step(time, delta, this.hero);
      if (!raw) continue;
      const damage = damageTaken(raw, this.hero.stats, enemy.kind.element);
      this.hero.hurt(damage);
      this.#lastHurt = time;
      floatingNumber(this, this.hero.x, this.hero.y - 24, `-${damage}`, '#ff6b6b');
      this.cameras.main.shake(80, 0.004);
      this.paintHealth();
      if (this.hero.hp === 0) this.#knockOut();
    }
  }

  #regenerate(time: number) {
    if (time - this.#lastHurt < 4000 || time < this.#nextRegen || this.hero.hp === this.hero.maxHp) return;
    this.#nextRegen = time + 800;
    this.hero.heal(1);
    this.paintHealth();
  }

  #knockOut() {
    this.toasts.show(
      'warn',
      'You were knocked out',
      'You come to in the Crafters’ Hall. Better gear would help.',
    );
    for (const enemy of this.enemies) enemy.provoked = false;
    this.#target = undefined;
    this.hero.stop();
    this.hero.setPosition(HERO_SPAWN.x * TILE, HERO_SPAWN.y * TILE);
    this.hero.heal(this.hero.maxHp);
    this.paintHealth();
    this.cameras.main.flash(300, 120, 0, 0);
  }

  #defeat(enemy: Enemy) {
    const { x, y } = enemy;
    const kind = enemy.kind;
    this.run.kills += 1;
    sparkBurst(this, x, y, kind.boss ? 0x9ff6ff : 0xffe3a3, kind.boss ? 40 : 18);
    if (kind.boss) this.cameras.main.shake(300, 0.01);
    floatingNumber(this, this.hero.x, this.hero.y - 40, `+${kind.xp} XP`, '#9fd3ff');
    if (this.progress.gain(kind.xp)) {
      this.hero.heal(this.hero.maxHp);
      this.toasts.show('success', `Hero level ${this.progress.level}!`, 'Fully healed; better loot awaits.');
      sparkBurst(this, this.hero.x, this.hero.y, 0xf4d58d, 30);
    }
    this.paintHealth();
    this.tweens.add({
      targets: enemy,
      alpha: 0,
      scale: 0.3,
      angle: 25,
      duration: 350,
      onComplete: () => enemy.destroy(),
    });
    this.enemies = this.enemies.filter((e) => e !== enemy);
    if (kind.respawn)
      this.time.delayedCall(kind.respawn * 1000, () => this.#spawn(kind.id, enemy.home.x, enemy.home.y));
    void this.#dropLoot(enemy, x, y);
    if (kind.boss) {
      this.run.won = true;
      // Long enough to see the boss's loot land.
      this.time.delayedCall(2500, () =>
        this.win.show({ ...this.run, seconds: (this.time.now - this.run.startedAt) / 1000 }),
      );
    }
  }

  async #dropLoot(enemy: Enemy, x: number, y: number) {
    const swirl = this.loot.summoning(x, y);
    try {
      const drop = await this.lootsmith.loot.drop<LootSprite>({
        enemy: enemy.kind.id,
        location: areaAt(x, y)?.name ?? 'Dungeon',
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
        this.toasts.show('success', `${best.rarity.toLowerCase()} drop!`, best.name, 'rare');
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
    // Loot flies toward the Bag button, wherever the layout put it (the canvas fills the window).
    const button = this.hud.bag.getBoundingClientRect();
    const bag = this.cameras.main.getWorldPoint(button.x + button.width / 2, button.y + button.height / 2);
    const taken = this.loot.pickUp(this.hero, bag, this.#clickedLoot);
    for (const item of taken) {
      this.run.itemsTaken += 1;
      this.state.pickedUp(item);
      const wearable = this.state.canWear(item) ? ' · wear it from your bag' : '';
      this.toasts.show(
        'info',
        `Picked up ${item.name}`,
        `${item.rarity.toLowerCase()} ${item.type.toLowerCase()}${wearable}`,
        'pickup',
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

  #goal() {
    const { state, door } = this;
    return objective({
      kills: this.run.kills,
      attack: this.hero.stats.attack,
      doorNeeds: door.needs,
      doorSeen: this.fog.isRevealed(DOOR_AREA),
      doorOpen: door.open,
      bossSeen: this.fog.isRevealed(BOSS_AREA),
      won: this.run.won,
      wearsSomething: state.slots.some((s) => s.item),
      canWearMore: state.items.some((e) => state.canWear(e.item) && !state.isWorn(e.item.id)),
      touch: touchFirst(),
    });
  }

  #nearDoor() {
    return !this.door.open && Phaser.Math.Distance.BetweenPoints(this.hero, this.door.front) <= DOOR_REACH;
  }

  #nearestStation() {
    return STATIONS.map((s) => ({
      ...s,
      d: Phaser.Math.Distance.Between(this.hero.x, this.hero.y, s.x * TILE, (s.y + 0.6) * TILE),
    }))
      .filter((s) => s.d <= STATION_REACH)
      .sort((a, b) => a.d - b.d)[0];
  }

  /** "E — use the Forge" above a station the hero stands at, in place of its name (which the hero hides). */
  #promptNearStation() {
    const near = this.panels.current ? undefined : this.#nearestStation();
    for (const [id, label] of this.#stationLabels) label.setVisible(id !== near?.id);
    this.#stationPrompt.setVisible(near !== undefined);
    if (!near) return;
    const name = this.state.game?.stations.find((s) => s.id === near.id)?.name ?? near.id;
    this.#stationPrompt
      .setText(touchFirst() ? `Tap to use the ${name}` : `E — use the ${name}`)
      .setPosition(near.x * TILE, near.y * TILE - 26);
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
