import type { PlayerState } from '../player-state.ts';
import { fill, h } from './dom.ts';
import type { IconSource } from './IconSource.ts';
import { itemSlot } from './ItemCard.ts';
import { pressWord } from './touch.ts';

/** Owned items to click into a tray of chosen ones (click a chosen one to put it back). */
export class ItemPicker {
  readonly root = h('div', { class: 'picker' });
  readonly #chosen = new Map<string, number>();
  readonly #state: PlayerState;
  readonly #icons: IconSource;
  readonly #max: number;
  readonly #onChange: () => void;

  constructor(state: PlayerState, icons: IconSource, options: { max: number; onChange: () => void }) {
    this.#state = state;
    this.#icons = icons;
    this.#max = options.max;
    this.#onChange = options.onChange;
  }

  /** The chosen stacks, as the plugin takes them. */
  get selection(): Array<{ id: string; quantity: number }> {
    return [...this.#chosen].map(([id, quantity]) => ({ id, quantity }));
  }

  get total() {
    return [...this.#chosen.values()].reduce((a, b) => a + b, 0);
  }

  set(stacks: Array<{ id: string; quantity: number }>) {
    this.#chosen.clear();
    for (const s of stacks) this.#chosen.set(s.id, s.quantity);
    this.render();
    this.#onChange();
  }

  clear() {
    this.set([]);
  }

  render() {
    const tray = [...this.#chosen].flatMap(([id, quantity]) => {
      const item = this.#state.item(id);
      if (!item) return [];
      const slot = itemSlot(item, quantity, this.#icons, { 'data-role': 'chosen' });
      // A recipe can ask for more than the bag holds: the server will say what is missing.
      if (quantity > this.#state.owned(id)) slot.classList.add('missing');
      slot.addEventListener('click', () => this.#change(id, -1));
      return [slot];
    });
    const placeholders = Array.from({ length: Math.max(0, 4 - tray.length) }, () =>
      h('div', { class: 'slot empty' }),
    );
    const items = this.#state.items.map(({ item, quantity }) => {
      const left = quantity - (this.#chosen.get(item.id) ?? 0);
      const slot = itemSlot(item, left, this.#icons, { 'data-role': 'owned' });
      slot.disabled = left <= 0 || this.total >= this.#max;
      slot.addEventListener('click', () => this.#change(item.id, 1));
      return slot;
    });
    fill(
      this.root,
      h('div', { class: 'label' }, `Chosen (${this.total}/${this.#max}) — ${pressWord()} to put back`),
      h('div', { class: 'tray' }, ...tray, ...placeholders),
      h('div', { class: 'label' }, `Your items — ${pressWord()} to add`),
      h('div', { class: 'grid small-grid' }, ...items),
    );
  }

  #change(id: string, by: number) {
    const next = (this.#chosen.get(id) ?? 0) + by;
    if (next <= 0) this.#chosen.delete(id);
    else this.#chosen.set(id, next);
    this.render();
    this.#onChange();
  }
}
