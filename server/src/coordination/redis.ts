import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { IDEMPOTENCY_PER_OWNER, IDEMPOTENCY_TTL_MS, type StoredResponse } from '../store/store.ts';
import type { Coordination, IdempotencyClaim } from './coordination.ts';
import { type FlightOptions, Flights } from './flights.ts';

const IDEMPOTENCY_TTL_S = IDEMPOTENCY_TTL_MS / 1000;
const LOCK_TTL_MS = 120_000;
const RESULT_GRACE_MS = 2_000;
const POLL_MS = 20;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const CLAIM_HELD = 0;
const CLAIM_STORED = 1;
const CLAIM_BUSY = 2;
// KEYS: answer, lock; ARGV: token, lock ttl (ms). A stored answer needs no lock: it never changes.
const CLAIM = `local stored = redis.call('GET', KEYS[1])
if stored then return {${CLAIM_STORED}, stored} end
if redis.call('SET', KEYS[2], ARGV[1], 'PX', ARGV[2], 'NX') then return {${CLAIM_HELD}, false} end
return {${CLAIM_BUSY}, false}`;
// KEYS: answer, lock, the owner's records; ARGV: token, answer ('' for none), answer ttl (s), now (ms),
// the owner's cap. Stores (noting the answer among the owner's, whose oldest past the cap go), then
// lets go of the lock only if this holder still owns it.
const FINISH = `if ARGV[2] ~= '' and redis.call('SET', KEYS[1], ARGV[2], 'EX', ARGV[3], 'NX') then
  redis.call('ZADD', KEYS[3], ARGV[4], KEYS[1])
  redis.call('EXPIRE', KEYS[3], ARGV[3])
  local over = redis.call('ZCARD', KEYS[3]) - tonumber(ARGV[5])
  if over > 0 then
    for _, old in ipairs(redis.call('ZRANGE', KEYS[3], 0, over - 1)) do redis.call('DEL', old) end
    redis.call('ZREMRANGEBYRANK', KEYS[3], 0, over - 1)
  end
end
if redis.call('GET', KEYS[2]) == ARGV[1] then redis.call('DEL', KEYS[2]) end
return 0`;
// Deletes the lock only if this holder still owns it, so an expired lock is never released by mistake.
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end`;

/** Several instances: locks, idempotency records, flights and the icon index in one Redis. */
export class RedisCoordination implements Coordination {
  readonly redis: Redis;
  private readonly local = new Flights();

  constructor(
    url: string,
    private readonly prefix = 'lootsmith:',
  ) {
    this.redis = new Redis(url, { maxRetriesPerRequest: 3, enableOfflineQueue: true, lazyConnect: false });
  }

  private key(kind: string, id: string) {
    return `${this.prefix}${kind}:${id}`;
  }

  private async tryLock(key: string, token: string) {
    return (await this.redis.set(key, token, 'PX', LOCK_TTL_MS, 'NX')) === 'OK';
  }

  private release(key: string, token: string) {
    return this.redis.eval(RELEASE, 1, key, token).then(() => {});
  }

  async claimIdempotent(scope: string, owner: string): Promise<IdempotencyClaim> {
    const answer = this.key('idem', scope);
    const records = this.key('idem-owner', owner);
    const lock = this.key('lock', scope);
    const token = randomUUID();
    const deadline = Date.now() + LOCK_TTL_MS;
    for (;;) {
      // One round trip: the stored answer, or the lock, or word that another request holds it.
      const [state, stored] = (await this.redis.eval(CLAIM, 2, answer, lock, token, LOCK_TTL_MS)) as [
        number,
        string | null,
      ];
      if (state !== CLAIM_BUSY) {
        const finish = async (response?: StoredResponse) => {
          if (state === CLAIM_HELD)
            await this.redis.eval(
              FINISH,
              3,
              answer,
              lock,
              records,
              token,
              response ? JSON.stringify(response) : '',
              IDEMPOTENCY_TTL_S,
              Date.now(),
              IDEMPOTENCY_PER_OWNER,
            );
        };
        return { stored: stored ? (JSON.parse(stored) as StoredResponse) : null, finish };
      }
      if (Date.now() > deadline) throw new Error(`lock ${scope} not released in time`);
      await sleep(POLL_MS);
    }
  }

  singleFlight<T>(
    key: string,
    work: (signal: AbortSignal) => Promise<T>,
    options: FlightOptions = {},
  ): Promise<T> {
    return this.local.run(key, (signal) => this.flight(key, work, options.reuseMs ?? 0, signal), options);
  }

  /** The lock holder runs the work and publishes its result; the others wait for it (or for the lock to free). */
  private async flight<T>(
    id: string,
    work: (signal: AbortSignal) => Promise<T>,
    reuseMs: number,
    signal: AbortSignal,
  ): Promise<T> {
    const lock = this.key('flight', id);
    const result = this.key('result', id);
    const token = randomUUID();
    const deadline = Date.now() + LOCK_TTL_MS;
    for (;;) {
      const published = await this.redis.get(result);
      if (published) return JSON.parse(published) as T;
      if (await this.tryLock(lock, token)) {
        try {
          // The holder before us may have published between our read and our lock.
          const late = await this.redis.get(result);
          if (late) return JSON.parse(late) as T;
          const value = await work(signal);
          // Waiters poll for the result, so it outlives the lock a little even without reuse.
          await this.redis.set(
            result,
            JSON.stringify(value ?? null),
            'PX',
            Math.max(reuseMs, RESULT_GRACE_MS),
          );
          return value;
        } finally {
          await this.release(lock, token);
        }
      }
      if (Date.now() > deadline) throw new Error(`flight ${id} did not finish in time`);
      signal.throwIfAborted();
      await sleep(POLL_MS);
    }
  }

  async rememberIcon(id: string, prompt: string) {
    await this.redis.hset(this.key('icons', 'prompts'), id, prompt);
  }

  async iconPrompt(id: string) {
    return (await this.redis.hget(this.key('icons', 'prompts'), id)) ?? null;
  }

  async close() {
    await this.redis.quit();
  }
}
