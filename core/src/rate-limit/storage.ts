/**
 * The two in-memory storage factories (fixed and sliding window; core/README.md "Rate limits"). The Redis ones
 * (Upstash REST or node-redis) live in `./redis-storage.ts`, served only by `@framework/auth/rate-limit/upstash`,
 * so an app that counts in memory never bundles `@upstash/*`.
 * @module
 */
import { AuthConfigError } from '../errors.js';
import { DEFAULT_MAX_ENTRIES, memoryStorage } from './memory-storage.js';
import type { RateLimitAlgorithm, RateLimitStorage, RateLimitStorageOptions } from './types.js';

/** Throws `INVALID_CONFIG` when an option is set to anything but a positive integer. */
export function checkPositiveInteger(value: unknown, name: string, where: string): void {
  if (value !== undefined && (typeof value !== 'number' || !Number.isInteger(value) || value <= 0)) {
    throw new AuthConfigError(
      `Invalid rate limit config: ${where}: ${name} must be a positive integer (got ${String(value)})`,
    );
  }
}

/** The in-memory storage of `algorithm`, after checking `options`. */
export function memoryStorageFor(
  algorithm: RateLimitAlgorithm,
  where: string,
  options: RateLimitStorageOptions = {},
): RateLimitStorage {
  checkPositiveInteger(options.maxEntries, 'maxEntries', where);
  checkPositiveInteger(options.commandTimeout, 'commandTimeout', where);
  return memoryStorage(algorithm, options.maxEntries ?? DEFAULT_MAX_ENTRIES);
}

function createStorage(
  algorithm: RateLimitAlgorithm,
  where: string,
  namespace: unknown,
  options?: RateLimitStorageOptions,
): RateLimitStorage {
  if (namespace !== undefined && namespace !== null) {
    throw new AuthConfigError(
      `Invalid rate limit config: ${where}: counters in Redis come from "@framework/auth/rate-limit/upstash" (import { ${where} } from '@framework/auth/rate-limit/upstash'); this one counts in memory and takes no namespace`,
    );
  }
  return memoryStorageFor(algorithm, where, options);
}

/**
 * In-memory storage counting in **fixed windows**: one counter per key per
 * window of `window` seconds, reset at each window boundary (windows are
 * aligned to the epoch). Simple and cheap; a burst straddling a boundary can
 * pass up to twice the limit. Bounded by `options.maxEntries` (default
 * 100 000); expired windows are evicted first, then the least recently used.
 * Budgets are per process: for budgets shared by every instance, use the
 * function of the same name from `@framework/auth/rate-limit/upstash`.
 *
 * @param namespace Must be omitted (kept so that the call shape matches the Redis variant).
 * @throws AuthConfigError (`INVALID_CONFIG`) for a `namespace` (a Redis client
 *   belongs to `@framework/auth/rate-limit/upstash`) or a non-positive-integer option.
 * @example
 * ```ts
 * import { createFixedWindowStorage, createLoginRateLimiter } from '@framework/auth/rate-limit';
 * const login = createLoginRateLimiter(createFixedWindowStorage(undefined, { maxEntries: 50_000 }));
 * ```
 */
export function createFixedWindowStorage(namespace?: null, options?: RateLimitStorageOptions): RateLimitStorage {
  return createStorage('fixed-window', 'createFixedWindowStorage', namespace, options);
}

/**
 * In-memory storage counting in **sliding windows**: the current window's
 * count plus the previous window's count weighted by how much of it still
 * overlaps the last `window` seconds (`floor((1 - elapsed/window) × previous)`).
 * Smooths boundary bursts; keeps two counters per key. Same options and
 * errors as {@link createFixedWindowStorage}; the Redis variant is in
 * `@framework/auth/rate-limit/upstash`.
 *
 * @example
 * ```ts
 * const limiter = createPasswordResetRateLimiter(createSlidingWindowStorage(), { limit: 3, window: 3600 });
 * ```
 */
export function createSlidingWindowStorage(namespace?: null, options?: RateLimitStorageOptions): RateLimitStorage {
  return createStorage('sliding-window', 'createSlidingWindowStorage', namespace, options);
}
