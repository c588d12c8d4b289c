import { describe, expect, it } from 'vitest';
import { InFlight } from '../src/core/in-flight.ts';

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe('in-flight dedupe', () => {
  it('runs one task per key and gives every caller its result', async () => {
    const inFlight = new InFlight();
    const gate = deferred<string>();
    let runs = 0;
    const work = () => {
      runs++;
      return gate.promise;
    };
    const a = inFlight.run('k', work);
    const b = inFlight.run('k', work);
    const c = inFlight.run('other', async () => 'other');
    gate.resolve('done');
    expect(await Promise.all([a, b, c])).toEqual(['done', 'done', 'other']);
    expect(runs).toBe(1);
    expect(inFlight.size).toBe(0);
  });

  it('lets one caller abort without cancelling the task for the others', async () => {
    const inFlight = new InFlight();
    const gate = deferred<string>();
    let taskSignal: AbortSignal | undefined;
    const leaving = new AbortController();
    const a = inFlight.run(
      'k',
      (signal) => {
        taskSignal = signal;
        return gate.promise;
      },
      leaving.signal,
    );
    const b = inFlight.run('k', () => gate.promise);
    leaving.abort();
    await expect(a).rejects.toMatchObject({ code: 'aborted' });
    expect(taskSignal?.aborted).toBe(false);
    gate.resolve('kept');
    expect(await b).toBe('kept');
  });

  it('aborts the task once every caller has left, and starts afresh afterwards', async () => {
    const inFlight = new InFlight();
    const signals: AbortSignal[] = [];
    const hang = (signal: AbortSignal) => {
      signals.push(signal);
      return new Promise<string>(() => {});
    };
    const one = new AbortController();
    const two = new AbortController();
    const a = inFlight.run('k', hang, one.signal);
    const b = inFlight.run('k', hang, two.signal);
    one.abort();
    two.abort();
    await expect(a).rejects.toMatchObject({ code: 'aborted' });
    await expect(b).rejects.toMatchObject({ code: 'aborted' });
    expect(signals).toHaveLength(1);
    expect(signals[0]?.aborted).toBe(true);
    expect(await inFlight.run('k', async () => 'fresh')).toBe('fresh');
  });

  it("tells every waiting caller about the shared task's progress, and stops telling one that left", async () => {
    const inFlight = new InFlight<string>();
    const gate = deferred<void>();
    const heard: string[] = [];
    const leaving = new AbortController();
    const work = async (_signal: AbortSignal, report: (p: string) => void) => {
      report('first');
      await gate.promise;
      report('second');
      return 'done';
    };
    const a = inFlight.run('k', work, undefined, (p) => heard.push(`a:${p}`));
    const b = inFlight.run('k', work, leaving.signal, (p) => heard.push(`b:${p}`));
    leaving.abort();
    await expect(b).rejects.toMatchObject({ code: 'aborted' });
    gate.resolve();
    expect(await a).toBe('done');
    expect(heard).toEqual(['a:first', 'a:second']);
  });

  it('shares a failure with every caller', async () => {
    const inFlight = new InFlight();
    const gate = deferred<void>();
    const fail = async () => {
      await gate.promise;
      throw new Error('boom');
    };
    const a = inFlight.run('k', fail);
    const b = inFlight.run('k', fail);
    gate.resolve();
    await expect(a).rejects.toThrow('boom');
    await expect(b).rejects.toThrow('boom');
  });
});
