import type { CombineResult } from '../lootsmith-types.ts';
import type { StationId } from '../world/dungeon-map.ts';
import { fill, h, showResult } from './dom.ts';
import { itemCard } from './ItemCard.ts';
import { ItemPicker } from './ItemPicker.ts';
import { craftAsked } from './keep-worn.ts';
import { Panel, type PanelHost } from './Panel.ts';
import type { Services } from './services.ts';
import { showFailure } from './show-failure.ts';
import { stationLine } from './station-line.ts';

/** The intent's question and example, short enough for a phone's field (360 px wide). */
const MAKE = { label: 'What do you want to make?', example: 'e.g. “a fiery dagger”' };
const ENCHANT = { label: 'How should it change?', example: 'e.g. “burn hotter”' };

/**
 * Combine owned items at the station the hero stands at, with an intent in the player's words; lists
 * found recipes. At the Enchanting Altar a combine enchants: a piece of gear and what to put in it.
 */
export class CraftingPanel extends Panel {
  readonly #s: Services;
  readonly #picker: ItemPicker;
  readonly #intent = h('input', {
    type: 'text',
    name: 'intent',
    maxlength: 300,
    placeholder: MAKE.example,
    autocomplete: 'off',
  });
  readonly #forgeHere: (station: StationId) => void;
  /** The station the hero stands at, if any: crafting happens there. */
  #station: StationId | undefined;
  readonly #button = h('button', { type: 'button', class: 'primary', name: 'combine' }, 'Combine');
  readonly #result = h('div', { class: 'result', 'aria-live': 'polite' });
  #busy = false;

  constructor(host: PanelHost, services: Services, forgeHere: (station: StationId) => void) {
    super(host, 'crafting-panel', 'Crafting', 'panel-crafting');
    this.#s = services;
    this.#forgeHere = forgeHere;
    this.#picker = new ItemPicker(services.state, services.icons, { max: 6, onChange: () => this.#sync() });
    this.#button.addEventListener('click', () => void this.#combine());
    this.#intent.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') void this.#combine();
    });
    services.state.onChange(() => this.isOpen && this.render());
  }

  /** Opens at the station the hero stands at; elsewhere it says where to go. */
  openAt(station: StationId | undefined) {
    if (!this.#busy) fill(this.#result);
    this.#station = station;
    this.open();
  }

  render() {
    const at = this.#station;
    const enchant = at === 'enchanting_altar';
    const ask = enchant ? ENCHANT : MAKE;
    this.#intent.placeholder = ask.example;
    this.#picker.render();
    const recipes = this.#s.state.recipes;
    fill(
      this.body,
      h(
        'div',
        { class: 'crafting-layout' },
        h('div', { class: 'column' }, this.#picker.root),
        h(
          'div',
          { class: 'column' },
          stationLine(
            this.#s.state,
            at,
            at && { label: 'Forge something new here', go: () => this.#forgeHere(at) },
          ),
          enchant &&
            h(
              'p',
              { class: 'hint' },
              'Put in a piece of gear you own and what to enchant it with (an essence, a gem).',
            ),
          h('label', {}, ask.label, this.#intent),
          h('div', { class: 'action-bar' }, this.#button),
          this.#result,
        ),
        h(
          'div',
          { class: 'column recipes' },
          h('h3', {}, `Recipe book (${recipes.length})`),
          recipes.length === 0
            ? h('p', { class: 'hint' }, 'Combinations that work are written down here.')
            : h(
                'ul',
                { class: 'recipe-list' },
                ...recipes.map((r) =>
                  h(
                    'li',
                    {
                      title: 'Click to put these ingredients in the tray',
                      onclick: () =>
                        this.#picker.set(r.ingredients.map((i) => ({ id: i.item_id, quantity: i.quantity }))),
                    },
                    h('b', {}, r.result_name),
                    h(
                      'span',
                      { class: 'muted' },
                      ` ← ${r.ingredients.map((i) => `${i.quantity}× ${this.#s.state.item(i.item_id)?.name ?? 'an item you used up'}`).join(' + ')}`,
                    ),
                  ),
                ),
              ),
        ),
      ),
    );
    this.#sync();
  }

  #sync() {
    this.#button.disabled = this.#busy || this.#picker.total < 2 || !this.#station;
    this.#button.textContent = this.#busy
      ? 'Combining…'
      : this.#station === 'enchanting_altar'
        ? 'Enchant'
        : 'Combine';
  }

  async #combine() {
    if (this.#busy || this.#picker.total < 2 || !this.#station) return;
    this.#busy = true;
    this.#sync();
    fill(
      this.#result,
      h('div', { class: 'working' }, h('span', { class: 'spinner' }), 'The ingredients hiss and fuse…'),
    );
    try {
      const params = {
        ingredients: this.#picker.selection,
        station: this.#station as StationId,
        intent: this.#intent.value.trim() || undefined,
      };
      const result = await craftAsked(
        (consumeEquipped) => this.#s.plugin.crafting.combine({ ...params, consumeEquipped }),
        { verb: 'combine', done: 'combined' },
        this.#result,
      );
      if (!result) return;
      this.#showResult(result);
      if (result.success) {
        this.#picker.clear();
        await this.#s.state.refresh(this.#s.plugin);
      }
    } catch (e) {
      showFailure(this.#result, e, this.#s, 'combine');
    } finally {
      this.#busy = false;
      this.#sync();
    }
  }

  #showResult(result: CombineResult) {
    if (result.success && result.result_item) {
      const xp = `+${result.crafting_xp_earned} crafting XP`;
      showResult(
        this.#result,
        h(
          'div',
          { class: 'success' },
          h('b', {}, result.recipe_discovered ? 'New recipe discovered!' : 'Crafted!'),
          ` ${xp}`,
        ),
        itemCard(
          result.result_item,
          this.#s.icons,
          this.#s.state.effects,
          this.#s.state.mainStatOf(result.result_item),
        ),
      );
      this.#s.toasts.show('success', `Crafted ${result.result_item.name}`, xp);
      return;
    }
    showResult(
      this.#result,
      h(
        'div',
        { class: 'failure' },
        h('b', {}, 'It did not work.'),
        h('p', {}, result.message),
        (result.suggestions?.length ?? 0) > 0 &&
          h('ul', { class: 'suggestions' }, ...(result.suggestions ?? []).map((s) => h('li', {}, s))),
      ),
    );
  }
}
