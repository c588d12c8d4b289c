import { Counter, Gauge, type MetricValue, Registry } from 'prom-client';

const LATENCY_BUCKETS = [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 30];

type Labels = Record<string, string>;

interface Series<L extends Labels> {
  labels: L;
  /** Observations at or under each bucket's bound (not yet cumulative), then the rest. */
  buckets: Float64Array;
  sum: number;
  count: number;
}

/** A metric in the shape prom-client's registry reads (`get()` at each scrape). */
function scraped(
  type: 'counter' | 'histogram',
  name: string,
  help: string,
  values: () => MetricValue<string>[],
) {
  return {
    name,
    help,
    type,
    aggregator: 'sum',
    get: async () => ({ name, help, type, aggregator: 'sum', values: values() }),
  } as unknown as Parameters<Registry['registerMetric']>[0];
}

/**
 * A histogram counted in plain numbers per label set and handed to prom-client only when /metrics is
 * read: an observation on a request's path costs a map lookup and a few additions, not prom-client's
 * label hashing (which was the largest of the upstream client's own costs in a forward's profile).
 */
class PlainHistogram<L extends Labels> {
  private readonly series = new Map<string, Series<L>>();

  constructor(
    registry: Registry,
    private readonly name: string,
    help: string,
    private readonly bounds: number[],
  ) {
    registry.registerMetric(scraped('histogram', name, help, () => this.values()));
  }

  /** Counts one observation of `labels`; returns its series. */
  observe(labels: L, seconds: number): Series<L> {
    const key = Object.values(labels).join('\u0000');
    let s = this.series.get(key);
    if (!s) {
      s = { labels, buckets: new Float64Array(this.bounds.length + 1), sum: 0, count: 0 };
      this.series.set(key, s);
    }
    let b = 0;
    while (b < this.bounds.length && seconds > (this.bounds[b] as number)) b++;
    (s.buckets[b] as number)++;
    s.sum += seconds;
    s.count++;
    return s;
  }

  seriesList() {
    return this.series.values();
  }

  private values(): MetricValue<string>[] {
    return [...this.series.values()].flatMap((s) => {
      let below = 0;
      return [
        ...[...this.bounds, '+Inf' as const].map((le, i) => {
          below += s.buckets[i] as number;
          return { metricName: `${this.name}_bucket`, labels: { le, ...s.labels }, value: below };
        }),
        { metricName: `${this.name}_sum`, labels: s.labels, value: s.sum },
        { metricName: `${this.name}_count`, labels: s.labels, value: s.count },
      ];
    });
  }
}

/**
 * The per-request metrics (`lootsmith_http_requests_total`, `lootsmith_http_request_seconds`): the
 * latency histogram by route, and beside each route's series its answers by status.
 */
class RequestMetrics {
  private readonly latency: PlainHistogram<{ method: string; route: string }>;
  private readonly statuses = new WeakMap<object, Map<number, number>>();

  constructor(registry: Registry) {
    registry.registerMetric(
      scraped('counter', 'lootsmith_http_requests_total', 'HTTP requests by route and status', () =>
        [...this.latency.seriesList()].flatMap((s) =>
          [...(this.statuses.get(s) ?? [])].map(([status, n]) => ({
            labels: { ...s.labels, status },
            value: n,
          })),
        ),
      ),
    );
    this.latency = new PlainHistogram(
      registry,
      'lootsmith_http_request_seconds',
      'HTTP request latency by route',
      LATENCY_BUCKETS,
    );
  }

  observe(method: string, route: string, status: number, ms: number) {
    const s = this.latency.observe({ method, route }, ms / 1000);
    let byStatus = this.statuses.get(s);
    if (!byStatus) {
      byStatus = new Map();
      this.statuses.set(s, byStatus);
    }
    byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
  }
}

type QueueLabels = { kind: string; api: string; target: string };

/** Prometheus metrics of one server instance (`GET /metrics`). */
export function createMetrics() {
  const registry = new Registry();
  const http = new RequestMetrics(registry);
  const m = {
    registry,
    upstreamCalls: new Counter({
      name: 'lootsmith_upstream_calls_total',
      help: 'Attempts at a chat or image backend by kind, API, target (primary or fallback) and outcome',
      labelNames: ['kind', 'api', 'target', 'outcome'] as const,
      registers: [registry],
    }),
    fallbacks: new Counter({
      name: 'lootsmith_upstream_fallbacks_total',
      help: 'Calls the fallback /v1 service answered because the configured backend failed, by kind',
      labelNames: ['kind'] as const,
      registers: [registry],
    }),
    queueWait: new PlainHistogram<{ kind: string; api: string; priority: string }>(
      registry,
      'lootsmith_backend_queue_wait_seconds',
      'Time a call waited for its turn at a backend, by kind, API and priority',
      [0.001, 0.01, 0.1, 0.5, 1, 2, 5, 10, 30, 60, 120],
    ),
    generations: new Counter({
      name: 'lootsmith_generations_total',
      help: 'Item generations by kind and outcome',
      labelNames: ['kind', 'outcome'] as const,
      registers: [registry],
    }),
    reasks: new Counter({
      name: 'lootsmith_reasks_total',
      help: 'Re-asks after invalid model answers',
      registers: [registry],
    }),
    cacheHits: new Counter({
      name: 'lootsmith_cache_hits_total',
      help: 'Icon and recipe cache hits',
      labelNames: ['cache'] as const,
      registers: [registry],
    }),
  };
  /** The queues of the backends, read at each scrape. */
  const queues: Array<{ labels: QueueLabels; queue: { depth: number; running: number } }> = [];
  new Gauge({
    name: 'lootsmith_backend_queue_depth',
    help: 'Calls waiting for their turn at a backend, by kind, API and target',
    labelNames: ['kind', 'api', 'target'] as const,
    registers: [registry],
    collect() {
      for (const q of queues) this.set(q.labels, q.queue.depth);
    },
  });
  new Gauge({
    name: 'lootsmith_backend_running',
    help: 'Calls a backend is working on, by kind, API and target',
    labelNames: ['kind', 'api', 'target'] as const,
    registers: [registry],
    collect() {
      for (const q of queues) this.set(q.labels, q.queue.running);
    },
  });
  return {
    ...m,
    /** Reports a backend's queue depth and running calls at every scrape. */
    watchQueue: (labels: QueueLabels, queue: { depth: number; running: number }) => {
      queues.push({ labels, queue });
    },
    /** Counts one answered request and its latency (`ms`). */
    observe: (method: string, route: string, status: number, ms: number) =>
      http.observe(method, route, status, ms),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
