import type { Item } from '@lootsmith/plugin';
import { healingOf } from '../hero-stats.ts';
import { h } from './dom.ts';
import { titleCase } from './rarity.ts';
import type { Services } from './services.ts';

const signed = (n: number) => (n > 0 ? `+${n}` : `−${-n}`);

/**
 * How wearing `item` instead of `worn` changes each stat (the ones that change), the type's main
 * stat first: the one rarity raises, which a player compares first.
 */
function statDiffs(item: Item, worn: Item | undefined, main: string | undefined) {
  const names = new Set([
    ...(main ? [main] : []),
    ...item.stats.map((s) => s.name),
    ...(worn?.stats ?? []).map((s) => s.name),
  ]);
  const value = (of: Item | undefined, name: string) => of?.stats.find((s) => s.name === name)?.value ?? 0;
  return [...names]
    .map((name) => ({ name, diff: value(item, name) - value(worn, name), main: name === main }))
    .filter((d) => d.diff !== 0);
}

/** The change as text, e.g. "+3 Attack · −1 Defense", the main stat first. */
export function statChange(item: Item, worn: Item | undefined, main: string | undefined): string {
  const diffs = statDiffs(item, worn, main);
  return diffs.map((d) => `${signed(d.diff)} ${titleCase(d.name)}`).join(' · ') || 'no change';
}

/** The change with gains and losses in their colours, the main stat's marked. */
function statChangeView(item: Item, worn: Item | undefined, main: string | undefined) {
  const diffs = statDiffs(item, worn, main);
  if (!diffs.length) return h('span', { class: 'muted' }, 'no change');
  return h(
    'span',
    {},
    ...diffs.flatMap((d, i) => [
      i > 0 ? ' · ' : '',
      h(
        'b',
        { class: `${d.diff > 0 ? 'gain' : 'loss'}${d.main ? ' main-stat' : ''}` },
        `${signed(d.diff)} ${titleCase(d.name)}`,
      ),
    ]),
  );
}

/** Runs a gear action with its button disabled, so a double tap does it once. */
function actionButton(name: string, label: string, run: () => Promise<void>) {
  const button = h('button', { type: 'button', class: 'primary', name }, label);
  button.addEventListener('click', async () => {
    if (button.disabled) return;
    button.disabled = true;
    try {
      await run();
    } finally {
      button.disabled = false;
    }
  });
  return button;
}

/**
 * What can be done with an owned item, under its card: put on what can be worn (with how it
 * compares to what is worn now), take off what is worn, use a consumable.
 */
export function itemActions(item: Item, s: Services): HTMLElement | undefined {
  const { state, gear } = s;
  const wornIn = state.slots.find((w) => w.item?.id === item.id)?.slot;
  if (wornIn)
    return h(
      'div',
      { class: 'item-actions' },
      actionButton('unequip', 'Take off', () => gear.unequip(wornIn)),
      h('span', { class: 'muted small' }, `Worn in your ${titleCase(wornIn)} slot`),
    );
  const slot = state.slotOf(item);
  if (slot && state.canWear(item)) {
    const worn = state.wornInSlotOf(item);
    return h(
      'div',
      { class: 'item-actions' },
      actionButton('equip', worn ? 'Wear instead' : 'Wear', () => gear.equip(item)),
      h(
        'span',
        { class: 'compare small' },
        worn ? `vs your ${worn.name}: ` : `${titleCase(slot)} slot is empty: `,
        statChangeView(item, worn, state.mainStatOf(item)),
      ),
    );
  }
  const type = state.typeOf(item);
  if (type?.consumable) {
    const heals = healingOf(item.stats);
    return h(
      'div',
      { class: 'item-actions' },
      actionButton('use', 'Use', () => gear.use(item)),
      h('span', { class: 'muted small' }, heals ? `Restores ${heals} health` : 'No healing'),
    );
  }
  if (type?.stackable)
    return h('p', { class: 'hint small' }, 'A crafting material: combine it or forge with it at a station.');
  return undefined;
}
