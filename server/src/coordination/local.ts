import type { Store } from '../store/store.ts';
import type { Coordination } from './coordination.ts';

/** How long a finished flight's result is reused. */
const RESULT_TTL_MS = 30_000;

/** One instance: locks and flights in memory, idempotency records in the store (they survive restarts). */
export class LocalCoordination implements Coordination {
  private readonly held = new Map<string, Promise<void>>();
  private readonly flights = new Map<string, Promise<unknown>>();
  private readonly icons = new Map<string, string>();

  constructor(private readonly store: Store) {}

  idempotent(scope: string) {
    return this.store.idempotent(scope);
  }

  saveIdempotent(scope: string, response: { status: number; body: string }) {
    return this.store.saveIdempotent(scope, response);
  }

  async hold(scope: string) {
    while (this.held.has(scope)) await this.held.get(scope);
    let release = () => {};
    this.held.set(scope, new Promise<void>((r) => (release = r)));
    return async () => {
      this.held.delete(scope);
      release();
    };
  }

  /**
   * A finished flight's result stays a little while (as the Redis coordination's does), so a request
   * arriving between the generation and the craft that records it does not generate again.
   */
  singleFlight<T>(key: string, work: () => Promise<T>): Promise<T> {
    const running = this.flights.get(key);
    if (running) return running as Promise<T>;
    const promise = work();
    this.flights.set(key, promise);
    const forget = () => this.flights.delete(key);
    promise.then(() => setTimeout(forget, RESULT_TTL_MS).unref(), forget);
    return promise;
  }

  async rememberIcon(id: string, prompt: string) {
    this.icons.set(id, prompt);
  }

  async iconPrompt(id: string) {
    return this.icons.get(id) ?? null;
  }

  async close() {}
}
