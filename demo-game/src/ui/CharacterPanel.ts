import type { ItemType } from '@lootsmith/plugin';
import { itemEffects } from '../hero-effects.ts';
import { defenceLets, type HeroStats, hitText } from '../hero-stats.ts';
import { fill, h } from './dom.ts';
import { effectLine, itemCard, itemTile } from './ItemCard.ts';
import { itemActions } from './item-actions.ts';
import { Panel, type PanelHost } from './Panel.ts';
import { titleCase } from './rarity.ts';
import type { Services } from './services.ts';

const SLOT_NAMES: Partial<Record<ItemType, string>> = { EQUIPMENT: 'Cloak' };
const slotName = (slot: ItemType) => SLOT_NAMES[slot] ?? titleCase(slot);

/** The hero: what is worn in each slot, what it all adds up to, and gear from the bag to put on. */
export class CharacterPanel extends Panel {
  readonly #s: Services;
  readonly #hero: () => { stats: HeroStats; hp: number; level: number };
  #slot: ItemType | undefined;

  constructor(
    host: PanelHost,
    services: Services,
    hero: () => { stats: HeroStats; hp: number; level: number },
  ) {
    super(host, 'hero-panel', 'Hero', 'panel-hero');
    this.#s = services;
    this.#hero = hero;
    services.state.onChange(() => this.isOpen && this.render());
  }

  render() {
    const { state, icons } = this.#s;
    const slots = state.slots;
    this.#slot ??= slots.find((s) => s.item)?.slot ?? slots[0]?.slot;
    const paperDoll = slots.map(({ slot, item }) =>
      h(
        'button',
        {
          type: 'button',
          class: `gear-slot${slot === this.#slot ? ' chosen' : ''}${item ? '' : ' vacant'}`,
          'data-slot': slot,
          onclick: () => {
            this.#slot = slot;
            this.render();
            this.root.querySelector('.slot-details')?.scrollIntoView({ block: 'nearest' });
          },
        },
        item ? itemTile(item, icons) : h('span', { class: 'slot empty' }),
        h('span', { class: 'gear-slot-name' }, slotName(slot)),
      ),
    );
    fill(
      this.body,
      h(
        'div',
        { class: 'hero-layout' },
        h(
          'div',
          { class: 'column' },
          h('div', { class: 'paper-doll' }, ...paperDoll),
          this.#statList(),
          this.#effectList(),
        ),
        h('div', { class: 'column slot-details' }, ...this.#details()),
      ),
    );
  }

  #statList() {
    const { stats, hp, level } = this.#hero();
    const rows: Array<[string, string]> = [
      ['Attack', `${stats.attack} (hits ${hitText(stats.attack)})`],
      ['Defense', `${stats.defense} (${Math.round(100 * (1 - defenceLets(stats.defense)))}% less damage)`],
      ['Health', `${Math.ceil(hp)} / ${stats.maxHp}`],
      ['Speed', String(stats.speed)],
      ['Critical hits', `${Math.round(stats.crit * 100)}%`],
      ...Object.entries(stats.resist)
        .filter(([, v]) => v > 0)
        .map(([element, v]): [string, string] => [`${titleCase(element)} resistance`, `${v}%`]),
      ['Level', `${level} (loot drops at this level)`],
    ];
    return h(
      'dl',
      { class: 'hero-stats' },
      ...rows.flatMap(([name, value]) => [h('dt', {}, name), h('dd', { 'data-stat': name }, value)]),
    );
  }

  /** What the worn gear's effects do in a fight, each with the item that brings it. */
  #effectList(): HTMLElement {
    const { state } = this.#s;
    const lines = state.slots.flatMap(({ item }) =>
      item
        ? itemEffects(item).flatMap((e) => effectLine(e, state.effects).map((line) => ({ line, item })))
        : [],
    );
    return h(
      'div',
      { class: 'hero-effects' },
      h('div', { class: 'label' }, 'Effects worn'),
      lines.length === 0
        ? h('p', { class: 'hint small' }, 'None yet: uncommon and rarer gear may carry one.')
        : h(
            'ul',
            { class: 'item-effects' },
            ...lines.map(({ line, item }) =>
              h(
                'li',
                { 'data-effect': line.id },
                h('b', {}, line.name),
                ` — ${line.text} `,
                h('span', { class: 'muted' }, `(${item.name})`),
              ),
            ),
          ),
    );
  }

  #details(): Array<HTMLElement | false> {
    const { state, icons } = this.#s;
    const slot = this.#slot;
    if (!slot) return [h('p', { class: 'hint' }, 'Loading your gear…')];
    const worn = state.slots.find((s) => s.slot === slot)?.item;
    const fits = state.items.filter((e) => state.slotOf(e.item) === slot && e.item.id !== worn?.id);
    const choices = fits.map(({ item }) =>
      h(
        'li',
        {},
        itemTile(item, icons),
        h('span', { class: 'choice-name' }, item.name),
        itemActions(item, this.#s) ?? false,
      ),
    );
    return [
      h('h3', {}, slotName(slot)),
      worn
        ? itemCard(worn, icons, state.effects, state.mainStatOf(worn))
        : h('p', { class: 'hint' }, 'Nothing worn here.'),
      worn ? (itemActions(worn, this.#s) ?? false) : false,
      choices.length > 0 && h('div', { class: 'label' }, `In your bag for this slot`),
      choices.length > 0 && h('ul', { class: 'gear-choices' }, ...choices),
      !worn &&
        choices.length === 0 &&
        h(
          'p',
          { class: 'hint small' },
          `No ${slotName(slot).toLowerCase()} in your bag yet: find or forge one.`,
        ),
    ];
  }
}
