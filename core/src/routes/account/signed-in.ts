/**
 * The caller of an account route: the session cookie only (never a
 * credential a plugin's `resolveSession` reads, such as an API key),
 * confirmed against storage now.
 * @internal
 * @module
 */
import { AuthError } from '../../errors.js';
import { authError } from '../../errors/auth-error.js';
import { readCookie, type OutCookie } from '../../http/cookies.js';
import type { StorageAdapter } from '../../storage/types.js';
import type { User } from '../../types.js';
import type { ActionResult, RouteContext } from '../../contract/types.js';
import { sessionCookie } from '../helpers.js';

/** A signed-in caller. */
export interface Caller {
  user: User;
  /** The database session's public id; absent under the jwt strategy. */
  sessionId?: string;
  /** When the caller signed in, when known. */
  authTime?: Date;
  /** The acting admin's id when this session is an impersonation. */
  impersonatedBy?: string;
  /** The refreshed session cookie, to send back. */
  cookies: OutCookie[];
}

/**
 * Reads the caller's session cookie, confirmed against storage.
 * @throws AuthError `UNAUTHENTICATED` (401) without a valid session (the
 *   error carries the cookie-clearing header when a stale cookie was sent).
 */
export async function signedIn(ctx: RouteContext): Promise<Caller> {
  const value = readCookie(ctx.request.headers.get('cookie'), ctx.auth.config.cookies.sessionToken.name);
  const read = value ? await ctx.auth.strategy.read(value, { fresh: true }) : { status: 'none' as const };
  if (read.status !== 'valid') throw authError('UNAUTHENTICATED', 'Sign in first');
  return {
    user: read.user,
    ...(read.sessionId !== undefined ? { sessionId: read.sessionId } : {}),
    ...(read.authTime !== undefined ? { authTime: read.authTime } : {}),
    ...(read.impersonatedBy !== undefined ? { impersonatedBy: read.impersonatedBy } : {}),
    cookies: read.refreshed ? [sessionCookie(ctx.auth, read.refreshed.value, read.refreshed.expires)] : [],
  };
}

/** 403 `IMPERSONATION_RESTRICTED`: the session is an impersonation (`admin()`). */
export const impersonationRestricted = () => authError('IMPERSONATION_RESTRICTED');

/**
 * {@link signedIn}, refusing an impersonation session: changing credentials (password, email, passkeys, second
 * factors, API keys) and deleting the account stay the user's own acts, so an admin's visit never outlives its
 * hour as a credential of theirs.
 * @throws AuthError `IMPERSONATION_RESTRICTED` (403) besides {@link signedIn}'s errors.
 */
export async function signedInAsSelf(ctx: RouteContext): Promise<Caller> {
  const caller = await signedIn(ctx);
  if (caller.impersonatedBy !== undefined) throw impersonationRestricted();
  return caller;
}

/** For a signed-out browser, a 303 to the sign-in page that comes back here; undefined otherwise. */
export async function signInRedirect(ctx: RouteContext): Promise<ActionResult | undefined> {
  if (ctx.wantsJson || (await ctx.auth.readSession(ctx.request)).user) return undefined;
  const here = `${ctx.url.pathname}${ctx.url.search}`;
  return { status: 303, redirect: `${ctx.auth.config.pages.signIn}?callbackUrl=${encodeURIComponent(here)}` };
}

/**
 * The storage adapter, for routes that change stored accounts.
 * @throws AuthError `NOT_SUPPORTED` (400) when `createAuth` has no adapter.
 */
export function storageOf(ctx: RouteContext): StorageAdapter {
  if (!ctx.auth.adapter) throw notSupported('This needs a storage adapter');
  return ctx.auth.adapter;
}

/** `NOT_SUPPORTED` (400): the configuration does not offer this route. */
export function notSupported(message: string): AuthError {
  return authError('NOT_SUPPORTED', message);
}

/** The answer of a state-changing account route: JSON, or a 303 to `redirect` for browsers. */
export function done(
  ctx: RouteContext,
  json: Record<string, unknown>,
  redirect: string,
  cookies: OutCookie[] = [],
): ActionResult {
  return ctx.wantsJson ? { status: 200, json: { ok: true, ...json }, cookies } : { status: 303, redirect, cookies };
}
