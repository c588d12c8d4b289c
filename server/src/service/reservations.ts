import { tokenRevoked } from '../auth.ts';
import { playerBlocked, Refused, refuse } from '../refusal.ts';
import { type Reservation, ReservationRefused, type ReservationRequest, type Store } from '../store/store.ts';
import { type Spend, tracking } from '../upstream/spend.ts';

const today = () => new Date().toISOString().slice(0, 10);

/** The part of the store reservations use. */
export type ReservationStore = Pick<Store, 'reserve' | 'release'>;

/** Gives a reservation back: call it when the work it paid for sent nothing to a backend. */
export type Release = () => Promise<void>;

/**
 * A reservation taken: how to give it back, its windows as taken (count and reset), and when the
 * player's own text was last refused (for `ContentGuard.screenPlayer`).
 */
export type Reserved = Release & Pick<Reservation, 'windows' | 'textRefusedAt'>;

/** The daily budgets of a player whose record sets none (production's defaults); none: unlimited. */
export interface DefaultBudgets {
  daily_items: number;
  daily_images: number;
}

/** What a reservation takes beyond the daily budget, and whose request it is for. */
export interface ReserveOptions extends Pick<ReservationRequest, 'windows' | 'grant' | 'issuedAt'> {
  budgets?: DefaultBudgets;
}

/**
 * Reserves the player's daily budget (and drop or call windows, a grant) before any model call;
 * refused when something is used up, taking nothing.
 */
export async function reserve(
  store: ReservationStore,
  playerId: string,
  kind: 'items' | 'images',
  n: number,
  options: ReserveOptions = {},
): Promise<Reserved> {
  const { budgets, ...extra } = options;
  const fallback = budgets ? (kind === 'items' ? budgets.daily_items : budgets.daily_images) : null;
  let reservation: Reservation;
  try {
    // The limit is read from the player's record inside the reservation, so a change to it is never missed.
    reservation = await store.reserve(
      { playerId, day: today(), usage: { kind, n, limit: 'recorded', fallback }, ...extra },
      Date.now(),
    );
  } catch (err) {
    if (!(err instanceof ReservationRefused)) throw err;
    const r = err.refusal;
    if (r.kind === 'blocked') throw playerBlocked(playerId);
    if (r.kind === 'revoked') throw tokenRevoked();
    if (r.kind === 'budget')
      throw refuse(
        'budget_exceeded',
        `Player ${playerId} has used ${r.used} of ${r.limit} ${kind} today; the budget resets at midnight UTC`,
      );
    if (r.kind === 'grant_used')
      throw refuse('grant_used', 'This drop grant has been spent; each grant gives one drop');
    if (r.kind !== 'window') throw err;
    // A window kept when the work fails counts calls (the forwards); the others say what they count.
    const window = extra.windows?.find((w) => w.key === r.key);
    throw new Refused({
      code: 'rate_limit_exceeded',
      counts: window?.kept ? 'requests' : (window?.counts ?? 'drops'),
      max: r.max,
      windowMs: r.windowMs,
      resetAt: r.resetAt,
    });
  }
  return Object.assign(() => store.release(reservation), {
    windows: reservation.windows,
    textRefusedAt: reservation.textRefusedAt,
  });
}

/**
 * Runs `work` under a reservation. Spend is charged when it is spent: the reservation is given back
 * only when the work sent nothing to a backend and failed (or made nothing, as `unused` says of its
 * result); whatever reached a backend stays counted, answered or not, refused or not, whether the
 * client waited for it or hung up.
 */
export async function withReservation<T>(
  release: Release,
  work: () => Promise<T>,
  unused?: (result: T) => boolean,
): Promise<T> {
  const spend: Spend = { sent: false };
  let result: T;
  try {
    result = await tracking(spend, work);
  } catch (err) {
    if (!spend.sent) await release();
    throw err;
  }
  if (!spend.sent && unused?.(result)) await release();
  return result;
}
