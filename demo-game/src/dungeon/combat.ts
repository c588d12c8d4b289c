import Phaser from 'phaser';
import { type EffectId, PLAYED_EFFECTS } from '../hero-effects.ts';
import { damageTaken, rollDamage, SWING_EVERY } from '../hero-stats.ts';
import { HERO_SPAWN, TILE } from '../world/dungeon-map.ts';
import type { Enemy, EnemyBlow } from '../world/Enemy.ts';
import { floatingNumber, sparkBurst } from '../world/effects.ts';
import type { DungeonContext } from './context.ts';
import type { Monsters } from './monsters.ts';

/** How far past touching an enemy the hero's sword reaches, in pixels. */
const SWORD_REACH = 18;
/** How many of the hero's last hits are kept (the test hook reads them). */
const HITS_KEPT = 50;
/** Health comes back one point at a time once the hero has not been hurt for a while. */
const REGEN_AFTER_MS = 4000;
const REGEN_EVERY_MS = 800;
/** The regeneration effect's beat. */
const EFFECT_REGEN_EVERY_MS = 5000;
/** Hero XP a knock-out costs (about half a level). */
export const KNOCK_OUT_XP = 30;

/** How often each worn effect acted in play, and how much it did (health, damage or per cent slowed). */
export type EffectLog = Record<EffectId, { times: number; total: number }>;

/** What the rest of the dungeon hears from a fight. */
export interface CombatEvents {
  /** The hero's health or level changed: repaint it. */
  healthChanged(): void;
  /** The hero's level went up or down: its stats follow. */
  levelChanged(): void;
  /** The hero fell and woke up at the spawn: any order is void. */
  knockedOut(): void;
  /** A monster fell where it stood (loot, and for the boss the victory). */
  killed(enemy: Enemy, at: { x: number; y: number }): void;
}

/**
 * The fight between the hero and the monsters: the hero's swings and what they do, the monsters'
 * blows after defence and resistance, health coming back, knock-outs, and XP for each kill.
 */
export class Combat {
  readonly #c: DungeonContext;
  readonly #monsters: Monsters;
  readonly #events: CombatEvents;
  readonly #hits: number[] = [];
  readonly #effects = Object.fromEntries(
    PLAYED_EFFECTS.map((id) => [id, { times: 0, total: 0 }]),
  ) as EffectLog;
  #nextSwing = 0;
  #lastHurt = 0;
  #nextRegen = 0;
  #nextEffectRegen = 0;

  constructor(context: DungeonContext, monsters: Monsters, events: CombatEvents) {
    this.#c = context;
    this.#monsters = monsters;
    this.#events = events;
  }

  /** The hero's last hits, newest last. */
  get hits(): readonly number[] {
    return this.#hits;
  }

  /** What the worn effects did so far. */
  get effects(): Readonly<EffectLog> {
    return this.#effects;
  }

  /** Whether the hero may swing now; a swing that may starts the cooldown. */
  swingReady(): boolean {
    const now = this.#c.scene.time.now;
    if (now < this.#nextSwing) return false;
    this.#nextSwing = now + SWING_EVERY;
    return true;
  }

  /** Whether an enemy stands within the hero's sword reach (plus `extra` pixels). */
  inReach(enemy: Enemy, extra = 0): boolean {
    return this.#distance(enemy) <= enemy.kind.radius + this.#c.hero.radius + SWORD_REACH + extra;
  }

  /** The nearest living enemy the hero can see within reach. */
  enemyInReach(extra = 0): Enemy | undefined {
    return this.#monsters.all
      .filter((e) => e.alive && e.visible && this.inReach(e, extra))
      .sort((a, b) => this.#distance(a) - this.#distance(b))[0];
  }

  /** The hero's swing at an enemy, when the cooldown allows: a rolled hit, and a kill when it falls. */
  strike(enemy: Enemy) {
    if (!this.swingReady()) return;
    const { scene, hero } = this.#c;
    hero.swing(enemy);
    const { damage, crit } = rollDamage(hero.stats);
    this.#hits.push(damage);
    if (this.#hits.length > HITS_KEPT) this.#hits.shift();
    floatingNumber(
      scene,
      enemy.x,
      enemy.y - enemy.sprite.displayHeight * 0.6,
      crit ? `${damage}!` : String(damage),
      crit ? '#ffd166' : '#ffffff',
      crit,
    );
    const { lifeSteal, burn, frostSlow } = hero.effects;
    if (lifeSteal > 0) this.#heal('life_steal', Math.max(1, Math.round((damage * lifeSteal) / 100)));
    if (burn.damage > 0 && burn.seconds > 0) enemy.ignite(burn.damage, burn.seconds);
    if (frostSlow.percent > 0 && frostSlow.seconds > 0) {
      enemy.chill(frostSlow.percent, frostSlow.seconds);
      this.#acted('frost_slow', frostSlow.percent);
    }
    if (enemy.hit(damage, hero)) this.#defeat(enemy);
  }

  /** One frame of the fight: the monsters move and strike, burns tick, and the hero heals. */
  update(time: number, delta: number) {
    this.#monsters.step(time, delta, this.#c.hero, (enemy, blow) => this.#struck(enemy, blow, time));
    for (const enemy of [...this.#monsters.all]) {
      const burn = enemy.burnTick(time);
      if (!burn) continue;
      floatingNumber(
        this.#c.scene,
        enemy.x + 10,
        enemy.y - enemy.sprite.displayHeight * 0.4,
        String(burn),
        '#ff9a4d',
      );
      this.#acted('burn', burn);
      if (enemy.wound(burn)) this.#defeat(enemy);
    }
    this.#regenerate(time);
  }

  /** A monster's blow on the hero, blunted by defence and the matching resistance; thorns strike back. */
  #struck(enemy: Enemy, blow: EnemyBlow, time: number) {
    const { scene, hero } = this.#c;
    if (!blow.damage) {
      floatingNumber(scene, enemy.x, enemy.y + 20, 'stomp — missed', '#bfe6ff');
      return;
    }
    const damage = damageTaken(blow.damage, hero.stats, enemy.kind.element, this.#c.progress.level);
    hero.hurt(damage);
    this.#lastHurt = time;
    floatingNumber(scene, hero.x, hero.y - 24, `-${damage}`, '#ff6b6b', blow.stomp);
    scene.cameras.main.shake(80, 0.004);
    this.#events.healthChanged();
    const thorns = hero.effects.thorns;
    if (thorns > 0 && enemy.alive) {
      floatingNumber(
        scene,
        enemy.x - 10,
        enemy.y - enemy.sprite.displayHeight * 0.4,
        String(thorns),
        '#c9a0ff',
      );
      this.#acted('thorns', thorns);
      if (enemy.wound(thorns)) this.#defeat(enemy);
    }
    if (hero.hp === 0) this.#knockOut();
  }

  /** An unhurt hero heals a point at a time; the regeneration effect heals on its beat, hurt or not. */
  #regenerate(time: number) {
    const { hero } = this.#c;
    if (time >= this.#nextEffectRegen) {
      this.#nextEffectRegen = time + EFFECT_REGEN_EVERY_MS;
      if (hero.effects.regeneration > 0) this.#heal('regeneration', hero.effects.regeneration);
    }
    if (time - this.#lastHurt < REGEN_AFTER_MS || time < this.#nextRegen || hero.hp === hero.maxHp) return;
    this.#nextRegen = time + REGEN_EVERY_MS;
    hero.heal(1);
    this.#events.healthChanged();
  }

  /** An effect heals the hero (what it heals is counted; nothing at full health). */
  #heal(effect: EffectId, amount: number) {
    const { scene, hero } = this.#c;
    const healed = Math.min(amount, hero.maxHp - hero.hp);
    if (healed <= 0) return;
    hero.heal(healed);
    floatingNumber(scene, hero.x + 12, hero.y - 34, `+${healed}`, '#5fd35a');
    this.#acted(effect, healed);
    this.#events.healthChanged();
  }

  #acted(effect: EffectId, amount: number) {
    this.#effects[effect].times += 1;
    this.#effects[effect].total += amount;
  }

  /**
   * The hero wakes in the Crafters' Hall with full health, less some XP (a level may go); the
   * monsters forget the fight, and a boss gets its breath back while the hero is away.
   */
  #knockOut() {
    const { scene, hero, toasts, progress, run } = this.#c;
    run.knockOuts += 1;
    const lost = progress.lose(KNOCK_OUT_XP);
    toasts.show(
      'warn',
      'You were knocked out',
      `${lost > 0 ? `You lose ${lost} XP and come` : 'You come'} to in the Crafters’ Hall. Better gear and potions would help.`,
    );
    this.#monsters.calm();
    this.#events.levelChanged();
    this.#events.knockedOut();
    hero.stop();
    hero.setPosition(HERO_SPAWN.x * TILE, HERO_SPAWN.y * TILE);
    hero.heal(hero.maxHp);
    this.#events.healthChanged();
    scene.cameras.main.flash(300, 120, 0, 0);
  }

  /** A kill: sparks, XP (a level-up heals fully), the body fades, and the dungeon hears of it. */
  #defeat(enemy: Enemy) {
    const { scene, hero, progress, toasts, run } = this.#c;
    const { x, y, kind } = enemy;
    run.kills += 1;
    sparkBurst(scene, x, y, kind.boss ? 0x9ff6ff : 0xffe3a3, kind.boss ? 40 : 18);
    if (kind.boss) scene.cameras.main.shake(300, 0.01);
    floatingNumber(scene, hero.x, hero.y - 40, `+${kind.xp} XP`, '#9fd3ff');
    if (hero.effects.healOnKill > 0) this.#heal('heal_on_kill', hero.effects.healOnKill);
    if (progress.gain(kind.xp)) {
      this.#events.levelChanged();
      hero.heal(hero.maxHp);
      toasts.show('success', `Hero level ${progress.level}!`, 'Fully healed; better loot awaits.');
      sparkBurst(scene, hero.x, hero.y, 0xf4d58d, 30);
    }
    this.#events.healthChanged();
    this.#monsters.remove(enemy);
    this.#events.killed(enemy, { x, y });
  }

  #distance(enemy: Enemy) {
    return Phaser.Math.Distance.Between(this.#c.hero.x, this.#c.hero.y, enemy.x, enemy.y);
  }
}
