import { Counter, Histogram, Registry } from 'prom-client';

/** Prometheus metrics of one server instance (`GET /metrics`). */
export function createMetrics() {
  const registry = new Registry();
  const m = {
    registry,
    requests: new Counter({
      name: 'lootsmith_http_requests_total',
      help: 'HTTP requests by route and status',
      labelNames: ['method', 'route', 'status'] as const,
      registers: [registry],
    }),
    latency: new Histogram({
      name: 'lootsmith_http_request_seconds',
      help: 'HTTP request latency by route',
      labelNames: ['method', 'route'] as const,
      buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 30],
      registers: [registry],
    }),
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
  // Label sets bound once per route and status: prom-client otherwise hashes the labels on every call.
  const bound = new Map<
    string,
    { count: ReturnType<Counter['labels']>; time: ReturnType<Histogram['labels']> }
  >();
  return {
    ...m,
    /** Counts one answered request and its latency (`ms`). */
    observe(method: string, route: string, status: number, ms: number) {
      const key = `${method} ${route} ${status}`;
      let labels = bound.get(key);
      if (!labels) {
        labels = {
          count: m.requests.labels(method, route, String(status)),
          time: m.latency.labels(method, route),
        };
        bound.set(key, labels);
      }
      labels.count.inc();
      labels.time.observe(ms / 1000);
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
