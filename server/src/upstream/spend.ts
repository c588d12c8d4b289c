import { AsyncLocalStorage } from 'node:async_hooks';

/** What one piece of work has sent to a backend: whether any request left the server. */
export interface Spend {
  sent: boolean;
}

const current = new AsyncLocalStorage<Spend>();

/** Whom a request's backend calls are charged to: its route and, when it acts for one, a player. */
export interface Payer {
  /** `POST /v1/generate/items`: the method and the route's pattern. */
  route: string;
  /** Read when a call is made: the request's player is known once its credential has been read. */
  readonly player: string | undefined;
  /** The request's id in the console's request log, when the log is on: its calls are kept with it. */
  readonly request?: string;
}

const payers = new AsyncLocalStorage<Payer>();

/** Runs `work` (and everything it starts, icons painted after the answer too) charged to `payer`. */
export function chargedTo<T>(payer: Payer, work: () => T): T {
  return payers.run(payer, work);
}

/** Whom the current work's calls are charged to; undefined for the server's own (a pool refill). */
export function currentPayer(): Payer | undefined {
  return payers.getStore();
}

/**
 * Runs `work`, noting in `spend` whether any request of it (or of anything it starts) reached a
 * backend: what the caller may give back when the work fails depends on that alone.
 */
export function tracking<T>(spend: Spend, work: () => Promise<T>): Promise<T> {
  return current.run(spend, work);
}

/** Runs `work` outside any tracking: the server's own spending (a pool refill) is nobody's request nor player's. */
export function untracked<T>(work: () => T): T {
  return current.exit(() => payers.exit(work));
}

/** Called by the upstream layer when a request has left for a backend. */
export function noteSent() {
  const spend = current.getStore();
  if (spend) spend.sent = true;
}

/** Errors raised before a connection existed: the request never left the server. */
const NOT_SENT = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** Whether a failed request may have reached its backend (anything but a failure to connect). */
export function mayHaveSent(err: unknown): boolean {
  const code = (err as { code?: unknown; cause?: { code?: unknown } } | null)?.code;
  const cause = (err as { cause?: { code?: unknown } } | null)?.cause?.code;
  return !NOT_SENT.has(String(code)) && !NOT_SENT.has(String(cause));
}
