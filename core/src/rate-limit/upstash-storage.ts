/**
 * Counters in Redis through `@upstash/ratelimit` (fixed or sliding window),
 * over any `@upstash/redis` `Redis`: the REST client, or the node-redis
 * bridge.
 * @internal
 * @module
 */
import { Ratelimit, type RatelimitConfig } from '@upstash/ratelimit';
import { BoundedMap } from './bounded-map.js';
import type { RateLimitAlgorithm, RateLimitBackend, RateLimitStorage, UpstashRedisLike } from './types.js';

/**
 * Size of the per-budget local cache of refused keys. `@upstash/ratelimit`
 * answers a key it has seen refused until its reset without a round trip;
 * bounding the map keeps an attack on many keys from growing memory.
 */
const REFUSED_CACHE_SIZE = 10_000;

/** Wraps an `@upstash/redis` client as a storage. */
export function upstashStorage(
  algorithm: RateLimitAlgorithm,
  redis: UpstashRedisLike,
  backend: RateLimitBackend,
): RateLimitStorage {
  return {
    algorithm,
    backend,
    counter({ limit, windowMs, prefix }) {
      const window = `${windowMs} ms` as const;
      const ratelimit = new Ratelimit({
        redis: redis as unknown as RatelimitConfig['redis'],
        limiter:
          algorithm === 'fixed-window' ? Ratelimit.fixedWindow(limit, window) : Ratelimit.slidingWindow(limit, window),
        prefix,
        // The limiter applies its own deadline and fail policy; the library's would let requests through.
        timeout: 0,
        analytics: false,
        enableTelemetry: false,
        ephemeralCache: new BoundedMap<string, number>(REFUSED_CACHE_SIZE),
      });
      return {
        async consume(key) {
          const r = await ratelimit.limit(key);
          return { success: r.success, limit: r.limit, remaining: Math.max(0, r.remaining), resetAt: r.reset };
        },
        async reset(key) {
          await ratelimit.resetUsedTokens(key);
        },
      };
    },
  };
}
