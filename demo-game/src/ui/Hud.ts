import type { LootsmithOp, LootsmithPlugin } from '@lootsmith/plugin';
import type { PlayerState } from '../player-state.ts';
import { h } from './dom.ts';

const WORKING: Record<LootsmithOp, string> = {
  drop: 'Summoning loot',
  combine: 'Combining',
  createItem: 'Forging',
  icon: 'Painting icons',
  inventory: 'Opening your bag',
  gameDefinition: 'Reading the rules',
};

export interface HudActions {
  inventory: () => void;
  crafting: () => void;
  forge: () => void;
}

/** Health, crafting level, the panel buttons, a progress pill while anything generates, and key hints. */
export class Hud {
  readonly root: HTMLElement;
  readonly bag: HTMLElement;
  readonly #hp = h('div', { class: 'bar-fill hp' });
  readonly #hpText = h('span', {}, '');
  readonly #xp = h('div', { class: 'bar-fill xp' });
  readonly #xpText = h('span', {}, '');
  readonly #progress = h('div', { class: 'progress', hidden: true, role: 'progressbar' });
  readonly #progressText = h('span', {}, '');
  readonly #room = h('div', { class: 'room-name' }, '');
  readonly #active = new Map<number, { op: LootsmithOp; retry?: number }>();

  constructor(plugin: LootsmithPlugin, state: PlayerState, actions: HudActions) {
    this.bag = h(
      'button',
      { type: 'button', class: 'hud-button', name: 'inventory', onclick: actions.inventory },
      '◈ Bag',
      h('kbd', {}, 'I'),
    );
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
      ),
      this.#room,
      h(
        'div',
        { class: 'hud-buttons' },
        this.bag,
        h(
          'button',
          { type: 'button', class: 'hud-button', name: 'crafting', onclick: actions.crafting },
          '⚗ Craft',
          h('kbd', {}, 'C'),
        ),
        h(
          'button',
          { type: 'button', class: 'hud-button', name: 'forge', onclick: actions.forge },
          '♨ Forge',
          h('kbd', {}, 'F'),
        ),
      ),
      this.#progress,
      h(
        'div',
        { class: 'hints' },
        'WASD / arrows or click to move · click an enemy or Space to attack · E at a station · walk over loot to pick it up',
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
    state.onChange(() => this.#paintXp(state));
    this.#paintXp(state);
  }

  /** Requests in flight, for the test hook. */
  get busy() {
    return this.#active.size;
  }

  setHealth(hp: number, max: number, level: number) {
    this.#hp.style.width = `${(100 * hp) / max}%`;
    this.#hpText.textContent = `${hp} / ${max} · hero level ${level}`;
  }

  setRoom(name: string) {
    if (this.#room.textContent === name) return;
    this.#room.textContent = name;
    this.#room.classList.remove('flash');
    void this.#room.offsetWidth;
    this.#room.classList.add('flash');
  }

  #paintXp(state: PlayerState) {
    const per = state.game?.xp_per_level ?? 100;
    const into = state.craftingXp % per;
    this.#xp.style.width = `${(100 * into) / per}%`;
    this.#xpText.textContent = `Crafting level ${state.craftingLevel} · ${into}/${per} XP`;
  }

  #paintProgress() {
    const shown = [...this.#active.values()].filter((a) => a.op !== 'inventory' && a.op !== 'gameDefinition');
    const latest = shown.at(-1);
    this.#progress.hidden = !latest;
    if (!latest) return;
    const retry = latest.retry ? ` (retry ${latest.retry - 1})` : '';
    const more = shown.length > 1 ? ` · ${shown.length} jobs` : '';
    this.#progressText.textContent = `${WORKING[latest.op]}…${retry}${more}`;
  }
}
