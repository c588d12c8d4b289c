import type { PlayerDetail, PlayerSummary, PlayersPage } from '@lootsmith/protocol';
import { api, query } from '../api.ts';
import { field, h, select, show, table } from '../dom.ts';
import { money, ms, n, time, when } from '../format.ts';
import { facts, gameState } from '../game.ts';
import {
  action,
  badge,
  capFigure,
  figure,
  itemCard,
  itemHref,
  link,
  playerHref,
  requestHref,
} from '../parts.ts';

const row = (currency: string) => (p: PlayerSummary) => [
  [link(playerHref(p.id), p.id), p.blocked ? [' ', badge('blocked', 'danger')] : ''],
  p.level ?? '–',
  p.crafting_level,
  n(p.items),
  n(p.drops),
  n(p.crafts),
  n(p.refusals),
  n(p.tokens),
  n(p.images),
  money(p.spend, currency),
  when(p.last_seen),
];

export async function playersPage(view: HTMLElement, _path: string[], params: URLSearchParams) {
  const q = params.get('q') ?? '';
  const sort = params.get('sort') === 'id' ? 'id' : 'recent';
  const search = h('input', {
    type: 'search',
    name: 'q',
    value: q,
    placeholder: 'player id starts with…',
    autocomplete: 'off',
  });
  const order = select(
    'sort',
    [
      ['recent', 'Most recently active'],
      ['id', 'By id (every player)'],
    ],
    sort,
  );
  const form = h(
    'form',
    { class: 'filters' },
    field('Search', search),
    field('Order', order),
    h('button', { type: 'submit' }, 'Search'),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    location.hash = `#/players${query({ q: search.value.trim(), sort: order.value })}`;
  });
  order.addEventListener('change', () => form.requestSubmit());

  const rows: PlayerSummary[] = [];
  const list = h('div', {});
  const more = h('div', { class: 'more' });
  const summary = h('p', { class: 'muted' });
  const load = async (after?: string) => {
    const page = await api<PlayersPage>(
      'GET',
      `/api/v1/admin/players${query({ q, sort, after, limit: 50 })}`,
    );
    rows.push(...page.players);
    summary.textContent = `${n(page.total)} player${page.total === 1 ? '' : 's'}${q ? ` whose id starts with “${q}”` : ''}${sort === 'recent' ? '; those who made a request, most recent first' : ''}.`;
    show(
      list,
      table(
        [
          'player',
          'level',
          'crafting',
          'items',
          'drops',
          'crafts',
          'refusals',
          'tokens',
          'images painted',
          'spend',
          'last seen',
        ],
        rows.map(row(page.currency)),
        'No player matches.',
      ),
    );
    show(more, page.next && action('Show more', () => load(page.next ?? undefined)));
  };
  show(view, h('h1', {}, 'Players'), form, summary, list, more);
  await load();
}

export async function playerPage(view: HTMLElement, [id = '']: string[]) {
  const d = await api<PlayerDetail>('GET', `/api/v1/admin/players/${encodeURIComponent(id)}`);
  const p = d.player;
  const patch = async (body: Record<string, unknown>) => {
    await api('PATCH', `/api/v1/admin/players/${encodeURIComponent(id)}`, body);
    await playerPage(view, [id]);
  };
  const budget = (name: string, value: number | null) =>
    h('input', { type: 'number', name, min: 0, max: 100000, value: value ?? '', placeholder: 'no limit' });
  const items = budget('daily_items', p.daily_items);
  const images = budget('daily_images', p.daily_images);
  const limit = (input: HTMLInputElement) => (input.value === '' ? null : Number(input.value));
  const worn = d.inventory.filter((e) => e.slot);
  // The game's materials are not generated items: they have no item page.
  const materials = new Set(facts(await gameState()).materials.map((m) => m.id));

  show(
    view,
    h(
      'div',
      { class: 'page-head' },
      h('h1', {}, p.id, ' ', p.blocked ? badge('blocked', 'danger') : badge('active', 'ok')),
      p.blocked
        ? action('Unblock', () => patch({ blocked: false }))
        : action('Block', () => patch({ blocked: true }), 'danger'),
    ),
    h('p', { class: 'muted' }, `First seen ${time(p.created_at)} UTC · last seen ${when(p.last_seen)}`),
    h(
      'section',
      { class: 'figures' },
      figure('level', String(p.level ?? '–'), p.level_at ? `reported ${when(p.level_at)}` : undefined),
      figure('crafting level', String(p.crafting_level), `${n(p.crafting_xp)} XP`),
      figure('drops', n(p.drops)),
      figure('crafts', n(p.crafts)),
      figure('refusals', n(p.refusals)),
      figure('recipes', n(p.recipes)),
      figure('tokens', n(p.tokens), 'all time'),
      figure('images painted', n(p.images), 'all time, item icons included'),
    ),
    h('h2', {}, 'Spend'),
    h(
      'section',
      { class: 'figures' },
      figure('spend today', money(d.spend.today.amount, d.spend.currency), `${n(d.spend.today.calls)} calls`),
      figure('spend, 7 days', money(d.spend.week.amount, d.spend.currency), `${n(d.spend.week.calls)} calls`),
      figure('spend, all time', money(p.spend, d.spend.currency), 'every call made for this player'),
      d.spend.cap && capFigure('daily cap', d.spend.cap, d.spend.currency),
    ),
    d.spend.week.unpriced > 0 &&
      h(
        'p',
        { class: 'muted' },
        `${n(d.spend.week.unpriced)} of this player’s calls in the last 7 days had no price and are not counted.`,
      ),
    h('h2', {}, 'Daily budget'),
    h(
      'form',
      { class: 'filters budget' },
      field('Items a day', items, `${n(d.usage_today.items)} used today (icons come with their items)`),
      field(
        'Images a day',
        images,
        `${n(d.usage_today.images)} used today (image requests, /v1/image/generations)`,
      ),
      action('Save budget', () => patch({ daily_items: limit(items), daily_images: limit(images) })),
    ),
    h('h2', {}, `Inventory (${d.inventory.length})`),
    d.inventory.length
      ? h(
          'div',
          { class: 'grid' },
          d.inventory.map((e) =>
            itemCard(
              e.item,
              [
                h('span', {}, e.quantity > 1 ? `× ${e.quantity}` : ''),
                e.slot ? badge(`worn: ${e.slot.toLowerCase()}`, 'ok') : '',
              ],
              materials.has(e.item.id) ? undefined : itemHref(e.item.id),
            ),
          ),
        )
      : h('p', { class: 'empty' }, 'The inventory is empty.'),
    h('h2', {}, 'Equipment'),
    table(
      ['slot', 'item'],
      worn.map((e) => [e.slot ?? '', link(itemHref(e.item.id), e.item.name)]),
      'Nothing worn.',
    ),
    h(
      'div',
      { class: 'page-head' },
      h('h2', {}, 'Recent requests'),
      link(`#/requests${query({ player: p.id })}`, 'All in the request log →'),
    ),
    table(
      ['when', 'route', 'status', 'code', 'time'],
      d.requests.map((r) => [
        r.request_id ? link(requestHref(r.request_id), time(r.at)) : time(r.at),
        r.request_id ? link(requestHref(r.request_id), h('code', {}, r.route)) : h('code', {}, r.route),
        badge(String(r.status), r.status >= 400 ? 'danger' : 'ok'),
        r.code ?? '',
        ms(r.ms),
      ]),
      'No requests recorded.',
    ),
    h('h2', {}, 'Moderation'),
    table(
      ['when', 'kind', 'field', 'text', 'reason', 'action', 'times'],
      d.moderation.map((e) => [
        time(e.at),
        e.kind.replace('_', ' '),
        e.field,
        h('q', {}, e.excerpt),
        e.reason,
        e.action,
        String(e.count),
      ]),
      'No refusals of this player’s text.',
    ),
  );
}
