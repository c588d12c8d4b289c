import { BoundedMap } from '@lootsmith/protocol';
import type { Store, StoredResponse } from '../store/store.ts';
import type { Coordination, IdempotencyClaim } from './coordination.ts';
import { type FlightOptions, Flights } from './flights.ts';

const ICON_PROMPTS = 100_000;

/** One instance: locks and flights in memory, idempotency records in the store (they survive restarts). */
export class LocalCoordination implements Coordination {
  private readonly held = new Map<string, Promise<void>>();
  private readonly flights = new Flights();
  /** Prompts of icons not painted yet, newest kept (a painted icon needs its prompt no more). */
  private readonly icons = new BoundedMap<string, string>(ICON_PROMPTS);

  constructor(private readonly store: Pick<Store, 'idempotent' | 'saveIdempotent'>) {}

  async claimIdempotent(scope: string, owner: string): Promise<IdempotencyClaim> {
    while (this.held.has(scope)) await this.held.get(scope);
    let release = () => {};
    this.held.set(scope, new Promise<void>((r) => (release = r)));
    const finish = async (answer?: StoredResponse) => {
      try {
        if (answer) await this.store.saveIdempotent(scope, answer, owner);
      } finally {
        this.held.delete(scope);
        release();
      }
    };
    try {
      return { stored: await this.store.idempotent(scope), finish };
    } catch (err) {
      await finish();
      throw err;
    }
  }

  singleFlight<T>(
    key: string,
    work: (signal: AbortSignal) => Promise<T>,
    options?: FlightOptions,
  ): Promise<T> {
    return this.flights.run(key, work, options);
  }

  async rememberIcon(id: string, prompt: string) {
    this.icons.set(id, prompt);
  }

  async iconPrompt(id: string) {
    return this.icons.get(id) ?? null;
  }

  async close() {}
}
