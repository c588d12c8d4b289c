type Waiter<V> = [resolve: (value: V | undefined) => void, reject: (err: unknown) => void];

/**
 * Group read, the read side of a group commit: keys asked for while a read is waiting to start or is
 * running are read together by the next one, so one statement (one round trip on PostgreSQL) answers
 * every request that arrived meanwhile. Each read starts after every call it answers was made, so it
 * sees every write committed before the call: as exact as a read of its own.
 */
export function groupRead<V>(read: (keys: string[]) => Promise<Map<string, V>> | Map<string, V>) {
  let pending = new Map<string, Waiter<V>[]>();
  let busy = false;
  const start = () => {
    const batch = pending;
    pending = new Map();
    Promise.resolve()
      .then(() => read([...batch.keys()]))
      .then(
        (found) => {
          for (const [key, waiters] of batch) for (const [resolve] of waiters) resolve(found.get(key));
        },
        (err) => {
          for (const waiters of batch.values()) for (const [, reject] of waiters) reject(err);
        },
      )
      .finally(() => {
        if (pending.size) setImmediate(start);
        else busy = false;
      });
  };
  return (key: string) =>
    new Promise<V | undefined>((resolve, reject) => {
      const waiters = pending.get(key);
      if (waiters) waiters.push([resolve, reject]);
      else pending.set(key, [[resolve, reject]]);
      if (!busy) {
        busy = true;
        setImmediate(start);
      }
    });
}
