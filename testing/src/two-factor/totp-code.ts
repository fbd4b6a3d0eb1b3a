/**
 * Current TOTP codes (RFC 6238) computed with `otpauth`, independently of the kit's own TOTP code.
 * @module
 */
import { Secret, TOTP, URI } from 'otpauth';

/**
 * The current code of an `otpauth://totp/…` key URI (as `POST /two-factor/enable` answers it); `at`: the moment, in
 * ms since the epoch (default now).
 * @throws TypeError for a URI that is not a TOTP key URI.
 * @example
 * ```ts
 * const code = totpCodeOfUri(totpURI); // '492039'
 * ```
 */
export function totpCodeOfUri(uri: string, at?: number): string {
  const otp = URI.parse(uri);
  if (!(otp instanceof TOTP)) throw new TypeError('totpCodeOfUri: not an otpauth://totp/ key URI');
  return otp.generate(at === undefined ? {} : { timestamp: at });
}

/** TOTP parameters of the `twoFactor()` plugin (its `digits` and `period` options). */
export interface TotpParameters {
  /** Code length. Default 6. */
  digits?: number;
  /** Time step in **seconds**. Default 30. */
  period?: number;
  /** The moment the code is for, in **milliseconds** since the epoch (the next step's: `Date.now() + 30_000`). Default now. */
  at?: number;
}

/**
 * The current code of a raw TOTP key (HMAC-SHA-1, as the kit's key URIs say).
 * @example
 * ```ts
 * const code = totpCodeOfKey(key, { digits: 6, period: 30 });
 * ```
 */
export function totpCodeOfKey(key: Uint8Array, { digits = 6, period = 30, at }: TotpParameters = {}): string {
  const secret = new Secret({ buffer: key.slice().buffer });
  return new TOTP({ secret, digits, period, algorithm: 'SHA1' }).generate(at === undefined ? {} : { timestamp: at });
}
