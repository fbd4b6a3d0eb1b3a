/**
 * Errors of `@framework/auth`. Every error has a stable `code` and an HTTP
 * `status`; the message is safe to show (it never carries secrets or stack
 * traces). Codes, statuses and default messages come from the tables of `defineErrorCodes` (the core's in
 * core/src/error-codes.ts, which the README's error table is checked against; each plugin's in its `errors.ts`).
 * @module
 */
import { AUTH_ERRORS, statusOf, type AuthErrorCode } from './error-codes.js';
import { isBranded, markBranded } from './brand.js';

/** Options for {@link AuthError}. */
export interface AuthErrorOptions {
  /**
   * Stable machine-readable code from {@link AUTH_ERRORS} (or a plugin's {@link AuthErrorCodes}), e.g.
   * `INVALID_REQUEST`.
   */
  code: AuthErrorCode;
  /** HTTP status the error maps to (4xx or 5xx). Default: the code's status in its table (500 for an unknown code). */
  status?: number;
  /** The underlying error, kept for server-side logs only. */
  cause?: unknown;
  /** Headers the answer must carry, e.g. `Allow` on a 405 (RFC 9110 §15.5.6). */
  headers?: Record<string, string>;
}

/**
 * Base class of every auth error. `code` and `status` are stable; `message`
 * is client-safe.
 *
 * @example
 * ```ts
 * try { requireAuth({ throwError: true }) } catch (e) {
 *   if (e instanceof AuthError) return Response.json({ error: { code: e.code } }, { status: e.status });
 * }
 * ```
 */
export class AuthError extends Error {
  /** The name every copy of the package brands this class with (cross-copy `instanceof`). */
  static readonly brand: string = '@framework/auth.AuthError';
  /**
   * `instanceof` that also holds for errors made by another copy of `@framework/auth` in the process (the CJS build,
   * a nested install): the check reads the brands every copy writes.
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isBranded(value, this);
  }
  readonly code: AuthErrorCode;
  readonly status: number;
  /** Headers the answer carries (e.g. `Allow`); empty by default. */
  readonly headers: Readonly<Record<string, string>>;
  constructor(message: string, options: AuthErrorOptions) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AuthError';
    this.code = options.code;
    this.status = options.status ?? statusOf(options.code);
    this.headers = Object.freeze({ ...options.headers });
    markBranded(this, new.target);
  }
  /** The JSON error body the kit answers with: `{ error: { code, message } }`. */
  toJSON(): { error: { code: AuthErrorCode; message: string } } {
    return { error: { code: this.code, message: this.message } };
  }
  /**
   * The JSON Response for this error. Frameworks that look for
   * `getResponse()` on thrown errors (Hono) answer with it instead of a 500.
   */
  getResponse(): Response {
    return Response.json(this.toJSON(), {
      status: this.status,
      headers: { ...this.headers, 'cache-control': 'no-store' },
    });
  }
}

/** Authentication is required but missing. Code `UNAUTHENTICATED`, status 401. */
export class UnauthenticatedError extends AuthError {
  static override readonly brand: string = '@framework/auth.UnauthenticatedError';
  constructor(message: string = AUTH_ERRORS.UNAUTHENTICATED.message) {
    super(message, { code: 'UNAUTHENTICATED' });
    this.name = 'UnauthenticatedError';
  }
}

/** The user lacks a required role or permission. Code `FORBIDDEN`, status 403. */
export class ForbiddenError extends AuthError {
  static override readonly brand: string = '@framework/auth.ForbiddenError';
  /** The role (or any of the roles) that was required, when a role check failed. */
  readonly requiredRole?: string | string[];
  /** The permission (or any of the permissions) that was required, when a permission check failed. */
  readonly requiredPermission?: string | string[];
  constructor(
    message: string = AUTH_ERRORS.FORBIDDEN.message,
    details: { requiredRole?: string | string[]; requiredPermission?: string | string[] } = {},
  ) {
    super(message, { code: 'FORBIDDEN' });
    this.name = 'ForbiddenError';
    if (details.requiredRole !== undefined) this.requiredRole = details.requiredRole;
    if (details.requiredPermission !== undefined) this.requiredPermission = details.requiredPermission;
  }
}

/**
 * The credentials were wrong, or the user is unknown (the two are never told apart). Code
 * `INVALID_CREDENTIALS`, status 401.
 */
export class InvalidCredentialsError extends AuthError {
  static override readonly brand: string = '@framework/auth.InvalidCredentialsError';
  constructor(message: string = AUTH_ERRORS.INVALID_CREDENTIALS.message) {
    super(message, { code: 'INVALID_CREDENTIALS' });
    this.name = 'InvalidCredentialsError';
  }
}

/** The session existed but has expired. Code `SESSION_EXPIRED`, status 401. */
export class SessionExpiredError extends AuthError {
  static override readonly brand: string = '@framework/auth.SessionExpiredError';
  constructor(message: string = AUTH_ERRORS.SESSION_EXPIRED.message) {
    super(message, { code: 'SESSION_EXPIRED' });
    this.name = 'SessionExpiredError';
  }
}

/**
 * Thrown by `requireAuth()` (without `throwError`) to send the browser to the
 * sign-in page. Adapters turn it into a `303 See Other` (`auth.toResponse`).
 */
export class AuthRedirect extends Error {
  /** The name every copy of the package brands this class with (cross-copy `instanceof`). */
  static readonly brand: string = '@framework/auth.AuthRedirect';
  /** `instanceof` across copies of `@framework/auth`, as on {@link AuthError}. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isBranded(value, this);
  }
  /** Where to send the browser: a path or an absolute URL. */
  readonly location: string;
  /** 302 for GET/HEAD, 303 otherwise. */
  readonly status: number;
  constructor(location: string, status = 303) {
    super(`Redirect to ${location}`);
    this.name = 'AuthRedirect';
    this.location = location;
    this.status = status;
    markBranded(this, new.target);
  }
  /** The redirect Response. Frameworks that look for `getResponse()` on thrown errors (Hono) answer with it. */
  getResponse(): Response {
    return new Response(null, {
      status: this.status,
      headers: { location: this.location, 'cache-control': 'no-store' },
    });
  }
}

/**
 * A bad request: `INVALID_REQUEST` (400) unless another code is given (its status from its table unless `status`
 * is given). Prefer `authError(code, message)` or a plugin table's `.error(code, message)`.
 */
export function badRequest(message: string, code: AuthErrorCode = 'INVALID_REQUEST', status?: number): AuthError {
  return new AuthError(message, { code, ...(status !== undefined ? { status } : {}) });
}

/** Thrown at definition time for bad configuration. Code `INVALID_CONFIG`. */
export class AuthConfigError extends AuthError {
  static override readonly brand: string = '@framework/auth.AuthConfigError';
  constructor(message: string) {
    super(message, { code: 'INVALID_CONFIG' });
    this.name = 'AuthConfigError';
  }
}
