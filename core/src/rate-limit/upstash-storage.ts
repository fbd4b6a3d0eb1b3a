/**
 * Counters in Redis through `@upstash/ratelimit` (fixed or sliding window),
 * over any `@upstash/redis` `Redis`: the REST client, or the node-redis
 * bridge. `@upstash/ratelimit` (and, for the bridge, `@upstash/redis`) is
 * imported at the first counted request, so apps on the memory storage never
 * load it.
 * @internal
 * @module
 */
import type { Ratelimit, RatelimitConfig } from '@upstash/ratelimit';
import { BoundedMap } from './bounded-map.js';
import type { RateLimitAlgorithm, RateLimitBackend, RateLimitStorage, UpstashRedisLike } from './types.js';

/**
 * Size of the per-budget local cache of refused keys. `@upstash/ratelimit`
 * answers a key it has seen refused until its reset without a round trip;
 * bounding the map keeps an attack on many keys from growing memory.
 */
const REFUSED_CACHE_SIZE = 10_000;

/**
 * Wraps an `@upstash/redis` client as a storage; `redis` may be a function that makes the client on first use
 * (the node-redis bridge, so `@upstash/redis` loads only then).
 */
export function upstashStorage(
  algorithm: RateLimitAlgorithm,
  redis: UpstashRedisLike | (() => Promise<UpstashRedisLike>),
  backend: RateLimitBackend,
): RateLimitStorage {
  let client: Promise<UpstashRedisLike> | undefined;
  const redisClient = () =>
    (client ??= (typeof redis === 'function' ? redis() : Promise.resolve(redis)).catch((error: unknown) => {
      client = undefined;
      throw error;
    }));
  return {
    algorithm,
    backend,
    counter({ limit, windowMs, prefix }) {
      let made: Promise<Ratelimit> | undefined;
      const limiter = () =>
        (made ??= makeRatelimit(algorithm, redisClient(), limit, windowMs, prefix).catch((error: unknown) => {
          made = undefined;
          throw error;
        }));
      return {
        async consume(key) {
          const r = await (await limiter()).limit(key);
          return { success: r.success, limit: r.limit, remaining: Math.max(0, r.remaining), resetAt: r.reset };
        },
        async reset(key) {
          await (await limiter()).resetUsedTokens(key);
        },
      };
    },
  };
}

/** A `Ratelimit` for one budget, importing `@upstash/ratelimit` on first use. A failed import is retried next time. */
async function makeRatelimit(
  algorithm: RateLimitAlgorithm,
  redisClient: Promise<UpstashRedisLike>,
  limit: number,
  windowMs: number,
  prefix: string,
): Promise<Ratelimit> {
  const [{ Ratelimit }, redis] = await Promise.all([import('@upstash/ratelimit'), redisClient]);
  const window = `${windowMs} ms` as const;
  return new Ratelimit({
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
}
