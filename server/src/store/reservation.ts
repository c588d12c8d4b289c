import { byKey, get, type Params, type Rule } from './rules.ts';
import type { StatementName } from './sql.ts';
import {
  type LimitWindow,
  type Refusal,
  type Reservation,
  ReservationRefused,
  type ReservationRequest,
} from './store.ts';

/**
 * A reservation is a list of takes, run in order in one transaction: each a conditional write that
 * returns a row when it took and none when the limit refuses it, and then the reservation takes
 * nothing. SQLite runs the takes with `take` below; PostgreSQL runs the same takes, statement for
 * statement, inside `lootsmith_reserve_group` (built from this table), so a group of reservations is
 * one round trip.
 */
export interface TakeKind {
  statement: StatementName;
  /** Read in the same transaction after a refusal: what the refusal reports. */
  why?: StatementName;
  refusal(why: Params | undefined, step: Step): Refusal;
}

export const TAKES = {
  /** The player's recorded limit, unless blocked or unknown; its row sets `$lim` of the takes after it. */
  player: {
    statement: 'playerLimit',
    why: 'playerState',
    refusal: (why) => ({ kind: why && why.blocked === 0 ? 'revoked' : 'blocked' }),
  },
  items: { statement: 'takeItems', why: 'usedItems', refusal: budget },
  images: { statement: 'takeImages', why: 'usedImages', refusal: budget },
  window: {
    statement: 'hitWindow',
    why: 'window',
    refusal: (why, step) => ({
      kind: 'window',
      key: step.key as string,
      max: step.max as number,
      windowMs: step.windowMs as number,
      resetAt: (why?.reset_at as number | null) ?? (step.reset as number),
    }),
  },
  grant: { statement: 'spendGrant', refusal: () => ({ kind: 'grant_used' }) },
  /** Money from one spend cap: the scope's row of the period counted up within `$cap`. */
  spend: {
    statement: 'takeSpend',
    why: 'spentSoFar',
    refusal: (why, step) => ({
      kind: 'spend',
      scope: step.scope as string,
      period: step.period as string,
      spent: Number(why?.spent ?? 0),
      cap: step.cap as number,
    }),
  },
} satisfies Record<string, TakeKind>;

function budget(why: Params | undefined): Refusal {
  return { kind: 'budget', used: (why?.used as number) ?? 0, limit: (why?.lim as number | null) ?? 0 };
}

/**
 * One take: its kind and every parameter of the takes, those it does not use null. One shape for all
 * steps: a bag of parameters that changed shape from take to take doubled the cost of a reservation.
 */
export interface Step extends Params {
  take: keyof typeof TAKES;
}

/** A reservation's own parameters, which every take sees. */
interface Own {
  player: string;
  day: string;
  kind: string | null;
  n: number | null;
  lim: number | null;
  dflt: number | null;
  iat: number | null;
  at: number;
}

/** A step of one shape, whatever its take sets beyond the reservation's own parameters. */
function step(
  take: Step['take'],
  own: Own,
  set: Partial<
    Record<'key' | 'grant' | 'grant_player' | 'scope' | 'period', string> &
      Record<'max' | 'reset' | 'windowMs' | 'expires' | 'cap' | 'nanos', number>
  > = {},
): Step {
  return {
    take,
    player: own.player,
    day: own.day,
    kind: own.kind,
    n: own.n,
    lim: own.lim,
    dflt: own.dflt,
    iat: own.iat,
    at: own.at,
    key: set.key ?? null,
    hits: 1,
    max: set.max ?? null,
    reset: set.reset ?? null,
    windowMs: set.windowMs ?? null,
    grant: set.grant ?? null,
    grant_player: set.grant_player ?? null,
    expires: set.expires ?? null,
    scope: set.scope ?? null,
    period: set.period ?? null,
    cap: set.cap ?? null,
    nanos: set.nanos ?? null,
  };
}

export interface Plan {
  request: ReservationRequest;
  at: number;
  /** The request's windows, in the order taken. */
  windows: LimitWindow[];
  steps: Step[];
}

/** The takes of a reservation; windows in key order, so concurrent groups lock rows in one order. */
export function plan(request: ReservationRequest, at: number): Plan {
  const { playerId, day, usage, grant, spend } = request;
  const recorded = usage?.limit === 'recorded';
  const windows = [...(request.windows ?? [])].sort(byKey);
  const own = {
    player: playerId,
    day,
    kind: usage?.kind ?? null,
    n: usage?.n ?? null,
    lim: usage === undefined || usage.limit === 'recorded' ? null : usage.limit,
    dflt: usage?.fallback ?? null,
    iat: request.issuedAt ?? null,
    at,
  };
  const steps: Step[] = recorded ? [step('player', own)] : [];
  if (usage) steps.push(step(usage.kind, own));
  for (const { key, max, windowMs } of windows)
    steps.push(step('window', own, { key, max, reset: at + windowMs, windowMs }));
  if (grant)
    steps.push(
      step('grant', own, { grant: grant.id, grant_player: grant.playerId, expires: grant.expiresAt }),
    );
  // The caps in the order they are given (the game's before a player's): one order for every plan.
  for (const { scope, period, cap } of spend?.caps ?? [])
    steps.push(step('spend', own, { scope, period, cap, nanos: spend?.nanos }));
  return { request, at, windows, steps };
}

/** The refusal of the plan's take at `index`, from what its `why` read found. */
export function refusal(p: Plan, index: number, why: Params | undefined): ReservationRefused {
  const step = p.steps[index] as Step;
  return new ReservationRefused(TAKES[step.take].refusal(why, step));
}

/**
 * Runs a plan's takes in order; a refusal throws, and the caller's transaction or savepoint rolls back.
 * A take's row sets the parameters of the same name of the takes after it (the recorded limit).
 */
export function* take(p: Plan): Rule<Params[]> {
  const carried: Params = {};
  const rows: Params[] = [];
  for (const [i, step] of p.steps.entries()) {
    const kind: TakeKind = TAKES[step.take];
    const params = { ...step, ...carried };
    const row = (yield* get(kind.statement, params)) as Params | undefined;
    if (!row) throw refusal(p, i, kind.why ? ((yield* get(kind.why, params)) as Params) : undefined);
    for (const column in row) if (column in step) carried[column] = row[column];
    rows.push(row);
  }
  return rows;
}

/** The reservation granted by the rows of a plan's takes. */
export function granted(p: Plan, rows: Params[]): Reservation {
  const first = p.steps.findIndex((s) => s.take === 'window');
  const reservation: Reservation = {
    ...p.request,
    windows: p.windows.map((w, k) => ({
      ...w,
      count: rows[first + k]?.count as number,
      resetAt: rows[first + k]?.reset_at as number,
    })),
  };
  // The player's take is first when the limit is recorded.
  if (p.steps[0]?.take === 'player') {
    const at = rows[0]?.text_refused_at;
    reservation.textRefusedAt = at === null || at === undefined ? null : Number(at);
  }
  return reservation;
}

/**
 * The plans of a group in the order their rows are locked: players by id (each player's in the order
 * asked), and money last, so two groups never wait on each other in a circle: a group takes the
 * spend caps' rows (the game's first, shared by every call) only once it holds every other row it takes.
 * `index` is each plan's place in the batch.
 */
export function lockOrder(plans: Plan[]): Array<{ plan: Plan; index: number }> {
  const money = (p: Plan) => (p.request.spend ? 1 : 0);
  return plans
    .map((plan, index) => ({ plan, index }))
    .sort((a, b) => {
      const [x, y] = [a.plan.request.playerId, b.plan.request.playerId];
      return money(a.plan) - money(b.plan) || (x === y ? a.index - b.index : x < y ? -1 : 1);
    });
}

/** Spent grants that expired before the earliest reservation of the group that spends one; null if none does. */
export function expireBefore(plans: Plan[]): number | null {
  const times = plans.filter((p) => p.request.grant).map((p) => p.at);
  return times.length ? Math.min(...times) : null;
}
