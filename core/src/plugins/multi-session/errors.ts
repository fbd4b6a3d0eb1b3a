/**
 * The error codes of `multiSession()`.
 * @module
 */
import { defineErrorCodes, type ErrorCodesOf } from '../../plugin-kit.js';

/**
 * The codes `multiSession()` answers with: `{ status, message }` by code.
 * @example
 * ```ts
 * import { MULTI_SESSION_ERRORS } from '@framework/auth/plugins/multi-session';
 * const status = MULTI_SESSION_ERRORS.codes.DEVICE_SESSION_NOT_FOUND.status; // 404
 * ```
 */
export const MULTI_SESSION_ERRORS = /* @__PURE__ */ defineErrorCodes({
  /**
   * `POST /multi-session/set-active` or `/multi-session/revoke` named a session that is not one of this browser's
   * signed-in accounts: unknown, ended, expired, or another browser's. The same answer for each, so the route tells
   * nothing about sessions it does not hold.
   */
  DEVICE_SESSION_NOT_FOUND: { status: 404, message: 'That account is not signed in on this browser' },
});

/** A code of {@link MULTI_SESSION_ERRORS}. */
export type MultiSessionErrorCode = ErrorCodesOf<typeof MULTI_SESSION_ERRORS>;

// The built-in plugins' codes are members of `AuthErrorCode`.
declare module '../../error-codes.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- declaration merging
  interface AuthErrorCodes extends Record<ErrorCodesOf<typeof MULTI_SESSION_ERRORS>, true> {}
}
