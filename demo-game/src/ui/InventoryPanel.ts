import type { InventoryEntry } from '../lootsmith-types.ts';
import type { PlayerState } from '../player-state.ts';
import { fill, h } from './dom.ts';
import type { IconSource } from './IconSource.ts';
import { itemCard, itemSlot } from './ItemCard.ts';
import { Panel, type PanelHost } from './Panel.ts';

const GRID_SLOTS = 30;
const RARITIES = ['MYTHIC', 'LEGENDARY', 'EPIC', 'RARE', 'UNCOMMON', 'COMMON'];

/** Gear first, best rarity first; materials at the end. */
const bagOrder = (a: InventoryEntry, b: InventoryEntry) =>
  Number(a.item.type === 'MATERIAL') - Number(b.item.type === 'MATERIAL') ||
  RARITIES.indexOf(a.item.rarity) - RARITIES.indexOf(b.item.rarity) ||
  a.item.name.localeCompare(b.item.name);

/** The bag: an icon grid; hovering shows an item's card, clicking pins it. */
export class InventoryPanel extends Panel {
  readonly #state: PlayerState;
  readonly #icons: IconSource;
  #pinned: string | undefined;

  constructor(host: PanelHost, state: PlayerState, icons: IconSource) {
    super(host, 'inventory-panel', 'Inventory', 'panel-inventory');
    this.#state = state;
    this.#icons = icons;
    state.onChange(() => this.isOpen && this.render());
  }

  render() {
    const entries = this.#state.items.toSorted(bagOrder);
    const details = h('div', { class: 'details' });
    const show = (id: string | undefined) => {
      const item = id ? this.#state.item(id) : undefined;
      fill(
        details,
        item ? itemCard(item, this.#icons) : h('p', { class: 'hint' }, 'Hover over an item to inspect it.'),
      );
    };
    const slots = entries.map(({ item, quantity }) => {
      const slot = itemSlot(item, quantity, this.#icons);
      slot.classList.toggle('pinned', item.id === this.#pinned);
      slot.addEventListener('pointerenter', () => show(item.id));
      slot.addEventListener('pointerleave', () => show(this.#pinned));
      slot.addEventListener('click', () => {
        this.#pinned = item.id;
        this.render();
      });
      return slot;
    });
    const empty = Array.from({ length: Math.max(0, GRID_SLOTS - slots.length) }, () =>
      h('div', { class: 'slot empty' }),
    );
    const count = entries.reduce((n, e) => n + e.quantity, 0);
    fill(
      this.body,
      h(
        'div',
        { class: 'inventory-layout' },
        h(
          'div',
          {},
          h('div', { class: 'grid', 'data-count': String(count) }, ...slots, ...empty),
          h('p', { class: 'muted small' }, `${count} items · crafting level ${this.#state.craftingLevel}`),
        ),
        details,
      ),
    );
    show(this.#pinned && this.#state.item(this.#pinned) ? this.#pinned : entries[0]?.item.id);
  }
}
