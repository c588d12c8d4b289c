import { expect, it } from 'vitest';
import { type Priority, WorkQueue } from '../src/upstream/queue.ts';

const later = () => {
  let done!: () => void;
  const promise = new Promise<void>((r) => {
    done = r;
  });
  return { promise, done };
};

it('runs at most its limit at once, and serves a waiting player, then icons, then refills', async () => {
  const queue = new WorkQueue(1);
  const first = later();
  const order: string[] = [];
  const running = queue.run('refill', undefined, () => first.promise);
  const waiting = (['refill', 'after-item', 'player', 'after-item', 'player'] as Priority[]).map((p, i) =>
    queue.run(p, undefined, async () => {
      expect(queue.running).toBe(1);
      order.push(`${p}-${i}`);
    }),
  );
  expect(queue.depth).toBe(5);
  first.done();
  await Promise.all([running, ...waiting]);
  expect(order).toEqual(['player-2', 'player-4', 'after-item-1', 'after-item-3', 'refill-0']);
  expect(queue.depth).toBe(0);
});

it('lets a caller who hangs up leave the queue without running', async () => {
  const queue = new WorkQueue(1);
  const first = later();
  const running = queue.run('player', undefined, () => first.promise);
  const leave = new AbortController();
  let ran = false;
  const left = queue.run('player', leave.signal, async () => {
    ran = true;
  });
  leave.abort();
  await expect(left).rejects.toThrow('cancelled while waiting');
  expect(queue.depth).toBe(0);
  first.done();
  await running;
  expect(ran).toBe(false);
});
