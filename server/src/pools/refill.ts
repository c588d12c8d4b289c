import { randomUUID } from 'node:crypto';
import type { Rarity } from '@lootsmith/protocol';
import type { PoolSettings } from '../config.ts';
import { enemyContext, type LootDeps, newItemId, writeItems } from '../drops/generate.ts';
import { seededRandom } from '../game/random.ts';
import { statBudget } from '../game/rules.ts';
import type { ItemSpec } from '../generation/prompts.ts';
import type { PoolSlot, PoolStock, Store } from '../store/store.ts';
import { type Bucket, bandAway, NEAR_BANDS, rarityOdds } from './buckets.ts';
import type { DemandRates } from './demand.ts';
import type { Forecast, WarmReason } from './forecast.ts';
import type { IconBacklog } from './icon-backlog.ts';
import type { PoolMetrics } from './pool-metrics.ts';

/** Most items one chat completion writes (the item batch schema's bound). */
const BATCH = 8;
/** A slot nobody fills (its generator crashed) frees its place after this long. */
const LEASE_MS = 10 * 60_000;
export const POOL_CLIENT = 'lootsmith-pool';
/**
 * The share of a bucket's draws its warming covers, likeliest rarities first: all of a fresh game's
 * first buckets (one of every rarity a new player can roll there); of a bucket drawn from, all but
 * its rarest three in a hundred, which a near miss from the band beside it or a drop of their own
 * serves (the stranger's bench: 1.51 generations per item served with them, 1.46–1.47 without, its
 * hits 98% → 97%); of a predicted one, the likeliest nine in ten. Players meeting an enemy for the
 * first time are stocked for every rarity whatever the reason (`aims`).
 */
const SHARE: Record<WarmReason, number> = { 'start-up': 1, seen: 0.97, predicted: 0.9 };

/** How often a rarity's stock may run out before its refill comes. */
const RUN_OUT = 0.01;

/** The fewest items that outlast a Poisson number of draws of this mean but `RUN_OUT` of the time. */
function lasting(mean: number): number {
  let k = 0;
  let term = Math.exp(-mean);
  let below = term;
  while (1 - below > RUN_OUT) {
    k++;
    term *= mean / k;
    below += term;
  }
  return k;
}

/** The fewest items that outlast `n` draws, each of this rarity with chance `p`, but `RUN_OUT` of the time. */
function outlasting(n: number, p: number): number {
  let k = 0;
  let term = (1 - p) ** n;
  let below = term;
  while (k < n && 1 - below > RUN_OUT) {
    term *= ((n - k) / (k + 1)) * (p / (1 - p));
    k++;
    below += term;
  }
  return k;
}

/** Items of a bucket by rarity, ready or being generated. */
function held(stock: PoolStock[], key: string): Map<string, number> {
  return new Map(stock.filter((s) => s.bucket === key).map((s) => [s.rarity, s.ready + s.pending]));
}

/** The likeliest rarities whose odds together reach `share` (all of them at 1). */
function likeliest(odds: Array<[Rarity, number]>, share: number): Array<[Rarity, number]> {
  const sorted = odds.toSorted((a, b) => b[1] - a[1]);
  const kept: Array<[Rarity, number]> = [];
  let covered = 0;
  for (const entry of sorted) {
    if (covered >= share) break;
    kept.push(entry);
    covered += entry[1];
  }
  return kept;
}

/** The part of the store a refill uses. */
export type RefillStore = Pick<Store, 'fillPoolSlot' | 'poolStock' | 'releasePoolSlots' | 'reservePoolSlots'>;

export interface RefillDeps {
  loot: LootDeps;
  store: RefillStore;
  settings: PoolSettings;
  game: string;
  metrics: PoolMetrics;
  rates: DemandRates;
  /** Where live players are: who is left in a band, who is about to reach a bucket. */
  forecast: Forecast;
  /** Where pooled items' icons are painted after stocking, when drops answer before icons. */
  backlog?: IconBacklog;
  log?: (message: string, err?: unknown) => void;
}

/**
 * Generates pool items in the background, only for buckets live players draw from or are about to
 * reach (an idle game generates nothing): each is topped up to what its recent demand needs while a
 * refill runs (`shortfall`); at most `concurrency` batches at once, buckets drawn from before others.
 */
export class Refiller {
  /** Buckets to look at, with when each was first asked for since its last look, and who pays. */
  private readonly queue = new Map<
    string,
    { bucket: Bucket; since: number; reason: WarmReason; payer?: string }
  >();
  private readonly active = new Set<string>();
  private readonly runs = new Set<Promise<void>>();
  private readonly stopping = new AbortController();
  /**
   * Seconds from a draw asking for a refill to the items being ready (waiting for a free batch
   * included), as a moving average: how far ahead a bucket's stock must reach.
   */
  private leadSeconds = 5;

  constructor(private readonly deps: RefillDeps) {}

  /**
   * Asks for a look at a bucket's stock, for a reason, on behalf of the player whose draw asked (its
   * share pays). A bucket drawn from stays so, and keeps its payer, however often it is also predicted.
   */
  want(bucket: Bucket, reason: WarmReason, payer?: string) {
    if (this.stopping.signal.aborted) return;
    const queued = this.queue.get(bucket.key);
    this.queue.set(bucket.key, {
      bucket,
      since: queued?.since ?? Date.now(),
      reason: queued?.reason === 'seen' ? 'seen' : reason,
      // Whoever's play asked for the look pays from its share of the budget: a draw's player for
      // its refill and the warming ahead it leads to. Start-up warming (the start buckets, filled
      // once whoever arrives) is charged to the budget alone.
      payer: reason === 'seen' || !queued ? payer : queued.payer,
    });
    this.pump();
  }

  /** Refills queued or running, for tests. */
  get busy() {
    return this.runs.size + this.queue.size;
  }

  /** Resolves once nothing is queued or running, pooled items' icons included (tests). */
  async settled() {
    while (this.runs.size) await Promise.allSettled([...this.runs]);
    await this.deps.backlog?.settled();
  }

  /** Stops taking work and aborts running batches; their slots are given back. */
  async close() {
    this.stopping.abort();
    this.queue.clear();
    await Promise.allSettled([...this.runs]);
  }

  private pump() {
    const queued = [...this.queue].sort(
      ([, a], [, b]) => Number(b.reason === 'seen') - Number(a.reason === 'seen'),
    );
    for (const [key, { bucket, since, reason, payer }] of queued) {
      if (this.runs.size >= this.deps.settings.concurrency) return;
      if (this.active.has(key)) continue;
      this.queue.delete(key);
      this.active.add(key);
      const run = this.refill(bucket, since, reason, payer, () => {
        this.active.delete(key);
        this.pump();
      })
        .catch((err) => this.deps.log?.('pool refill failed', err))
        .finally(() => {
          this.active.delete(key);
          this.runs.delete(run);
          this.pump();
        });
      this.runs.add(run);
    }
  }

  /**
   * What the bucket lacks: what it aims at (`aims`, for its likeliest rarities, those that make up
   * its `SHARE` of its draws) less what it holds, ready or being generated, and what the bands below it that a near miss reaches
   * hold: all of each band no live player is left in (players who level up leave it behind; a near
   * miss serves it scaled), down to the first band still played, whose stock beyond its own aim counts.
   */
  private async shortfall(bucket: Bucket, reason: WarmReason, now: number): Promise<PoolSlot[]> {
    const { forecast, loot } = this.deps;
    const stock = await this.deps.store.poolStock(this.deps.game, now);
    const have = held(stock, bucket.key);
    // The bands below a near miss reaches, nearest first: all of a band no live player is left in,
    // then what the first band still played holds beyond its own aim.
    for (const offset of NEAR_BANDS.filter((o) => o < 0)) {
      const below = bandAway(loot.game, bucket, offset);
      if (!below) break;
      const occupied = forecast.inBand(below, now) > 0;
      const belowAims = new Map(occupied ? this.aims(below, 1, now) : []);
      for (const [rarity, n] of held(stock, below.key))
        have.set(rarity, (have.get(rarity) ?? 0) + Math.max(0, n - (belowAims.get(rarity) ?? 0)));
      if (occupied) break;
    }
    const aims = this.aims(bucket, SHARE[reason], now);
    const targets = aims
      .map(([rarity, aim]) => ({ rarity, short: aim - (have.get(rarity) ?? 0) }))
      .filter((t) => t.short > 0);
    // Round by round, so a batch cut short by a limit still has one of every missing rarity first.
    const wants: PoolSlot[] = [];
    for (let round = 0; targets.some((t) => t.short > round); round++)
      for (const t of targets)
        if (t.short > round) wants.push({ id: newItemId(), rarity: t.rarity, level: bucket.level });
    return wants;
  }

  /**
   * The stock a bucket aims at, per rarity, for the rarities that make up `share` of its draws: enough
   * for the draws of it while a refill comes 99 times in 100 (Poisson, of mean its odds × the bucket's
   * recent rate × the lead time; the rate at least the share of the band below's that the players who
   * came up from it bring), or for its share of the largest drop lately, or for the drops of players
   * meeting the enemy for the first time (`Forecast.arriving`; then every rarity, since no band below
   * serves them), if more; at least one.
   */
  private aims(bucket: Bucket, share: number, now: number): Array<[Rarity, number]> {
    const { forecast, rates, loot } = this.deps;
    const arriving = forecast.arriving(bucket, now, this.leadSeconds);
    const perDrop = rates.perDrop(bucket.key, now);
    // Demand moves with the players: those who have come up from the band below bring their share
    // of its draws before this bucket's own rate shows them.
    let rate = rates.rate(bucket.key, now);
    const below = bandAway(loot.game, bucket, -1);
    const here = below ? forecast.inBand(bucket, now) : 0;
    if (below && here)
      rate = Math.max(rate, (rates.rate(below.key, now) * here) / (here + forecast.inBand(below, now)));
    const draws = rate * this.leadSeconds;
    // Players meeting an enemy for the first time may roll any of its rarities: nothing below serves them.
    const odds = likeliest(rarityOdds(loot.game, bucket.site), arriving > 0 ? 1 : share);
    return odds.map(([rarity, p]) => [
      rarity,
      Math.max(1, lasting(p * draws), outlasting(Math.round(arriving * perDrop), p), Math.ceil(p * perDrop)),
    ]);
  }

  /**
   * Reserves what the bucket lacks, then generates it. A bucket is looked at by one refill at a time
   * (`reserved` ends that), so two never count the same shortfall; their batches may overlap.
   */
  private async refill(
    bucket: Bucket,
    since: number,
    reason: WarmReason,
    payer: string | undefined,
    reserved: () => void,
  ) {
    const { store, settings, metrics } = this.deps;
    const wants = await this.shortfall(bucket, reason, Date.now());
    if (!wants.length) return;
    const started = Date.now();
    const { slots, refused } = await store.reservePoolSlots(
      {
        game: this.deps.game,
        bucket: bucket.key,
        wants: wants.slice(0, BATCH),
        bucketMax: settings.size,
        totalMax: settings.total,
        hourlyMax: settings.budgetPerHour,
        leaseMs: LEASE_MS,
        payer: payer === undefined ? undefined : { id: payer, max: settings.playerShare },
      },
      started,
    );
    if (refused) metrics.refused.inc({ reason: refused });
    if (!slots.length) return;
    metrics.spent.inc({ bucket: bucket.key }, slots.length);
    metrics.warmed.inc({ bucket: bucket.key, reason }, slots.length);
    // More than one batch short: the next look reserves the rest while this one is written.
    if (wants.length > BATCH && slots.length === BATCH) this.want(bucket, reason, payer);
    reserved();
    try {
      await this.generate(bucket, slots);
      this.leadSeconds = 0.8 * this.leadSeconds + 0.2 * ((Date.now() - since) / 1000);
    } catch (err) {
      metrics.failed.inc({ bucket: bucket.key }, slots.length);
      await store.releasePoolSlots(slots.map((s) => s.id));
      if (!this.stopping.signal.aborted) throw err;
    }
  }

  private async generate(bucket: Bucket, slots: PoolSlot[]) {
    const { loot, store, metrics } = this.deps;
    const { game } = loot;
    const random = seededRandom(randomUUID());
    // Materials drop from the game's list, never from a pool.
    const stacked = new Set(game.item_types.filter((t) => t.stackable).map((t) => t.id));
    const rolled = game.loot_types.filter((t) => !stacked.has(t));
    const specs: ItemSpec[] = slots.map((slot) => {
      const rarity = slot.rarity as Rarity;
      const type =
        bucket.type === '*' ? (rolled[Math.floor(random.next() * rolled.length)] as string) : bucket.type;
      return { type, rarity, level: slot.level, budget: statBudget(game, rarity, slot.level) };
    });
    const { enemy, playerLevel } = bucket.site;
    const { items } = await writeItems(loot, {
      clientId: POOL_CLIENT,
      specs,
      context: {
        location: bucket.location,
        ...(enemy ? enemyContext(enemy) : {}),
        theme: enemy?.element,
        playerLevel,
      },
      takenNames: [],
      random,
      icons: this.deps.backlog ? 'register' : 'paint',
      kind: 'pool',
      signal: this.stopping.signal,
      ids: slots.map((s) => s.id),
      enemyId: enemy?.id,
    });
    const filled = await Promise.all(
      items.map((item, i) => {
        const slot = slots[i] as PoolSlot;
        return store.fillPoolSlot(slot.id, { ...item, id: slot.id });
      }),
    );
    metrics.generated.inc({ bucket: bucket.key }, filled.filter(Boolean).length);
    this.deps.backlog?.add(items.flatMap((item, i) => (filled[i] && item.icon ? [item.icon] : [])));
  }
}
