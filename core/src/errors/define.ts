/**
 * `defineErrorCodes`: a module or plugin declares its error codes where it raises them, and raises them through
 * the table it gets back, so no call site restates a status or a default message.
 * @module
 */
import { AuthConfigError, AuthError } from '../errors.js';
import type { AuthErrorCode } from '../error-codes.js';
import { conflictOf, registerErrorCodes, type ErrorCodeSpec } from './registry.js';

/**
 * What a raise may add to a code's entry: a specific message (a string), or `{ message?, headers?, cause? }`
 * (`headers`: sent with the answer, e.g. `Retry-After`; `cause`: kept for server logs only).
 */
export type ErrorDetail =
  string | { readonly message?: string; readonly headers?: Record<string, string>; readonly cause?: unknown };

/** The table {@link defineErrorCodes} returns. `C` is the codes object it was given. */
export interface ErrorCodeTable<C extends Readonly<Record<string, ErrorCodeSpec>>> {
  /** The codes as defined, by code: `{ status, message, page? }`. */
  readonly codes: C;
  /**
   * An {@link AuthError} with `code`, its table status, and the table message unless `detail` gives one.
   * @example
   * ```ts
   * import { defineErrorCodes } from '@framework/auth';
   * const errors = defineErrorCodes({ QUOTA_EXCEEDED: { status: 429, message: 'Quota exceeded' } });
   * throw errors.error('QUOTA_EXCEEDED', { headers: { 'retry-after': '60' } });
   * ```
   */
  error(code: keyof C & string, detail?: ErrorDetail): AuthError;
}

/** The error codes of a table made by {@link defineErrorCodes} (or of an `errorCodes` member of a plugin). */
export type ErrorCodesOf<T> = T extends ErrorCodeTable<infer C> ? keyof C & string : never;

/** An {@link AuthError} for `code` of `spec` with `detail` applied. */
export function errorFrom(code: string, spec: ErrorCodeSpec, detail?: ErrorDetail): AuthError {
  const options = typeof detail === 'string' ? { message: detail } : (detail ?? {});
  return new AuthError(options.message ?? spec.message, {
    code: code as AuthErrorCode,
    status: spec.status,
    ...(options.headers !== undefined ? { headers: options.headers } : {}),
    ...(options.cause !== undefined ? { cause: options.cause } : {}),
  });
}

/**
 * Declares error codes, each with its HTTP status, client-safe default message and (optionally) the error-page code
 * it is shown under (`CredentialsSignin`, `Verification`, ... from the kit's page messages; omitted: `Default`).
 * The codes are registered process-wide, so wherever an error with one of them is answered (JSON, the error page,
 * `auth.api`), its status, message and page are known. Codes are `UPPER_SNAKE_CASE` and should carry a prefix of
 * their module (`TWO_FACTOR_...`).
 *
 * @returns A table: `.error(code, detail?)` makes the `AuthError`, `.codes` holds the entries.
 * @throws AuthConfigError `INVALID_CONFIG` when a code is already defined with another status, message or page
 * (defining the same entry twice is allowed: a module loaded by two builds).
 * @example
 * ```ts
 * import { defineErrorCodes } from '@framework/auth';
 *
 * export const quotaErrors = defineErrorCodes({
 *   QUOTA_EXCEEDED: { status: 429, message: 'Quota exceeded; try again later' },
 *   QUOTA_UNKNOWN_PLAN: { status: 400, message: 'Unknown plan', page: 'Configuration' },
 * });
 * const error = quotaErrors.error('QUOTA_EXCEEDED'); // error.status === 429
 * ```
 */
export function defineErrorCodes<const C extends Readonly<Record<string, ErrorCodeSpec>>>(codes: C): ErrorCodeTable<C> {
  const conflict = conflictOf(codes);
  if (conflict !== undefined)
    throw new AuthConfigError(`Error code ${conflict} is already defined with another status, message or page`);
  registerErrorCodes(codes);
  return {
    codes,
    error: (code, detail) => errorFrom(code, codes[code]!, detail),
  };
}
