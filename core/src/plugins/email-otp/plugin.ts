/**
 * `emailOTP()`: sign in, verify an email and reset a password with a code sent by email.
 * @module
 */
import { AuthConfigError, adapterStorage, type AuthPlugin } from '../../plugin-kit.js';
import {
  createMemoryOtpStorage,
  createSqlOtpStorage,
  OTP_ERRORS,
  type OtpErrorCode,
  type OtpStorage,
} from '../otp/index.js';
import { EMAIL_OTP_ERRORS, type EmailOtpErrorCode } from './errors.js';
import { resolveEmailOtpOptions, type EmailOtpOptions } from './options.js';
import { sendForm } from './pages.js';
import { emailOtpMessages } from './messages.js';
import { EMAIL_OTP_PROVIDER, emailOtpRoutes } from './routes.js';

/** `auth.extensions.emailOTP`. */
export interface EmailOtpExtension {
  /** Where the codes live. */
  readonly storage: OtpStorage;
}

/**
 * Codes by email (`otpLength` digits, default 6): sign in (creating the account when `signUp` is on), verify the
 * signed-in user's email, reset a password. Sending is the app's hook (`sendVerificationOTP`). Routes under
 * `basePath`, each answering JSON or a no-JS page (POSTs CSRF-checked):
 *
 * - `POST /email-otp/send {email, type}` with `type` `sign-in` (default), `email-verification` (signed in; the
 *   user's own address, sent only while unverified) or `forget-password`: `{ok: true}` whether or not the address
 *   has an account (a browser goes on to the page that asks for the code). Counts per IP and per address on the
 *   `emailVerification` limiter (default: the login limiter). 400 `EMAIL_OTP_TYPE_INVALID`,
 *   `EMAIL_OTP_EMAIL_INVALID`; 502 `OTP_SEND_FAILED` when the awaited hook threw.
 * - `POST /email-otp/sign-in {email, code, callbackUrl?}`: signs in through `completeSignIn` (the code proves the
 *   address: it is marked verified, and credentials added while it was unverified are removed); `GET` shows the page.
 * - `POST /email-otp/verify-email {code}` (signed in): marks the address verified (`onEmailVerified`).
 * - `POST /email-otp/reset-password {email, code, password}`: sets the password, ends every other session and signs
 *   in (`onPasswordReset`); `GET` shows the page.
 *
 * Codes are stored as HMAC-SHA-256 under the auth `secret` (keyed by channel, purpose and address, so a code never
 * passes for another purpose or address), expire after `expiresIn` (default 300 s), allow `allowedAttempts` tries
 * (default 3; then 429 `OTP_TOO_MANY_ATTEMPTS`) and work once (else 401 `OTP_INVALID`); a new code replaces the
 * last. Wrong codes also count on the `login` limiter per (IP, address).
 *
 * @throws AuthConfigError (`INVALID_CONFIG`) for bad options; at `createAuth`, without an `adapter`.
 * @example
 * ```ts
 * import { createAuth, createMemoryAdapter } from '@framework/auth';
 * import { emailOTP } from '@framework/auth/plugins/email-otp';
 *
 * const auth = createAuth({
 *   adapter: createMemoryAdapter(),
 *   providers: [],
 *   plugins: [emailOTP({ sendVerificationOTP: ({ email, otp }) => console.log(`code for ${email}: ${otp}`) })],
 * });
 * // POST /auth/email-otp/send {email, type: 'sign-in'}, then POST /auth/email-otp/sign-in {email, code}
 * ```
 */
export function emailOTP(
  options: EmailOtpOptions,
): AuthPlugin<'emailOTP', EmailOtpExtension, Record<never, never>, OtpErrorCode | EmailOtpErrorCode> {
  // Without a `storage`, codes live in the auth adapter's own database (or memory), bound at createAuth.
  const codes = adapterStorage('emailOTP()', options?.storage, {
    sql: (db) => createSqlOtpStorage(db),
    memory: createMemoryOtpStorage,
  });
  const o = resolveEmailOtpOptions(options, codes.storage);
  return {
    id: 'emailOTP',
    init(auth) {
      if (!auth.adapter)
        throw new AuthConfigError('Invalid auth config: emailOTP() needs `adapter` (users are stored)');
      codes.bind(auth.adapter);
      return { storage: codes.storage };
    },
    routes: emailOtpRoutes(o),
    signInMethods: [
      {
        id: EMAIL_OTP_PROVIDER,
        name: 'Email code',
        type: 'email-otp',
        urls: { sendUrl: '/email-otp/send', signInUrl: '/email-otp/sign-in' },
        signInForm: ({ basePath, csrfToken, callbackUrl, locale }) =>
          sendForm(
            { basePath, csrfToken, callbackUrl, digits: o.policy.otpLength, locale },
            'sign-in',
            emailOtpMessages.for(locale)('emailOtp.signInFormButton'),
          ),
      },
    ],
    migrate: () => codes.storage.migrate(),
    errorCodes: { codes: { ...OTP_ERRORS.codes, ...EMAIL_OTP_ERRORS.codes } },
  };
}
