/**
 * Helpers shared by the route actions: session cookies, CSRF issuance,
 * callback URLs and error results.
 * @internal
 * @module
 */
import { AuthError } from '../errors.js';
import { authError } from '../errors/auth-error.js';
import { expiredCookie, type OutCookie } from '../http/cookies.js';
import { csrfCookieName, issueCsrfToken } from '../http/csrf.js';
import { safeRedirect } from '../http/redirect.js';
import { errorPage } from '../pages/pages.js';
import { pageErrorCode } from '../pages/messages.js';
import { coreMessages } from '../i18n/core/index.js';
import type { ActionResult, AuthInternals, RouteContext } from '../contract/types.js';
import type { Session, User } from '../types.js';

export function sessionCookie(auth: Pick<AuthInternals, 'config' | 'clock'>, value: string, expires: Date): OutCookie {
  const { name, options } = auth.config.cookies.sessionToken;
  const maxAge = Math.max(0, Math.floor((expires.getTime() - auth.clock.now()) / 1000));
  return { name, value, options: { ...options, maxAge, expires } };
}

export function clearSessionCookie(auth: Pick<AuthInternals, 'config'>): OutCookie {
  const { name, options } = auth.config.cookies.sessionToken;
  return expiredCookie(name, options);
}

export function csrfSecure(auth: AuthInternals): boolean {
  return auth.config.cookies.sessionToken.options.secure;
}

/** A CSRF token for a page or `GET /csrf`, reusing the browser's when valid. */
export function csrfFor(ctx: RouteContext) {
  const secure = csrfSecure(ctx.auth);
  return issueCsrfToken(ctx.cookies[csrfCookieName(secure)], ctx.auth.signingKey, secure);
}

/**
 * Resolves a requested callback URL through the `redirect` callback. The
 * default allows relative paths, the app's origin and `trustedOrigins`, and
 * otherwise answers `/`.
 */
export async function resolveCallbackUrl(ctx: RouteContext, requested: string | undefined | null): Promise<string> {
  const url = requested || '/';
  if (ctx.auth.callbacks.redirect) {
    const out = await ctx.auth.callbacks.redirect({ url, baseUrl: ctx.origin });
    return typeof out === 'string' && out.length > 0 ? out : '/';
  }
  return safeRedirect(url, ctx.origin, ctx.auth.trustedOrigins) ?? '/';
}

/** The session as sent to clients: `{ user: {id, name, email, image, role?, roles?}, expires }`. */
export function publicSession(session: Session): Record<string, unknown> {
  return { ...session, user: publicUser(session.user), expires: session.expires.toISOString() };
}

export function publicUser(user: User): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: user.id,
    name: user.name ?? null,
    email: user.email ?? null,
    image: user.image ?? null,
  };
  if (user.role !== undefined) out.role = user.role;
  if (user.roles !== undefined) out.roles = user.roles;
  for (const [k, v] of Object.entries(user)) {
    if (!(k in out) && k !== 'emailVerified' && k !== 'passwordHash') out[k] = v;
  }
  return out;
}

/**
 * The answer for an error: JSON `{error: {code, message}}` for JSON clients,
 * otherwise the error page rendered with the same status. Unknown errors are
 * logged (name and message only) and answered as 500 `INTERNAL_ERROR`.
 */
export function errorResult(
  ctx: Pick<RouteContext, 'wantsJson' | 'auth'> & { request?: Request },
  error: unknown,
): ActionResult {
  let e: AuthError;
  if (error instanceof AuthError) e = error;
  else {
    const name = error instanceof Error ? error.name : typeof error;
    const message = error instanceof Error ? error.message : '';
    if ((error as { code?: unknown } | null)?.code === 'STORAGE_UNAVAILABLE') {
      // The message names the database file or host:port and the fix, never a password: for the log only.
      ctx.auth.logger.error(`[auth] storage unavailable: ${message}`);
      e = authError('STORAGE_UNAVAILABLE');
    } else {
      ctx.auth.logger.error(`[auth] unexpected error: ${name}: ${message}`);
      e = authError('INTERNAL_ERROR');
    }
  }
  const headers: Record<string, string> = { ...e.headers };
  if (ctx.wantsJson) return { status: e.status, json: e.toJSON(), headers };
  return {
    status: e.status,
    html: errorPage({
      t: coreMessages.for(ctx),
      code: pageErrorCode(e.code),
      signInUrl: ctx.auth.config.pages.signIn,
      status: e.status,
    }),
    headers,
  };
}

/** Runs user code (a callback or `authorize`); a throw becomes 500 `CALLBACK_ERROR`, logged without details sent. */
export async function callUser<T>(auth: AuthInternals, what: string, fn: () => T | Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof AuthError) throw error;
    const name = error instanceof Error ? error.name : typeof error;
    const message = error instanceof Error ? error.message : '';
    auth.logger.error(`[auth] ${what} threw: ${name}: ${message}`);
    throw authError('CALLBACK_ERROR', { message: `The ${what} failed`, cause: error });
  }
}
