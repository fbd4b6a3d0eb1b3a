/**
 * `@framework/auth/rate-limit`: limiters for login, password reset and
 * email verification, counting in process memory. For counters in Redis
 * shared by every instance (Upstash REST, or a self-hosted Redis through
 * node-redis), take the storage from `@framework/auth/rate-limit/upstash`.
 *
 * @example
 * ```ts
 * import { createFixedWindowStorage, createLoginRateLimiter } from '@framework/auth/rate-limit';
 * const login = createLoginRateLimiter(createFixedWindowStorage(), { limit: 5, window: 900 });
 * const verdict = await login.check(request, { ip: '203.0.113.7' });
 * if (!verdict.success) return verdict.response!;
 * ```
 * @module
 */
export { createFixedWindowStorage, createSlidingWindowStorage } from './rate-limit/storage.js';
export {
  createLoginRateLimiter,
  createPasswordResetRateLimiter,
  createEmailVerificationRateLimiter,
  defaultLoginLimiter,
  RATE_LIMIT_DEFAULTS,
} from './rate-limit/factories.js';
export { resolveClientIp } from './rate-limit/client-ip.js';
export { RATE_LIMIT_MESSAGES } from './rate-limit/responses.js';
export type { MemoryRateLimitStorage } from './rate-limit/memory-storage.js';
export type {
  NodeRedisClientLike,
  RateLimitAlgorithm,
  RateLimitBackend,
  RateLimitCheckInfo,
  RateLimitCode,
  RateLimitConfig,
  RateLimitConsumeResult,
  RateLimitCounter,
  RateLimitCounterConfig,
  RateLimiter,
  RateLimiterOptions,
  RateLimitLogger,
  RateLimitNamespace,
  RateLimitResult,
  RateLimitRule,
  RateLimitStorage,
  RateLimitStorageOptions,
  TrustProxy,
  UpstashRedisLike,
} from './rate-limit/types.js';
