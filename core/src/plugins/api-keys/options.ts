/**
 * Options of `apiKeys()` and their defaults.
 * @module
 */
import { AuthConfigError } from '../../errors.js';
import type { RateLimitStorage } from '../../rate-limit/types.js';
import { createFixedWindowStorage } from '../../rate-limit/storage.js';
import type { ApiKeyStorage } from './types.js';

/** Options of `apiKeys()`. */
export interface ApiKeysOptions {
  /** Where keys live: `createSqlApiKeyStorage(db)` in production, `createMemoryApiKeyStorage()` in tests. */
  storage: ApiKeyStorage;
  /**
   * Each key's own request budget. `storage`: the rate-limit storage (pass
   * the one your login limiter uses, e.g. `createFixedWindowStorage(redis)`,
   * so every process shares the budgets); default a new in-memory
   * fixed-window storage. `limit`: requests per window, default 1000.
   * `window`: in **seconds**, default 60. `false` turns the limit off.
   */
  rateLimit?: { storage?: RateLimitStorage; limit?: number; window?: number } | false;
  /** Longest lifetime a key may be created with, in **seconds**; `expiresIn` above it is refused. Default: unlimited (keys without `expiresIn` never expire). */
  maxExpiresIn?: number;
  /** Most keys (not revoked, not expired) one user may hold; creating one more answers 400 `INVALID_REQUEST`. Default 50. */
  maxKeysPerUser?: number;
}

/** The options with their defaults applied. */
export interface ResolvedApiKeysOptions {
  storage: ApiKeyStorage;
  rateLimit: { storage: RateLimitStorage; limit: number; windowMs: number } | undefined;
  maxExpiresIn: number | undefined;
  maxKeysPerUser: number;
}

const positiveInteger = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v > 0;

/**
 * Checks and completes the options.
 * @throws AuthConfigError (`INVALID_CONFIG`) for a missing storage or a non-positive number.
 */
export function resolveApiKeysOptions(options: ApiKeysOptions): ResolvedApiKeysOptions {
  const fail = (what: string) => new AuthConfigError(`Invalid auth config: apiKeys(): ${what}`);
  if (!options || typeof options !== 'object' || !options.storage) throw fail('`storage` is required (createSqlApiKeyStorage(db) or createMemoryApiKeyStorage())');
  const { maxExpiresIn, maxKeysPerUser = 50, rateLimit = {} } = options;
  if (maxExpiresIn !== undefined && !positiveInteger(maxExpiresIn)) throw fail('maxExpiresIn must be a positive integer (seconds)');
  if (!positiveInteger(maxKeysPerUser)) throw fail('maxKeysPerUser must be a positive integer');
  let limits: ResolvedApiKeysOptions['rateLimit'];
  if (rateLimit !== false) {
    const { limit = 1000, window = 60 } = rateLimit;
    if (!positiveInteger(limit)) throw fail('rateLimit.limit must be a positive integer');
    if (typeof window !== 'number' || !(window >= 0.001) || !Number.isFinite(window)) throw fail('rateLimit.window must be a number of seconds ≥ 0.001');
    limits = { storage: rateLimit.storage ?? createFixedWindowStorage(), limit, windowMs: Math.ceil(window * 1000) };
  }
  return { storage: options.storage, rateLimit: limits, maxExpiresIn, maxKeysPerUser };
}
