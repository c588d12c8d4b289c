type Waiter<R> = [resolve: (value: R) => void, reject: (err: unknown) => void];

/**
 * Group call, the shape of a group commit: the calls made while a run is waiting to start or is
 * running are taken together by the next run (at most `max` of them), so one statement (one round
 * trip on PostgreSQL) answers every call that arrived meanwhile. Each run starts after every call it
 * answers was made, so it sees every write committed before the call: as exact as a run of its own.
 * `run` answers each call by its position; when it throws, every call it held fails.
 */
export function groupCall<T, R>(run: (items: T[]) => Promise<R[]> | R[], max = Number.POSITIVE_INFINITY) {
  const pending: Array<[T, Waiter<R>]> = [];
  let busy = false;
  const start = () => {
    const batch = pending.splice(0, max);
    Promise.resolve()
      .then(() => run(batch.map(([item]) => item)))
      .then(
        (results) => {
          batch.forEach(([, [resolve]], i) => {
            resolve(results[i] as R);
          });
        },
        (err) => {
          for (const [, [, reject]] of batch) reject(err);
        },
      )
      .finally(() => {
        if (pending.length) setImmediate(start);
        else busy = false;
      });
  };
  return (item: T) =>
    new Promise<R>((resolve, reject) => {
      pending.push([item, [resolve, reject]]);
      if (!busy) {
        busy = true;
        setImmediate(start);
      }
    });
}

/**
 * Group read: a group call whose keys are read once each, however many calls ask for the same one;
 * a key `read` does not return answers undefined.
 */
export function groupRead<V>(read: (keys: string[]) => Promise<Map<string, V>> | Map<string, V>) {
  return groupCall<string, V | undefined>(async (keys) => {
    const found = await read([...new Set(keys)]);
    return keys.map((key) => found.get(key));
  });
}
