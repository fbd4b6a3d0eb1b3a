/**
 * Options of `apiKeys()` and their defaults.
 * @module
 */
import { AuthConfigError } from '../../errors.js';
import type { RateLimitStorage } from '../../rate-limit/types.js';
import { createFixedWindowStorage } from '../../rate-limit/storage.js';
import { adapterStorage, type AdapterStorage } from '../plugin-sql.js';
import { createMemoryApiKeyStorage } from './storage/memory.js';
import { createSqlApiKeyStorage } from './storage/sql.js';
import type { ApiKeyStorage } from './types.js';

/** Options of `apiKeys()`. */
export interface ApiKeysOptions {
  /**
   * Where keys live. Default: the auth adapter's own database (`createSqlApiKeyStorage(adapter.kysely)`, created by
   * `auth.migrate()`; in memory on the memory adapter).
   */
  storage?: ApiKeyStorage;
  /**
   * Each key's own request budget. `storage`: the rate-limit storage (pass
   * the one your login limiter uses, e.g. `createFixedWindowStorage(redis)`,
   * so every process shares the budgets); default a new in-memory
   * fixed-window storage. `limit`: requests per window, default 1000.
   * `window`: in **seconds**, default 60. `false` turns the limit off.
   */
  rateLimit?: { storage?: RateLimitStorage; limit?: number; window?: number } | false;
  /**
   * How many unknown, wrong, revoked or expired keys one client IP may
   * present per window before every key it presents is refused with 429
   * `RATE_LIMITED` (without a storage lookup) until the window ends.
   * `limit`: default 20. `window`: in **seconds**, default 60. Counted on
   * `rateLimit.storage` (or a new in-memory one). Needs the client IP, which
   * the adapters pass to `auth.run` / `getSession`; without one nothing is
   * counted. `false` turns it off.
   */
  invalidKeyLimit?: { limit?: number; window?: number } | false;
  /**
   * Longest lifetime a key may be created with, in **seconds**; `expiresIn` above it is refused. Default:
   * unlimited (keys without `expiresIn` never expire).
   */
  maxExpiresIn?: number;
  /**
   * Most keys (not revoked, not expired) one user may hold; creating one more answers 400 `INVALID_REQUEST`.
   * Default 50.
   */
  maxKeysPerUser?: number;
}

/** The options with their defaults applied. */
export interface ResolvedApiKeysOptions {
  storage: ApiKeyStorage;
  /** Builds the default storage from the auth adapter (in `init`) when none was given. */
  bindStorage: AdapterStorage<ApiKeyStorage>['bind'];
  rateLimit: { storage: RateLimitStorage; limit: number; windowMs: number } | undefined;
  maxExpiresIn: number | undefined;
  maxKeysPerUser: number;
  invalidKeyLimit: { storage: RateLimitStorage; limit: number; windowMs: number } | undefined;
}

const positiveInteger = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v > 0;

/**
 * Checks and completes the options.
 * @throws AuthConfigError (`INVALID_CONFIG`) for a missing storage or a non-positive number.
 */
export function resolveApiKeysOptions(options: ApiKeysOptions = {}): ResolvedApiKeysOptions {
  const fail = (what: string) => new AuthConfigError(`Invalid auth config: apiKeys(): ${what}`);
  if (
    !options ||
    typeof options !== 'object' ||
    (options.storage !== undefined && typeof options.storage?.findByPrefix !== 'function')
  )
    throw fail('`storage` must be an API key storage (createSqlApiKeyStorage(db) or createMemoryApiKeyStorage())');
  const { maxExpiresIn, maxKeysPerUser = 50, rateLimit = {}, invalidKeyLimit = {} } = options;
  if (maxExpiresIn !== undefined && !positiveInteger(maxExpiresIn))
    throw fail('maxExpiresIn must be a positive integer (seconds)');
  if (!positiveInteger(maxKeysPerUser)) throw fail('maxKeysPerUser must be a positive integer');
  const budget = (name: string, given: { limit?: number; window?: number }, defaultLimit: number) => {
    // Not `window`: Nitro (Nuxt) rewrites `typeof window` in server bundles, local names included.
    const { limit = defaultLimit, window: windowSeconds = 60 } = given;
    if (!positiveInteger(limit)) throw fail(`${name}.limit must be a positive integer`);
    if (typeof windowSeconds !== 'number' || !(windowSeconds >= 0.001) || !Number.isFinite(windowSeconds))
      throw fail(`${name}.window must be a number of seconds ≥ 0.001`);
    return { limit, windowMs: Math.ceil(windowSeconds * 1000) };
  };
  const storage = (rateLimit !== false && rateLimit.storage) || createFixedWindowStorage();
  const limits = rateLimit === false ? undefined : { storage, ...budget('rateLimit', rateLimit, 1000) };
  const invalid =
    invalidKeyLimit === false ? undefined : { storage, ...budget('invalidKeyLimit', invalidKeyLimit, 20) };
  const keys = adapterStorage('apiKeys()', options.storage, {
    sql: (db) => createSqlApiKeyStorage(db),
    memory: createMemoryApiKeyStorage,
  });
  return {
    storage: keys.storage,
    bindStorage: keys.bind,
    rateLimit: limits,
    maxExpiresIn,
    maxKeysPerUser,
    invalidKeyLimit: invalid,
  };
}
