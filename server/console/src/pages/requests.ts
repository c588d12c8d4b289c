import type { RequestCall, RequestDetail, RequestSummary, RequestsPage } from '@lootsmith/protocol';
import { api, query } from '../api.ts';
import { type Child, field, h, select, show, table } from '../dom.ts';
import { money, ms, n, time } from '../format.ts';
import { action, badge, exportLink, itemHref, link, playerHref, requestHref } from '../parts.ts';

/** The kinds of answer (`answerKind`), as the overview names them. */
const KINDS: Array<[string, string]> = [
  ['', 'every answer'],
  ['ok', 'successes'],
  ['game_refusal', 'game refusals'],
  ['content_refusal', 'content refusals'],
  ['client_error', 'client errors'],
  ['error', 'errors'],
];
/** One answer's kind, in words. */
const KIND_NAME: Record<string, string> = {
  ok: 'success',
  game_refusal: 'game refusal',
  content_refusal: 'content refusal',
  client_error: 'client error',
  error: 'error',
};

/** The game's routes, offered as the route filter's suggestions. */
const ROUTES = [
  'POST /v1/generate/items',
  'POST /api/v1/crafting/combine',
  'POST /api/v1/player/:player_id/create-item',
  'POST /v1/image/generations',
  'POST /v1/chat/completions',
  'POST /api/v1/session',
  'GET /api/v1/player/:player_id/inventory',
  'GET /api/v1/player/:player_id/equipment',
  'POST /api/v1/player/:player_id/equipment/equip',
  'POST /api/v1/player/:player_id/equipment/unequip',
  'POST /api/v1/player/:player_id/use-item',
  'POST /api/v1/player/:player_id/drop-grant',
  'PATCH /api/v1/player/:player_id',
  'GET /api/v1/game',
];

const kindBadge = (kind: string) => badge(KIND_NAME[kind] ?? kind, kind === 'ok' ? 'ok' : kind);
const status = (r: Pick<RequestSummary, 'status' | 'kind'>) =>
  badge(String(r.status), r.status >= 500 ? 'danger' : r.status >= 400 ? r.kind : 'ok');

export async function requestsPage(view: HTMLElement, _path: string[], params: URLSearchParams) {
  const filters = {
    player: params.get('player') ?? '',
    route: params.get('route') ?? '',
    kind: params.get('kind') ?? '',
  };
  const kinds = select('kind', KINDS, filters.kind);
  const who = h('input', {
    type: 'search',
    name: 'player',
    value: filters.player,
    placeholder: 'player id',
    autocomplete: 'off',
  });
  const route = h('input', {
    type: 'search',
    name: 'route',
    value: filters.route,
    placeholder: 'POST /v1/generate/items',
    list: 'request-routes',
    autocomplete: 'off',
  });
  const form = h(
    'form',
    { class: 'filters' },
    field('Player', who),
    field('Route', route),
    h(
      'datalist',
      { id: 'request-routes' },
      ROUTES.map((r) => h('option', { value: r })),
    ),
    field('Answer', kinds),
    h('button', { type: 'submit' }, 'Filter'),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    location.hash = `#/requests${query({ player: who.value.trim(), route: route.value.trim(), kind: kinds.value })}`;
  });
  kinds.addEventListener('change', () => form.requestSubmit());

  const shown: RequestSummary[] = [];
  const list = h('div', { class: 'request-list' });
  const more = h('div', { class: 'more' });
  const note = h('p', { class: 'muted' });
  const load = async (after?: string) => {
    const page = await api<RequestsPage>(
      'GET',
      `/api/v1/admin/requests${query({ ...filters, after, limit: 50 })}`,
    );
    shown.push(...page.requests);
    note.textContent = `Each answered game request (but reads answered well) with its body and the backend calls it made: the newest ${n(page.retention.max)}, none older than ${page.retention.days} days. Bodies never hold headers, tokens or keys.`;
    show(
      list,
      table(
        ['route', 'when', 'status', 'answer', 'code', 'player', 'time'],
        shown.map((r) => [
          link(requestHref(r.id), h('code', {}, r.route)),
          link(requestHref(r.id), time(r.at)),
          status(r),
          kindBadge(r.kind),
          r.code ?? '',
          r.player_id ? link(playerHref(r.player_id), r.player_id) : h('span', { class: 'muted' }, '–'),
          ms(r.ms),
        ]),
        'No requests match.',
      ),
    );
    show(more, page.next && action('Show more', () => load(page.next ?? undefined)));
  };
  show(
    view,
    h(
      'div',
      { class: 'page-head' },
      h('h1', {}, 'Requests'),
      exportLink(`api/v1/admin/export/requests.csv${query(filters)}`, 'Export CSV'),
    ),
    note,
    form,
    list,
    more,
  );
  await load();
}

/** JSON as the developer reads it: indented when it is JSON, as it was kept when it is not. */
const pretty = (text: string) => {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
};

function messages(prompt: unknown): Child {
  if (!Array.isArray(prompt)) return h('pre', {}, JSON.stringify(prompt, null, 2));
  return prompt.map((m: { role?: unknown; content?: unknown }) =>
    h(
      'div',
      { class: 'message' },
      h('span', { class: 'field-label' }, String(m.role ?? '')),
      h('pre', {}, typeof m.content === 'string' ? m.content : JSON.stringify(m.content, null, 2)),
    ),
  );
}

function answer(c: RequestCall): Child {
  const a = (c.answer ?? {}) as Record<string, unknown>;
  if (typeof a.error === 'string') return h('p', { class: 'error' }, a.error);
  if (c.kind === 'image')
    return h(
      'p',
      {},
      `${a.width ?? '?'}×${a.height ?? '?'} asked · ${n(Number(a.bytes ?? 0))} bytes of ${String(a.content_type ?? 'unknown type')} answered`,
    );
  return h('pre', {}, typeof a.text === 'string' ? pretty(a.text) : JSON.stringify(a, null, 2));
}

function callCard(c: RequestCall, currency: string, i: number) {
  const cost = c.cost === null ? '–' : c.cost === 'unpriced' ? 'unpriced' : money(c.cost, currency);
  return h(
    'div',
    { class: 'card call' },
    h(
      'h3',
      {},
      `${i + 1}. ${c.kind} · `,
      h('code', {}, c.backend),
      c.model && [' · ', h('code', {}, c.model)],
      ' ',
      badge(c.outcome, c.outcome === 'ok' ? 'ok' : 'danger'),
    ),
    h(
      'p',
      { class: 'muted' },
      `${time(c.at)} UTC · ${ms(c.ms)} · ${cost}${c.status ? ` · status ${c.status}` : ''}${c.truncated ? ' · cut to its bound' : ''}`,
    ),
    h('details', { open: c.kind === 'image' }, h('summary', {}, 'Prompt'), messages(c.prompt)),
    h('details', { open: true }, h('summary', {}, 'Answer'), answer(c)),
  );
}

export async function requestPage(view: HTMLElement, path: string[]) {
  const id = path[0] ?? '';
  const d = await api<RequestDetail>('GET', `/api/v1/admin/requests/${encodeURIComponent(id)}`);
  const r = d.request;
  const spent = d.calls.reduce((sum, c) => sum + (typeof c.cost === 'number' ? c.cost : 0), 0);
  const unpriced = d.calls.filter((c) => c.cost === 'unpriced').length;
  show(
    view,
    h('p', {}, link('#/requests', '← Requests')),
    h('h1', {}, h('code', {}, r.route)),
    h('p', { class: 'muted' }, `Request ${r.id} · ${time(r.at)} UTC`),
    h(
      'section',
      { class: 'facts-row' },
      h('span', {}, 'status ', status(r)),
      h('span', {}, 'answer ', kindBadge(r.kind)),
      r.code && h('span', {}, 'code ', h('code', {}, r.code)),
      h('span', {}, 'player ', r.player_id ? link(playerHref(r.player_id), r.player_id) : '–'),
      h('span', {}, `took ${ms(r.ms)}`),
      h(
        'span',
        {},
        `${d.calls.length} backend call${d.calls.length === 1 ? '' : 's'} · ${money(spent, d.currency)}${unpriced ? ` + ${unpriced} unpriced` : ''}`,
      ),
    ),
    h('h2', {}, 'Result'),
    d.result.error
      ? h('p', { class: 'error' }, h('code', {}, d.result.error.code), ' ', d.result.error.message)
      : d.result.items.length
        ? h(
            'ul',
            { class: 'result-items' },
            d.result.items.map((i) =>
              h(
                'li',
                {},
                i.known ? link(itemHref(i.id), i.id) : [h('code', {}, i.id), ' (a material of the game)'],
              ),
            ),
          )
        : h('p', { class: 'muted' }, 'No items in the answer.'),
    h('h2', {}, 'Body'),
    d.body === null
      ? h('p', { class: 'muted' }, 'No body.')
      : [
          d.body_truncated && h('p', { class: 'muted' }, 'Cut at 16 KB: its longest texts are shortened.'),
          h('pre', { class: 'body' }, pretty(d.body)),
        ],
    h('h2', {}, `Backend calls (${d.calls.length})`),
    d.calls.length
      ? d.calls.map((c, i) => callCard(c, d.currency, i))
      : h('p', { class: 'muted' }, 'This request made no backend call.'),
  );
}
