/**
 * The rules every one-time code follows: its length, its lifetime and its tries.
 * @module
 */
import { AuthConfigError } from '../../plugin-kit.js';

/** How codes are made and checked. Shared by `emailOTP()` and `phoneNumber()`. */
export interface OtpPolicyOptions {
  /** Digits per code, 6 to 10. Default 6. */
  otpLength?: number;
  /** How long a code works, in **seconds** (30 to 3600). Default 300 (5 minutes). */
  expiresIn?: number;
  /** Tries one code allows, right or wrong (1 to 10); then it stops working. Default 3. */
  allowedAttempts?: number;
}

/** The policy with defaults applied. */
export interface OtpPolicy {
  otpLength: number;
  /** Seconds. */
  expiresIn: number;
  allowedAttempts: number;
}

function whole(value: unknown, fallback: number, min: number, max: number, fail: () => AuthConfigError): number {
  const n = value ?? fallback;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < min || n > max) throw fail();
  return n;
}

/**
 * Checks the policy options of plugin `who`.
 * @throws AuthConfigError (`INVALID_CONFIG`) naming the option at fault.
 */
export function resolveOtpPolicy(who: string, options: OtpPolicyOptions): OtpPolicy {
  const fail = (key: string, what: string) => () =>
    new AuthConfigError(`Invalid auth config: ${who}(): ${key} must be a whole number ${what}`);
  return {
    otpLength: whole(options.otpLength, 6, 6, 10, fail('otpLength', 'from 6 to 10')),
    expiresIn: whole(options.expiresIn, 300, 30, 3600, fail('expiresIn', 'of seconds from 30 to 3600')),
    allowedAttempts: whole(options.allowedAttempts, 3, 1, 10, fail('allowedAttempts', 'from 1 to 10')),
  };
}
