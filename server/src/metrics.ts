import { Counter, Gauge, Histogram, type MetricValue, Registry } from 'prom-client';

const LATENCY_BUCKETS = [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 30];

interface RouteSeries {
  labels: { method: string; route: string };
  statuses: Map<number, number>;
  /** Requests at or under each bucket's bound (not yet cumulative), then the rest. */
  buckets: Float64Array;
  sum: number;
  count: number;
}

/**
 * The per-request metrics (`lootsmith_http_requests_total`, `lootsmith_http_request_seconds`), counted
 * in plain numbers per route and handed to prom-client only when /metrics is read: an answered
 * request costs a map lookup and a few additions, not prom-client's label hashing.
 */
class RequestMetrics {
  private readonly series = new Map<string, RouteSeries>();

  observe(method: string, route: string, status: number, ms: number) {
    const key = `${method} ${route}`;
    let s = this.series.get(key);
    if (!s) {
      s = {
        labels: { method, route },
        statuses: new Map(),
        buckets: new Float64Array(LATENCY_BUCKETS.length + 1),
        sum: 0,
        count: 0,
      };
      this.series.set(key, s);
    }
    s.statuses.set(status, (s.statuses.get(status) ?? 0) + 1);
    const seconds = ms / 1000;
    let b = 0;
    while (b < LATENCY_BUCKETS.length && seconds > (LATENCY_BUCKETS[b] as number)) b++;
    (s.buckets[b] as number)++;
    s.sum += seconds;
    s.count++;
  }

  /** Registers both metrics on `registry`, worked out afresh at every scrape. */
  register(registry: Registry) {
    registry.registerMetric(
      this.metric('counter', 'lootsmith_http_requests_total', 'HTTP requests by route and status', () =>
        [...this.series.values()].flatMap((s) =>
          [...s.statuses].map(([status, n]) => ({ labels: { ...s.labels, status }, value: n })),
        ),
      ),
    );
    registry.registerMetric(
      this.metric('histogram', 'lootsmith_http_request_seconds', 'HTTP request latency by route', () =>
        [...this.series.values()].flatMap((s) => {
          let below = 0;
          return [
            ...[...LATENCY_BUCKETS, '+Inf' as const].map((le, i) => {
              below += s.buckets[i] as number;
              return {
                metricName: 'lootsmith_http_request_seconds_bucket',
                labels: { le, ...s.labels },
                value: below,
              };
            }),
            { metricName: 'lootsmith_http_request_seconds_sum', labels: s.labels, value: s.sum },
            { metricName: 'lootsmith_http_request_seconds_count', labels: s.labels, value: s.count },
          ];
        }),
      ),
    );
  }

  /** A metric in the shape prom-client's registry reads (`get()` at each scrape). */
  private metric(
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
}

type QueueLabels = { kind: string; api: string; target: string };

/** Prometheus metrics of one server instance (`GET /metrics`). */
export function createMetrics() {
  const registry = new Registry();
  const http = new RequestMetrics();
  http.register(registry);
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
    queueWait: new Histogram({
      name: 'lootsmith_backend_queue_wait_seconds',
      help: 'Time a call waited for its turn at a backend, by kind, API and priority',
      labelNames: ['kind', 'api', 'priority'] as const,
      buckets: [0.001, 0.01, 0.1, 0.5, 1, 2, 5, 10, 30, 60, 120],
      registers: [registry],
    }),
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
