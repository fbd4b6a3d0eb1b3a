/**
 * The error codes of `passkey()`.
 * @module
 */
import { defineErrorCodes, type ErrorCodesOf } from '../../errors/define.js';

/**
 * The codes the passkey routes answer with: `{ status, message, page }` by code.
 * @example
 * ```ts
 * import { PASSKEY_ERRORS } from '@framework/auth';
 * const page = PASSKEY_ERRORS.codes.PASSKEY_VERIFICATION_FAILED.page; // 'PasskeyError'
 * ```
 */
export const PASSKEY_ERRORS = /* @__PURE__ */ defineErrorCodes({
  PASSKEY_VERIFICATION_FAILED: { status: 400, message: 'The passkey could not be verified', page: 'PasskeyError' },
});

// The built-in plugins' codes stay members of `AuthErrorCode`, as before they had tables of their own.
declare module '../../error-codes.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- declaration merging
  interface AuthErrorCodes extends Record<ErrorCodesOf<typeof PASSKEY_ERRORS>, true> {}
}
