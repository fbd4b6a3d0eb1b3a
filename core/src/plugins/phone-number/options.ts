/**
 * The options of `phoneNumber()`.
 * @module
 */
import { isSupportedCountry, type CountryCode } from 'libphonenumber-js/max';
import { AuthConfigError } from '../../plugin-kit.js';
import { resolveOtpPolicy, type OtpPolicy, type OtpPolicyOptions, type OtpStorage } from '../otp/index.js';
import type { PhoneNumberStorage } from './types.js';

/** What a code is for: signing in (or up), or proving a number for the signed-in user. */
export type PhoneOtpPurpose = 'sign-in' | 'verification';

/** What `sendOTP` receives. */
export interface PhoneOtpMessage {
  /** The number to text, E.164 (`+442079460018`). */
  phoneNumber: string;
  /** The code, `otpLength` digits. */
  code: string;
  purpose: PhoneOtpPurpose;
  /** When the code stops working. */
  expiresAt: Date;
}

/** Options of `phoneNumber()`. */
export interface PhoneNumberOptions extends OtpPolicyOptions {
  /**
   * Sends the code by SMS (your provider's API). Awaited where every request sends one (sign-in while sign-up is
   * on, verification): a throw answers 502 `OTP_SEND_FAILED` and withdraws the code. Not awaited where only known
   * numbers get one (sign-in with `signUp: false`), so the answer's timing tells nothing; a throw is logged.
   */
  sendOTP: (message: PhoneOtpMessage) => Promise<void> | void;
  /** Create an account when an unknown number signs in with a code. Default true. */
  signUp?: boolean;
  /**
   * The country of numbers typed in national form (`020 7946 0018` with `'GB'`), an ISO 3166-1 alpha-2 code.
   * Default none: numbers must be international (`+44 …`).
   */
  defaultCountry?: CountryCode;
  /**
   * Where users' numbers live. Default: a table in the auth adapter's own database
   * (`createSqlPhoneNumberStorage`, migrated by `auth.migrate()`), or memory on the memory adapter.
   */
  storage?: PhoneNumberStorage;
  /** Where codes live. Default: the shared one-time-code table in the auth adapter's database (`otp_codes`), or memory. */
  otpStorage?: OtpStorage;
}

/** The options with defaults applied. */
export interface ResolvedPhoneNumberOptions {
  send: PhoneNumberOptions['sendOTP'];
  signUp: boolean;
  defaultCountry: CountryCode | undefined;
  policy: OtpPolicy;
}

/**
 * Checks and completes the options.
 * @throws AuthConfigError (`INVALID_CONFIG`) naming the option at fault.
 */
export function resolvePhoneNumberOptions(options: PhoneNumberOptions): ResolvedPhoneNumberOptions {
  const fail = (what: string) => new AuthConfigError(`Invalid auth config: phoneNumber(): ${what}`);
  if (!options || typeof options !== 'object') throw fail('needs an options object');
  if (typeof options.sendOTP !== 'function') throw fail('sendOTP must be a function');
  if (options.signUp !== undefined && typeof options.signUp !== 'boolean') throw fail('signUp must be a boolean');
  const country = options.defaultCountry;
  if (country !== undefined && (typeof country !== 'string' || !isSupportedCountry(country)))
    throw fail(`defaultCountry ${JSON.stringify(country)} is no supported ISO 3166-1 alpha-2 code`);
  if (options.storage !== undefined && typeof options.storage?.set !== 'function')
    throw fail('storage must be a PhoneNumberStorage');
  if (options.otpStorage !== undefined && typeof options.otpStorage?.attempt !== 'function')
    throw fail('otpStorage must be an OtpStorage');
  return {
    send: options.sendOTP,
    signUp: options.signUp ?? true,
    defaultCountry: country,
    policy: resolveOtpPolicy('phoneNumber', options),
  };
}
