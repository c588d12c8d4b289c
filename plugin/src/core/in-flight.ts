import { abortedError } from './errors.ts';

type Observer<P> = (progress: P) => void;

interface Task<P> {
  promise: Promise<unknown>;
  controller: AbortController;
  /** One entry per caller still waiting; each hears the task's progress. */
  waiters: Set<Observer<P>>;
}

/**
 * Runs one task per key at a time and shares its result, and its progress, with every caller asking
 * meanwhile. Each caller can abort its own wait; the task itself is aborted once nobody waits for it.
 */
export class InFlight<P = unknown> {
  readonly #tasks = new Map<string, Task<P>>();

  get size() {
    return this.#tasks.size;
  }

  run<T>(
    key: string,
    work: (signal: AbortSignal, report: Observer<P>) => Promise<T>,
    signal?: AbortSignal,
    onProgress?: Observer<P>,
  ): Promise<T> {
    if (signal?.aborted) return Promise.reject(abortedError(signal.reason));
    // A fresh function per caller, so two callers without an observer still count as two.
    const waiter: Observer<P> = (progress) => onProgress?.(progress);
    const shared = this.#tasks.get(key) ?? this.#start(key, work);
    shared.waiters.add(waiter);
    return new Promise<T>((resolve, reject) => {
      const leave = () => {
        signal?.removeEventListener('abort', onAbort);
        return shared.waiters.delete(waiter);
      };
      const onAbort = () => {
        if (!leave()) return;
        reject(abortedError(signal?.reason));
        if (shared.waiters.size === 0) {
          shared.controller.abort();
          if (this.#tasks.get(key) === shared) this.#tasks.delete(key);
        }
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      shared.promise.then(
        (value) => leave() && resolve(value as T),
        (error: unknown) => leave() && reject(error),
      );
    });
  }

  #start(key: string, work: (signal: AbortSignal, report: Observer<P>) => Promise<unknown>): Task<P> {
    const controller = new AbortController();
    const waiters = new Set<Observer<P>>();
    const task: Task<P> = { promise: Promise.resolve(), controller, waiters };
    const forget = () => {
      if (this.#tasks.get(key) === task) this.#tasks.delete(key);
    };
    // Started a microtask later, so the caller is already listening when the first progress comes.
    task.promise = Promise.resolve().then(() =>
      work(controller.signal, (progress) => {
        for (const waiter of waiters) waiter(progress);
      }),
    );
    task.promise.then(forget, forget);
    this.#tasks.set(key, task);
    return task;
  }
}
