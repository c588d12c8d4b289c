import type { Answers, Latency, Overview, SpendFigures } from '@lootsmith/protocol';
import { api } from '../api.ts';
import { h, show, svg, table } from '../dom.ts';
import { money, ms, n, percent, time } from '../format.ts';
import { badge, capFigure, exportLink, figure, spent } from '../parts.ts';

const REFRESH_MS = 15_000;

const latency = (l: Latency) => [ms(l.p50_ms), ms(l.p95_ms), ms(l.p99_ms)];
const codes = (byCode: Record<string, number>) =>
  Object.entries(byCode)
    .sort((a, b) => b[1] - a[1])
    .map(([code, count]) => badge(`${code} × ${n(count)}`, 'error-code'));
/** Answers as badges coloured by their kind. */
const answerBadges = (answers: Answers) => answers.map((a) => badge(`${a.code} × ${n(a.count)}`, a.kind));

const KINDS: Array<[Answers[number]['kind'], string, string]> = [
  ['game_refusal', 'Game refusals', 'the game’s rules saying no: normal play'],
  ['content_refusal', 'Content refusals', 'the content checks refusing a player’s words'],
  [
    'client_error',
    'Client errors',
    'requests the game sent wrong: malformed, unauthenticated, unknown names',
  ],
  ['error', 'Errors', 'the server or a backend failed: what the error rate counts'],
];

/** Every answer but success, by kind: refusals apart from errors. */
function answersTable(o: Overview) {
  const t = o.totals;
  const totals = {
    game_refusal: t.game_refusals,
    content_refusal: t.content_refusals,
    client_error: t.client_errors,
    error: t.errors,
  };
  return h(
    'div',
    { class: 'answers' },
    table(
      ['answer', 'what it is', 'count', 'by reason or code'],
      KINDS.map(([kind, label, what]) => [
        h('strong', {}, label),
        h('span', { class: 'muted' }, what),
        n(totals[kind]),
        answerBadges(o.answers.filter((a) => a.kind === kind)),
      ]),
    ),
  );
}

/** Slot labels along the time axis: every 10 minutes over the hour, every 4 hours over the day. */
const TICK_EVERY = { hour: 10, day: 4 };
const clock = (iso: string) => iso.slice(11, 16);

/** Requests per step as bars (errors red, refusals amber), over a time axis in UTC. */
function chart(series: Overview['series'], window: 'hour' | 'day') {
  const width = 600;
  const height = 120;
  const top = Math.max(1, ...series.map((s) => s.requests));
  const bar = width / series.length;
  const scale = (v: number) => (v / top) * (height - 4);
  const bars = series.flatMap((s, i) => {
    const x = i * bar + 1;
    const title = svg('title', {});
    title.textContent = `${time(s.at)} UTC: ${s.requests} requests, ${s.refusals} refusals, ${s.errors} errors`;
    const errors = scale(s.errors);
    const refusals = scale(s.refusals);
    return [
      svg(
        'rect',
        { x, y: height - scale(s.requests), width: bar - 2, height: scale(s.requests), class: 'bar' },
        title,
      ),
      svg('rect', {
        x,
        y: height - errors - refusals,
        width: bar - 2,
        height: refusals,
        class: 'bar-refusal',
      }),
      svg('rect', { x, y: height - errors, width: bar - 2, height: errors, class: 'bar-error' }),
    ];
  });
  const every = TICK_EVERY[window];
  // Ticks on whole steps counted from the hour (or midnight), wherever the window starts.
  const ticks = series.flatMap((s, i) => {
    const unit = window === 'hour' ? Number(s.at.slice(14, 16)) : Number(s.at.slice(11, 13));
    return unit % every === 0 ? [{ i, label: clock(s.at) }] : [];
  });
  const step = window === 'hour' ? 'minute' : 'hour';
  return h(
    'figure',
    { class: 'chart' },
    h(
      'div',
      { class: 'chart-plot' },
      h('span', { class: 'chart-top' }, n(top)),
      svg(
        'svg',
        {
          viewBox: `0 0 ${width} ${height}`,
          preserveAspectRatio: 'none',
          role: 'img',
          'aria-label': `Requests per ${step}`,
        },
        ...ticks.map((t) => svg('line', { x1: t.i * bar, x2: t.i * bar, y1: 0, y2: height, class: 'tick' })),
        ...bars,
      ),
    ),
    h(
      'div',
      { class: 'chart-axis', 'aria-hidden': 'true' },
      ticks.map((t) => h('span', { style: `left:${(t.i / series.length) * 100}%` }, t.label)),
    ),
    h('figcaption', {}, `Requests per ${step} (UTC), most ${n(top)}; refusals in amber, errors in red`),
  );
}

/** Money: today, the week, the month, each day of the week as a bar, by route and by backend. */
function spendSection(s: SpendFigures) {
  const top = Math.max(...s.days.map((d) => d.amount), 0);
  const unpriced = s.week.unpriced;
  const rows = <T extends { today: SpendFigures['today']; week: SpendFigures['week'] }>(
    list: T[],
    name: (t: T) => HTMLElement | string,
  ) => list.map((r) => [name(r), spent(r.today, s.currency), spent(r.week, s.currency), n(r.week.calls)]);
  return [
    h(
      'div',
      { class: 'page-head' },
      h('h2', {}, 'Spend'),
      h(
        'span',
        { class: 'inline' },
        exportLink('api/v1/admin/export/spend.csv', 'Export by route and backend'),
        exportLink('api/v1/admin/export/spend.csv?by=player', 'Export by player'),
      ),
    ),
    h(
      'section',
      { class: 'figures' },
      figure('spend today', money(s.today.amount, s.currency), `${n(s.today.calls)} backend calls`),
      figure('spend, 7 days', money(s.week.amount, s.currency), `${n(s.week.calls)} backend calls`),
      figure('spend this month', money(s.month.amount, s.currency), 'UTC month'),
      figure('unpriced calls', n(unpriced), '7 days: no price known'),
      s.caps.map((c) => capFigure(c.cap === 'game_daily' ? 'daily cap' : 'monthly cap', c, s.currency)),
    ),
    unpriced > 0 &&
      h(
        'p',
        { class: 'muted' },
        `${n(unpriced)} calls in the last 7 days had no price, so what they cost is not counted: give their backend and model a price in LOOTSMITH_PRICES_FILE. The embedded engine costs nothing and is never unpriced.`,
      ),
    h(
      'div',
      { class: 'spend-days', role: 'img', 'aria-label': 'Spend per day, the last 7 days' },
      s.days.map((d) =>
        h(
          'div',
          { class: 'spend-day', title: `${d.day}: ${n(d.calls)} calls, ${n(d.unpriced)} unpriced` },
          h('span', {}, money(d.amount, s.currency)),
          h('span', { class: 'spend-bar', style: `height:${top ? Math.round((d.amount / top) * 60) : 0}px` }),
          h('small', {}, d.day.slice(5)),
        ),
      ),
    ),
    h('h3', {}, 'By route'),
    table(
      ['route', 'today', '7 days', 'calls, 7 days'],
      rows(s.routes, (r) => h('code', {}, r.route)),
      'No backend calls in the last 7 days.',
    ),
    h('h3', {}, 'By backend'),
    table(
      ['backend', 'today', '7 days', 'calls, 7 days'],
      rows(s.backends, (b) => b.backend),
      'No backend calls in the last 7 days.',
    ),
  ];
}

function draw(view: HTMLElement, o: Overview, window: 'hour' | 'day', switcher: HTMLElement) {
  const t = o.totals;
  show(
    view,
    h('div', { class: 'page-head' }, h('h1', {}, 'Overview'), switcher),
    h('p', { class: 'muted' }, `Every instance, since ${time(o.since)} UTC.`),
    h(
      'section',
      { class: 'figures' },
      figure('requests', n(t.requests)),
      figure('errors', n(t.errors), t.requests ? `${percent(t.errors / t.requests)} error rate` : undefined),
      figure('game refusals', n(t.game_refusals)),
      figure('content refusals', n(t.content_refusals)),
      figure('client errors', n(t.client_errors)),
      figure('items generated', n(t.generated_items)),
      figure('tokens', n(t.tokens)),
      figure('images', n(t.images)),
      figure('active players', n(t.active_players), `of ${n(t.players)}`),
      figure('moderation events', n(t.moderation_events)),
      figure('pool hit rate', o.pools.enabled ? percent(o.pools.hit_rate) : 'off'),
    ),
    chart(o.series, window),
    spendSection(o.spend),
    h('h2', {}, 'Answers'),
    answersTable(o),
    h('h2', {}, 'Routes'),
    table(
      ['route', 'requests', 'refusals', 'client errors', 'errors', 'answers', 'p50', 'p95', 'p99'],
      o.routes.map((r) => [
        h('code', {}, r.route),
        n(r.requests),
        n(r.game_refusals + r.content_refusals),
        n(r.client_errors),
        n(r.errors),
        answerBadges(r.answers),
        ...latency(r.latency),
      ]),
      'No requests in this window.',
    ),
    h('h2', {}, 'Backends'),
    table(
      ['backend', 'kind', 'calls', 'failures', 'by code', 'p50', 'p95', 'p99', 'tokens in / out', 'images'],
      o.backends.map((b) => [
        b.backend,
        b.kind,
        n(b.calls),
        n(b.failures),
        codes(b.failures_by_code),
        ...latency(b.latency),
        `${n(b.prompt_tokens)} / ${n(b.completion_tokens)}`,
        n(b.images),
      ]),
      'No model calls in this window.',
    ),
    h('h2', {}, 'Generated items'),
    table(
      ['how', 'backend', 'items'],
      o.generations.map((g) => [g.source, g.backend ?? '–', n(g.items)]),
      'No items generated in this window.',
    ),
    h('h2', {}, 'Loot pools'),
    o.pools.enabled
      ? [
          h(
            'p',
            {},
            `${n(o.pools.ready)} items ready, ${n(o.pools.pending)} being generated; ${n(o.pools.hits)} drawn from the pools, ${n(o.pools.misses)} generated on demand.`,
          ),
          table(
            ['bucket', 'ready', 'queued'],
            o.pools.buckets.map((b) => [h('code', {}, b.bucket), n(b.ready), n(b.pending)]),
            'The pools are empty.',
          ),
        ]
      : h('p', { class: 'muted' }, 'Loot pools are off (LOOTSMITH_POOLS=1 turns them on).'),
  );
}

export async function overviewPage(view: HTMLElement, _path: string[], params: URLSearchParams) {
  const window = params.get('window') === 'day' ? 'day' : 'hour';
  const switcher = h(
    'div',
    { class: 'segmented', role: 'group', 'aria-label': 'Window' },
    h('a', { href: '#/overview?window=hour', class: window === 'hour' ? 'active' : '' }, 'Last hour'),
    h('a', { href: '#/overview?window=day', class: window === 'day' ? 'active' : '' }, 'Last day'),
  );
  const load = async () =>
    draw(view, await api<Overview>('GET', `/api/v1/admin/overview?window=${window}`), window, switcher);
  await load();
  const timer = setInterval(() => {
    if (!view.isConnected) clearInterval(timer);
    else if (document.visibilityState === 'visible') void load().catch(() => {});
  }, REFRESH_MS);
}
