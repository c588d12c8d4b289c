import { type Refused, refuse } from '../refusal.ts';
import { ReservationRefused, type SpendCapTake, type Store } from '../store/store.ts';
import type { Nanos } from './pricing.ts';

/** What serves a call once a cap is reached: nothing (a refusal), the embedded engine, or the `/v1` fallback. */
export type CappedServe = 'refuse' | 'embedded' | 'fallback';

/** The spend caps of a game, in `Nanos` of the price list's currency; an absent one does not cap. */
export interface SpendCaps {
  daily?: Nanos;
  monthly?: Nanos;
  playerDaily?: Nanos;
  serve: CappedServe;
}

/** A cap as alerts and refusals name it. */
export type CapName = 'game_daily' | 'game_monthly' | 'player_daily';

/** One cap's spend in its period (`Nanos`), as a call left it or as a refused call found it. */
export interface CapSpend {
  cap: CapName;
  /** The player of a player's cap. */
  player?: string;
  /** `2025-06-01`, or `2025-06` for the month. */
  period: string;
  spent: Nanos;
  limit: Nanos;
  /** Whether a call was refused by it (the cap is reached, whatever the spend). */
  refused: boolean;
}

/** Settles a call's reservation to what it cost (0: it failed, and everything is given back). */
export type Settle = (cost: Nanos) => Promise<void>;

const nameOf = (take: SpendCapTake): CapName =>
  take.scope !== 'game' ? 'player_daily' : take.period.length === 7 ? 'game_monthly' : 'game_daily';

/** When a cap's period ends: midnight UTC, or the first of next month. */
function resetsAt(cap: CapName, now: number): string {
  const d = new Date(now);
  const next =
    cap === 'game_monthly'
      ? Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1)
      : Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1);
  return new Date(next).toISOString();
}

/** The refusal of a call a cap stopped, worded for whoever asked (no amounts: those are the operator's). */
function capRefusal(cap: CapName, player: string | undefined, now: number): Refused {
  const resets_at = resetsAt(cap, now);
  const details = { cap, resets_at };
  if (cap === 'player_daily')
    return refuse(
      'spend_cap_reached',
      `Player ${player} has reached today's spend cap: new content resumes at midnight UTC`,
      details,
    );
  return refuse(
    'spend_cap_reached',
    `The game has reached its ${cap === 'game_daily' ? 'daily' : 'monthly'} spend cap: new content resumes at ${resets_at}`,
    details,
  );
}

/**
 * The game's spend caps, kept like the daily budgets: each backend call takes its most from every
 * cap in one reservation before it is sent (refused, taking nothing, when one would pass), and is
 * settled to what it cost after, so concurrent calls on any number of instances never pass a cap
 * together. Calls of the server's own work are held to the game's caps alone.
 */
export class SpendGate {
  constructor(
    private readonly store: Pick<Store, 'reserve' | 'release' | 'settle'>,
    readonly caps: SpendCaps,
    private readonly options: {
      /** Told each cap's spend after a call, and of each cap that refused one (alerts). */
      spent?: (spends: CapSpend[]) => void;
      log?: (message: string, err: unknown) => void;
    } = {},
  ) {}

  get serve(): CappedServe {
    return this.caps.serve;
  }

  /** The caps a call of `player` (none: the server's own) is taken from, the game's first. */
  private takes(player: string | undefined, day: string): SpendCapTake[] {
    const { daily, monthly, playerDaily } = this.caps;
    const takes: SpendCapTake[] = [];
    if (daily !== undefined) takes.push({ scope: 'game', period: day, cap: daily });
    if (monthly !== undefined) takes.push({ scope: 'game', period: day.slice(0, 7), cap: monthly });
    if (playerDaily !== undefined && player)
      takes.push({ scope: `player:${player}`, period: day, cap: playerDaily });
    return takes;
  }

  private tell(take: SpendCapTake, spent: Nanos, refused: boolean) {
    const cap = nameOf(take);
    return {
      cap,
      ...(cap === 'player_daily' ? { player: take.scope.slice('player:'.length) } : {}),
      period: take.period,
      spent,
      limit: take.cap,
      refused,
    };
  }

  /**
   * Takes a call's most (`Nanos`) from every cap before it is sent: how to settle it once it has
   * ended, or `capped` when a cap is reached and the embedded engine or the fallback serves instead;
   * a `spend_cap_reached` refusal when nothing does. A free call takes nothing.
   */
  async reserve(most: Nanos, player: string | undefined, now = Date.now()): Promise<Settle | 'capped'> {
    const day = new Date(now).toISOString().slice(0, 10);
    const caps = this.takes(player, day);
    if (most === 0 || !caps.length) return async () => {};
    let reservation: Awaited<ReturnType<Store['reserve']>>;
    try {
      reservation = await this.store.reserve(
        { playerId: player ?? '', day, spend: { nanos: most, caps } },
        now,
      );
    } catch (err) {
      if (!(err instanceof ReservationRefused) || err.refusal.kind !== 'spend') throw err;
      const { scope, period, spent } = err.refusal;
      const take = caps.find((c) => c.scope === scope && c.period === period) as SpendCapTake;
      this.options.spent?.([this.tell(take, spent, true)]);
      if (this.caps.serve === 'refuse') throw capRefusal(nameOf(take), player, now);
      return 'capped';
    }
    return async (cost) => {
      try {
        if (cost === 0) return await this.store.release(reservation);
        const settled = await this.store.settle(reservation, cost);
        this.options.spent?.(settled.map((s) => this.tell(s, s.spent, false)));
      } catch (err) {
        // The call is answered whatever the store does: its reservation stays at its most.
        this.options.log?.('could not settle a call’s spend against the caps', err);
      }
    };
  }
}
