import { abortedError } from './errors.ts';

interface Task {
  promise: Promise<unknown>;
  controller: AbortController;
  waiters: number;
}

/**
 * Runs one task per key at a time and shares its result with every caller asking meanwhile.
 * Each caller can abort its own wait; the task itself is aborted once nobody waits for it.
 */
export class InFlight {
  readonly #tasks = new Map<string, Task>();

  get size() {
    return this.#tasks.size;
  }

  run<T>(key: string, work: (signal: AbortSignal) => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (signal?.aborted) return Promise.reject(abortedError(signal.reason));
    let task = this.#tasks.get(key);
    if (!task) {
      const controller = new AbortController();
      const created: Task = { promise: work(controller.signal), controller, waiters: 0 };
      const forget = () => {
        if (this.#tasks.get(key) === created) this.#tasks.delete(key);
      };
      created.promise.then(forget, forget);
      this.#tasks.set(key, created);
      task = created;
    }
    const shared = task;
    shared.waiters++;
    return new Promise<T>((resolve, reject) => {
      let settled = false;
      const settle = () => {
        settled = true;
        shared.waiters--;
        signal?.removeEventListener('abort', onAbort);
      };
      const onAbort = () => {
        if (settled) return;
        settle();
        reject(abortedError(signal?.reason));
        if (shared.waiters === 0) {
          shared.controller.abort();
          if (this.#tasks.get(key) === shared) this.#tasks.delete(key);
        }
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      shared.promise.then(
        (value) => {
          if (settled) return;
          settle();
          resolve(value as T);
        },
        (error: unknown) => {
          if (settled) return;
          settle();
          reject(error);
        },
      );
    });
  }
}
