import { EventEmitter } from 'node:events';

/**
 * A cancellation signal for the hot paths. undici and the upstream client read only `aborted`,
 * `reason` and one 'abort' event of a signal; an EventEmitter gives them for a fraction of what an
 * AbortController (an EventTarget) costs to make, listen to and drop on every request.
 */
export class Cancel extends EventEmitter {
  aborted = false;
  reason: unknown = undefined;

  abort(reason: unknown = new Error('aborted')) {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.emit('abort');
  }
}

/** An AbortSignal or a Cancel. */
export type CallerSignal = AbortSignal | Cancel;

/** Calls `listener` once when `signal` fires; returns what removes it. */
export function onAbort(signal: CallerSignal, listener: () => void): () => void {
  if (signal instanceof Cancel) {
    signal.once('abort', listener);
    return () => signal.removeListener('abort', listener);
  }
  signal.addEventListener('abort', listener, { once: true });
  return () => signal.removeEventListener('abort', listener);
}
