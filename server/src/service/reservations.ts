import { playerBlocked, Refused, refuse } from '../refusal.ts';
import { type Reservation, ReservationRefused, type ReservationRequest, type Store } from '../store/store.ts';

const today = () => new Date().toISOString().slice(0, 10);

/** Gives a reservation back: call it when the work it paid for failed. */
export type Release = () => Promise<void>;

/**
 * Reserves the player's daily budget (and drop or call windows, a grant) before any model call;
 * refused when something is used up, taking nothing.
 */
export async function reserve(
  store: Store,
  playerId: string,
  kind: 'items' | 'images',
  n: number,
  extra: Pick<ReservationRequest, 'windows' | 'grant'> = {},
): Promise<Release> {
  let reservation: Reservation;
  try {
    // The limit is read from the player's record inside the reservation, so a change to it is never missed.
    reservation = await store.reserve(
      { playerId, day: today(), usage: { kind, n, limit: 'recorded' }, ...extra },
      Date.now(),
    );
  } catch (err) {
    if (!(err instanceof ReservationRefused)) throw err;
    const r = err.refusal;
    if (r.kind === 'blocked') throw playerBlocked(playerId);
    if (r.kind === 'budget')
      throw refuse(
        'budget_exceeded',
        `Player ${playerId} has used ${r.used} of ${r.limit} ${kind} today; the budget resets at midnight UTC`,
      );
    if (r.kind === 'grant_used')
      throw refuse('grant_used', 'This drop grant has been spent; each grant gives one drop');
    // A window kept when the work fails counts calls (the forwards); the others count drops.
    const kept = extra.windows?.find((w) => w.key === r.key)?.kept;
    throw new Refused({
      code: 'rate_limit_exceeded',
      counts: kept ? 'requests' : 'drops',
      max: r.max,
      windowMs: r.windowMs,
      resetAt: r.resetAt,
    });
  }
  return () => store.release(reservation);
}

/** Runs `work` under a reservation; when it fails, the reservation is given back. */
export async function withReservation<T>(release: Release, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    await release();
    throw err;
  }
}
