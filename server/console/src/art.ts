import type { GameState, IconArt, PlaygroundSheetResult } from '@lootsmith/protocol';
import { api, url } from './api.ts';
import { type Child, h, show } from './dom.ts';
import { failure, icon } from './parts.ts';

/** The part of a game definition the art section reads. */
interface ArtFacts {
  art: IconArt;
  icon_size: number;
  icon_style?: string;
  rarities?: Array<{ id: string } | string>;
}

/** A colour as a developer checks it against their own palette: the colour itself, and its hex. */
const swatch = (colour: string) =>
  h(
    'li',
    { class: 'swatch' },
    h('span', { class: 'chip', style: `--swatch:${colour}`, 'aria-hidden': 'true' }),
    h('code', {}, colour),
  );

/**
 * The art every icon is painted in: palette, grid, outline, style and avoid words, and the reference
 * icons, as thumbnails when they are the loaded game's (the server serves those) or by name.
 */
function artFacts(facts: ArtFacts, loaded: boolean) {
  const { art, icon_size } = facts;
  const words = (text: string | undefined, none: string) =>
    text ? text : h('span', { class: 'muted' }, none);
  const row = (label: string, value: Child) => [h('dt', {}, label), h('dd', {}, value)];
  return h(
    'dl',
    { class: 'facts-list art-facts' },
    row(
      'Palette',
      art.palette?.length
        ? [
            h('span', { class: 'muted' }, `${art.palette.length} colours`),
            h('ul', { class: 'swatches', 'aria-label': 'Palette' }, art.palette.map(swatch)),
          ]
        : words(undefined, 'Any colour: no palette is enforced.'),
    ),
    row(
      'Grid',
      art.pixel_size
        ? `${art.pixel_size}×${art.pixel_size} pixels, scaled to ${icon_size} px by nearest neighbour`
        : `Smooth art at ${icon_size} px: no pixel grid`,
    ),
    row(
      'Outline',
      art.outline ? h('ul', { class: 'swatches' }, swatch(art.outline)) : words(undefined, 'None'),
    ),
    row(
      'Style',
      words(
        art.style ?? facts.icon_style,
        'Each backend’s own (set art.style to tell every backend the same words)',
      ),
    ),
    row('Avoid', words(art.avoid, 'Nothing')),
    row(
      'References',
      art.references.length
        ? h(
            'ul',
            { class: 'references' },
            art.references.map((path, i) =>
              h(
                'li',
                {},
                loaded &&
                  h('img', {
                    src: url(`/api/v1/admin/game/references/${i}`),
                    alt: `Reference ${i + 1}`,
                    width: 64,
                    height: 64,
                  }),
                h('code', {}, path),
              ),
            ),
          )
        : words(undefined, 'None'),
    ),
  );
}

/**
 * The game's art, and a fresh sheet of one icon per item type from the configured image backend:
 * with the loaded definition, or the edited one when the playground uses it (`candidate`).
 */
export function artSection(state: GameState, candidate: () => unknown) {
  const loaded = state.definition as ArtFacts;
  const facts = h('div', {}, artFacts(loaded, true));
  const out = h('div', { class: 'result sheet-out', 'aria-live': 'polite' });
  const types = state.item_types.length;
  const paint = h('button', { type: 'button', class: 'primary' }, 'Paint a fresh sheet');
  paint.addEventListener('click', async () => {
    paint.disabled = true;
    show(out, h('p', { class: 'muted' }, `Painting ${Math.min(types, 64)} icons…`));
    try {
      const definition = candidate() as ArtFacts | undefined;
      const r = await api<PlaygroundSheetResult>('POST', '/api/v1/admin/playground/sheet', { definition });
      // What was painted with is what the facts show: the edited art when it was used.
      show(
        facts,
        definition
          ? [h('p', { class: 'muted' }, 'The edited definition’s art:'), artFacts(definition, false)]
          : artFacts(loaded, true),
      );
      const first = (definition ?? loaded).rarities?.[0];
      const rarity = typeof first === 'string' ? first : (first?.id ?? state.rarities[0] ?? '');
      show(
        out,
        h(
          'ul',
          { class: 'sheet', 'aria-label': 'Fresh sheet' },
          r.icons.map((tile) =>
            h(
              'li',
              { class: 'card sheet-tile' },
              icon(tile.icon, rarity, 64),
              h('strong', { class: 'name' }, tile.name),
              h('span', { class: 'muted' }, tile.type.toLowerCase()),
            ),
          ),
        ),
        h(
          'p',
          { class: 'muted' },
          `${r.icons.length} icons at ${r.icon_size} px, ${definition ? 'in the edited definition’s art' : 'in the loaded game’s art'}, painted by the configured image backend as the console’s own calls.`,
        ),
      );
    } catch (err) {
      show(out, failure(err));
    } finally {
      paint.disabled = false;
    }
  });
  return h(
    'section',
    { class: 'art' },
    h('h2', {}, 'Art'),
    h(
      'p',
      { class: 'muted' },
      'What every backend is told and the server enforces on every icon, whatever painted it.',
    ),
    facts,
    h(
      'div',
      { class: 'row' },
      paint,
      h(
        'span',
        { class: 'muted' },
        `One icon per item type (${types}), from the configured image backend; with the edited definition when the playground uses it.`,
      ),
    ),
    out,
  );
}
