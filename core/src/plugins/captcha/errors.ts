/**
 * `captcha()`'s error codes, one table: each code's HTTP status and client-safe message.
 * @module
 */
import { AuthError } from '../../plugin-kit.js';
import type { AuthErrorCode } from '../../index.js';

/** The codes `captcha()` refuses with. */
export const CAPTCHA_ERRORS = {
  /** The request carried no captcha token. */
  CAPTCHA_REQUIRED: { status: 400, message: 'Complete the captcha challenge' },
  /** The provider did not accept the token (wrong, used, expired, or a score below `minScore`). */
  CAPTCHA_FAILED: { status: 403, message: 'The captcha challenge failed; try again' },
  /** The provider's verify endpoint could not be reached or answered garbage: refused, never let through. */
  CAPTCHA_UNAVAILABLE: { status: 503, message: 'The captcha could not be checked; try again shortly' },
} as const;

/** A code of {@link CAPTCHA_ERRORS}. */
export type CaptchaErrorCode = keyof typeof CAPTCHA_ERRORS;

/** The `AuthError` of `code`, with its status and message from {@link CAPTCHA_ERRORS}. */
export function captchaError(code: CaptchaErrorCode): AuthError {
  const { status, message } = CAPTCHA_ERRORS[code];
  return new AuthError(message, { code: code as AuthErrorCode, status });
}
