import { expect, it } from 'vitest';
import { type Priority, WorkQueue } from '../src/upstream/queue.ts';

const later = () => {
  let done!: () => void;
  const promise = new Promise<void>((r) => {
    done = r;
  });
  return { promise, done };
};

it('runs at most its limit at once, and serves a waiting player, then icons, then forwards, then refills', async () => {
  const queue = new WorkQueue(1);
  const first = later();
  const order: string[] = [];
  const running = queue.run('refill', 'pool', undefined, () => first.promise);
  const priorities: Priority[] = ['refill', 'forward', 'after-item', 'player', 'after-item', 'player'];
  const waiting = priorities.map((p, i) =>
    queue.run(p, 'ann', undefined, async () => {
      expect(queue.running).toBe(1);
      order.push(`${p}-${i}`);
    }),
  );
  expect(queue.depth).toBe(6);
  first.done();
  await Promise.all([running, ...waiting]);
  expect(order).toEqual(['player-3', 'player-5', 'after-item-2', 'after-item-4', 'forward-1', 'refill-0']);
  expect(queue.depth).toBe(0);
});

it('takes turns between callers within a priority, however many one of them queued first', async () => {
  const queue = new WorkQueue(1);
  const first = later();
  const order: string[] = [];
  const running = queue.run('player', 'mal', undefined, () => first.promise);
  const callers = ['mal', 'mal', 'mal', 'mal', 'ned', 'ora', 'ned'];
  const waiting = callers.map((who, i) =>
    queue.run('player', who, undefined, async () => {
      order.push(`${who}-${i}`);
    }),
  );
  first.done();
  await Promise.all([running, ...waiting]);
  expect(order).toEqual(['mal-0', 'ned-4', 'ora-5', 'mal-1', 'ned-6', 'mal-2', 'mal-3']);
});

it('lets a caller who hangs up leave the queue without running', async () => {
  const queue = new WorkQueue(1);
  const first = later();
  const running = queue.run('player', 'ann', undefined, () => first.promise);
  const leave = new AbortController();
  let ran = false;
  const left = queue.run('player', 'bo', leave.signal, async () => {
    ran = true;
  });
  leave.abort();
  await expect(left).rejects.toThrow('cancelled while waiting');
  expect(queue.depth).toBe(0);
  first.done();
  await running;
  expect(ran).toBe(false);
});
