import { type CallerSignal, onAbort } from '../cancel.ts';

/**
 * Who waits for a generation, in the order a backend's queue serves them: a player waiting for an
 * answer, then an icon painted after its item was granted, then a loot pool's refill.
 */
export const PRIORITIES = ['player', 'after-item', 'refill'] as const;
export type Priority = (typeof PRIORITIES)[number];

interface Waiter {
  start(): void;
  queued: number;
}

export interface QueueObserver {
  /** A call got its turn after waiting `ms` (0 when it did not wait). */
  waited(priority: Priority, ms: number): void;
}

/** Raised to a caller that hung up while waiting for its turn. */
export class LeftQueue extends Error {}

/**
 * At most `limit` calls to one backend at once; the others wait in one queue per priority, served
 * first by priority, then first come first served. A caller that hangs up leaves the queue.
 */
export class WorkQueue {
  private active = 0;
  private readonly waiting: Waiter[][] = PRIORITIES.map(() => []);

  constructor(
    readonly limit: number,
    private readonly observer?: QueueObserver,
  ) {}

  /** Calls waiting for a turn. */
  get depth() {
    return this.waiting.reduce((n, q) => n + q.length, 0);
  }

  /** Calls running now. */
  get running() {
    return this.active;
  }

  /** Runs `work` when its turn comes. */
  async run<T>(priority: Priority, signal: CallerSignal | undefined, work: () => Promise<T>): Promise<T> {
    if (this.active < this.limit && this.depth === 0) {
      this.active++;
      this.observer?.waited(priority, 0);
    } else await this.turn(priority, signal);
    try {
      return await work();
    } finally {
      this.active--;
      this.next();
    }
  }

  private turn(priority: Priority, signal: CallerSignal | undefined): Promise<void> {
    if (signal?.aborted) return Promise.reject(new LeftQueue('cancelled while waiting for its turn'));
    const queue = this.waiting[PRIORITIES.indexOf(priority)] as Waiter[];
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        queued: Date.now(),
        start: () => {
          stopListening?.();
          this.observer?.waited(priority, Date.now() - waiter.queued);
          resolve();
        },
      };
      const stopListening =
        signal &&
        onAbort(signal, () => {
          const at = queue.indexOf(waiter);
          if (at >= 0) queue.splice(at, 1);
          reject(new LeftQueue('cancelled while waiting for its turn'));
        });
      queue.push(waiter);
    });
  }

  private next() {
    while (this.active < this.limit) {
      const waiter = this.waiting.find((q) => q.length)?.shift();
      if (!waiter) return;
      this.active++;
      waiter.start();
    }
  }
}
