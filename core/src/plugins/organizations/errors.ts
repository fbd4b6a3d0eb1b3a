/**
 * The error codes of `organizations()`.
 * @module
 */
import { defineErrorCodes, type ErrorCodesOf } from '../../errors/define.js';

/**
 * The codes the organizations plugin answers with: `{ status, message }` by code.
 * @example
 * ```ts
 * import { ORGANIZATION_ERRORS } from '@framework/auth/plugins/organizations';
 * const status = ORGANIZATION_ERRORS.codes.SLUG_TAKEN.status; // 409
 * ```
 */
export const ORGANIZATION_ERRORS = /* @__PURE__ */ defineErrorCodes({
  INVITATION_EMAIL_MISMATCH: { status: 403, message: 'This invitation was sent to another address' },
  ALREADY_MEMBER: { status: 409, message: 'This person is a member already' },
  SLUG_TAKEN: { status: 409, message: 'This slug is taken' },
});

// The built-in plugins' codes stay members of `AuthErrorCode`, as before they had tables of their own.
declare module '../../error-codes.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- declaration merging
  interface AuthErrorCodes extends Record<ErrorCodesOf<typeof ORGANIZATION_ERRORS>, true> {}
}
