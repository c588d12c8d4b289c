import { type CallerSignal, onAbort } from '../cancel.ts';

/**
 * Who waits for a generation, in the order a backend's queue serves them: a player waiting for the
 * game's answer (a drop, a craft), then an icon painted after its item was granted, then a raw `/v1`
 * forward (a player's own use of the backend, which never holds up the game's loot or its icons),
 * then a loot pool's refill.
 */
export const PRIORITIES = ['player', 'after-item', 'forward', 'refill'] as const;
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
 * first by priority, then in turns between callers (first come first served for each), so one
 * caller's burst makes no one else wait more than a turn. A caller that hangs up leaves the queue.
 */
export class WorkQueue {
  private active = 0;
  private waitingCount = 0;
  /** Per priority, each caller's waiting calls; the caller whose turn is next comes first. */
  private readonly waiting: Map<string, Waiter[]>[] = PRIORITIES.map(() => new Map());

  constructor(
    readonly limit: number,
    private readonly observer?: QueueObserver,
  ) {}

  /** Calls waiting for a turn. */
  get depth() {
    return this.waitingCount;
  }

  /** Calls running now. */
  get running() {
    return this.active;
  }

  /** Runs `work` for `caller` (a player, a pool) when its turn comes. */
  async run<T>(
    priority: Priority,
    caller: string,
    signal: CallerSignal | undefined,
    work: () => Promise<T>,
  ): Promise<T> {
    if (this.active < this.limit && this.waitingCount === 0) {
      this.active++;
      this.observer?.waited(priority, 0);
    } else await this.turn(priority, caller, signal);
    try {
      return await work();
    } finally {
      this.active--;
      this.next();
    }
  }

  private turn(priority: Priority, caller: string, signal: CallerSignal | undefined): Promise<void> {
    if (signal?.aborted) return Promise.reject(new LeftQueue('cancelled while waiting for its turn'));
    const queue = this.waiting[PRIORITIES.indexOf(priority)] as Map<string, Waiter[]>;
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
          const mine = queue.get(caller) ?? [];
          const at = mine.indexOf(waiter);
          if (at >= 0) {
            mine.splice(at, 1);
            this.waitingCount--;
            if (!mine.length) queue.delete(caller);
          }
          reject(new LeftQueue('cancelled while waiting for its turn'));
        });
      const mine = queue.get(caller);
      if (mine) mine.push(waiter);
      else queue.set(caller, [waiter]);
      this.waitingCount++;
    });
  }

  private next() {
    while (this.active < this.limit) {
      const queue = this.waiting.find((q) => q.size);
      const turn = queue?.entries().next().value;
      if (!queue || !turn) return;
      const [caller, mine] = turn;
      const waiter = mine.shift() as Waiter;
      // The caller goes to the back of the line: the others each get a turn before its next one.
      queue.delete(caller);
      if (mine.length) queue.set(caller, mine);
      this.waitingCount--;
      this.active++;
      waiter.start();
    }
  }
}
