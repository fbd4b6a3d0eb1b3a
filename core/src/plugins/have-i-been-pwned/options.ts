/**
 * `haveIBeenPwned()`'s options, checked once when the plugin is made.
 * @module
 */
import { AuthConfigError } from '../../plugin-kit.js';

/** The options of {@link haveIBeenPwned} and {@link pwnedCount}. */
export interface HaveIBeenPwnedOptions {
  /**
   * The range API's base URL; the 5-character SHA-1 prefix is appended. Default
   * `https://api.pwnedpasswords.com/range/`. Tests (or a mirror of the corpus) point it elsewhere.
   */
  endpoint?: string;
  /**
   * Ask for padded answers (`Add-Padding: true`): the API adds decoy suffixes with a count of 0, so the answer's
   * size does not tell an observer of the (encrypted) traffic which prefix was asked. Default true.
   */
  padding?: boolean;
  /** Refuse a password seen at least this many times in the corpus. A positive integer; default 1. */
  minCount?: number;
  /**
   * When the range API cannot be reached, times out or answers an error: `'allow'` (default) accepts the password
   * unchecked and logs a warning; `'refuse'` answers 503 `PASSWORD_CHECK_UNAVAILABLE`.
   */
  onError?: 'allow' | 'refuse';
  /** The `fetch` that calls the range API. Default: the global `fetch`. */
  fetch?: typeof fetch;
  /** Most time one lookup may take, in **milliseconds**. Default 5000. */
  timeout?: number;
}

/** The options with every default filled in. */
export interface ResolvedPwnedOptions {
  endpoint: string;
  padding: boolean;
  minCount: number;
  onError: 'allow' | 'refuse';
  fetch: typeof fetch;
  timeout: number;
}

/**
 * Checks and completes {@link HaveIBeenPwnedOptions}.
 * @throws AuthConfigError (`INVALID_CONFIG`) naming the bad option.
 */
export function resolvePwnedOptions(o: HaveIBeenPwnedOptions = {}): ResolvedPwnedOptions {
  const fail = (what: string): never => {
    throw new AuthConfigError(`Invalid auth config: haveIBeenPwned(): ${what}`);
  };
  if (!o || typeof o !== 'object') fail('options must be an object');
  const endpoint = o.endpoint ?? 'https://api.pwnedpasswords.com/range/';
  if (!URL.canParse(endpoint)) fail('endpoint must be an absolute URL');
  const minCount = o.minCount ?? 1;
  if (!Number.isInteger(minCount) || minCount < 1) fail('minCount must be a positive integer');
  const onError = o.onError ?? 'allow';
  if (onError !== 'allow' && onError !== 'refuse') fail('onError must be "allow" or "refuse"');
  const timeout = o.timeout ?? 5000;
  if (!Number.isInteger(timeout) || timeout <= 0) fail('timeout must be a positive integer (milliseconds)');
  const fetchImpl = o.fetch ?? globalThis.fetch;
  if (typeof fetchImpl !== 'function') fail('fetch must be a function');
  return { endpoint, padding: o.padding ?? true, minCount, onError, fetch: fetchImpl, timeout };
}
