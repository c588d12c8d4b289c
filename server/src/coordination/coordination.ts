import type { StoredResponse } from '../store/store.ts';
import type { FlightOptions } from './flights.ts';

export interface IdempotencyClaim {
  stored: StoredResponse | null;
  finish(answer?: StoredResponse): Promise<void>;
}

/**
 * What several server instances must share beyond the database: idempotency records and locks,
 * single-flight of identical generations, and the icon prompt index. In process by default;
 * Redis (`LOOTSMITH_REDIS_URL`) when instances run behind a load balancer. Rate limits use
 * `@fastify/rate-limit`'s own Redis store on the same connection.
 */
export interface Coordination {
  /**
   * Holds an idempotency scope (waiting while another request holds it) and gives its stored first
   * answer, if any. `finish` stores the answer (when given) and lets the scope go, in one step.
   * Records last 24 hours, and an `owner` (the caller) keeps at most `IDEMPOTENCY_PER_OWNER`.
   */
  claimIdempotent(scope: string, owner: string): Promise<IdempotencyClaim>;
  /**
   * Runs `work` once for concurrent callers with the same key, across instances; results are JSON.
   * The work gets a signal of its own that fires only when every caller has hung up (see `Flights`).
   */
  singleFlight<T>(
    key: string,
    work: (signal: AbortSignal) => Promise<T>,
    options?: FlightOptions,
  ): Promise<T>;
  rememberIcon(id: string, prompt: string): Promise<void>;
  iconPrompt(id: string): Promise<string | null>;
  close(): Promise<void>;
}
