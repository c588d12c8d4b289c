import { effectText, type Item, type ItemIcon, type Spend } from '@lootsmith/protocol';
import { ApiFailure, iconUrl, url } from './api.ts';
import { type Child, h } from './dom.ts';
import { money, n, percent } from './format.ts';
import { currency, effectCatalogue, rarityStep } from './game.ts';

/** An item's icon; a placeholder in its rarity's colour while it is painted (202) or missing. */
export function icon(i: ItemIcon | null, rarity: string, size = 56) {
  const box = h('span', { class: `icon rarity-${rarityStep(rarity)}`, style: `--size:${size}px` });
  if (i) {
    const img = h('img', { src: iconUrl(i), alt: '', width: size, height: size, loading: 'lazy' });
    img.addEventListener('error', () => img.remove());
    box.append(img);
  }
  return box;
}

export const rarity = (r: string) => h('span', { class: `rarity rarity-${rarityStep(r)}` }, r);
/** The class that colours text in a rarity's colour. */
export const rarityText = (r: string) => `rarity-text-${rarityStep(r)}`;
export const badge = (text: string, kind = '') => h('span', { class: `badge ${kind}` }, text);
export const link = (href: string, ...children: Child[]) => h('a', { href }, ...children);
export const itemHref = (id: string) => `#/items/${encodeURIComponent(id)}`;
export const playerHref = (id: string) => `#/players/${encodeURIComponent(id)}`;
export const requestHref = (id: string) => `#/requests/${encodeURIComponent(id)}`;

/** A download of a CSV export (the session cookie goes with it; the answer is an attachment). */
export const exportLink = (path: string, label: string) =>
  h('a', { class: 'button', href: url(path), download: '' }, label);

/** One figure with its label. */
export const figure = (label: string, value: string, note?: string) =>
  h(
    'div',
    { class: 'figure' },
    h('span', { class: 'figure-value' }, value),
    h('span', { class: 'figure-label' }, label),
    note && h('small', {}, note),
  );

/** Spend as read at a glance: the amount, and the calls it leaves out for want of a price. */
export const spent = (s: Spend, currency: string) =>
  h(
    'span',
    { class: 'spend' },
    money(s.amount, currency),
    s.unpriced > 0 && [' ', badge(`+ ${n(s.unpriced)} unpriced`, 'unpriced')],
  );

/** A spend cap as a figure: how much of it is used, and of what. */
export const capFigure = (
  label: string,
  cap: { limit: number; spent: number; period: string },
  currency: string,
) =>
  figure(
    label,
    percent(cap.spent / cap.limit),
    `${money(cap.spent, currency)} of ${money(cap.limit, currency)} (${cap.period})`,
  );

/** An item as a card: icon, name in its rarity's colour, what it is; `extra` below. */
export function itemCard(
  item: Pick<Item, 'id' | 'name' | 'level' | 'icon'> & { rarity: string; type: string },
  extra: Child[] = [],
  href?: string,
) {
  const body = [
    icon(item.icon, item.rarity),
    h(
      'span',
      { class: 'card-text' },
      h('strong', { class: `name ${rarityText(item.rarity)}` }, item.name),
      h(
        'span',
        { class: 'muted' },
        `${item.rarity.toLowerCase()} ${item.type.toLowerCase()} · level ${item.level}`,
      ),
      ...extra,
    ),
  ];
  return href
    ? h('a', { class: 'card item-card', href }, ...body)
    : h('div', { class: 'card item-card' }, ...body);
}

/** The stats, effects and value of an item, as a player would read them. */
export function itemFacts(item: Item) {
  const effects = item.effects.flatMap((e) => effectText(e, effectCatalogue) ?? []);
  return h(
    'div',
    { class: 'facts' },
    h('p', {}, item.description),
    h('p', { class: 'lore' }, item.lore),
    item.stats.length > 0 &&
      h(
        'ul',
        { class: 'stats' },
        item.stats.map((s) =>
          h('li', {}, `${s.value > 0 ? '+' : ''}${s.value} ${s.name.replaceAll('_', ' ')}`),
        ),
      ),
    effects.length > 0 &&
      h(
        'ul',
        { class: 'affixes' },
        effects.map((e) => h('li', {}, h('strong', {}, e.name), ` — ${e.text}`)),
      ),
    h(
      'p',
      { class: 'muted' },
      `${item.element === 'none' ? '' : `${item.element} · `}${item.material} ${item.subtype}${currency ? ` · worth ${n(item.value)} ${currency}` : ''}`,
    ),
  );
}

/** A button that disables itself while its action runs and shows the action's failure beside it. */
export function action(label: string, run: () => Promise<void>, kind = '') {
  const message = h('span', { class: 'error', role: 'alert' });
  const button = h('button', { type: 'button', class: kind }, label);
  button.addEventListener('click', async () => {
    button.disabled = true;
    message.textContent = '';
    try {
      await run();
    } catch (err) {
      message.textContent = (err as Error).message;
    } finally {
      button.disabled = false;
    }
  });
  return h('span', { class: 'action' }, button, message);
}

/** A failure as the developer needs it: the message, and each issue of a definition. */
export function failure(err: unknown) {
  const details =
    err instanceof ApiFailure && Array.isArray(err.details)
      ? (err.details as Array<{ path?: string; message?: string }>)
      : [];
  return h(
    'div',
    { class: 'error', role: 'alert' },
    h('p', {}, (err as Error).message),
    details.length > 0 &&
      h(
        'ul',
        {},
        details.map((d) => h('li', {}, d.path ? `${d.path}: ${d.message}` : String(d.message))),
      ),
  );
}
