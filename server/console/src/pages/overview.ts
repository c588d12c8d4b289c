import type { Latency, Overview } from '@lootsmith/protocol';
import { api } from '../api.ts';
import { h, show, svg, table } from '../dom.ts';
import { ms, n, percent, time } from '../format.ts';
import { badge, figure } from '../parts.ts';

const REFRESH_MS = 15_000;

const latency = (l: Latency) => [ms(l.p50_ms), ms(l.p95_ms), ms(l.p99_ms)];
const codes = (byCode: Record<string, number>) =>
  Object.entries(byCode)
    .sort((a, b) => b[1] - a[1])
    .map(([code, count]) => badge(`${code} × ${n(count)}`, 'error-code'));

/** Requests (and errors, in red) per step, as bars. */
function chart(series: Overview['series'], window: string) {
  const width = 600;
  const height = 120;
  const top = Math.max(1, ...series.map((s) => s.requests));
  const bar = width / series.length;
  const bars = series.flatMap((s, i) => {
    const x = i * bar + 1;
    const all = (s.requests / top) * (height - 4);
    const bad = (s.errors / top) * (height - 4);
    const title = svg('title', {});
    title.textContent = `${time(s.at)}: ${s.requests} requests, ${s.errors} errors`;
    return [
      svg('rect', { x, y: height - all, width: bar - 2, height: all, class: 'bar' }, title),
      svg('rect', { x, y: height - bad, width: bar - 2, height: bad, class: 'bar-error' }),
    ];
  });
  return h(
    'figure',
    { class: 'chart' },
    svg(
      'svg',
      {
        viewBox: `0 0 ${width} ${height}`,
        preserveAspectRatio: 'none',
        role: 'img',
        'aria-label': `Requests per ${window === 'hour' ? 'minute' : 'hour'}`,
      },
      ...bars,
    ),
    h(
      'figcaption',
      {},
      `Requests per ${window === 'hour' ? 'minute' : 'hour'}, most ${n(top)}; errors in red`,
    ),
  );
}

function draw(view: HTMLElement, o: Overview, window: string, switcher: HTMLElement) {
  const t = o.totals;
  show(
    view,
    h('div', { class: 'page-head' }, h('h1', {}, 'Overview'), switcher),
    h('p', { class: 'muted' }, `Every instance, since ${time(o.since)} UTC.`),
    h(
      'section',
      { class: 'figures' },
      figure('requests', n(t.requests)),
      figure('errors', n(t.errors), t.requests ? percent(t.errors / t.requests) : undefined),
      figure('items generated', n(t.generated_items)),
      figure('tokens', n(t.tokens)),
      figure('images', n(t.images)),
      figure('active players', n(t.active_players), `of ${n(t.players)}`),
      figure('moderation events', n(t.moderation_events)),
      figure('pool hit rate', o.pools.enabled ? percent(o.pools.hit_rate) : 'off'),
    ),
    chart(o.series, window),
    h('h2', {}, 'Routes'),
    table(
      ['route', 'requests', 'errors', 'by code', 'p50', 'p95', 'p99'],
      o.routes.map((r) => [
        h('code', {}, r.route),
        n(r.requests),
        n(r.errors),
        codes(r.errors_by_code),
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
