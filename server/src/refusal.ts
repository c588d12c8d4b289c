import type { ErrorCode } from '@lootsmith/protocol';

/** A limit per time window, used up until `resetAt` (milliseconds since the epoch). */
export interface WindowRefusal {
  code: 'rate_limit_exceeded';
  /** What the window counts: calls to a route, or drops of one enemy tier. */
  counts: 'requests' | 'drops';
  max: number;
  windowMs: number;
  resetAt: number;
}

/** Any other rule that says no, worded for the player. */
export interface RuleRefusal {
  code: Exclude<ErrorCode, 'rate_limit_exceeded'>;
  message: string;
  details?: unknown;
}

/** Why the game's rules refused a request: a value, with no HTTP in it (`http/refusal.ts` answers it). */
export type Refusal = WindowRefusal | RuleRefusal;

/** Thrown by the services and the rules under them; nothing was changed. */
export class Refused extends Error {
  constructor(readonly refusal: Refusal) {
    super('message' in refusal ? refusal.message : `${refusal.code}: ${refusal.max} ${refusal.counts}`);
  }
}

export const refuse = (code: RuleRefusal['code'], message: string, details?: unknown) =>
  new Refused({ code, message, ...(details === undefined ? {} : { details }) });

/** Why work was not done that the rules allowed: the caller hung up, or a backend failed. */
export type FailureCode = Extract<
  ErrorCode,
  'aborted' | 'generation_failed' | 'upstream_unavailable' | 'upstream_key_refused' | 'upstream_rejected'
>;

/** Thrown below the HTTP layer when a backend (or the caller) failed the work; nothing was changed. */
export class Failed extends Error {
  constructor(
    readonly code: FailureCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

export const cancelled = () => new Failed('aborted', 'The request was cancelled');

export interface Missing {
  item_id: string;
  have: number;
  need: number;
}

export function insufficientMaterials(missing: Missing[]): Refused {
  const list = missing.map((m) => `${m.item_id} (have ${m.have}, need ${m.need})`).join(', ');
  return refuse('insufficient_materials', `Not enough materials: ${list}`, { missing });
}

export const playerBlocked = (id: string) => refuse('player_blocked', `Player ${id} is blocked by the game`);
