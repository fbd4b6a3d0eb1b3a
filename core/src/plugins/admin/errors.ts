/**
 * The error codes of `admin()`.
 * @module
 */
import { defineErrorCodes, type ErrorCodesOf } from '../../errors/define.js';

/**
 * The codes the admin plugin answers with: `{ status, message }` by code.
 * @example
 * ```ts
 * import { ADMIN_ERRORS } from '@framework/auth/plugins/admin';
 * const status = ADMIN_ERRORS.codes.USER_BANNED.status; // 403
 * ```
 */
export const ADMIN_ERRORS = /* @__PURE__ */ defineErrorCodes({
  NOT_IMPERSONATING: { status: 400, message: 'This session is not an impersonation' },
  USER_BANNED: { status: 403, message: 'This account is suspended' },
  CANNOT_IMPERSONATE_ADMIN: { status: 403, message: 'Admins cannot be impersonated' },
});

// The built-in plugins' codes stay members of `AuthErrorCode`, as before they had tables of their own.
declare module '../../error-codes.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- declaration merging
  interface AuthErrorCodes extends Record<ErrorCodesOf<typeof ADMIN_ERRORS>, true> {}
}
