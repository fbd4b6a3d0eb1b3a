/**
 * `twoFactor()`: TOTP second factor (RFC 6238), backup codes and trusted browsers on the plugin surface.
 * @module
 */
import { AuthConfigError } from '../../plugin-kit.js';
import type { AuthHooks, AuthPlugin, ErrorCodesOf } from '../../plugin-kit.js';
import { TWO_FACTOR_ERRORS } from './errors.js';
import { KeyVault } from './codes.js';
import { resolveTwoFactorOptions, type ResolvedTwoFactorOptions, type TwoFactorOptions } from './options.js';
import { twoFactorRoutes } from './routes.js';
import { challengeAnswer, trustedBrowser } from './sign-in.js';
import type { TwoFactorStorage } from './types.js';

/** `auth.extensions.twoFactor`. */
export interface TwoFactorExtension {
  /** The enrolment storage (to check or reset a user's second factor from admin code). */
  readonly storage: TwoFactorStorage;
  /** True when `userId` has a confirmed second factor. */
  isEnabled(userId: string): Promise<boolean>;
}

/**
 * Two-factor authentication with an authenticator app (TOTP, RFC 6238, over @oslojs/otp), backup codes and
 * "trust this browser". Routes under `basePath` (JSON or no-JS pages; POSTs CSRF-checked, and passwords and codes
 * count on the `login` limiter):
 *
 * - `GET /two-factor`: `{enabled, pending, backupCodesLeft, trustedDevices}`, or the settings page.
 * - `POST /two-factor/enable {password}`: starts an enrolment and answers `{totpURI, qrCode, secret, backupCodes}`
 *   (`qrCode` is an SVG string; the 10 backup codes are shown this once). A user without a password needs a sign-in
 *   within `session.freshAge` instead (`SESSION_NOT_FRESH`). 409 `TWO_FACTOR_ALREADY_ENABLED` while it is on. 403
 *   `EMAIL_NOT_VERIFIED` while the user's email is unverified (a user without an email may enrol).
 * - `POST /two-factor/confirm {code}`: the first valid code turns it on (`onTwoFactorEnabled`; 403
 *   `EMAIL_NOT_VERIFIED` as `enable`).
 * - `POST /two-factor/verify {code | backupCode, trustDevice?}`: the second step of a sign-in (below).
 * - `POST /two-factor/disable {password | code | backupCode}` (`onTwoFactorDisabled`), `POST
 *   /two-factor/backup-codes {password | code}` (new codes, the old stop working), `POST
 *   /two-factor/trusted-devices/revoke {id?}` (one, or all).
 *
 * Sign-in: once a user has it on, a correct first factor (any provider) issues no session. It sets a sealed,
 * HttpOnly challenge cookie (`challengeMaxAge`, default 300 s) and answers 401 `TWO_FACTOR_REQUIRED` with `url`
 * (JSON) or a 303 to the code page. `verify` issues the session; each challenge allows `maxAttempts` (default 5)
 * codes (then 429 `TWO_FACTOR_TOO_MANY_ATTEMPTS`) and one success. A TOTP code is accepted within ±`window` steps
 * (default 1) and only once (RFC 6238 §5.2: a code for the last accepted step or an earlier one is refused).
 * Wrong codes count per user across every challenge, session and IP (`lockout`, default 10 per 900 s): once
 * spent, codes answer 429 `TWO_FACTOR_LOCKED` (`Retry-After`) until the window ends, and `onTwoFactorLocked` fires
 * once. A completed second factor settles the first factor's `login` attempt as a success.
 * `trustDevice` sets a 30-day HttpOnly cookie (`id.secret`, the secret stored as SHA-256) that skips the code on
 * that browser for that user only; it ends with `trusted-devices/revoke`, `disable` or its expiry.
 *
 * At rest: the TOTP key is encrypted with AES-256-GCM under a key derived from the auth `secret` (rotation-safe:
 * every configured secret decrypts); backup codes and trust secrets are SHA-256 hashes. Account deletion removes
 * the enrolment; so does a first proof of the email through another channel (the pre-hijacking defence), which
 * can only meet enrolments stored while the email was unverified, since enrolment needs a verified email.
 *
 * @throws AuthConfigError (`INVALID_CONFIG`) at `createAuth` without `secret` or `adapter`, or for bad options.
 * @example
 * ```ts
 * import { twoFactor, createSqlTwoFactorStorage } from '@framework/auth/plugins/two-factor';
 *
 * const auth = createAuth({
 *   ...config,
 *   secret: process.env.AUTH_SECRET,
 *   plugins: [twoFactor({ storage: createSqlTwoFactorStorage(db), issuer: 'Acme' })],
 * });
 * await auth.migrate();
 * // POST /auth/two-factor/enable {password} → {totpURI, qrCode, backupCodes}; POST /auth/two-factor/confirm {code}
 * // Next sign-in: 401 TWO_FACTOR_REQUIRED, then POST /auth/two-factor/verify {code: '123456', trustDevice: true}
 * ```
 */
export function twoFactor(
  options: TwoFactorOptions = {},
): AuthPlugin<'twoFactor', TwoFactorExtension, Record<never, never>, ErrorCodesOf<typeof TWO_FACTOR_ERRORS>> {
  const o: ResolvedTwoFactorOptions = resolveTwoFactorOptions(options);
  let vault: KeyVault | undefined;
  const getVault = () => vault!;

  const beforeSession: NonNullable<AuthHooks['beforeSession']> = async (ctx, subject) => {
    if (!subject.user.id) return undefined;
    const record = await o.storage.get(subject.user.id);
    if (!record?.enabled) return undefined;
    if (await trustedBrowser(ctx, o, subject.user.id)) return undefined;
    return challengeAnswer(ctx, o, subject);
  };

  return {
    id: 'twoFactor',
    errorCodes: TWO_FACTOR_ERRORS,
    init(auth) {
      if (!auth.adapter)
        throw new AuthConfigError(
          'Invalid auth config: twoFactor() needs `adapter` (second factors belong to stored users)',
        );
      o.bindStorage(auth.adapter);
      vault = new KeyVault(auth);
      return { storage: o.storage, isEnabled: async (userId) => (await o.storage.get(userId))?.enabled === true };
    },
    routes: twoFactorRoutes({ options: o, vault: getVault, ownHook: beforeSession }),
    hooks: {
      beforeSession,
      credentialsReset: (userId) => o.storage.remove(userId),
      userDeleted: (userId) => o.storage.remove(userId),
    },
    migrate: () => o.storage.migrate(),
  };
}
