/**
 * TOTP (RFC 6238) over @oslojs/otp: key URIs, and verification that reports which time step matched so a code
 * can be accepted once (RFC 6238 §5.2).
 * @module
 * @internal
 */
import { createTOTPKeyURI, generateHOTP } from '@oslojs/otp';
import { timingSafeEqual } from '../../plugin-kit.js';

/** The TOTP parameters every authenticator app understands (Google Authenticator key URI format). */
export interface TotpParams {
  /** Code length, 6 to 8. */
  digits: number;
  /** Time step, in **seconds** (RFC 6238 `X`). */
  period: number;
  /** Steps of clock skew allowed each way (RFC 6238 §5.2 "one time step" is the recommended window). */
  window: number;
}

/** The RFC 6238 time step `T = floor(unixSeconds / period)` at `now` (ms since the epoch: the auth's clock). */
export function currentStep(period: number, now: number): number {
  return Math.floor(now / 1000 / period);
}

/**
 * The time step `code` is valid for within `window` steps of now, or null. Every candidate is compared in
 * constant time, so the answer's timing does not tell which step matched.
 */
export function matchingStep(key: Uint8Array, code: string, p: TotpParams, now: number): number | null {
  if (!new RegExp(`^[0-9]{${p.digits}}$`).test(code)) return null;
  const step = currentStep(p.period, now);
  let found: number | null = null;
  for (let d = -p.window; d <= p.window; d += 1) {
    if (timingSafeEqual(generateHOTP(key, BigInt(step + d), p.digits), code) && found === null) found = step + d;
  }
  return found;
}

/** The `otpauth://totp/…` URI an authenticator app scans (SHA-1, as every app supports). */
export function keyUri(issuer: string, account: string, key: Uint8Array, p: TotpParams): string {
  return createTOTPKeyURI(issuer, account, key, p.period, p.digits);
}
