import { fill, h } from './dom.ts';
import { itemTile } from './ItemCard.ts';
import { Panel, type PanelHost } from './Panel.ts';
import type { Services } from './services.ts';

export interface RunSummary {
  seconds: number;
  kills: number;
  itemsTaken: number;
  itemsMade: number;
  knockOuts: number;
}

const clock = (seconds: number) =>
  `${Math.floor(seconds / 60)}:${String(Math.floor(seconds % 60)).padStart(2, '0')}`;

/** The victory screen: how the run went and the gear that won it. */
export class WinPanel extends Panel {
  readonly #s: Services;
  readonly #newHero: () => void;
  #summary: RunSummary = { seconds: 0, kills: 0, itemsTaken: 0, itemsMade: 0, knockOuts: 0 };

  constructor(host: PanelHost, services: Services, newHero: () => void) {
    super(host, 'win-panel', 'Victory!', 'panel-win');
    this.#s = services;
    this.#newHero = newHero;
  }

  show(summary: RunSummary) {
    this.#summary = summary;
    this.open();
  }

  render() {
    const { state, icons } = this.#s;
    const worn = state.slots.flatMap((s) => (s.item ? [s.item] : []));
    const { seconds, kills, itemsTaken, itemsMade, knockOuts } = this.#summary;
    fill(
      this.body,
      h('p', { class: 'win-title' }, 'The Frost Giant falls, and the Frozen Throne is yours.'),
      h(
        'dl',
        { class: 'win-stats' },
        h('dt', {}, 'Time'),
        h('dd', {}, clock(seconds)),
        h('dt', {}, 'Monsters defeated'),
        h('dd', {}, String(kills)),
        h('dt', {}, 'Loot picked up'),
        h('dd', {}, String(itemsTaken)),
        h('dt', {}, 'Items you made'),
        h('dd', {}, String(itemsMade)),
        h('dt', {}, 'Knocked out'),
        h('dd', {}, knockOuts ? `${knockOuts} ${knockOuts === 1 ? 'time' : 'times'}` : 'never'),
      ),
      h('div', { class: 'label' }, 'The gear that won it'),
      worn.length
        ? h(
            'ul',
            { class: 'win-gear' },
            ...worn.map((item) => h('li', {}, itemTile(item, icons), h('span', {}, item.name))),
          )
        : h('p', { class: 'hint' }, 'Bare-handed?! A legend is born.'),
      h(
        'div',
        { class: 'row action-bar' },
        h(
          'button',
          { type: 'button', class: 'primary', name: 'keep-playing', onclick: () => this.close() },
          'Keep exploring',
        ),
        h(
          'button',
          { type: 'button', class: 'secondary', name: 'new-hero', onclick: this.#newHero },
          'New hero',
        ),
      ),
    );
  }
}
