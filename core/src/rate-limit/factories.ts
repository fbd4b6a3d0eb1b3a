/**
 * The three limiters (login, password reset, email verification) with the defaults in core/README.md "Rate limits".
 * @module
 */
import { createRateLimiter } from './limiter.js';
import { resolveLimiterOptions } from './options.js';
import { createFixedWindowStorage } from './storage.js';
import type { RateLimiter, RateLimiterOptions, RateLimitStorage } from './types.js';

/** Spec defaults: login 5 per 900 s, password reset 3 per 3600 s, email verification 5 per 3600 s. */
export const RATE_LIMIT_DEFAULTS = /* @__PURE__ */ Object.freeze({
  login: Object.freeze({ limit: 5, window: 900 }),
  passwordReset: Object.freeze({ limit: 3, window: 3600 }),
  emailVerification: Object.freeze({ limit: 5, window: 3600 }),
});

/**
 * Limits sign-in attempts (credentials, email sign-in): by default 5 per
 * 900 s (15 minutes), counted separately per client IP (IPv6 per /64) and
 * per account identifier (the normalised `email` or `username` body field:
 * JSON, urlencoded or multipart, read from `request.clone()`). Either budget
 * running out refuses, so one IP cannot spray many accounts and many IPs
 * cannot hammer one account.
 *
 * `check(request, {ip})` answers `{success, limit, remaining, reset,
 * retryAfter?, code?, scope?, headers, response?}` (seconds). When refused,
 * `response` is a 429 `RATE_LIMITED` JSON answer with `Retry-After` (RFC
 * 9110) and `RateLimit-*` fields (draft-ietf-httpapi-ratelimit-headers).
 * When the storage fails or exceeds `timeout` (default 1000 ms), `failOpen:
 * false` (the default) refuses with 503 `RATE_LIMIT_UNAVAILABLE`, `true`
 * allows and logs a warning; `check()` never rejects.
 *
 * @param storage From {@link createFixedWindowStorage} or `createSlidingWindowStorage`.
 * @param options `limit` (positive integer, default 5), `window` (seconds, default 900), and the rest of
 * {@link RateLimiterOptions}.
 * @throws AuthConfigError (`INVALID_CONFIG`) for a bad storage, `limit`,
 *   `window`, `timeout`, `trustProxy` or other option, naming it.
 * @example
 * ```ts
 * import { createFixedWindowStorage } from '@framework/auth/rate-limit/upstash'; // counters in Redis
 * const login = createLoginRateLimiter(createFixedWindowStorage(redisClient), { trustProxy: 1 });
 * const verdict = await login.check(request, { ip: socket.remoteAddress });
 * if (!verdict.success) return verdict.response!; // 429 (or 503 when Redis is down)
 * ```
 */
export function createLoginRateLimiter(storage: RateLimitStorage, options?: RateLimiterOptions): RateLimiter {
  return createRateLimiter(
    resolveLimiterOptions('createLoginRateLimiter', { name: 'login', ...RATE_LIMIT_DEFAULTS.login }, storage, options),
  );
}

/**
 * Limits password-reset requests: by default 3 per 3600 s, per client IP and
 * per account identifier, as {@link createLoginRateLimiter} (same result,
 * headers, fail policy and errors).
 *
 * @example
 * ```ts
 * const reset = createPasswordResetRateLimiter(createSlidingWindowStorage(), { limit: 3, window: 3600 });
 * const verdict = await reset.check(request, { ip });
 * if (!verdict.success) return verdict.response!;
 * ```
 */
export function createPasswordResetRateLimiter(storage: RateLimitStorage, options?: RateLimiterOptions): RateLimiter {
  return createRateLimiter(
    resolveLimiterOptions(
      'createPasswordResetRateLimiter',
      { name: 'password-reset', ...RATE_LIMIT_DEFAULTS.passwordReset },
      storage,
      options,
    ),
  );
}

/**
 * Limits email-verification (and magic-link) sends: by default 5 per 3600 s,
 * per client IP and per account identifier, as {@link createLoginRateLimiter}.
 *
 * @example
 * ```ts
 * const verify = createEmailVerificationRateLimiter(createFixedWindowStorage()); // per process, in memory
 * const verdict = await verify.check(request, { ip, identifier: email });
 * ```
 */
export function createEmailVerificationRateLimiter(
  storage: RateLimitStorage,
  options?: RateLimiterOptions,
): RateLimiter {
  return createRateLimiter(
    resolveLimiterOptions(
      'createEmailVerificationRateLimiter',
      { name: 'email-verification', ...RATE_LIMIT_DEFAULTS.emailVerification },
      storage,
      options,
    ),
  );
}

/**
 * The login limiter `createAuth` uses when `rateLimit.login` is not given:
 * fixed windows in process memory, 5 attempts per 900 s, fail closed. A new
 * instance (with its own counters) per call.
 *
 * @example
 * ```ts
 * const login = options.rateLimit?.login ?? defaultLoginLimiter();
 * ```
 */
export function defaultLoginLimiter(): RateLimiter {
  return createLoginRateLimiter(createFixedWindowStorage());
}
