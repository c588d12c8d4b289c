import type { GameDefinition, Item } from '@lootsmith/protocol';
import type { Registry } from 'prom-client';
import type { PoolSettings } from '../config.ts';
import type { LootDeps, LootSupply, PoolDraw } from '../drops/generate.ts';
import type { LootPlan } from '../drops/loot-plan.ts';
import { gameKey } from '../game/definition.ts';
import { checkItem } from '../game/rules.ts';
import type { ItemSpec } from '../generation/prompts.ts';
import type { Store } from '../store/store.ts';
import { untracked } from '../upstream/spend.ts';
import { type Bucket, bandAway, bucketOf, levelWindow, NEAR_BANDS, namedLocation } from './buckets.ts';
import { DemandRates } from './demand.ts';
import { Forecast } from './forecast.ts';
import { IconBacklog } from './icon-backlog.ts';
import { poolMetrics } from './pool-metrics.ts';
import { POOL_CLIENT, Refiller, type RefillStore } from './refill.ts';
import { scaleItem } from './scale.ts';

/** Players remembered as arrived; the oldest is forgotten beyond this. */
const MAX_ARRIVALS = 10_000;

export interface LootPoolsDeps {
  loot: LootDeps;
  store: RefillStore & Pick<Store, 'claimPoolItems' | 'returnPoolItems'>;
  settings: PoolSettings;
  registry: Registry;
  /** Images the image backend paints at once: pooled items' icons never wait in its queue beyond that. */
  imageConcurrency: number;
  log?: (message: string, err?: unknown) => void;
}

/**
 * Loot pools: items generated ahead of drops, per bucket, and served at once. The rarity is still
 * rolled at drop time; a drop takes a pooled item of that rarity within its level window (or, when
 * its bucket has none, one of a neighbouring level band scaled to its level), and asks the model only
 * for what the pools lack. Every drop queues a refill behind it, and warms what its player is about
 * to reach (`Forecast`).
 */
export class LootPools implements LootSupply {
  readonly game: string;
  readonly metrics: ReturnType<typeof poolMetrics>;
  readonly refiller: Refiller;
  private readonly definition: GameDefinition;
  readonly backlog?: IconBacklog;
  private readonly rates = new DemandRates();
  private readonly forecast: Forecast;
  /** Players seen lately, so a player's every inventory load does not count as new demand. */
  private readonly arrivals = new Set<string>();

  constructor(private readonly deps: LootPoolsDeps) {
    this.definition = deps.loot.game;
    this.game = gameKey(deps.loot.game);
    this.metrics = poolMetrics(deps.registry, () => deps.store.poolStock(this.game, Date.now()));
    this.forecast = new Forecast(deps.loot.game);
    // Drops answer before icons: pooled items are stocked as soon as they are written.
    this.backlog = deps.loot.icons.afterItem
      ? new IconBacklog(
          deps.loot.icons,
          POOL_CLIENT,
          Math.min(deps.imageConcurrency, deps.settings.concurrency),
          deps.log,
        )
      : undefined;
    this.refiller = new Refiller({
      ...deps,
      game: this.game,
      metrics: this.metrics,
      rates: this.rates,
      forecast: this.forecast,
      backlog: this.backlog,
    });
  }

  /**
   * A live player this instance has not seen yet (an inventory load or a drop) is expected to draw
   * from the buckets a fresh game starts with: each counts one draw of demand there, and is looked at;
   * those of the rooms next to the first are looked at too (one of each rarity, no demand counted). A
   * game whose pools already hold what that demand needs generates nothing.
   */
  arrived(playerId: string) {
    if (this.arrivals.has(playerId)) return;
    if (this.arrivals.size >= MAX_ARRIVALS)
      this.arrivals.delete(this.arrivals.values().next().value as string);
    this.arrivals.add(playerId);
    const now = Date.now();
    const { first, next } = this.forecast.startBuckets();
    untracked(() => {
      for (const bucket of first) {
        this.rates.note(bucket.key, now);
        this.refiller.want(bucket, 'start-up');
      }
      for (const bucket of next) this.refiller.want(bucket, 'start-up');
    });
  }

  /** The bucket a spec is served from, or undefined when the drop asks for what a pool cannot know. */
  private bucketFor(plan: LootPlan, spec: ItemSpec): Bucket | undefined {
    // Free text that steers the writing (a subtype, a focus, or the plan's own) needs the model.
    if (!plan.poolable || spec.subtype || spec.focus) return undefined;
    const type = spec.typeChosen ? spec.type : '*';
    return bucketOf(this.definition, plan.site, type, namedLocation(this.definition, plan.place));
  }

  async take(plan: LootPlan, specs: ItemSpec[], takenNames: string[]): Promise<PoolDraw> {
    const game = this.definition;
    const { site, playerId } = plan;
    const buckets = specs.map((spec) => this.bucketFor(plan, spec));
    const [minLevel, maxLevel] = levelWindow(game, site);
    const asked = specs.flatMap((spec, i) => {
      const bucket = buckets[i];
      return bucket ? [{ i, spec, bucket }] : [];
    });
    const items: Array<Item | undefined> = specs.map(() => undefined);
    if (!asked.length) return { items, giveBack: async () => {} };
    this.arrived(playerId);
    const exclude = plan.constraints.ensureUniqueness ? takenNames.map((n) => n.toLowerCase()) : [];
    const claimed = await this.deps.store.claimPoolItems(
      this.game,
      asked.map(({ spec, bucket }) => ({ bucket: bucket.key, rarity: spec.rarity, minLevel, maxLevel })),
      exclude,
    );
    const created_at = new Date().toISOString();
    /** What the drop holds, as it came out of each pool: given back as it was if the drop fails. */
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
    });
    // Near misses: the nearest band's item, scaled to the drop's level, instead of a generation.
    for (const offset of NEAR_BANDS) {
      const near = asked.flatMap(({ i, spec, bucket }) => {
        if (items[i]) return [];
        const neighbour = bandAway(game, bucket, offset);
        return neighbour ? [{ i, spec, bucket, neighbour }] : [];
      });
      if (!near.length) continue;
      const found = await this.deps.store.claimPoolItems(
        this.game,
        near.map(({ spec, neighbour }) => ({
          bucket: neighbour.key,
          rarity: spec.rarity,
          minLevel: 1,
          maxLevel: game.max_item_level,
        })),
        exclude,
      );
      const unfit: Array<{ bucket: string; item: Item }> = [];
      near.forEach(({ i, spec, bucket, neighbour }, n) => {
        const item = found[n];
        if (!item) return;
        const level = Math.min(maxLevel, Math.max(minLevel, item.level));
        const scaled = scaleItem(game, item, level, {
          type: spec.typeChosen ? spec.type : undefined,
          rarity: spec.rarity,
        });
        if ('problems' in scaled) {
          this.deps.log?.(`pooled item ${item.id} kept in its own band: ${scaled.problems.join('; ')}`);
          unfit.push({ bucket: neighbour.key, item });
          return;
        }
        items[i] = { ...scaled.item, created_at };
        taken.push({ bucket: neighbour.key, item });
        this.metrics.scaled.inc({ bucket: bucket.key });
      });
      if (unfit.length) await this.deps.store.returnPoolItems(this.game, unfit, Date.now());
    }
    for (const { i, bucket } of asked)
      this.metrics.draws.inc({ bucket: bucket.key, outcome: items[i] ? 'hit' : 'miss' });
    // Every draw, hit or miss, is demand: the bucket is topped up behind the drop, and what its player
    // is about to reach is warmed.
    const now = Date.now();
    const drawn = new Map<string, { bucket: Bucket; n: number }>();
    for (const { bucket } of asked) {
      const entry = drawn.get(bucket.key) ?? { bucket, n: 0 };
      drawn.set(bucket.key, { bucket, n: entry.n + 1 });
    }
    this.forecast.saw(playerId, site.playerLevel, plan.place, now, site.enemy?.id);
    // The refill is the pools' spending, not this drop's (nothing it sends is the drop's call): a
    // bucket drawn from, and the warming ahead it leads to (each bucket looked at once in 10 s at
    // most), are paid from the share of the hourly budget of the player whose draw asked for them,
    // so one player's play spread over many buckets cannot drain the budget for the others.
    untracked(() => {
      for (const { bucket, n } of drawn.values()) {
        this.rates.note(bucket.key, now, n);
        this.refiller.want(bucket, 'seen', playerId);
      }
      for (const { bucket } of drawn.values())
        for (const next of this.forecast.predict(bucket, plan.place, now))
          this.refiller.want(next, 'predicted', playerId);
    });
    return {
      items,
      giveBack: async () => {
        if (taken.length) await this.deps.store.returnPoolItems(this.game, taken, Date.now());
      },
    };
  }

  /** Stops refills and icons of pooled items; running refills are aborted and give their slots back. */
  async close() {
    await this.refiller.close();
    await this.backlog?.close();
  }
}
