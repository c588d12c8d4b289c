import type {
  GameCheckResult,
  GameState,
  PlaygroundCombineResult,
  PlaygroundDropResult,
} from '@lootsmith/protocol';
import { api } from '../api.ts';
import { artSection } from '../art.ts';
import { field, h, select, show } from '../dom.ts';
import { percent } from '../format.ts';
import { facts, gameState } from '../game.ts';
import { badge, failure, itemCard, itemFacts, rarity } from '../parts.ts';

const STATE_TEXT: Record<GameState['file_state'], string> = {
  loaded: 'The file on disk is the definition loaded.',
  changed: 'The file on disk has changed since start-up: restart the server to load it.',
  invalid: 'The file on disk is now invalid: the server keeps the definition it loaded.',
  unreadable: 'The file on disk cannot be read: the server keeps the definition it loaded.',
};

const number = (name: string, value: number, min: number, max: number) =>
  h('input', { type: 'number', name, value, min, max, required: true });

export async function playgroundPage(view: HTMLElement) {
  const state = await gameState();
  const g = facts(state);
  const editor = h('textarea', { name: 'definition', rows: 18, spellcheck: false, class: 'code' });
  editor.value = JSON.stringify(state.definition, null, 2);
  const useCandidate = h('input', { type: 'checkbox', name: 'candidate' });
  const checked = h('div', { role: 'status' });
  /** The definition the playground runs with: the loaded one, or the edited one when asked. */
  const candidate = () => (useCandidate.checked ? JSON.parse(editor.value) : undefined);

  const enemy = select(
    'enemy',
    [
      ['', 'no enemy (tier 1)'],
      ...g.enemies.map((e): [string, string] => [e.id, `${e.name} (tier ${e.tier})`]),
    ],
    g.enemies[0]?.id,
  );
  const location = h('input', {
    name: 'location',
    list: 'locations',
    placeholder: 'anywhere',
    maxlength: 64,
  });
  const level = number('player_level', 5, 1, 100);
  const count = number('count', 3, 1, 8);
  const type = select('type', [
    ['', 'any type (rolled)'],
    ...g.loot_types.map((t): [string, string] => [t, t.toLowerCase()]),
  ]);
  const dropOut = h('div', { class: 'result', 'aria-live': 'polite' });
  const dropForm = h(
    'form',
    { class: 'filters' },
    field('Enemy', enemy),
    field('Location', location),
    h(
      'datalist',
      { id: 'locations' },
      (g.loot_pools?.locations ?? []).map((l) => h('option', { value: l })),
    ),
    field('Player level', level),
    field('Items', count),
    field('Type', type),
    h('button', { type: 'submit', class: 'primary' }, 'Drop'),
  );
  dropForm.addEventListener('submit', async (event) => {
    event.preventDefault();
    show(dropOut, h('p', { class: 'muted' }, 'Generating…'));
    try {
      const r = await api<PlaygroundDropResult>('POST', '/api/v1/admin/playground/drop', {
        enemy: enemy.value || undefined,
        location: location.value.trim() || undefined,
        player_level: Number(level.value),
        count: Number(count.value),
        type: type.value || undefined,
        definition: candidate(),
      });
      show(
        dropOut,
        h(
          'p',
          { class: 'muted' },
          `Tier ${r.site.tier}, served at level ${r.site.player_level}. Odds: `,
          Object.entries(r.odds)
            .filter(([, p]) => p > 0)
            .map(([name, p]) => [rarity(name), ` ${percent(p)} `]),
        ),
        h(
          'div',
          { class: 'grid wide' },
          r.items.map((item) => h('div', { class: 'dropped' }, itemCard(item), itemFacts(item))),
        ),
        h('p', { class: 'muted' }, 'Nothing was granted, stored or charged to a player.'),
      );
    } catch (err) {
      show(dropOut, failure(err));
    }
  });

  const ingredientRow = (i: number) =>
    h(
      'div',
      { class: 'ingredient' },
      field(
        `Ingredient ${i + 1}`,
        h('input', {
          name: `item_${i}`,
          list: 'materials',
          placeholder: i < 2 ? g.materials[i]?.id : 'material or item id',
          value: i === 0 ? (g.materials[0]?.id ?? '') : '',
        }),
      ),
      field('Quantity', number(`quantity_${i}`, i === 0 ? 2 : 1, 1, 999)),
    );
  const ingredients = [0, 1, 2].map(ingredientRow);
  const station = select(
    'crafting_station',
    [
      ['', 'no station'],
      ...g.stations.map((s): [string, string] => [s.id, `${s.name} (level ${s.min_level}+)`]),
    ],
    g.stations[0]?.id,
  );
  const tool = h('input', { name: 'crafting_tool', maxlength: 64, placeholder: 'none' });
  const intent = h('input', { name: 'description', maxlength: 300, placeholder: 'what the player asks for' });
  const craftLevel = number('crafting_level', 1, 0, 100);
  const playerLevel = number('combine_player_level', 5, 1, 100);
  const combineOut = h('div', { class: 'result', 'aria-live': 'polite' });
  const combineForm = h(
    'form',
    { class: 'filters' },
    h(
      'datalist',
      { id: 'materials' },
      g.materials.map((m) => h('option', { value: m.id }, m.name)),
    ),
    ingredients,
    field('Station', station),
    field('Tool', tool),
    field('Intent', intent),
    field('Crafting level', craftLevel),
    field('Player level', playerLevel),
    h('button', { type: 'submit', class: 'primary' }, 'Combine'),
  );
  combineForm.addEventListener('submit', async (event) => {
    event.preventDefault();
    show(combineOut, h('p', { class: 'muted' }, 'Asking the model…'));
    const data = new FormData(combineForm);
    const chosen = [0, 1, 2].flatMap((i) => {
      const id = String(data.get(`item_${i}`) ?? '').trim();
      return id ? [{ item_id: id, quantity: Number(data.get(`quantity_${i}`)) }] : [];
    });
    try {
      const r = await api<PlaygroundCombineResult>('POST', '/api/v1/admin/playground/combine', {
        ingredients: chosen,
        crafting_station: station.value || undefined,
        crafting_tool: tool.value.trim() || undefined,
        description: intent.value.trim() || undefined,
        crafting_level: Number(craftLevel.value),
        player_level: Number(playerLevel.value),
        definition: candidate(),
      });
      show(
        combineOut,
        r.item
          ? h('div', { class: 'dropped' }, itemCard(r.item), itemFacts(r.item))
          : [
              h('p', {}, badge('refused', 'danger'), ' ', r.message),
              h(
                'ul',
                {},
                r.suggestions.map((s) => h('li', {}, s)),
              ),
            ],
        h('p', { class: 'muted' }, 'Nothing was spent, granted or recorded.'),
      );
    } catch (err) {
      show(combineOut, failure(err));
    }
  });

  const check = h('button', { type: 'button' }, 'Check');
  check.addEventListener('click', async () => {
    let definition: unknown;
    try {
      definition = JSON.parse(editor.value);
    } catch (err) {
      show(checked, h('p', { class: 'error' }, `Not JSON: ${(err as Error).message}`));
      return;
    }
    const r = await api<GameCheckResult>('POST', '/api/v1/admin/game/check', { definition });
    show(
      checked,
      r.valid
        ? h('p', {}, badge('valid', 'ok'), ' This definition would load.')
        : [
            h('p', {}, badge('invalid', 'danger'), ' It would not load:'),
            h(
              'ul',
              { class: 'error' },
              r.issues.map((i) => h('li', {}, `${i.path}: ${i.message}`)),
            ),
          ],
    );
  });

  show(
    view,
    h('h1', {}, 'Playground'),
    h(
      'p',
      { class: 'muted' },
      'A drop or a combine as a player would get it: nothing is granted, and it counts against no one.',
    ),
    h('section', {}, h('h2', {}, 'Drop'), dropForm, dropOut),
    h('section', {}, h('h2', {}, 'Combine'), combineForm, combineOut),
    artSection(state, candidate),
    h(
      'section',
      {},
      h('h2', {}, 'Game definition'),
      h(
        'p',
        {},
        state.file_state === 'loaded' ? badge('loaded', 'ok') : badge(state.file_state, 'danger'),
        ` ${state.file ?? 'The shipped fantasy RPG (set LOOTSMITH_GAME_FILE for your own)'} — ${STATE_TEXT[state.file_state]}`,
      ),
      state.issues.length > 0 &&
        h(
          'ul',
          { class: 'error' },
          state.issues.map((i) => h('li', {}, `${i.path}: ${i.message}`)),
        ),
      h(
        'p',
        { class: 'muted' },
        'Edit it here to try a change: check it, then run the playground with it. The server keeps the loaded one.',
      ),
      editor,
      h(
        'div',
        { class: 'row' },
        check,
        h('label', { class: 'inline' }, useCandidate, ' Use this definition in the playground'),
      ),
      checked,
    ),
  );
}
