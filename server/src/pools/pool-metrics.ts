import { Counter, Gauge, type Registry } from 'prom-client';
import type { PoolStock } from '../store/store.ts';

/** The pools' side of `/metrics`: stock per bucket (read from the store when scraped), draws and spend. */
export function poolMetrics(registry: Registry, stock: () => Promise<PoolStock[]>) {
  const draws = new Counter({
    name: 'lootsmith_pool_draws_total',
    help: 'Items drops asked of a pool, by bucket: hit (served from the pool, scaled ones too) or miss (generated on demand)',
    labelNames: ['bucket', 'outcome'] as const,
    registers: [registry],
  });
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
    draws,
    hitRatio: new Gauge({
      name: 'lootsmith_pool_hit_ratio',
      help: 'Share of the items drops asked of a bucket that its pool served (this instance, since start)',
      labelNames: ['bucket'] as const,
      registers: [registry],
      async collect() {
        this.reset();
        const byBucket = new Map<string, { hit: number; all: number }>();
        for (const { labels, value } of (await draws.get()).values) {
          const b = byBucket.get(String(labels.bucket)) ?? { hit: 0, all: 0 };
          if (labels.outcome === 'hit') b.hit += value;
          b.all += value;
          byBucket.set(String(labels.bucket), b);
        }
        for (const [bucket, { hit, all }] of byBucket) if (all) this.set({ bucket }, hit / all);
      },
    }),
    warmed: new Counter({
      name: 'lootsmith_pool_warmed_items_total',
      help: 'Items the pools started generating, by bucket and why it was warmed: seen (drawn from), predicted (a live player is about to reach it: next level band, a neighbouring room, a tier its level meets) or start-up (the enemies a fresh game starts with)',
      labelNames: ['bucket', 'reason'] as const,
      registers: [registry],
    }),
    scaled: new Counter({
      name: 'lootsmith_pool_scaled_items_total',
      help: "Items served from a neighbouring level band's pool, scaled to the drop's level by the game's stat rules, by the bucket the drop asked",
      labelNames: ['bucket'] as const,
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
