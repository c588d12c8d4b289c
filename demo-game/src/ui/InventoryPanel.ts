import type { InventoryEntry } from '../lootsmith-types.ts';
import type { PlayerState } from '../player-state.ts';
import { fill, h } from './dom.ts';
import { itemCard, itemSlot } from './ItemCard.ts';
import { itemActions } from './item-actions.ts';
import { Panel, type PanelHost } from './Panel.ts';
import { titleCase } from './rarity.ts';
import type { Services } from './services.ts';
import { pressWord } from './touch.ts';

const GRID_SLOTS = 30;

/** Gear first, best rarity first (the game's ladder runs from the most common up); stacks at the end. */
function bagOrder(state: PlayerState) {
  const ladder = state.game?.rarities.map((r) => r.id) ?? [];
  const stacks = (e: InventoryEntry) => Number(state.typeOf(e.item)?.stackable ?? false);
  return (a: InventoryEntry, b: InventoryEntry) =>
    stacks(a) - stacks(b) ||
    ladder.indexOf(b.item.rarity) - ladder.indexOf(a.item.rarity) ||
    a.item.name.localeCompare(b.item.name);
}

/** The bag: an icon grid; hovering shows an item's card, clicking chooses it (to wear or use). */
export class InventoryPanel extends Panel {
  readonly #s: Services;
  #chosen: string | undefined;

  constructor(host: PanelHost, services: Services) {
    super(host, 'inventory-panel', 'Bag', 'panel-inventory');
    this.#s = services;
    services.state.onChange(() => this.isOpen && this.render());
  }

  render() {
    const { state, icons } = this.#s;
    const entries = state.items.toSorted(bagOrder(state));
    if (!entries.some((e) => e.item.id === this.#chosen)) this.#chosen = entries[0]?.item.id;
    const details = h('div', { class: 'details' });
    // Hovering back and forth repaints only when the card changes, so its buttons stay put.
    let showing: string | undefined;
    const show = (id: string | undefined) => {
      const key = `${id}:${id === this.#chosen}`;
      if (key === showing) return;
      showing = key;
      const item = id ? state.item(id) : undefined;
      if (!item) return fill(details, h('p', { class: 'hint' }, 'Defeat monsters: their loot lands here.'));
      fill(
        details,
        itemCard(item, icons, state.effects, state.mainStatOf(item)),
        id === this.#chosen
          ? itemActions(item, this.#s)
          : h('p', { class: 'hint small' }, `${titleCase(pressWord())} it to wear or use it.`),
      );
    };
    const slots = entries.map(({ item, quantity }) => {
      const slot = itemSlot(item, quantity, icons);
      slot.classList.toggle('pinned', item.id === this.#chosen);
      if (state.isWorn(item.id)) slot.append(h('span', { class: 'worn-badge', title: 'Worn' }, 'E'));
      slot.addEventListener('pointerenter', () => show(item.id));
      slot.addEventListener('pointerleave', () => show(this.#chosen));
      slot.addEventListener('click', () => {
        // Only the choice and the card change: the grid stays, so no icon blinks.
        this.#chosen = item.id;
        for (const other of slots) other.classList.toggle('pinned', other === slot);
        show(item.id);
        // On a narrow screen the card sits below the grid: bring it into view.
        details.scrollIntoView({ block: 'nearest' });
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
          h('p', { class: 'muted small' }, `${count} items · E marks what you wear`),
        ),
        details,
      ),
    );
    show(this.#chosen);
  }
}
