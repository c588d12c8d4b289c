import type { LootSprite } from '@lootsmith/plugin';
import Phaser from 'phaser';
import { Combat, type EffectLog } from '../dungeon/combat.ts';
import type { DungeonContext, Run } from '../dungeon/context.ts';
import { DOOR_AREA, Exploration } from '../dungeon/exploration.ts';
import { DungeonInput } from '../dungeon/input.ts';
import { Loot } from '../dungeon/loot.ts';
import { Monsters } from '../dungeon/monsters.ts';
import { HeroOrders } from '../dungeon/orders.ts';
import { Stations } from '../dungeon/stations.ts';
import { DungeonUi } from '../dungeon/ui.ts';
import type { HeroProgress } from '../hero-progress.ts';
import { type GoalPlace, objective } from '../objective.ts';
import type { PlayerState } from '../player-state.ts';
import type { Toasts } from '../ui/Toasts.ts';
import { touchFirst } from '../ui/touch.ts';
import { AREAS, BOSS_AREA, DOOR_NEEDS, HERO_SPAWN, MAP_COLS, MAP_ROWS, TILE } from '../world/dungeon-map.ts';
import { drawDungeon } from '../world/dungeon-view.ts';
import type { Enemy } from '../world/Enemy.ts';
import { FrostDoor } from '../world/FrostDoor.ts';
import { GoalArrow } from '../world/GoalArrow.ts';
import { Hero } from '../world/Hero.ts';

/** How long the boss's loot has to land before the victory screen covers it. */
const VICTORY_AFTER_MS = 2500;

/** The camera's zoom for a viewport: about 26 × 16 tiles on a desktop, never below 1. */
function zoomFor(width: number, height: number) {
  const fit = Math.min(width / (26 * TILE), height / (16 * TILE));
  return Phaser.Math.Clamp(Math.floor(fit * 4) / 4, 1, 2);
}

/** What the dungeon shows, read only: for the development and test hook (`demo-hook.ts`). */
export interface DungeonView {
  readonly hero: Readonly<Pick<Hero, 'x' | 'y' | 'hp' | 'stats' | 'shown'>>;
  readonly hits: readonly number[];
  readonly effects: Readonly<EffectLog>;
  readonly enemies: ReadonlyArray<
    Readonly<
      Pick<
        Enemy,
        | 'uid'
        | 'kind'
        | 'hp'
        | 'alive'
        | 'visible'
        | 'x'
        | 'y'
        | 'speed'
        | 'slowedBy'
        | 'burning'
        | 'stompComing'
      >
    >
  >;
  /** The run so far, with its game-clock seconds (what the victory screen shows). */
  readonly run: Readonly<Run & { seconds: number }>;
  readonly door: Readonly<Pick<FrostDoor, 'open' | 'cracks' | 'hp' | 'needs' | 'x' | 'y'>>;
  readonly revealed: ReadonlySet<string>;
  readonly won: boolean;
  readonly loot: ReadonlyArray<Readonly<Pick<LootSprite, 'item' | 'icon' | 'pending' | 'x' | 'y'>>>;
  readonly stationPrompt: Stations['shown'];
  /** The id of the open panel, if any. */
  readonly panel: string | undefined;
  readonly camera: Readonly<Pick<Phaser.Cameras.Scene2D.Camera, 'worldView' | 'zoom' | 'x' | 'y'>>;
  /** The goal arrow beside the hero: whether it shows, and its angle (radians, 0 = east). */
  readonly arrow: Readonly<Pick<GoalArrow, 'visible' | 'rotation'>>;
}

/**
 * The playable dungeon: rooms revealed as the hero walks in, monsters with loot, gear, the boss.
 * The scene builds its parts and runs them each frame; each part holds one idea (see `../dungeon/`).
 */
export class DungeonScene extends Phaser.Scene {
  readonly #state: PlayerState;
  readonly #progress: HeroProgress;
  readonly #toasts: Toasts;
  readonly #uiRoot: HTMLElement;
  #run!: Run;
  #hero!: Hero;
  #door!: FrostDoor;
  #stations!: Stations;
  #monsters!: Monsters;
  #exploration!: Exploration;
  #combat!: Combat;
  #ui!: DungeonUi;
  #loot!: Loot;
  #orders!: HeroOrders;
  #input!: DungeonInput;
  #arrow!: GoalArrow;

  constructor(state: PlayerState, progress: HeroProgress, toasts: Toasts, uiRoot: HTMLElement) {
    super('Dungeon');
    this.#state = state;
    this.#progress = progress;
    this.#toasts = toasts;
    this.#uiRoot = uiRoot;
  }

  create() {
    this.#run = { startedAt: this.time.now, kills: 0, itemsTaken: 0, itemsMade: 0, knockOuts: 0, won: false };
    drawDungeon(this);
    this.#stations = new Stations(this, this.#state);
    this.#hero = new Hero(this, HERO_SPAWN.x * TILE, HERO_SPAWN.y * TILE);
    const context: DungeonContext = {
      scene: this,
      plugin: this.lootsmith,
      state: this.#state,
      progress: this.#progress,
      toasts: this.#toasts,
      hero: this.#hero,
      run: this.#run,
    };
    this.#door = new FrostDoor(this, DOOR_NEEDS);
    this.#monsters = new Monsters(this, (enemy) => this.#exploration.seenAt(enemy.home.x, enemy.home.y));
    this.#exploration = new Exploration(this, this.#toasts, this.#door);
    this.#combat = new Combat(context, this.#monsters, {
      healthChanged: () => this.#ui.paintHealth(),
      levelChanged: () => this.#ui.applyGear(),
      knockedOut: () => this.#orders.clear(),
      killed: (enemy, at) => {
        void this.#loot.drop(enemy, at);
        if (enemy.kind.boss) this.#win();
      },
    });
    this.#ui = new DungeonUi(context, this.#uiRoot, () => this.#stations.nearest(this.#hero)?.id);
    this.#loot = new Loot(context, this.#ui.icons, this.#ui.hud.bag);
    this.#orders = new HeroOrders(context, {
      combat: this.#combat,
      door: this.#door,
      stations: this.#stations,
      openStation: (id) => this.#ui.openStation(id),
    });
    this.#input = new DungeonInput(this, {
      ui: this.#ui,
      orders: this.#orders,
      loot: this.#loot,
      door: this.#door,
    });
    this.#arrow = new GoalArrow(this);
    this.#followHero();
    this.cameras.main.fadeIn(400, 11, 10, 16);
  }

  override update(time: number, delta: number) {
    const paused = this.#ui.panel !== undefined;
    this.#stations.prompt(paused ? undefined : this.#hero);
    const goal = this.#goal();
    this.#ui.hud.setGoal(goal.text);
    this.#arrow.point(this.#hero, this.#placeOf(goal.place));
    // An open panel pauses the dungeon: nothing moves or fights while the player reads or crafts.
    if (paused) {
      this.#hero.step(0, new Phaser.Math.Vector2());
      return;
    }
    const direction = this.#input.direction();
    if (direction.lengthSq() > 0) this.#orders.clear();
    this.#orders.update(time);
    this.#hero.step(delta, direction);
    const room = this.#exploration.visit(this.#hero);
    if (room) this.#ui.hud.setRoom(room);
    this.#combat.update(time, delta);
    this.#loot.collect();
  }

  /** What the dungeon shows, read only (the scene's parts exist once it has been created). */
  get view(): DungeonView {
    return {
      hero: this.#hero,
      hits: this.#combat.hits,
      effects: this.#combat.effects,
      enemies: this.#monsters.all,
      door: this.#door,
      revealed: this.#exploration.revealed,
      won: this.#run.won,
      run: { ...this.#run, seconds: (this.time.now - this.#run.startedAt) / 1000 },
      loot: this.#loot.onGround,
      stationPrompt: this.#stations.shown,
      panel: this.#ui.panel,
      camera: this.cameras.main,
      arrow: this.#arrow,
    };
  }

  /** The boss fell: the victory screen, once its loot has landed. */
  #win() {
    this.#run.won = true;
    this.time.delayedCall(VICTORY_AFTER_MS, () => this.#ui.showVictory());
  }

  #followHero() {
    const camera = this.cameras.main;
    camera.setBounds(0, 0, MAP_COLS * TILE, MAP_ROWS * TILE);
    camera.startFollow(this.#hero, true, 0.15, 0.15);
    const fit = () => camera.setZoom(zoomFor(this.scale.width, this.scale.height));
    fit();
    this.scale.on(Phaser.Scale.Events.RESIZE, fit);
    this.events.once(Phaser.Scenes.Events.SHUTDOWN, () => this.scale.off(Phaser.Scale.Events.RESIZE, fit));
  }

  #goal() {
    const state = this.#state;
    return objective({
      kills: this.#run.kills,
      attack: this.#hero.stats.attack,
      armed: state.wearsWeapon,
      doorNeeds: this.#door.needs,
      doorSeen: this.#exploration.seen(DOOR_AREA),
      doorOpen: this.#door.open,
      gallerySeen: this.#exploration.seen('gallery'),
      shrineSeen: this.#exploration.seen('shrine'),
      bossSeen: this.#exploration.seen(BOSS_AREA),
      won: this.#run.won,
      wearsSomething: state.slots.some((s) => s.item),
      canWearMore: state.items.some((e) => state.canWear(e.item) && !state.isWorn(e.item.id)),
      touch: touchFirst(),
    });
  }

  /** The map point of a goal's place: the nearest monster in sight, the door, a station, the throne. */
  #placeOf(place: GoalPlace | undefined): { x: number; y: number } | undefined {
    const hero = this.#hero;
    const nearest = (enemies: readonly Enemy[]) =>
      enemies.toSorted(
        (a, b) => Phaser.Math.Distance.BetweenPoints(hero, a) - Phaser.Math.Distance.BetweenPoints(hero, b),
      )[0];
    const living = this.#monsters.all.filter((e) => e.alive && e.visible);
    switch (place) {
      case 'monster':
        return nearest(living.filter((e) => !e.kind.boss));
      case 'giant':
        return living.find((e) => e.kind.boss);
      case 'door':
        return this.#door.front;
      case 'gallery':
      case 'shrine':
      case 'throne': {
        const room = AREAS.find((a) => a.id === (place === 'throne' ? BOSS_AREA : place));
        return room && { x: ((room.x0 + room.x1) / 2) * TILE, y: ((room.y0 + room.y1) / 2) * TILE };
      }
      default:
        return undefined;
    }
  }
}
