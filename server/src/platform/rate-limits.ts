import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';

/**
 * Fixed-window counters keyed by principal, behind one interface so the embedded mode keeps them in
 * memory and the scale-out mode in Redis (rate-limiter-flexible has both stores with one API).
 */
export interface CounterState {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Milliseconds until the window resets. */
  resetMs: number;
}

export interface WindowCounter {
  /** Counts one hit and tells whether it was within the limit. */
  hit(key: string): Promise<CounterState>;
  /** The current state without counting; `allowed` is false once the limit is used up. */
  peek(key: string): Promise<CounterState>;
  reset(key: string): Promise<void>;
}

export interface RateLimitBackend {
  counter(name: string, limit: number, windowSeconds: number): WindowCounter;
}

function toState(limit: number, res: RateLimiterRes | null, windowMs: number): CounterState {
  const consumed = res?.consumedPoints ?? 0;
  return {
    allowed: consumed <= limit,
    limit,
    remaining: Math.max(0, limit - consumed),
    resetMs: res?.msBeforeNext ?? windowMs,
  };
}

function counterOver(limiter: RateLimiterAbstract, limit: number, windowSeconds: number): WindowCounter {
  const windowMs = windowSeconds * 1000;
  return {
    async hit(key) {
      try {
        return toState(limit, await limiter.consume(key), windowMs);
      } catch (rejection) {
        // The library rejects with a RateLimiterRes when the limit is exceeded, with an Error when
        // its store fails; the latter must surface, not read as "limited".
        if (rejection instanceof RateLimiterRes) return toState(limit, rejection, windowMs);
        throw rejection;
      }
    },
    async peek(key) {
      // The memory store keeps a window's record until a timer deletes it, and answers it meanwhile
      // with a negative time left: a window that has run out counts nothing, whatever the timer did.
      const res = await limiter.get(key);
      const state = toState(limit, res && res.msBeforeNext > 0 ? res : null, windowMs);
      return { ...state, allowed: state.remaining > 0 };
    },
    async reset(key) {
      await limiter.delete(key);
    },
  };
}

export const memoryRateLimitBackend: RateLimitBackend = {
  counter(name, limit, windowSeconds) {
    const limiter = new RateLimiterMemory({ keyPrefix: name, points: limit, duration: windowSeconds });
    return counterOver(limiter, limit, windowSeconds);
  },
};

/**
 * Counters in Redis, so a limit holds across every instance. When Redis cannot answer, a counter
 * falls back to this instance's memory for that call (limits keep working, per instance) and the
 * failure is reported: logged and counted, never silent, and never a refused request.
 */
export function redisRateLimitBackend(
  redis: Redis,
  onStoreError: (error: unknown, name: string) => void,
): RateLimitBackend {
  return {
    counter(name, limit, windowSeconds) {
      const options = { keyPrefix: name, points: limit, duration: windowSeconds };
      const store = counterOver(
        new RateLimiterRedis({ ...options, storeClient: redis, rejectIfRedisNotReady: true }),
        limit,
        windowSeconds,
      );
      const fallback = counterOver(new RateLimiterMemory(options), limit, windowSeconds);
      const guarded =
        <A extends unknown[], R>(call: (c: WindowCounter, ...args: A) => Promise<R>) =>
        async (...args: A): Promise<R> => {
          try {
            return await call(store, ...args);
          } catch (error) {
            onStoreError(error, name);
            return call(fallback, ...args);
          }
        };
      return {
        hit: guarded((c, key: string) => c.hit(key)),
        peek: guarded((c, key: string) => c.peek(key)),
        reset: guarded((c, key: string) => c.reset(key)),
      };
    },
  };
}
