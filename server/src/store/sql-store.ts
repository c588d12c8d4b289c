import type { Item } from '@lootsmith/protocol';
import { AdminQueries } from '../admin/queries.ts';
import { RequestLogQueries } from '../admin/request-queries.ts';
import type { RequestLogStore } from '../admin/request-store.ts';
import type { AdminStore } from '../admin/store.ts';
import { groupCall, groupRead } from './group.ts';
import { granted, lockOrder, type Plan, plan } from './reservation.ts';
import * as rules from './rules.ts';
import { all, type Params, type Rule, run } from './rules.ts';
import {
  type CraftInput,
  type GrantLootOptions,
  type PlayerRecord,
  type PoolClaim,
  type PoolSlotRequest,
  type Reservation,
  ReservationRefused,
  type ReservationRequest,
  type Stack,
  type Store,
  type StoredResponse,
} from './store.ts';

/**
 * The `Store` over SQL, the same for every database: each method runs a rule of `rules.ts` in one
 * transaction or statement by statement. A database supplies how rules run and how a group of
 * reservations is taken (group commit).
 */
export abstract class SqlStore implements Store {
  /** Runs a rule in one write transaction: all of it or, when it throws, none of it. */
  protected abstract transaction<T>(rule: Rule<T>): Promise<T>;
  /** Runs a rule statement by statement, each committed on its own (reads, and single writes). */
  protected abstract autocommit<T>(rule: Rule<T>): Promise<T>;
  /**
   * Takes the plans, given in lock order, in one transaction, each all or nothing: the rows of its
   * takes, or its refusal. Nothing is answered before the transaction has committed.
   */
  protected abstract takeGroup(plans: Plan[]): Promise<Array<Params[] | ReservationRefused>>;
  abstract close(): Promise<void>;
  readonly admin: AdminStore = new AdminQueries({
    transaction: (rule) => this.transaction(rule),
    autocommit: (rule) => this.autocommit(rule),
  });
  readonly requestLog: RequestLogStore = new RequestLogQueries({
    transaction: (rule) => this.transaction(rule),
    autocommit: (rule) => this.autocommit(rule),
  });

  /** Group commit: the reservations asked for while a group is being taken are taken together next. */
  private readonly reserveInGroup;
  /** Group read: the players asked for while a read waits or runs share the next read. */
  private readonly versionOf = groupRead((ids) => this.autocommit(rules.inventoryVersions(ids)));

  /** @param groupMax most reservations one group takes */
  protected constructor(groupMax: number) {
    this.reserveInGroup = groupCall(async (plans: Plan[]) => {
      const ordered = lockOrder(plans);
      const outcomes = await this.takeGroup(ordered.map((o) => o.plan));
      const answers: Array<Reservation | ReservationRefused> = [];
      ordered.forEach(({ plan: p, index }, i) => {
        const outcome = outcomes[i] as Params[] | ReservationRefused;
        answers[index] = outcome instanceof ReservationRefused ? outcome : granted(p, outcome);
      });
      return answers;
    }, groupMax);
  }

  async ensurePlayer(id: string, starting: Stack[]) {
    // Players are never deleted: one found needs no write transaction.
    return (await this.getPlayer(id)) ?? this.transaction(rules.ensurePlayer(id, starting));
  }

  guestSession(id: string, secretHash: string, starting: Stack[]) {
    return this.transaction(rules.guestSession(id, secretHash, starting));
  }

  getPlayer(id: string) {
    return this.autocommit(rules.player(id));
  }

  updatePlayer(id: string, patch: Partial<Omit<PlayerRecord, 'id'>>, starting: Stack[] = []) {
    return this.transaction(rules.updatePlayer(id, patch, starting));
  }

  stacks(playerId: string) {
    return this.autocommit(rules.stacks(playerId));
  }

  getItems(ids: string[]) {
    return this.autocommit(rules.items(ids));
  }

  inventory(playerId: string) {
    return this.autocommit(rules.inventory(playerId));
  }

  async inventoryVersion(playerId: string) {
    return (await this.versionOf(playerId)) ?? null;
  }

  async playerItemNames(playerId: string) {
    return (await this.autocommit(all('itemNames', { player: playerId }))).map((r) => r.name);
  }

  grantLoot(playerId: string, items: Item[], stacks: Stack[], reason: string, options?: GrantLootOptions) {
    return this.transaction(rules.grantLoot(playerId, items, stacks, reason, options?.claimedLevel));
  }

  changeStacks(playerId: string, changes: Stack[], reason: string) {
    return this.transaction(rules.changeStacks(playerId, changes, reason));
  }

  craft(input: CraftInput) {
    return this.transaction(rules.craft(input));
  }

  recipe(key: string) {
    return this.autocommit(rules.recipe(key));
  }

  recipes(playerId: string) {
    return this.autocommit(rules.recipes(playerId));
  }

  icon(id: string) {
    return this.autocommit(rules.icon(id));
  }

  putIcon(id: string, prompt: string, png: Buffer, cost?: number | 'unpriced') {
    return this.autocommit(rules.putIcon(id, prompt, png, cost));
  }

  dailyUsage(playerId: string, day: string) {
    return this.autocommit(rules.dailyUsage(playerId, day));
  }

  async reserve(request: ReservationRequest, at: number): Promise<Reservation> {
    const outcome = await this.reserveInGroup(plan(request, at));
    if (outcome instanceof ReservationRefused) throw outcome;
    return outcome;
  }

  release(reservation: Reservation) {
    return this.transaction(rules.release(reservation));
  }

  async claimAlert(scope: string, period: string, threshold: number, at: number) {
    return (await this.autocommit(run('claimAlert', { scope, period, threshold, at }))) === 1;
  }

  /** Each cap's row on its own (a statement is atomic): none waits on a transaction holding the others. */
  settle(reservation: Reservation, nanos: number) {
    return this.autocommit(rules.settle(reservation, nanos));
  }

  equipment(playerId: string) {
    return this.autocommit(all('equipment', { player: playerId }));
  }

  equip(playerId: string, slot: string, itemId: string) {
    return this.transaction(rules.equip(playerId, slot, itemId));
  }

  async unequip(playerId: string, slot: string) {
    await this.autocommit(run('unequip', { player: playerId, slot }));
  }

  reservePoolSlots(request: PoolSlotRequest, at: number) {
    return this.transaction(rules.reservePoolSlots(request, at));
  }

  fillPoolSlot(id: string, item: Item) {
    return this.autocommit(rules.fillPoolSlot(id, item));
  }

  async releasePoolSlots(ids: string[]) {
    await this.autocommit(run('releaseSlots', { ids }));
  }

  claimPoolItems(game: string, claims: PoolClaim[], excludeNames: string[]) {
    return this.transaction(rules.claimPoolItems(game, claims, excludeNames));
  }

  returnPoolItems(game: string, items: Array<{ bucket: string; item: Item }>, at: number) {
    return this.transaction(rules.returnPoolItems(game, items, at));
  }

  poolStock(game: string, at: number) {
    return this.autocommit(all('poolStock', { game, at }));
  }

  idempotent(scope: string, now = Date.now()): Promise<StoredResponse | null> {
    return this.autocommit(rules.idempotent(scope, now));
  }

  saveIdempotent(scope: string, response: StoredResponse, owner = '', now = Date.now()) {
    return this.transaction(rules.saveIdempotent(scope, owner, response.status, response.body, now));
  }

  /** Counts a hit in its window with no max (the rate-limit plugin compares the count itself). */
  async hit(key: string, windowMs: number, at: number) {
    const row = await this.autocommit(rules.hitWindow(key, windowMs, at));
    if (!row) throw new Error(`window ${key} was not counted`);
    return { count: row.count, resetAt: row.reset_at };
  }
}
