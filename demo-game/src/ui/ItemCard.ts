import type { EffectDefinition, Item, ItemEffect } from '@lootsmith/plugin';
import { itemEffects } from '../hero-effects.ts';
import { h } from './dom.ts';
import type { IconSource } from './IconSource.ts';
import { rarityCss, titleCase } from './rarity.ts';

const signed = (value: number) => (value >= 0 ? `+${value}` : String(value));
const statValue = (name: string, value: number) =>
  name.endsWith('_chance') || name.endsWith('_resist') ? `${signed(value)}%` : signed(value);

/** An effect as the card shows it: the catalogue's text with the item's numbers; none the catalogue lacks. */
export function effectLine(effect: ItemEffect, catalogue: readonly EffectDefinition[]) {
  const known = catalogue.find((e) => e.id === effect.id);
  if (!known) return [];
  const text = known.text.replace(/\{(\w+)\}/g, (whole, name: string) =>
    effect.params[name] === undefined ? whole : String(effect.params[name]),
  );
  return [{ id: effect.id, name: known.name, text }];
}

/**
 * The tooltip card of an item: name in its rarity's colour, type, level, stats (its type's main stat
 * first, marked: the one rarity raises), effects, text and lore. Effects are worded from the game's
 * catalogue (`GET /api/v1/game`); one it lacks, or one the demo does not play, is not shown: the card
 * promises only what the game does.
 */
export function itemCard(
  item: Item,
  icons: IconSource,
  catalogue: readonly EffectDefinition[],
  main: string | undefined,
): HTMLElement {
  const color = rarityCss(item.rarity);
  const effects = itemEffects(item).flatMap((e) => effectLine(e, catalogue));
  const stats = item.stats.toSorted((a, b) => Number(b.name === main) - Number(a.name === main));
  return h(
    'article',
    { class: 'item-card', style: `--rarity: ${color}`, 'data-item-id': item.id },
    h(
      'header',
      {},
      icons.paint(h('img', { class: 'card-icon', alt: '' }), item),
      h(
        'div',
        {},
        h('h3', { class: 'item-name' }, item.name),
        h(
          'div',
          { class: 'item-kind' },
          `${titleCase(item.rarity)} ${titleCase(item.type)}`,
          h('span', { class: 'muted' }, ` · ${item.subtype} · level ${item.level}`),
        ),
      ),
    ),
    stats.length > 0 &&
      h(
        'ul',
        { class: 'item-stats' },
        ...stats.map((s) =>
          h(
            'li',
            s.name === main
              ? { class: 'main-stat', title: 'Main stat: rarer items of this kind have more' }
              : {},
            h('b', {}, statValue(s.name, s.value)),
            ` ${titleCase(s.name)}`,
          ),
        ),
      ),
    effects.length > 0 &&
      h(
        'ul',
        { class: 'item-effects' },
        ...effects.map((e) => h('li', { 'data-effect': e.id }, h('b', {}, e.name), ` — ${e.text}`)),
      ),
    h('p', { class: 'item-description' }, item.description),
    h('p', { class: 'item-lore' }, `“${item.lore}”`),
    h(
      'footer',
      { class: 'muted' },
      // The demo's game counts in gold; an item of no worth shows none.
      [
        item.element !== 'none' ? titleCase(item.element) : '',
        titleCase(item.material),
        item.value > 0 ? `${item.value} gold` : '',
      ]
        .filter(Boolean)
        .join(' · '),
    ),
  );
}

const slotLook = (item: Item) => ({
  class: `slot rarity-${item.rarity.toLowerCase()}`,
  style: `--rarity: ${rarityCss(item.rarity)}`,
  title: item.name,
  'data-item-id': item.id,
});

/** One inventory square, to click: the icon over a rarity glow, with the stack count. */
export function itemSlot(
  item: Item,
  quantity: number,
  icons: IconSource,
  attrs: Record<string, string> = {},
) {
  return h(
    'button',
    { type: 'button', ...slotLook(item), ...attrs },
    icons.paint(h('img', { alt: item.name }), item),
    quantity > 1 && h('span', { class: 'qty' }, String(quantity)),
  );
}

/** The same square as a picture only, for inside other controls. */
export function itemTile(item: Item, icons: IconSource) {
  return h('span', slotLook(item), icons.paint(h('img', { alt: item.name }), item));
}
