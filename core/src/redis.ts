/**
 * `@framework/auth/redis`: Redis secondary storage for several instances.
 * @module
 */
export {
  redisSecondaryStorage,
  type RedisSecondaryStorageOptions,
  type RedisPubSubClientLike,
  type RedisSubscriberLike,
  type SecondaryStorage,
} from './secondary/redis.js';
export {
  cacheSessions,
  type InvalidationBus,
  type Invalidation,
  type SessionCacheOptions,
  type SessionCache,
} from './secondary/session-cache.js';
