import type { GameDefinition, Item } from '@lootsmith/protocol';
import type { Registry } from 'prom-client';
import type { PoolSettings } from '../config.ts';
import type { DropSite } from '../game/loot-authority.ts';
import { checkItem } from '../game/rules.ts';
import type { LootDeps, LootRequest, LootSupply, PoolDraw } from '../pipeline/loot.ts';
import type { ItemSpec } from '../pipeline/prompts.ts';
import type { Store } from '../store/store.ts';
import { untracked } from '../upstream/spend.ts';
import { type Bucket, bucketOf, gameKey, levelWindow, namedLocation } from './buckets.ts';
import { DemandRates } from './demand.ts';
import { poolMetrics } from './pool-metrics.ts';
import { Refiller } from './refill.ts';

export interface LootPoolsDeps {
  loot: LootDeps;
  store: Store;
  settings: PoolSettings;
  registry: Registry;
  log?: (message: string, err?: unknown) => void;
}

/**
 * Loot pools: items generated ahead of drops, per bucket, and served at once. The rarity is still
 * rolled at drop time; a drop takes a pooled item of that rarity within its level window, and asks
 * the model only for what the pool lacks. Every drop queues a refill behind it.
 */
export class LootPools implements LootSupply {
  readonly game: string;
  readonly metrics: ReturnType<typeof poolMetrics>;
  readonly refiller: Refiller;
  private readonly definition: GameDefinition;
  private readonly rates = new DemandRates();

  constructor(private readonly deps: LootPoolsDeps) {
    this.definition = deps.loot.game;
    this.game = gameKey(deps.loot.game);
    this.metrics = poolMetrics(deps.registry, () => deps.store.poolStock(this.game, Date.now()));
    this.refiller = new Refiller({ ...deps, game: this.game, metrics: this.metrics, rates: this.rates });
  }

  /** The bucket a spec is served from, or undefined when the request asks for what a pool cannot know. */
  private bucketFor(site: DropSite, spec: ItemSpec, req: LootRequest): Bucket | undefined {
    const ctx = req.body.generation_context ?? {};
    const c = req.body.constraints ?? {};
    // Free text that steers the writing (a name the game lacks, a style, a subtype) needs the model.
    if (c.naming_style || c.power_budget || spec.subtype || spec.focus) return undefined;
    if (ctx.enemy && !site.enemy) return undefined;
    const type = spec.typeChosen ? spec.type : '*';
    return bucketOf(this.definition, site, type, namedLocation(this.definition, ctx.location));
  }

  async take(site: DropSite, specs: ItemSpec[], req: LootRequest): Promise<PoolDraw> {
    const game = this.definition;
    const buckets = specs.map((spec) => this.bucketFor(site, spec, req));
    const [minLevel, maxLevel] = levelWindow(game, site);
    const asked = specs.flatMap((spec, i) => {
      const bucket = buckets[i];
      return bucket ? [{ i, spec, bucket }] : [];
    });
    const items: Array<Item | undefined> = specs.map(() => undefined);
    if (!asked.length) return { items, giveBack: async () => {} };
    const exclude = req.body.constraints?.ensure_uniqueness ? req.takenNames.map((n) => n.toLowerCase()) : [];
    const claimed = await this.deps.store.claimPoolItems(
      this.game,
      asked.map(({ spec, bucket }) => ({ bucket: bucket.key, rarity: spec.rarity, minLevel, maxLevel })),
      exclude,
    );
    const created_at = new Date().toISOString();
    const taken: Array<{ bucket: string; item: Item }> = [];
    asked.forEach(({ i, spec, bucket }, n) => {
      const item = claimed[n];
      // Checked again as a fresh answer would be: a pooled item meets the drop's rules or is not served.
      const problems = item
        ? checkItem(game, item, {
            type: spec.typeChosen ? spec.type : undefined,
            rarity: spec.rarity,
            level: item.level,
          })
        : [];
      if (item && problems.length)
        this.deps.log?.(`discarded pooled item ${item.id}: ${problems.join('; ')}`);
      const served = item && !problems.length ? { ...item, created_at } : undefined;
      items[i] = served;
      if (served) taken.push({ bucket: bucket.key, item: served });
      this.metrics.draws.inc({ bucket: bucket.key, outcome: served ? 'hit' : 'miss' });
    });
    // Every draw, hit or miss, is demand: the bucket is topped up behind the drop.
    const now = Date.now();
    const drawn = new Map<string, { bucket: Bucket; n: number }>();
    for (const { bucket } of asked) {
      const entry = drawn.get(bucket.key) ?? { bucket, n: 0 };
      drawn.set(bucket.key, { bucket, n: entry.n + 1 });
    }
    // The refill is the pools' spending, not this drop's (nothing it sends is the drop's call), paid
    // from the share of the hourly budget of the player whose draw asked for it.
    untracked(() => {
      for (const { bucket, n } of drawn.values()) {
        this.rates.note(bucket.key, now, n);
        this.refiller.want(bucket, req.body.client_id);
      }
    });
    return {
      items,
      giveBack: async () => {
        if (taken.length) await this.deps.store.returnPoolItems(this.game, taken, Date.now());
      },
    };
  }

  /** Stops refills; running ones are aborted and give their slots back. */
  close() {
    return this.refiller.close();
  }
}
