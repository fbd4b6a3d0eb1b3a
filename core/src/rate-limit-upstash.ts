/**
 * `@framework/auth/rate-limit/upstash`: rate-limit counters in Redis, shared
 * by every instance, through `@upstash/ratelimit`: Upstash's REST service
 * (an `@upstash/redis` `Redis`) or a self-hosted Redis over a node-redis v5
 * client. The limiters themselves come from `@framework/auth/rate-limit`;
 * only this subpath ever loads `@upstash/*`, so an app counting in memory
 * does not bundle it.
 *
 * @example
 * ```ts
 * import { createClient } from 'redis';
 * import { createLoginRateLimiter } from '@framework/auth/rate-limit';
 * import { createFixedWindowStorage } from '@framework/auth/rate-limit/upstash';
 *
 * const storage = createFixedWindowStorage(await createClient({ url: process.env.REDIS_URL }).connect());
 * const login = createLoginRateLimiter(storage, { limit: 5, window: 900 });
 * ```
 * @module
 */
export { createFixedWindowStorage, createSlidingWindowStorage } from './rate-limit/redis-storage.js';
export {
  nodeRedisRequester,
  upstashRedisFromNodeRedis,
  type NodeRedisBridgeOptions,
} from './rate-limit/node-redis-bridge.js';
export { stripUnknownScriptFlags, REDIS_SCRIPT_FLAGS } from './rate-limit/script-flags.js';
export type {
  NodeRedisClientLike,
  RateLimitNamespace,
  RateLimitStorage,
  RateLimitStorageOptions,
  UpstashRedisLike,
} from './rate-limit/types.js';
