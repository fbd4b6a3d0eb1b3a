/**
 * `captcha()`'s error codes, declared with `defineErrorCodes`: each code's HTTP status and client-safe message.
 * @module
 */
import { defineErrorCodes, type ErrorCodesOf } from '../../plugin-kit.js';

/**
 * The codes `captcha()` refuses with: `{ status, message }` by code.
 *
 * - `CAPTCHA_REQUIRED` (400): the request carried no captcha token.
 * - `CAPTCHA_FAILED` (403): the provider did not accept the token (wrong, used, expired, or a score below
 *   `minScore`).
 * - `CAPTCHA_UNAVAILABLE` (503): the provider's verify endpoint could not be reached or answered garbage; the
 *   request is refused, never let through.
 * @example
 * ```ts
 * import { CAPTCHA_ERRORS } from '@framework/auth/plugins/captcha';
 * const status = CAPTCHA_ERRORS.codes.CAPTCHA_FAILED.status; // 403
 * ```
 */
export const CAPTCHA_ERRORS = /* @__PURE__ */ defineErrorCodes({
  CAPTCHA_REQUIRED: { status: 400, message: 'Complete the captcha challenge' },
  CAPTCHA_FAILED: { status: 403, message: 'The captcha challenge failed; try again' },
  CAPTCHA_UNAVAILABLE: { status: 503, message: 'The captcha could not be checked; try again shortly' },
});

/** A code of {@link CAPTCHA_ERRORS}. */
export type CaptchaErrorCode = ErrorCodesOf<typeof CAPTCHA_ERRORS>;

// The codes are members of `AuthErrorCode`, as the other built-in plugins' codes are.
declare module '../../error-codes.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- declaration merging
  interface AuthErrorCodes extends Record<CaptchaErrorCode, true> {}
}
