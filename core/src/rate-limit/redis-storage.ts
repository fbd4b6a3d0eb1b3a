/**
 * The storage factories of `@framework/auth/rate-limit/upstash`: the same fixed and sliding windows as the
 * in-memory ones, with a `namespace` that may also be an `@upstash/redis` `Redis` or a node-redis v5 client
 * (counters shared by every instance through `@upstash/ratelimit`).
 * @module
 */
import { AuthConfigError } from '../errors.js';
import { checkPositiveInteger, memoryStorageFor } from './storage.js';
import { upstashStorage } from './upstash-storage.js';
import type {
  NodeRedisClientLike,
  RateLimitAlgorithm,
  RateLimitNamespace,
  RateLimitStorage,
  RateLimitStorageOptions,
  UpstashRedisLike,
} from './types.js';

const isObject = (value: unknown): value is Record<string, unknown> =>
  (typeof value === 'object' || typeof value === 'function') && value !== null;

function isNodeRedis(value: Record<string, unknown>): value is Record<string, unknown> & NodeRedisClientLike {
  return typeof value.sendCommand === 'function' && typeof value.multi === 'function';
}

function isUpstash(value: Record<string, unknown>): value is Record<string, unknown> & UpstashRedisLike {
  return (
    typeof value.evalsha === 'function' && typeof value.eval === 'function' && typeof value.pipeline === 'function'
  );
}

/**
 * node-redis emits `error` events while reconnecting, and an `error` event
 * without a listener crashes Node. When the app has not attached one, the
 * storage attaches a silent one: failures reach the limiter as rejected
 * commands and follow its fail policy instead.
 */
function keepProcessAlive(client: NodeRedisClientLike): void {
  if (typeof client.on !== 'function') return;
  if (typeof client.listenerCount === 'function' && client.listenerCount('error') > 0) return;
  client.on('error', () => {});
}

function createStorage(
  algorithm: RateLimitAlgorithm,
  where: string,
  namespace: unknown,
  options: RateLimitStorageOptions = {},
): RateLimitStorage {
  if (namespace === undefined || namespace === null) return memoryStorageFor(algorithm, where, options);
  checkPositiveInteger(options.maxEntries, 'maxEntries', where);
  checkPositiveInteger(options.commandTimeout, 'commandTimeout', where);
  if (isObject(namespace)) {
    if ('masters' in namespace && 'slots' in namespace) {
      throw new AuthConfigError(
        `Invalid rate limit config: ${where}: node-redis cluster clients are not supported; pass a single-node client (createClient)`,
      );
    }
    if (isNodeRedis(namespace)) {
      keepProcessAlive(namespace);
      const bridge = options.commandTimeout === undefined ? {} : { commandTimeout: options.commandTimeout };
      // The bridge needs @upstash/redis: imported with the first counted request.
      const redis = async () => (await import('./node-redis-bridge.js')).upstashRedisFromNodeRedis(namespace, bridge);
      return upstashStorage(algorithm, redis, 'node-redis');
    }
    if (isUpstash(namespace)) return upstashStorage(algorithm, namespace, 'upstash');
  }
  throw new AuthConfigError(
    `Invalid rate limit config: ${where}: namespace must be omitted (memory), an @upstash/redis Redis instance or a node-redis v5 client (createClient from "redis")`,
  );
}

/**
 * Storage counting in **fixed windows**: one counter per key per window of
 * `window` seconds, reset at each window boundary (windows are aligned to
 * the epoch). Simple and cheap; a burst straddling a boundary can pass up to
 * twice the limit.
 *
 * `namespace`:
 * - omitted: in-process memory, as the function of the same name from
 *   `@framework/auth/rate-limit` (bounded by `options.maxEntries`, default 100 000).
 * - an `@upstash/redis` `Redis` (Upstash REST): shared by every process,
 *   via `@upstash/ratelimit` `Ratelimit.fixedWindow`.
 * - a connected node-redis v5 client: the same, through a `Requester`
 *   bridge (`sendCommand`, RESP2) that strips the Upstash-only
 *   `allow-key-locking` script flag stock Redis refuses.
 *
 * `@upstash/ratelimit` (and for node-redis `@upstash/redis`) is imported at
 * the first counted request.
 *
 * @throws AuthConfigError (`INVALID_CONFIG`) for any other `namespace`, a
 *   node-redis cluster client, or a non-positive-integer option.
 * @example
 * ```ts
 * import { createClient } from 'redis';
 * import { Redis } from '@upstash/redis';
 * import { createLoginRateLimiter } from '@framework/auth/rate-limit';
 * import { createFixedWindowStorage } from '@framework/auth/rate-limit/upstash';
 *
 * const shared = createFixedWindowStorage(await createClient({ url: process.env.REDIS_URL }).connect());
 * const upstash = createFixedWindowStorage(Redis.fromEnv());
 * const login = createLoginRateLimiter(shared);
 * ```
 */
export function createFixedWindowStorage(
  namespace?: RateLimitNamespace,
  options?: RateLimitStorageOptions,
): RateLimitStorage {
  return createStorage('fixed-window', 'createFixedWindowStorage', namespace, options);
}

/**
 * Storage counting in **sliding windows**: the current window's count plus
 * the previous window's count weighted by how much of it still overlaps the
 * last `window` seconds (`floor((1 - elapsed/window) × previous)`). Smooths
 * boundary bursts; keeps two counters per key. Same `namespace` forms,
 * options and errors as {@link createFixedWindowStorage}; Redis goes through
 * `Ratelimit.slidingWindow`.
 *
 * @example
 * ```ts
 * import { Redis } from '@upstash/redis';
 * import { createPasswordResetRateLimiter } from '@framework/auth/rate-limit';
 * import { createSlidingWindowStorage } from '@framework/auth/rate-limit/upstash';
 *
 * const reset = createPasswordResetRateLimiter(createSlidingWindowStorage(Redis.fromEnv()), { limit: 3, window: 3600 });
 * ```
 */
export function createSlidingWindowStorage(
  namespace?: RateLimitNamespace,
  options?: RateLimitStorageOptions,
): RateLimitStorage {
  return createStorage('sliding-window', 'createSlidingWindowStorage', namespace, options);
}
