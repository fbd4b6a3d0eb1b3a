/**
 * Validation of limiter options: every mistake is an `AuthConfigError`
 * naming the factory and the option.
 * @internal
 * @module
 */
import { AuthConfigError } from '../errors.js';
import { systemClock, type AuthClock } from '../clock.js';
import { DEFAULT_MAX_BODY_BYTES } from '../http/body.js';
import { clientIpResolver, type ClientIpResolver } from './client-ip.js';
import type { RateLimitLogger, RateLimiterOptions, RateLimitStorage } from './types.js';

/** Defaults that differ between limiters. */
export interface LimiterDefaults {
  name: string;
  limit: number;
  window: number;
}

/** Options after validation, with every default filled in. */
export interface ResolvedLimiterOptions {
  name: string;
  storage: RateLimitStorage;
  limit: number;
  /** Attempts per window from one IP, for `attempt()`. */
  ipLimit: number;
  window: number;
  windowMs: number;
  failOpen: boolean;
  timeout: number;
  resolveIp: ClientIpResolver;
  identifierFields: readonly string[];
  maxBodySize: number;
  prefix: string;
  logger: RateLimitLogger;
  clock: AuthClock;
}

/** Default `check()` deadline for the storage: 1000 ms. */
export const DEFAULT_TIMEOUT_MS = 1000;
/** Default body fields holding the account identifier. */
export const DEFAULT_IDENTIFIER_FIELDS: readonly string[] = /* @__PURE__ */ Object.freeze(['email', 'username']);

/** Validates `options` for the factory `where`. */
export function resolveLimiterOptions(
  where: string,
  defaults: LimiterDefaults,
  storage: RateLimitStorage,
  options: RateLimiterOptions | undefined,
): ResolvedLimiterOptions {
  const fail = (message: string): never => {
    throw new AuthConfigError(`Invalid rate limit config: ${where}: ${message}`);
  };
  if (!storage || typeof storage !== 'object' || typeof storage.counter !== 'function') {
    fail('the first argument must be a storage from createFixedWindowStorage() or createSlidingWindowStorage()');
  }
  if (options !== undefined && (options === null || typeof options !== 'object')) fail('options must be an object');
  const o = options ?? {};
  const limit = o.limit ?? defaults.limit;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit <= 0)
    fail(`limit must be a positive integer (got ${String(limit)})`);
  const ipLimit = o.ipLimit ?? limit * 10;
  if (typeof ipLimit !== 'number' || !Number.isInteger(ipLimit) || ipLimit <= 0)
    fail(`ipLimit must be a positive integer (got ${String(ipLimit)})`);
  // Not `window`: Nitro (Nuxt) rewrites `typeof window` in server bundles, local names included.
  const windowSeconds = o.window ?? defaults.window;
  if (typeof windowSeconds !== 'number' || !Number.isFinite(windowSeconds) || windowSeconds <= 0)
    fail(`window must be a positive number of seconds (got ${String(windowSeconds)})`);
  const windowMs = Math.round(windowSeconds * 1000);
  if (windowMs < 1) fail(`window must be at least 0.001 seconds (got ${windowSeconds})`);
  const timeout = o.timeout ?? DEFAULT_TIMEOUT_MS;
  if (typeof timeout !== 'number' || !Number.isFinite(timeout) || timeout <= 0)
    fail(`timeout must be a positive number of milliseconds (got ${String(timeout)})`);
  if (o.failOpen !== undefined && typeof o.failOpen !== 'boolean') fail('failOpen must be a boolean');
  const fields = o.identifierFields ?? DEFAULT_IDENTIFIER_FIELDS;
  if (!Array.isArray(fields) || fields.some((f) => typeof f !== 'string' || f === ''))
    fail('identifierFields must be a list of field names');
  const maxBodySize = o.maxBodySize ?? DEFAULT_MAX_BODY_BYTES;
  if (!Number.isInteger(maxBodySize) || maxBodySize <= 0)
    fail(`maxBodySize must be a positive integer of bytes (got ${String(maxBodySize)})`);
  const prefix = o.prefix ?? `framework:rate-limit:${defaults.name}`;
  if (typeof prefix !== 'string' || prefix === '' || /\s/.test(prefix))
    fail('prefix must be a non-empty string without spaces');
  const clock = o.clock ?? systemClock;
  if (typeof clock?.now !== 'function') fail('clock must be an object with now()');
  const logger = o.logger ?? console;
  if (typeof logger?.warn !== 'function') fail('logger must have a warn(message) method');
  return {
    name: defaults.name,
    storage,
    limit,
    ipLimit,
    window: windowSeconds,
    windowMs,
    failOpen: o.failOpen ?? false,
    timeout,
    resolveIp: clientIpResolver(o.trustProxy, where),
    identifierFields: [...fields],
    maxBodySize,
    prefix,
    logger,
    clock,
  };
}
