/**
 * `haveIBeenPwned()`: a `checkNewPassword` guard that refuses passwords found in the Pwned Passwords corpus.
 * @module
 */
import type { AuthLogger, AuthPlugin } from '../../plugin-kit.js';
import { PWNED_PASSWORD_ERRORS, type PwnedPasswordErrorCode } from './errors.js';
import { resolvePwnedOptions, type HaveIBeenPwnedOptions, type ResolvedPwnedOptions } from './options.js';
import { rangeCount } from './range.js';

/** The count, or undefined when the range API failed under `onError: 'allow'` (logged). */
async function lookUp(o: ResolvedPwnedOptions, password: string, logger: AuthLogger): Promise<number | undefined> {
  try {
    return await rangeCount(o, password);
  } catch (error) {
    const why = error instanceof Error ? `${error.name}: ${error.message}` : 'unknown error';
    if (o.onError === 'refuse') {
      logger.error(`[haveIBeenPwned] range API unavailable, the new password is refused (onError: 'refuse'): ${why}`);
      throw PWNED_PASSWORD_ERRORS.error('PASSWORD_CHECK_UNAVAILABLE', { cause: error });
    }
    logger.warn(`[haveIBeenPwned] range API unavailable, the new password is accepted unchecked: ${why}`);
    return undefined;
  }
}

/**
 * How many times `password` appears in the Pwned Passwords corpus, asked with k-anonymity (only the first 5 hex
 * characters of its SHA-1 are sent; padded answers by default). For server code that sets passwords outside the
 * kit's routes.
 * @returns The count (0: not found).
 * @throws Error when the range API fails (whatever `onError` says; the policy is the plugin's).
 * @throws AuthConfigError (`INVALID_CONFIG`) for a bad option.
 * @example
 * ```ts
 * import { pwnedCount } from '@framework/auth/plugins/have-i-been-pwned';
 * if ((await pwnedCount('correct horse battery staple')) > 0) console.log('choose another password');
 * ```
 */
export async function pwnedCount(password: string, options?: HaveIBeenPwnedOptions): Promise<number> {
  return rangeCount(resolvePwnedOptions(options), password);
}

/**
 * Refuses new passwords found in the Pwned Passwords corpus wherever a route accepts one (sign-up, password reset,
 * password change; a `checkNewPassword` hook), with 400 `PASSWORD_BREACHED`, before anything is hashed or stored.
 * Only the first 5 hex characters of the password's SHA-1 are sent (k-anonymity) with `Add-Padding: true`; the
 * suffix is compared here. When the range API fails, `onError: 'allow'` (the default) accepts the password and
 * logs a warning, `'refuse'` answers 503 `PASSWORD_CHECK_UNAVAILABLE`.
 *
 * @throws AuthConfigError (`INVALID_CONFIG`) for a bad option.
 * @example
 * ```ts
 * import { createAuth, createMemoryAdapter } from '@framework/auth';
 * import { haveIBeenPwned } from '@framework/auth/plugins/have-i-been-pwned';
 *
 * const auth = createAuth({
 *   adapter: createMemoryAdapter(),
 *   providers: [],
 *   emailAndPassword: {},
 *   plugins: [haveIBeenPwned({ onError: 'allow' })],
 * });
 * ```
 */
export function haveIBeenPwned(
  options?: HaveIBeenPwnedOptions,
): AuthPlugin<'haveIBeenPwned', unknown, Record<never, never>, PwnedPasswordErrorCode> {
  const o = resolvePwnedOptions(options);
  return {
    id: 'haveIBeenPwned',
    hooks: {
      async checkNewPassword(password, ctx) {
        const count = await lookUp(o, password, ctx.auth.logger);
        if (count !== undefined && count >= o.minCount) throw PWNED_PASSWORD_ERRORS.error('PASSWORD_BREACHED');
      },
    },
    errorCodes: PWNED_PASSWORD_ERRORS,
  };
}
