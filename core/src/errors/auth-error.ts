/**
 * `authError`: raises one of the core's own codes ({@link AUTH_ERRORS}) with its table status and message.
 * @module
 */
import { AUTH_ERRORS, type CoreErrorCode } from '../error-codes.js';
import type { AuthError } from '../errors.js';
import { errorFrom, type ErrorDetail } from './define.js';

/**
 * An {@link AuthError} with a core `code`, the table's status, and the table's message unless `detail` gives one
 * (a string, or `{ message?, headers?, cause? }`).
 * @example
 * ```ts
 * import { authError } from '@framework/auth';
 *
 * throw authError('FORBIDDEN', 'Only owners can do this'); // 403 { error: { code: 'FORBIDDEN', message: ... } }
 * ```
 */
export function authError(code: CoreErrorCode, detail?: ErrorDetail): AuthError {
  return errorFrom(code, AUTH_ERRORS[code], detail);
}
