/**
 * The per-user failure budget of second-factor codes: wrong codes count per user across every challenge, session
 * and IP address (OWASP ASVS V2.2.1, NIST SP 800-63B §5.2.2), on a counter of the kit's rate-limit storage (process
 * memory by default, or Redis shared by every instance). When it runs out, every code is refused with 429
 * `TWO_FACTOR_LOCKED` until the window ends, and the user is told once (`onTwoFactorLocked`).
 * @module
 * @internal
 */
import { AuthConfigError, AuthError, rateLimitHeaders, withTimeout, storageOf, emit } from '../../plugin-kit.js';
import { createFixedWindowStorage } from '../../rate-limit.js';
import type { RateLimitConsumeResult, RateLimitCounter, RateLimitStorage } from '../../rate-limit.js';
import type { RouteContext } from '../../plugin-kit.js';
import { TWO_FACTOR_ERRORS } from './errors.js';
import { authError } from '../../plugin-kit.js';

/** The `lockout` option of `twoFactor()`. */
export interface TwoFactorLockoutOptions {
  /** Wrong codes (TOTP or backup) one user may send per window, across all challenges and IPs. Default 10. */
  limit?: number;
  /** Window length, in **seconds** (1 to 86 400). Default 900 (15 minutes). */
  window?: number;
  /**
   * Where the counts live: a storage from `createFixedWindowStorage()` / `createSlidingWindowStorage()`
   * (`@framework/auth/rate-limit`). Default: fixed windows in this process's memory; give it your Redis
   * (`createFixedWindowStorage(redisClient)`) when several instances serve sign-ins, so they share one budget.
   */
  storage?: RateLimitStorage;
  /** Key prefix in the storage. Default `framework:two-factor:failures`. */
  prefix?: string;
  /**
   * Most time to wait for the storage, in **milliseconds**. Default 1000. A storage that fails or is late refuses
   * the code with 503 `RATE_LIMIT_UNAVAILABLE` (fail closed: an outage never lifts the budget).
   */
  timeout?: number;
}

/** The budget, built once from the options. */
export interface Lockout {
  limit: number;
  /** Window length in seconds. */
  window: number;
  timeout: number;
  counter: RateLimitCounter;
  /** One unit per window: the notice goes out once per lock, whatever the storage's algorithm. */
  notices: RateLimitCounter;
}

/**
 * Checks the `lockout` option and builds its counter.
 * @throws AuthConfigError (`INVALID_CONFIG`) for a bad `limit`, `window`, `storage`, `prefix` or `timeout`.
 */
export function resolveLockout(options: TwoFactorLockoutOptions | false | undefined): Lockout | undefined {
  if (options === false) return undefined;
  const fail = (what: string) => new AuthConfigError(`Invalid auth config: twoFactor(): lockout.${what}`);
  if (options !== undefined && (options === null || typeof options !== 'object'))
    throw new AuthConfigError('Invalid auth config: twoFactor(): `lockout` must be an object or false');
  const o = options ?? {};
  const limit = o.limit ?? 10;
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw fail('limit must be a whole number from 1 to 1000');
  // Not `window`: Nitro (Nuxt) rewrites `typeof window` in server bundles, local names included.
  const windowSeconds = o.window ?? 900;
  if (
    typeof windowSeconds !== 'number' ||
    !Number.isFinite(windowSeconds) ||
    windowSeconds < 1 ||
    windowSeconds > 86_400
  )
    throw fail('window must be a number of seconds from 1 to 86400');
  const timeout = o.timeout ?? 1000;
  if (typeof timeout !== 'number' || !Number.isFinite(timeout) || timeout <= 0)
    throw fail('timeout must be a positive number of milliseconds');
  const prefix = o.prefix ?? 'framework:two-factor:failures';
  if (typeof prefix !== 'string' || prefix === '' || /\s/.test(prefix))
    throw fail('prefix must be a non-empty string without spaces');
  const storage = o.storage ?? createFixedWindowStorage();
  if (typeof storage?.counter !== 'function')
    throw fail('storage must come from createFixedWindowStorage() or createSlidingWindowStorage()');
  const windowMs = Math.round(windowSeconds * 1000);
  return {
    limit,
    window: windowSeconds,
    timeout,
    counter: storage.counter({ limit, windowMs, prefix }),
    notices: storage.counter({ limit: 1, windowMs, prefix: `${prefix}:notice` }),
  };
}

const secondsUntil = (at: number, now: number) => Math.max(1, Math.ceil((at - now) / 1000));

function locked(lockout: Lockout, r: RateLimitConsumeResult, now: number): AuthError {
  const reset = secondsUntil(r.resetAt, now);
  const headers: Record<string, string> = {};
  rateLimitHeaders({ limit: r.limit, remaining: 0, reset, window: lockout.window, retryAfter: reset }).forEach(
    (value, key) => void (headers[key] = value),
  );
  return TWO_FACTOR_ERRORS.error('TWO_FACTOR_LOCKED', { headers });
}

function unavailable(ctx: RouteContext, error: unknown): AuthError {
  const name = error instanceof Error ? error.name : typeof error;
  ctx.auth.logger.error(`[auth] twoFactor() lockout storage unavailable (${name}); codes are refused meanwhile`);
  return authError('RATE_LIMIT_UNAVAILABLE');
}

/**
 * Runs `spend` (the check of one second factor for `userId`) within the user's failure budget. Each try reserves a
 * unit first, so concurrent guesses cannot overrun it; a right code resets the budget (as a success resets the
 * login limiter's failures); the wrong code that spends the last unit locks the user and fires `onTwoFactorLocked`
 * once (with a security-event log line). Without a budget (`lockout: false`), just `spend()`.
 * @returns what `spend` answered.
 * @throws AuthError `TWO_FACTOR_LOCKED` (429, `Retry-After` and `RateLimit-*` headers) while the budget is spent,
 *   even for a right code; `RATE_LIMIT_UNAVAILABLE` (503) when the storage fails or is late.
 */
export async function withinFailureBudget(
  ctx: RouteContext,
  lockout: Lockout | undefined,
  userId: string,
  spend: () => Promise<boolean>,
): Promise<boolean> {
  if (!lockout) return spend();
  let reserved: RateLimitConsumeResult;
  try {
    reserved = await withTimeout(lockout.counter.consume(userId, ctx.auth.clock.now()), lockout.timeout);
  } catch (error) {
    throw unavailable(ctx, error);
  }
  if (!reserved.success) throw locked(lockout, reserved, ctx.auth.clock.now());
  if (await spend()) {
    try {
      await withTimeout(lockout.counter.reset(userId), lockout.timeout);
    } catch (error) {
      // The sign-in stands; the budget keeps the earlier failures until its window ends.
      unavailable(ctx, error);
    }
    return true;
  }
  if (reserved.remaining === 0) await notifyLocked(ctx, lockout, userId, new Date(reserved.resetAt));
  return false;
}

async function notifyLocked(ctx: RouteContext, lockout: Lockout, userId: string, until: Date): Promise<void> {
  try {
    // A sliding window frees a unit now and then; the notice still goes out once per window.
    if (!(await withTimeout(lockout.notices.consume(userId, ctx.auth.clock.now()), lockout.timeout)).success) return;
  } catch {
    // Told twice rather than never.
  }
  ctx.auth.logger.warn(
    `[auth] security event two-factor-locked: user ${userId} sent ${lockout.limit} wrong codes; codes are refused until ${until.toISOString()}`,
  );
  const user = await storageOf(ctx).getUser(userId);
  if (user) await emit(ctx, 'onTwoFactorLocked', { user, until, failures: lockout.limit });
}
