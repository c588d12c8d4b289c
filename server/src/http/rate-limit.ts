import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import type { Store } from '../store/store.ts';
import { refusalAnswer } from './errors.ts';

type Callback = (err: Error | null, result?: { current: number; ttl: number }) => void;

/** `@fastify/rate-limit` store over Lootsmith's own store, so counters survive a restart. */
function storeBacked(store: Pick<Store, 'hit'>) {
  return class StoreRateLimit {
    incr(key: string, cb: Callback, timeWindow: number) {
      const now = Date.now();
      store.hit(key, timeWindow, now).then(
        (r) => cb(null, { current: r.count, ttl: r.resetAt - now }),
        (err) => cb(err as Error),
      );
    }

    child() {
      return this;
    }
  };
}

/**
 * Per-route limits (`config.rateLimit` on a route) keyed by the caller, in the store by default or in
 * Redis across instances. Exceeding answers 429 `rate_limit_exceeded` with Retry-After.
 */
export async function registerRateLimit(
  app: FastifyInstance,
  store: Pick<Store, 'hit'>,
  shared?: { redis: Redis; prefix: string },
) {
  await app.register(rateLimit, {
    global: false,
    hook: 'preHandler',
    ...(shared
      ? { redis: shared.redis, nameSpace: `${shared.prefix}ratelimit:` }
      : { store: storeBacked(store) }),
    errorResponseBuilder: (request, context) => {
      // Routes give their window in milliseconds (`timeWindow`), so the answer can name it.
      const { rateLimit: limit } = request.routeOptions.config;
      return refusalAnswer({
        code: 'rate_limit_exceeded',
        counts: 'requests',
        max: context.max,
        windowMs: Number(limit ? limit.timeWindow : undefined),
        resetAt: Date.now() + context.ttl,
      });
    },
  });
}
