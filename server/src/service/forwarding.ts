import type { PlayerService } from '../players/service.ts';
import { type DefaultBudgets, type ReservationStore, type Reserved, reserve } from './reservations.ts';

/** A per-player limit on forwarded calls, e.g. 30 images a minute. */
export interface ForwardLimit {
  name: string;
  max: number;
  windowMs: number;
}

/** The `/v1` calls forwarded for a player (images, raw chat): what each costs the player before it goes. */
export class ForwardingService {
  constructor(
    private readonly store: ReservationStore,
    private readonly players: PlayerService,
    private readonly budgets?: DefaultBudgets,
  ) {}

  /**
   * Reserves one of the player's daily budget of `kind` for a forwarded call, and counts the call
   * against the per-player `limit`; refused when either is used up. Run the forward under
   * `withReservation`: a call that never left gives the budget back (it still counts against the limit).
   */
  async reserve(
    playerId: string,
    kind: 'items' | 'images',
    limit: ForwardLimit,
    issuedAt?: number,
  ): Promise<Reserved> {
    await this.players.ensureKnown(playerId);
    // The reservation itself refuses a blocked player, and a token issued before a block.
    return reserve(this.store, playerId, kind, 1, {
      windows: [{ key: `${limit.name}:${playerId}`, windowMs: limit.windowMs, max: limit.max, kept: true }],
      budgets: this.budgets,
      issuedAt,
    });
  }
}
