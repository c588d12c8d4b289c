import { randomUUID } from 'node:crypto';
import type { ItemType, Rarity } from '@lootsmith/protocol';
import type { PoolSettings } from '../config.ts';
import { seededRandom } from '../game/random.ts';
import { statBudget } from '../game/rules.ts';
import { type LootDeps, newItemId, writeItems } from '../pipeline/loot.ts';
import type { ItemSpec } from '../pipeline/prompts.ts';
import type { PoolSlot, Store } from '../store/store.ts';
import { type Bucket, rollableRarities } from './buckets.ts';
import type { PoolMetrics } from './pool-metrics.ts';

/** One item a refill should make: what a drop rolled (a replacement) or a rarity the bucket lacks. */
export interface Want {
  rarity: Rarity;
  level: number;
  /** The player level of the drop that asked, for the prompt's context. */
  playerLevel: number;
}

/** Most items one chat completion writes (the item batch schema's bound). */
const BATCH = 8;
/** A slot nobody fills (its generator crashed) frees its place after this long. */
const LEASE_MS = 10 * 60_000;
const POOL_CLIENT = 'lootsmith-pool';

export interface RefillDeps {
  loot: LootDeps;
  store: Store;
  settings: PoolSettings;
  game: string;
  metrics: PoolMetrics;
  log?: (message: string, err?: unknown) => void;
}

/**
 * Generates pool items in the background, only as drops ask for them (an idle game generates
 * nothing): wants queue per bucket, one batch per bucket at a time, at most `concurrency` batches.
 */
export class Refiller {
  private readonly queue = new Map<string, { bucket: Bucket; wants: Want[] }>();
  private readonly active = new Set<string>();
  private readonly runs = new Set<Promise<void>>();
  private readonly stopping = new AbortController();

  constructor(private readonly deps: RefillDeps) {}

  /** Queues items for a bucket; more than the bucket can hold are never queued. */
  want(bucket: Bucket, wants: Want[]) {
    if (this.stopping.signal.aborted || !wants.length) return;
    const entry = this.queue.get(bucket.key) ?? { bucket, wants: [] };
    entry.wants.push(...wants.slice(0, Math.max(0, this.deps.settings.size - entry.wants.length)));
    this.queue.set(bucket.key, entry);
    this.pump();
  }

  /** Batches running or waiting, for tests and shutdown. */
  get busy() {
    return this.runs.size + this.queue.size;
  }

  /** Resolves once nothing is queued or running (tests). */
  async settled() {
    while (this.runs.size) await Promise.allSettled([...this.runs]);
  }

  /** Stops taking wants and aborts running batches; their slots are given back. */
  async close() {
    this.stopping.abort();
    this.queue.clear();
    await Promise.allSettled([...this.runs]);
  }

  private pump() {
    for (const [key, entry] of this.queue) {
      if (this.runs.size >= this.deps.settings.concurrency) return;
      if (this.active.has(key)) continue;
      this.queue.delete(key);
      this.active.add(key);
      const run = this.refill(entry.bucket, entry.wants)
        .catch((err) => this.deps.log?.('pool refill failed', err))
        .finally(() => {
          this.active.delete(key);
          this.runs.delete(run);
          this.pump();
        });
      this.runs.add(run);
    }
  }

  private async refill(bucket: Bucket, queued: Want[]) {
    const { store, settings, metrics } = this.deps;
    const first = queued[0];
    if (!first) return;
    // Every rarity the bucket can roll gets at least one item, so a rare roll finds one too.
    const stock = (await store.poolStock(this.deps.game, Date.now())).filter((s) => s.bucket === bucket.key);
    const have = new Set(stock.filter((s) => s.ready + s.pending > 0).map((s) => s.rarity));
    for (const w of queued) have.add(w.rarity);
    const seeds = rollableRarities(this.deps.loot.game, bucket.site.tier)
      .filter((r) => !have.has(r))
      .map((rarity) => ({ ...first, rarity }));
    const wants = [...queued, ...seeds];
    if (wants.length > BATCH) {
      // The rest waits for this batch to end.
      const rest = this.queue.get(bucket.key)?.wants ?? [];
      this.queue.set(bucket.key, { bucket, wants: [...wants.slice(BATCH), ...rest].slice(0, settings.size) });
    }
    const { slots, refused } = await store.reservePoolSlots(
      {
        game: this.deps.game,
        bucket: bucket.key,
        wants: wants.slice(0, BATCH).map((w) => ({ id: newItemId(), rarity: w.rarity, level: w.level })),
        bucketMax: settings.size,
        totalMax: settings.total,
        hourlyMax: settings.budgetPerHour,
        leaseMs: LEASE_MS,
      },
      Date.now(),
    );
    if (refused) metrics.refused.inc({ reason: refused });
    if (!slots.length) return;
    metrics.spent.inc({ bucket: bucket.key }, slots.length);
    try {
      await this.generate(bucket, slots, first.playerLevel);
    } catch (err) {
      metrics.failed.inc({ bucket: bucket.key }, slots.length);
      await store.releasePoolSlots(slots.map((s) => s.id));
      if (!this.stopping.signal.aborted) throw err;
    }
  }

  private async generate(bucket: Bucket, slots: PoolSlot[], playerLevel: number) {
    const { loot, store, metrics } = this.deps;
    const { game } = loot;
    const random = seededRandom(randomUUID());
    const rolled = game.loot_types.filter((t) => t !== 'MATERIAL');
    const specs: ItemSpec[] = slots.map((slot) => {
      const rarity = slot.rarity as Rarity;
      const type: ItemType =
        bucket.type === '*' ? (rolled[Math.floor(random.next() * rolled.length)] as ItemType) : bucket.type;
      return { type, rarity, level: slot.level, budget: statBudget(game, rarity, slot.level) };
    });
    const { enemy, tier } = bucket.site;
    const { items } = await writeItems(loot, {
      clientId: POOL_CLIENT,
      specs,
      context: {
        location: bucket.location,
        enemy: enemy ? `${enemy.name} (tier ${tier})` : undefined,
        theme: enemy?.element,
        playerLevel,
      },
      takenNames: [],
      random,
      iconsAfterItem: false,
      kind: 'pool',
      signal: this.stopping.signal,
    });
    const filled = await Promise.all(
      items.map((item, i) => {
        const slot = slots[i] as PoolSlot;
        return store.fillPoolSlot(slot.id, { ...item, id: slot.id });
      }),
    );
    metrics.generated.inc({ bucket: bucket.key }, filled.filter(Boolean).length);
  }
}
