/**
 * The options of `emailOTP()`.
 * @module
 */
import { AuthConfigError } from '../../plugin-kit.js';
import { resolveOtpPolicy } from '../otp/index.js';
import type { OtpPolicy, OtpPolicyOptions, OtpStorage } from '../otp/index.js';

/** What a code is for. */
export type EmailOtpType = 'sign-in' | 'email-verification' | 'forget-password';

/** What `sendVerificationOTP` receives. */
export interface EmailOtpMail {
  /** The address to send to (trimmed, lower-cased). */
  email: string;
  /** The code, `otpLength` digits. */
  otp: string;
  type: EmailOtpType;
  /** When the code stops working. */
  expiresAt: Date;
}

/** Options of `emailOTP()`. */
export interface EmailOtpOptions extends OtpPolicyOptions {
  /**
   * Sends the code. Awaited where every request sends one (sign-in while sign-up is on, email verification): a
   * throw answers 502 `OTP_SEND_FAILED` and withdraws the code. Not awaited where only known addresses get one
   * (password reset, sign-in with `signUp: false`), so the answer's timing tells nothing; a throw is logged.
   */
  sendVerificationOTP: (mail: EmailOtpMail) => Promise<void> | void;
  /**
   * Where codes live. Default: the auth adapter's own database (an `otp_codes` table, created by `auth.migrate()`) on
   * SQL adapters, this process's memory on the memory adapter; or any `OtpStorage` (`createSqlOtpStorage(db)`).
   */
  storage?: OtpStorage;
  /** Create an account when an unknown address signs in with a code. Default true. */
  signUp?: boolean;
  /** Shortest new password for `reset-password`, in characters. Default 8. */
  minPasswordLength?: number;
}

/** The options with defaults applied. */
export interface ResolvedEmailOtpOptions {
  send: EmailOtpOptions['sendVerificationOTP'];
  storage: OtpStorage;
  policy: OtpPolicy;
  signUp: boolean;
  minPasswordLength: number;
}

/**
 * Checks and completes the options.
 * @throws AuthConfigError (`INVALID_CONFIG`) naming the option at fault.
 */
export function resolveEmailOtpOptions(options: EmailOtpOptions, storage: OtpStorage): ResolvedEmailOtpOptions {
  const fail = (what: string) => new AuthConfigError(`Invalid auth config: emailOTP(): ${what}`);
  if (!options || typeof options !== 'object') throw fail('needs an options object');
  if (typeof options.sendVerificationOTP !== 'function') throw fail('sendVerificationOTP must be a function');
  if (options.signUp !== undefined && typeof options.signUp !== 'boolean') throw fail('signUp must be a boolean');
  if (options.storage !== undefined && typeof options.storage?.attempt !== 'function')
    throw fail('storage must be an OtpStorage');
  const min = options.minPasswordLength ?? 8;
  if (!Number.isInteger(min) || min < 1 || min > 128)
    throw fail('minPasswordLength must be a whole number from 1 to 128');
  return {
    send: options.sendVerificationOTP,
    storage,
    policy: resolveOtpPolicy('emailOTP', options),
    signUp: options.signUp ?? true,
    minPasswordLength: min,
  };
}
