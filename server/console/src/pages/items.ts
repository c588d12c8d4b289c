import type { GameState, ItemCost, ItemDetail, ItemSummary, ItemsPage } from '@lootsmith/protocol';
import { api, query } from '../api.ts';
import { type Child, field, h, select, show, table } from '../dom.ts';
import { money, n, time, when } from '../format.ts';
import { enemyName, facts, gameState } from '../game.ts';
import {
  action,
  badge,
  exportLink,
  icon,
  itemCard,
  itemFacts,
  itemHref,
  link,
  playerHref,
  rarity,
  rarityText,
  requestHref,
} from '../parts.ts';

const FILTERS = ['rarity', 'type', 'enemy', 'source', 'from', 'to'] as const;
const SOURCES: Array<[string, string]> = [
  ['', 'any way'],
  ['loot', 'loot drop'],
  ['pool', 'loot pool'],
  ['combine', 'combine'],
  ['create_item', 'create-item'],
  ['recipe', 'recipe book'],
  ['earlier', 'before the console'],
];

/** What used an item up (`ItemSummary.consumed`), in words. */
const CONSUMED_BY: Record<string, string> = {
  combine: 'eaten by a combine',
  create_item: 'used in create-item',
  use: 'used up',
  server_remove: 'taken by the game server',
};
const consumedBy = (how: string) => CONSUMED_BY[how] ?? `spent (${how})`;

/** Why a part of an item's cost has no amount, in words. */
const NO_AMOUNT: Record<string, string> = {
  unpriced: 'unpriced (no price for its backend and model)',
  not_recorded: 'not recorded (made before prices were kept)',
  not_painted: 'not painted yet',
};
const costText = (part: ItemCost['text'], currency: string) =>
  typeof part === 'number' ? money(part, currency) : (NO_AMOUNT[part] ?? part);

/** What the item cost: its share of the calls that wrote it, and its icon, shared by every item with it. */
const costOf = (c: ItemCost) =>
  `${costText(c.text, c.currency)} for its text (its share of the model calls that wrote it) · ${costText(c.icon, c.currency)} for its icon (painted once for every item with this icon)`;

const card = (game: GameState) => (i: ItemSummary) =>
  itemCard(
    i,
    [
      h(
        'span',
        { class: 'muted' },
        [
          i.enemy && `from ${enemyName(game, i.enemy)}`,
          i.owner && (i.consumed || i.removed ? `made for ${i.owner}` : `owned by ${i.owner}`),
        ]
          .filter(Boolean)
          .join(' · '),
      ),
      h('span', { class: 'muted' }, when(i.created_at)),
      i.removed ? badge('removed', 'danger') : '',
      i.consumed ? badge(`consumed: ${consumedBy(i.consumed)}`) : '',
    ],
    itemHref(i.id),
  );

export async function itemsPage(view: HTMLElement, _path: string[], params: URLSearchParams) {
  const game = await gameState();
  const g = facts(game);
  const current = Object.fromEntries(FILTERS.map((f) => [f, params.get(f) ?? '']));
  const controls = {
    rarity: select(
      'rarity',
      [['', 'any rarity'], ...game.rarities.map((r): [string, string] => [r, r.toLowerCase()])],
      current.rarity,
    ),
    type: select(
      'type',
      [['', 'any type'], ...game.item_types.map((t): [string, string] => [t, t.toLowerCase()])],
      current.type,
    ),
    enemy: select(
      'enemy',
      [['', 'any enemy'], ...g.enemies.map((e): [string, string] => [e.id, e.name])],
      current.enemy,
    ),
    source: select('source', SOURCES, current.source),
    from: h('input', { type: 'date', name: 'from', value: current.from }),
    to: h('input', { type: 'date', name: 'to', value: current.to }),
  };
  const form = h(
    'form',
    { class: 'filters' },
    field('Rarity', controls.rarity),
    field('Type', controls.type),
    field('Enemy', controls.enemy),
    field('Made by', controls.source),
    field('From', controls.from),
    field('To', controls.to),
  );
  form.addEventListener('change', () => {
    location.hash = `#/items${query(Object.fromEntries(FILTERS.map((f) => [f, controls[f].value])))}`;
  });
  const grid = h('div', { class: 'grid' });
  const more = h('div', { class: 'more' });
  const load = async (after?: string) => {
    const page = await api<ItemsPage>('GET', `/api/v1/admin/items${query({ ...current, after, limit: 60 })}`);
    grid.append(...page.items.map(card(game)));
    if (!grid.children.length) show(grid, h('p', { class: 'empty' }, 'No item matches.'));
    show(more, page.next && action('Show more', () => load(page.next ?? undefined)));
  };
  show(
    view,
    h(
      'div',
      { class: 'page-head' },
      h('h1', {}, 'Items'),
      exportLink(
        `api/v1/admin/export/items.csv${query({ from: current.from, to: current.to })}`,
        'Export CSV',
      ),
    ),
    form,
    grid,
    more,
  );
  await load();
}

export async function itemPage(view: HTMLElement, [id = '']: string[]) {
  const [d, game] = await Promise.all([
    api<ItemDetail>('GET', `/api/v1/admin/items/${encodeURIComponent(id)}`),
    gameState(),
  ]);
  const { item, provenance: p, removal, consumed } = d;
  const reason = h('textarea', {
    name: 'reason',
    rows: 2,
    minlength: 3,
    maxlength: 500,
    placeholder: 'Why it goes (kept with the record)',
  });
  const remove = action(
    'Remove from the game',
    async () => {
      if (reason.value.trim().length < 3) throw new Error('Say why, in a few words.');
      if (!confirm(`Remove “${item.name}” from every inventory?`)) return;
      await api('POST', `/api/v1/admin/items/${encodeURIComponent(id)}/remove`, { reason: reason.value });
      await itemPage(view, [id]);
    },
    'danger',
  );
  const rules = p?.rules;
  show(
    view,
    h(
      'div',
      { class: 'item-head' },
      icon(item.icon, item.rarity, 128),
      h(
        'div',
        {},
        h('h1', { class: rarityText(item.rarity) }, item.name),
        h(
          'p',
          {},
          rarity(item.rarity),
          ' ',
          `${item.type.toLowerCase()} · level ${item.level}`,
          removal ? [' ', badge('removed', 'danger')] : '',
          consumed ? [' ', badge('consumed')] : '',
        ),
        itemFacts(item),
      ),
    ),
    h('h2', {}, 'Held by'),
    consumed
      ? h(
          'p',
          {},
          `No one: consumed (${consumedBy(consumed.how)}) from `,
          link(playerHref(consumed.player_id), consumed.player_id),
          `’s inventory at ${time(consumed.at)} UTC.`,
        )
      : table(
          ['player', 'quantity'],
          d.holders.map((x) => [link(playerHref(x.player_id), x.player_id), n(x.quantity)]),
          'No one holds it.',
        ),
    h('h2', {}, 'How it was made'),
    p
      ? [
          h(
            'dl',
            { class: 'facts-list' },
            ...(
              [
                ['made by', p.source.replace('_', ' ')],
                ['for', p.player_id ?? 'the pools (no player)'],
                ['enemy', p.enemy ? enemyName(game, p.enemy) : '–'],
                ['backend', p.backend ?? '–'],
                ['model', p.model ?? '–'],
                ['seed', p.seed === null ? '–' : String(p.seed)],
                ['cost', costOf(p.cost)],
                ['made', `${time(p.created_at)} UTC`],
                [
                  'request',
                  p.request_id
                    ? link(requestHref(p.request_id), 'see the request')
                    : h('span', { class: 'muted' }, 'not in the request log'),
                ],
              ] as Array<[string, Child]>
            ).flatMap(([k, v]) => [h('dt', {}, k), h('dd', {}, v)]),
          ),
          rules &&
            h(
              'div',
              { class: 'rules' },
              h('h3', {}, 'Rules'),
              h(
                'p',
                {},
                `${rules.rarity.toLowerCase()}, level ${rules.level}: stat budget ${n(rules.stat_budget)}, worth at most ${n(rules.value_cap)} gold.`,
              ),
              rules.clamps.length > 0 &&
                h(
                  'ul',
                  {},
                  rules.clamps.map((c) => h('li', {}, c)),
                ),
              rules.rejected.length
                ? [
                    h(
                      'p',
                      {},
                      `The rules refused ${rules.rejected.length} answer${rules.rejected.length > 1 ? 's' : ''} before this one:`,
                    ),
                    h(
                      'ol',
                      { class: 'rejected' },
                      rules.rejected.map((problems) =>
                        h(
                          'li',
                          {},
                          h(
                            'ul',
                            {},
                            problems.map((x) => h('li', {}, x)),
                          ),
                        ),
                      ),
                    ),
                  ]
                : h('p', { class: 'muted' }, 'The first answer met every rule.'),
            ),
          p.prompt && h('details', {}, h('summary', {}, 'Prompt'), h('pre', {}, p.prompt)),
          item.icon && h('p', { class: 'muted' }, `Icon prompt: ${item.icon.prompt}`),
        ]
      : h('p', { class: 'muted' }, 'Made before the console recorded how items are made.'),
    h('h2', {}, 'Remove'),
    removal
      ? h(
          'div',
          { class: 'card removal' },
          h(
            'p',
            {},
            `Removed ${time(removal.removed_at)} UTC by the ${removal.removed_by}: `,
            h('q', {}, removal.reason),
          ),
          h(
            'p',
            { class: 'muted' },
            `Held then by ${removal.holders.map((x) => `${x.player_id} (${x.quantity})`).join(', ') || 'no one'}.`,
          ),
        )
      : h('div', { class: 'remove' }, field('Reason', reason), remove),
  );
}
