import type { ItemType } from '../lootsmith-types.ts';
import type { StationId } from '../world/dungeon-map.ts';
import { fill, h, showResult } from './dom.ts';
import { itemCard } from './ItemCard.ts';
import { ItemPicker } from './ItemPicker.ts';
import { craftAsked } from './keep-worn.ts';
import { Panel, type PanelHost } from './Panel.ts';
import { titleCase } from './rarity.ts';
import type { Services } from './services.ts';
import { showFailure } from './show-failure.ts';
import { stationLine } from './station-line.ts';

const FOCUS = ['attack', 'defense', 'magic', 'speed', 'health', 'mana', 'crit_chance', 'luck'];
const COLOURS = ['crimson', 'azure', 'emerald', 'gold', 'obsidian', 'ivory'];
const FINISHES = ['rugged', 'ornate', 'elegant', 'runic'];

/** Create an item from materials and parameters at the station the hero stands at (stations need skill). */
export class ForgePanel extends Panel {
  readonly #s: Services;
  readonly #picker: ItemPicker;
  readonly #combineHere: (station: StationId) => void;
  /** The station the hero stands at, if any: forging happens there. */
  #station: StationId | undefined;
  readonly #type = h('select', { name: 'type' });
  readonly #description = h('textarea', {
    name: 'description',
    maxlength: 300,
    rows: 2,
    placeholder: 'Describe it: “a sturdy oak shield banded with iron”',
  });
  readonly #colour = h(
    'select',
    { name: 'colour' },
    ...COLOURS.map((c) => h('option', { value: c }, titleCase(c))),
  );
  readonly #finish = h(
    'select',
    { name: 'finish' },
    ...FINISHES.map((f) => h('option', { value: f }, titleCase(f))),
  );
  readonly #glow = h('input', { type: 'checkbox', name: 'glow' });
  readonly #focus = new Set<string>(['attack']);
  readonly #button = h('button', { type: 'button', class: 'primary', name: 'create' }, 'Create item');
  readonly #result = h('div', { class: 'result', 'aria-live': 'polite' });
  #busy = false;

  constructor(host: PanelHost, services: Services, combineHere: (station: StationId) => void) {
    super(host, 'forge-panel', 'Forge an item', 'panel-forge');
    this.#s = services;
    this.#combineHere = combineHere;
    this.#picker = new ItemPicker(services.state, services.icons, { max: 6, onChange: () => this.#sync() });
    this.#button.addEventListener('click', () => void this.#create());
    services.state.onChange(() => this.isOpen && this.render());
  }

  /** Opens at the station the hero stands at; elsewhere it says where to go. */
  openAt(station: StationId | undefined) {
    // A new visit starts clean: the last attempt's message belongs to that attempt.
    if (!this.#busy) fill(this.#result);
    this.#station = station;
    this.open();
  }

  render() {
    const at = this.#station;
    this.#fillTypes();
    this.#picker.render();
    const chips = FOCUS.map((f) =>
      h(
        'button',
        {
          type: 'button',
          class: `chip${this.#focus.has(f) ? ' on' : ''}`,
          'data-focus': f,
          onclick: () => {
            if (this.#focus.has(f)) this.#focus.delete(f);
            else if (this.#focus.size < 4) this.#focus.add(f);
            this.render();
          },
        },
        titleCase(f),
      ),
    );
    fill(
      this.body,
      h(
        'div',
        { class: 'forge-layout' },
        h('div', { class: 'column' }, this.#picker.root),
        h(
          'div',
          { class: 'column' },
          stationLine(
            this.#s.state,
            at,
            at && { label: 'Combine here instead', go: () => this.#combineHere(at) },
          ),
          h('label', {}, 'Type', this.#type),
          h('label', {}, 'Description', this.#description),
          h('div', { class: 'label' }, 'Focus (up to 4)'),
          h('div', { class: 'chips' }, ...chips),
          h(
            'div',
            { class: 'row' },
            h('label', {}, 'Colour', this.#colour),
            h('label', {}, 'Finish', this.#finish),
            h('label', { class: 'check' }, this.#glow, 'Glowing'),
          ),
          h(
            'div',
            { class: 'row action-bar' },
            this.#button,
            this.#s.state.game &&
              h(
                'span',
                { class: 'muted small limit' },
                `Limit: ${this.#s.state.game.create_item.per_hour} creations per hour`,
              ),
          ),
          this.#result,
        ),
      ),
    );
    this.#sync();
  }

  #fillTypes() {
    const station = this.#s.state.game?.stations.find((s) => s.id === this.#station);
    const current = this.#type.value;
    const types = station?.types ?? [];
    fill(this.#type, ...types.map((t) => h('option', { value: t, selected: t === current }, titleCase(t))));
  }

  #sync() {
    this.#button.disabled = this.#busy || this.#picker.total < 1 || !this.#station;
    this.#button.textContent = this.#busy ? 'Forging…' : 'Create item';
  }

  async #create() {
    const station = this.#station;
    if (this.#busy || this.#picker.total < 1 || !station) return;
    this.#busy = true;
    this.#sync();
    showResult(
      this.#result,
      h('div', { class: 'working' }, h('span', { class: 'spinner' }), 'Hammer on anvil…'),
    );
    const type = this.#type.value as ItemType;
    try {
      const params = {
        station,
        materials: this.#picker.selection,
        type,
        description: this.#description.value.trim() || `A ${titleCase(type).toLowerCase()} forged by hand`,
        focusAttributes: [...this.#focus],
        visualPreferences: {
          colour: this.#colour.value,
          finish: this.#finish.value,
          glowing: this.#glow.checked,
        },
      };
      // A worn item put in as a material goes only with the player's yes, as in a combine.
      const result = await craftAsked(
        (consumeEquipped) => this.#s.plugin.crafting.createItem({ ...params, consumeEquipped }),
        { verb: 'forge', done: 'forged' },
        this.#result,
      );
      if (!result) return;
      const xp = `+${result.crafting_xp} crafting XP`;
      showResult(
        this.#result,
        h('div', { class: 'success' }, h('b', {}, 'Forged!'), ` ${xp}`),
        itemCard(result.item, this.#s.icons, this.#s.state.effects, this.#s.state.mainStatOf(result.item)),
      );
      this.#s.toasts.show('success', `Created ${result.item.name}`, xp);
      this.#picker.clear();
      await this.#s.state.refresh(this.#s.plugin);
    } catch (e) {
      showFailure(this.#result, e, this.#s, 'create');
    } finally {
      this.#busy = false;
      this.#sync();
    }
  }
}
