/**
 * `phoneNumber()`: sign in, sign up and add a number with a code sent by SMS.
 * @module
 */
import { AuthConfigError, adapterStorage, type AuthPlugin, type ErrorCodesOf } from '../../plugin-kit.js';
import { createMemoryOtpStorage, createSqlOtpStorage, type OtpStorage } from '../otp/index.js';
import { PHONE_NUMBER_ERRORS } from './errors.js';
import { resolvePhoneNumberOptions, type PhoneNumberOptions } from './options.js';
import { sendForm } from './pages.js';
import { phoneNumberMessages } from './messages.js';
import { toE164 } from './parse.js';
import { PHONE_NUMBER_PROVIDER, phoneNumberRoutes } from './routes.js';
import { createMemoryPhoneNumberStorage } from './storage/memory.js';
import { createSqlPhoneNumberStorage } from './storage/sql.js';
import type { PhoneNumberRecord, PhoneNumberStorage } from './types.js';

/** `auth.extensions.phoneNumber`. */
export interface PhoneNumberExtension {
  /** Where users' numbers live. */
  readonly storage: PhoneNumberStorage;
  /** Where the codes live. */
  readonly otpStorage: OtpStorage;
  /** The user's number and whether it is verified, or null. */
  get(userId: string): Promise<PhoneNumberRecord | null>;
  /** `input` in E.164 under the plugin's `defaultCountry`, or null when it is no valid number. */
  toE164(input: string): string | null;
}

/**
 * Codes by SMS (`otpLength` digits, default 6) on the same code path as `emailOTP()`: sign in (creating the account
 * when `signUp` is on) and add a verified number to the signed-in account. Numbers are parsed and validated with
 * libphonenumber-js and stored in E.164 (ITU-T E.164), unique across users. Sending is the app's hook (`sendOTP`).
 * Routes under `basePath`, each answering JSON or a no-JS page (POSTs CSRF-checked):
 *
 * - `POST /phone-number/send-otp {phoneNumber, purpose}` with `purpose` `sign-in` (default) or `verification`
 *   (signed in): `{ok: true}` whether or not the number has an account (a browser goes on to the page that asks for
 *   the code). Counts per IP and per number on the `emailVerification` limiter (default: the login limiter). 400
 *   `PHONE_NUMBER_INVALID`, `PHONE_NUMBER_PURPOSE_INVALID`; 502 `OTP_SEND_FAILED` when the awaited hook threw.
 * - `POST /phone-number/sign-in {phoneNumber, code, callbackUrl?}`: signs in through `completeSignIn` (account
 *   `{provider: 'phone-number', type: 'credentials'}`); `GET` shows the page.
 * - `POST /phone-number/verify {phoneNumber, code}` (signed in, not impersonating): the number becomes the user's,
 *   verified (409 `PHONE_NUMBER_TAKEN` when another account holds it verified); `GET` shows the page.
 *
 * Codes are HMAC-SHA-256 at rest, bound to their purpose and number (a verification code also to the user), expire
 * after `expiresIn` (default 300 s), allow `allowedAttempts` tries (default 3; then 429 `OTP_TOO_MANY_ATTEMPTS`) and
 * work once (else 401 `OTP_INVALID`). Wrong codes also count on the `login` limiter per (IP, number). A user's
 * number is dropped when they are deleted and when their credentials are reset (the pre-hijacking defence).
 *
 * @throws AuthConfigError (`INVALID_CONFIG`) for bad options; at `createAuth`, without an `adapter` (or with one
 *   that is neither SQL nor memory and no `storage` / `otpStorage`).
 * @example
 * ```ts
 * import { createAuth, createMemoryAdapter } from '@framework/auth';
 * import { phoneNumber } from '@framework/auth/plugins/phone-number';
 *
 * const auth = createAuth({
 *   adapter: createMemoryAdapter(),
 *   plugins: [
 *     phoneNumber({ defaultCountry: 'GB', sendOTP: ({ phoneNumber, code }) => sms.send(phoneNumber, `Code: ${code}`) }),
 *   ],
 * });
 * // POST /auth/phone-number/send-otp {phoneNumber}, then POST /auth/phone-number/sign-in {phoneNumber, code}
 * ```
 */
export function phoneNumber(
  options: PhoneNumberOptions,
): AuthPlugin<'phoneNumber', PhoneNumberExtension, Record<never, never>, ErrorCodesOf<typeof PHONE_NUMBER_ERRORS>> {
  const o = resolvePhoneNumberOptions(options);
  const phones = adapterStorage('phoneNumber()', options.storage, {
    sql: (db) => createSqlPhoneNumberStorage(db),
    memory: createMemoryPhoneNumberStorage,
  });
  const codes = adapterStorage('phoneNumber()', options.otpStorage, {
    sql: (db) => createSqlOtpStorage(db),
    memory: createMemoryOtpStorage,
  });
  return {
    id: 'phoneNumber',
    errorCodes: PHONE_NUMBER_ERRORS,
    init(auth) {
      if (!auth.adapter)
        throw new AuthConfigError('Invalid auth config: phoneNumber() needs `adapter` (users are stored)');
      phones.bind(auth.adapter);
      codes.bind(auth.adapter);
      return {
        storage: phones.storage,
        otpStorage: codes.storage,
        get: (userId) => phones.storage.getByUser(userId),
        toE164: (input) => toE164(input, o.defaultCountry),
      };
    },
    routes: phoneNumberRoutes(o, phones.storage, codes.storage),
    signInMethods: [
      {
        id: PHONE_NUMBER_PROVIDER,
        name: 'Phone',
        type: 'phone-number',
        urls: { sendUrl: '/phone-number/send-otp', signInUrl: '/phone-number/sign-in' },
        signInForm: ({ basePath, csrfToken, callbackUrl, locale }) =>
          sendForm(
            { basePath, csrfToken, callbackUrl, digits: o.policy.otpLength, locale },
            'sign-in',
            phoneNumberMessages.for(locale)('phoneNumber.signInFormButton'),
          ),
      },
    ],
    hooks: {
      userDeleted: (userId) => phones.storage.remove(userId),
      credentialsReset: (userId) => phones.storage.remove(userId),
    },
    async migrate() {
      await phones.storage.migrate();
      await codes.storage.migrate();
    },
  };
}
