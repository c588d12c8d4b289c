import type { Store } from '../store/store.ts';
import type { Coordination } from './coordination.ts';

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

  singleFlight<T>(key: string, work: () => Promise<T>, reuseMs = 0): Promise<T> {
    const running = this.flights.get(key);
    if (running) return running as Promise<T>;
    const promise = work();
    this.flights.set(key, promise);
    const forget = () => this.flights.delete(key);
    promise.then(() => (reuseMs ? setTimeout(forget, reuseMs).unref() : forget()), forget);
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
