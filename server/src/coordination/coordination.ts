import type { StoredResponse } from '../store/store.ts';
import type { FlightOptions } from './flights.ts';

/**
 * What several server instances must share beyond the database: idempotency records and locks,
 * single-flight of identical generations, and the icon prompt index. In process by default;
 * Redis (`LOOTSMITH_REDIS_URL`) when instances run behind a load balancer. Rate limits use
 * `@fastify/rate-limit`'s own Redis store on the same connection.
 */
export interface Coordination {
  /** The stored first answer for this idempotency scope, if any. */
  idempotent(scope: string): Promise<StoredResponse | null>;
  saveIdempotent(scope: string, response: StoredResponse): Promise<void>;
  /** Waits until no other request holds the scope, then holds it; call the result to release. */
  hold(scope: string): Promise<() => Promise<void>>;
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
