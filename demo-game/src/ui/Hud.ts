import type { LootsmithOp, LootsmithPlugin } from '@lootsmith/plugin';
import { type HeroStats, hitText } from '../hero-stats.ts';
import type { PlayerState } from '../player-state.ts';
import { fill, h } from './dom.ts';

const WORKING: Record<LootsmithOp, string> = {
  drop: 'Summoning loot',
  combine: 'Combining',
  createItem: 'Forging',
  icon: 'Painting icons',
  inventory: 'Opening your bag',
  gameDefinition: 'Reading the rules',
  equipment: 'Checking your gear',
  equip: 'Putting it on',
  unequip: 'Taking it off',
  use: 'Drinking',
};
/** Quick calls that need no progress pill. */
const QUIET = new Set<LootsmithOp>(['inventory', 'gameDefinition', 'equipment', 'equip', 'unequip', 'use']);

export interface HudActions {
  inventory: () => void;
  hero: () => void;
  crafting: () => void;
  forge: () => void;
  potion: () => void;
}

/** A HUD button; it lets go of the focus once clicked, so Space attacks rather than clicking it again. */
const button = (name: string, label: string, key: string, action: () => void) =>
  h(
    'button',
    {
      type: 'button',
      class: 'hud-button',
      name,
      onclick: (event: Event) => {
        (event.currentTarget as HTMLElement).blur();
        action();
      },
    },
    h('span', {}, label),
    h('kbd', {}, key),
  );

/**
 * Health, hero stats, crafting level, the room and the current goal, the panel buttons (a toolbar at
 * the bottom on narrow screens), a potion button, a progress pill while anything generates, and
 * hints for keys or for touch.
 */
export class Hud {
  readonly root: HTMLElement;
  readonly bag: HTMLElement;
  readonly #hp = h('div', { class: 'bar-fill hp' });
  readonly #hpText = h('span', {}, '');
  readonly #xp = h('div', { class: 'bar-fill xp' });
  readonly #xpText = h('span', {}, '');
  readonly #stats = h('div', { class: 'hud-statline' });
  readonly #progress = h('div', { class: 'progress', hidden: true, role: 'progressbar' });
  readonly #progressText = h('span', {}, '');
  readonly #room = h('div', { class: 'room-name' }, '');
  readonly #goal = h('div', { class: 'objective' }, '');
  readonly #potion: HTMLButtonElement;
  readonly #potionCount = h('span', { class: 'count' }, '');
  readonly #active = new Map<number, { op: LootsmithOp; retry?: number }>();

  constructor(plugin: LootsmithPlugin, state: PlayerState, actions: HudActions) {
    this.bag = button('inventory', '◈ Bag', 'I', actions.inventory);
    this.#potion = button('potion', '⚗ ', 'Q', actions.potion);
    // On a phone the word gives way, never the count.
    this.#potion.firstElementChild?.append(h('span', { class: 'word' }, 'Potion'), this.#potionCount);
    this.#progress.append(
      h('span', { class: 'spinner' }),
      this.#progressText,
      h('div', { class: 'progress-track' }, h('div', {})),
    );
    this.root = h(
      'div',
      { class: 'hud' },
      h(
        'div',
        { class: 'hud-stats' },
        h('div', { class: 'bar' }, this.#hp, h('span', { class: 'bar-text' }, '❤ ', this.#hpText)),
        h('div', { class: 'bar' }, this.#xp, h('span', { class: 'bar-text' }, '⚒ ', this.#xpText)),
        this.#stats,
      ),
      h('div', { class: 'hud-place' }, this.#room, this.#goal),
      h(
        'nav',
        { class: 'hud-buttons', 'aria-label': 'Panels' },
        this.bag,
        button('hero', '♞ Hero', 'H', actions.hero),
        button('crafting', '⚒ Craft', 'C', actions.crafting),
        button('forge', '♨ Forge', 'F', actions.forge),
        this.#potion,
      ),
      this.#progress,
      h(
        'div',
        { class: 'hints' },
        h(
          'span',
          { class: 'keys-hint' },
          'WASD or click to move · click an enemy or Space to attack · E at a station · Q drinks a potion',
        ),
        h('span', { class: 'touch-hint' }, 'Tap to walk · tap an enemy to fight · tap a station to use it'),
      ),
    );
    plugin.on('request', ({ id, op }) => {
      this.#active.set(id, { op });
      this.#paintProgress();
    });
    plugin.on('progress', (p) => {
      if (p.stage === 'done') this.#active.delete(p.id);
      else if (p.stage === 'retrying') this.#active.set(p.id, { op: p.op, retry: p.attempt });
      this.#paintProgress();
    });
    state.onChange(() => this.#paintState(state));
    this.#paintState(state);
  }

  setHealth(hp: number, stats: HeroStats, level: number) {
    this.#hp.style.width = `${(100 * hp) / stats.maxHp}%`;
    this.#hpText.textContent = `${Math.ceil(hp)} / ${stats.maxHp} · level ${level}`;
    this.#stats.textContent = `⚔ ${stats.attack} atk (hits ${hitText(stats.attack)}) · ♜ ${stats.defense} def`;
  }

  setRoom(name: string) {
    if (this.#room.textContent === name) return;
    this.#room.textContent = name;
    this.#room.classList.remove('flash');
    void this.#room.offsetWidth;
    this.#room.classList.add('flash');
  }

  setGoal(text: string) {
    if (this.#goal.textContent !== text) this.#goal.textContent = text;
  }

  #paintState(state: PlayerState) {
    const per = state.game?.xp_per_level ?? 100;
    const into = state.craftingXp % per;
    this.#xp.style.width = `${(100 * into) / per}%`;
    // On a phone the bar is half the screen wide: "⚒ Craft lv 2 · 40/100" rather than cut short.
    fill(
      this.#xpText,
      h('span', { class: 'wide' }, 'Crafting'),
      h('span', { class: 'narrow' }, 'Craft'),
      ` lv ${state.craftingLevel} · ${into}/${per}`,
      h('span', { class: 'wide' }, ' XP'),
    );
    const potions = state.consumables.reduce((n, e) => n + e.quantity, 0);
    this.#potion.hidden = potions === 0;
    this.#potionCount.textContent = ` ×${potions}`;
  }

  #paintProgress() {
    const shown = [...this.#active.values()].filter((a) => !QUIET.has(a.op));
    const latest = shown.at(-1);
    this.#progress.hidden = !latest;
    if (!latest) return;
    const retry = latest.retry ? ` (retry ${latest.retry - 1})` : '';
    const more = shown.length > 1 ? ` · ${shown.length} jobs` : '';
    this.#progressText.textContent = `${WORKING[latest.op]}…${retry}${more}`;
  }
}
