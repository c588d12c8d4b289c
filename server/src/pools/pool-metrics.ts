import { Counter, Gauge, type Registry } from 'prom-client';
import type { PoolStock } from '../store/store.ts';

/** The pools' side of `/metrics`: stock per bucket (read from the store when scraped), draws and spend. */
export function poolMetrics(registry: Registry, stock: () => Promise<PoolStock[]>) {
  return {
    items: new Gauge({
      name: 'lootsmith_pool_items',
      help: 'Pooled items per bucket: ready to serve, or being generated (all instances)',
      labelNames: ['bucket', 'state'] as const,
      registers: [registry],
      async collect() {
        this.reset();
        for (const s of await stock()) {
          this.inc({ bucket: s.bucket, state: 'ready' }, s.ready);
          this.inc({ bucket: s.bucket, state: 'pending' }, s.pending);
        }
      },
    }),
    draws: new Counter({
      name: 'lootsmith_pool_draws_total',
      help: 'Items drops asked of a pool, by bucket: hit (served from the pool) or miss (generated on demand)',
      labelNames: ['bucket', 'outcome'] as const,
      registers: [registry],
    }),
    spent: new Counter({
      name: 'lootsmith_pool_spent_items_total',
      help: 'Items the pools started generating, by bucket: what the hourly budget is charged',
      labelNames: ['bucket'] as const,
      registers: [registry],
    }),
    generated: new Counter({
      name: 'lootsmith_pool_generated_items_total',
      help: 'Items the pools generated and stocked, by bucket',
      labelNames: ['bucket'] as const,
      registers: [registry],
    }),
    failed: new Counter({
      name: 'lootsmith_pool_failed_items_total',
      help: 'Items whose generation failed (their slots were given back), by bucket',
      labelNames: ['bucket'] as const,
      registers: [registry],
    }),
    refused: new Counter({
      name: 'lootsmith_pool_refusals_total',
      help: 'Refills cut short by a limit: bucket_full, total_full, budget (per hour) or player_share (the asking player’s share of it)',
      labelNames: ['reason'] as const,
      registers: [registry],
    }),
  };
}

export type PoolMetrics = ReturnType<typeof poolMetrics>;
