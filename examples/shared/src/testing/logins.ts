/**
 * The sign-in rate limit the examples' tests run with.
 */
import { createFixedWindowStorage, createLoginRateLimiter, type RateLimitConfig } from '@framework/auth/rate-limit';

/**
 * A login limit high enough for test suites that sign in many times from
 * 127.0.0.1; tests of the limit itself pass `rateLimit: {}` for the default.
 */
export function generousLogins(): RateLimitConfig {
  return { login: createLoginRateLimiter(createFixedWindowStorage(), { limit: 1000, window: 900 }) };
}
