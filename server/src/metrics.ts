import { Counter, type MetricValue, Registry } from 'prom-client';

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

/** Prometheus metrics of one server instance (`GET /metrics`). */
export function createMetrics() {
  const registry = new Registry();
  const http = new RequestMetrics();
  http.register(registry);
  const m = {
    registry,
    upstreamCalls: new Counter({
      name: 'lootsmith_upstream_calls_total',
      help: 'Calls to the /v1 service by target, endpoint and outcome',
      labelNames: ['target', 'endpoint', 'outcome'] as const,
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
  return {
    ...m,
    /** Counts one answered request and its latency (`ms`). */
    observe: (method: string, route: string, status: number, ms: number) =>
      http.observe(method, route, status, ms),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
