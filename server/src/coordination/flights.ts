import { cancelled } from '../refusal.ts';

export interface FlightOptions {
  /** Callers arriving this long after the work finished get the same result. */
  reuseMs?: number;
  /** This caller's own signal: when it fires the caller stops waiting; the work stops only when every caller has. */
  signal?: AbortSignal;
}

interface Flight {
  promise: Promise<unknown>;
  controller: AbortController;
  /** Callers still waiting who can hang up; one that cannot keeps the work alive for good. */
  waiting: number;
}

/**
 * Work shared by concurrent callers with the same key, in this process. The work runs under a signal
 * of its own, so the first caller hanging up does not cancel it for the others.
 */
export class Flights {
  private readonly running = new Map<string, Flight>();

  run<T>(key: string, work: (signal: AbortSignal) => Promise<T>, options: FlightOptions = {}): Promise<T> {
    let flight = this.running.get(key);
    // A flight every caller left is being cancelled: a newcomer starts afresh.
    if (!flight || flight.controller.signal.aborted) {
      const controller = new AbortController();
      const started: Flight = { controller, waiting: 0, promise: work(controller.signal) };
      const forget = () => {
        if (this.running.get(key) === started) this.running.delete(key);
      };
      started.promise.then(
        () => (options.reuseMs ? setTimeout(forget, options.reuseMs).unref() : forget()),
        forget,
      );
      this.running.set(key, started);
      flight = started;
    }
    return follow(flight, options.signal) as Promise<T>;
  }
}

function follow(flight: Flight, signal: AbortSignal | undefined): Promise<unknown> {
  if (!signal) {
    flight.waiting = Number.POSITIVE_INFINITY;
    return flight.promise;
  }
  if (signal.aborted) return Promise.reject(cancelled());
  flight.waiting++;
  return new Promise((resolve, reject) => {
    const leave = () => {
      if (--flight.waiting === 0) flight.controller.abort();
      reject(cancelled());
    };
    signal.addEventListener('abort', leave, { once: true });
    flight.promise.then(
      (value) => {
        signal.removeEventListener('abort', leave);
        resolve(value);
      },
      (err) => {
        signal.removeEventListener('abort', leave);
        reject(err);
      },
    );
  });
}
