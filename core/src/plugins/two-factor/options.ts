/**
 * Options of `twoFactor()` and their defaults.
 * @module
 */
import { AuthConfigError, adapterStorage, type AdapterStorage } from '../../plugin-kit.js';
import { resolveLockout, type Lockout, type TwoFactorLockoutOptions } from './lockout.js';
import type { TotpParams } from './totp.js';
import { createMemoryTwoFactorStorage } from './storage/memory.js';
import { createSqlTwoFactorStorage } from './storage/sql.js';
import type { TwoFactorStorage } from './types.js';

/** Options of `twoFactor()`. */
export interface TwoFactorOptions {
  /**
   * Where enrolments live. Default: the auth adapter's own database (`createSqlTwoFactorStorage(adapter.kysely)`, created by
   * `auth.migrate()`; in memory on the memory adapter).
   */
  storage?: TwoFactorStorage;
  /** The issuer an authenticator app shows beside the account. Default: the host of `baseURL` (else `"App"`). */
  issuer?: string;
  /** TOTP code length, 6 to 8. Default 6. */
  digits?: number;
  /** TOTP time step, in **seconds**. Default 30 (RFC 6238 §5.2). */
  period?: number;
  /** Steps of clock skew accepted each way. Default 1 (±30 s). */
  window?: number;
  /** How many backup codes each (re)generation makes. Default 10. */
  backupCodes?: number;
  /** Lifetime of the sign-in challenge between the first and the second factor, in **seconds**. Default 300. */
  challengeMaxAge?: number;
  /** Codes one sign-in challenge may try before the user must sign in again. Default 5. */
  maxAttempts?: number;
  /** How long "trust this device" skips the code on that browser, in **seconds** (default 30 days); `false` turns it off. */
  trustDevice?: { maxAge?: number } | false;
  /**
   * The per-user budget of wrong codes, across every challenge, session and IP address: by default 10 per 900
   * **seconds**, counted in this process's memory (pass `storage` to share it through Redis). Once spent, every code
   * (right ones too) answers 429 `TWO_FACTOR_LOCKED` with `Retry-After` until the window ends, and
   * `onTwoFactorLocked` fires once. A right code resets it. `false` turns it off (only the per-challenge
   * `maxAttempts` and the `login` limiter's per-IP budgets remain). See {@link TwoFactorLockoutOptions}.
   */
  lockout?: TwoFactorLockoutOptions | false;
}

/** The options with their defaults applied. */
export interface ResolvedTwoFactorOptions {
  storage: TwoFactorStorage;
  /** Builds the default storage from the auth adapter (in `init`) when none was given. */
  bindStorage: AdapterStorage<TwoFactorStorage>['bind'];
  issuer: string | undefined;
  totp: TotpParams;
  backupCodes: number;
  challengeMaxAge: number;
  maxAttempts: number;
  trustMaxAge: number | undefined;
  /** Undefined when `lockout: false`. */
  lockout: Lockout | undefined;
}

const DAY = 86_400;

/**
 * Checks and completes the options.
 * @throws AuthConfigError (`INVALID_CONFIG`) for a missing storage, an out-of-range number or a bad `lockout`.
 */
export function resolveTwoFactorOptions(options: TwoFactorOptions = {}): ResolvedTwoFactorOptions {
  const fail = (what: string) => new AuthConfigError(`Invalid auth config: twoFactor(): ${what}`);
  if (!options || (options.storage !== undefined && typeof options.storage?.get !== 'function'))
    throw fail('`storage` must be a two-factor storage');
  const int = (name: string, value: number | undefined, fallback: number, min: number, max: number): number => {
    const v = value ?? fallback;
    if (!Number.isInteger(v) || v < min || v > max)
      throw fail(`\`${name}\` must be a whole number from ${min} to ${max}`);
    return v;
  };
  if (options.issuer !== undefined && (typeof options.issuer !== 'string' || options.issuer.includes(':')))
    throw fail('`issuer` must be a string without ":" (Key URI format)');
  const trust = options.trustDevice;
  const { storage, bind } = adapterStorage('twoFactor()', options.storage, {
    sql: (db) => createSqlTwoFactorStorage(db),
    memory: createMemoryTwoFactorStorage,
  });
  return {
    storage,
    bindStorage: bind,
    issuer: options.issuer,
    totp: {
      digits: int('digits', options.digits, 6, 6, 8),
      period: int('period', options.period, 30, 15, 120),
      window: int('window', options.window, 1, 0, 3),
    },
    backupCodes: int('backupCodes', options.backupCodes, 10, 1, 50),
    challengeMaxAge: int('challengeMaxAge', options.challengeMaxAge, 300, 30, 3600),
    maxAttempts: int('maxAttempts', options.maxAttempts, 5, 1, 20),
    trustMaxAge: trust === false ? undefined : int('trustDevice.maxAge', trust?.maxAge, 30 * DAY, 60, 400 * DAY),
    lockout: resolveLockout(options.lockout),
  };
}
