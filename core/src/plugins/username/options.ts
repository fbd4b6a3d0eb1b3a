/**
 * The options of `username()`.
 * @module
 */
import { AuthConfigError, adapterStorage, type AdapterStorage } from '../../plugin-kit.js';
import type { UsernameRules } from './normalize.js';
import { createMemoryUsernameStorage } from './storage/memory.js';
import { createSqlUsernameStorage } from './storage/sql.js';
import type { UsernameStorage } from './storage/types.js';

/** Options of `username()`. */
export interface UsernameOptions {
  /** Fewest characters (code points) of the folded name. Default 3. */
  minLength?: number;
  /** Most characters (code points) of the folded name. Default 30; at most 255 (the key column's width on MySQL). */
  maxLength?: number;
  /**
   * Decides which folded names (NFKC, lower case, after `normalize`) are allowed, replacing the default rule
   * (`a`–`z`, `0`–`9`, `_`, `.`; no leading, trailing or doubled `.`). Invisible, format, control and space
   * characters, and letters of several look-alike scripts in one name, are refused before it is called, whatever it
   * answers. Must answer `true` to allow.
   * @example
   * ```ts
   * username({ validator: (name) => /^[\p{Ll}\p{Nd}_]+$/u.test(name) }) // letters of any one script
   * ```
   */
  validator?: (username: string) => boolean;
  /** Further folds the folded name (NFKC, lower case), e.g. `(name) => name.replaceAll('.', '')`. Default none. */
  normalize?: (username: string) => string;
  /**
   * Where usernames live. Default: a table `username_names` in the auth adapter's own database (SQL adapters,
   * created by `auth.migrate()`), or memory on the memory adapter.
   */
  storage?: UsernameStorage;
  /**
   * How long a name chosen at sign-up stays held for the new account, in **seconds**, when the sign-up does not
   * sign in at once (email verification on): the account's first password sign-in takes it, while nobody else took
   * it since. Default 900.
   */
  reservationTtl?: number;
}

/** The options with defaults applied. */
export interface ResolvedUsernameOptions {
  rules: UsernameRules;
  storage: AdapterStorage<UsernameStorage>;
  reservationTtlMs: number;
}

/**
 * Checks and completes the options.
 * @throws AuthConfigError (`INVALID_CONFIG`) naming the option at fault.
 */
export function resolveUsernameOptions(options: UsernameOptions = {}): ResolvedUsernameOptions {
  const fail = (what: string) => new AuthConfigError(`Invalid auth config: username(): ${what}`);
  if (!options || typeof options !== 'object') throw fail('options must be an object');
  const minLength = options.minLength ?? 3;
  const maxLength = options.maxLength ?? 30;
  if (!Number.isInteger(minLength) || minLength < 1) throw fail('minLength must be a whole number of at least 1');
  if (!Number.isInteger(maxLength) || maxLength < minLength || maxLength > 255)
    throw fail('maxLength must be a whole number from minLength to 255');
  for (const name of ['validator', 'normalize'] as const)
    if (options[name] !== undefined && typeof options[name] !== 'function') throw fail(`${name} must be a function`);
  const ttl = options.reservationTtl ?? 900;
  if (typeof ttl !== 'number' || !Number.isFinite(ttl) || ttl <= 0)
    throw fail('reservationTtl must be a positive number of seconds');
  if (options.storage !== undefined && typeof options.storage?.assign !== 'function')
    throw fail('storage must be a UsernameStorage');
  return {
    rules: { minLength, maxLength, validator: options.validator, normalize: options.normalize },
    storage: adapterStorage('username()', options.storage, {
      sql: (db) => createSqlUsernameStorage(db),
      memory: () => createMemoryUsernameStorage(),
    }),
    reservationTtlMs: Math.round(ttl * 1000),
  };
}
