/**
 * Impersonation: `POST /admin/impersonate` starts a session acting as another user (marked `impersonatedBy`, lasting
 * `impersonationMaxAge`, never sliding) and keeps the admin's own session cookie sealed beside it;
 * `POST /admin/stop-impersonating` ends the impersonation and restores that session; `POST /signout` ends both (the
 * `signedOut` hook).
 * @module
 * @internal
 */
import { authError } from '../../errors/auth-error.js';
import { ADMIN_ERRORS } from './errors.js';
import { expiredCookie, readCookie, type OutCookie } from '../../http/cookies.js';
import { seal, unseal } from '../../http/sealed.js';
import type { AuthInternals, ActionResult, RouteContext, SignedOutSession } from '../../contract/types.js';
import { clearSessionCookie, publicUser, sessionCookie } from '../../routes/helpers.js';
import { done, storageOf } from '../../routes/account/signed-in.js';
import { emit } from '../../routes/emit.js';
import { isAdmin, requireAdmin } from './access.js';
import type { ResolvedAdminOptions } from './options.js';
import { targetUser } from './targets.js';

const PURPOSE = 'admin-impersonation';
const secure = (auth: AuthInternals) => auth.config.cookies.sessionToken.options.secure;
/** The cookie that holds the admin's own session, sealed, while they impersonate. */
export const adminCookieName = (auth: AuthInternals) => `${secure(auth) ? '__Secure-' : ''}framework.admin-session`;
const attributes = (auth: AuthInternals): OutCookie['options'] => ({
  httpOnly: true,
  secure: secure(auth),
  sameSite: 'lax',
  path: auth.config.basePath || '/',
});

/** `POST /admin/impersonate {userId}`. */
export async function impersonate(ctx: RouteContext, o: ResolvedAdminOptions): Promise<ActionResult> {
  const caller = await requireAdmin(ctx, o);
  const user = await targetUser(ctx, caller);
  if (isAdmin(ctx.auth, o, user) && !o.allowImpersonatingAdmins) throw ADMIN_ERRORS.error('CANNOT_IMPERSONATE_ADMIN');
  const own = readCookie(ctx.request.headers.get('cookie'), ctx.auth.config.cookies.sessionToken.name)!;
  const issued = await ctx.auth.strategy.issue({
    user,
    account: null,
    impersonatedBy: caller.user.id,
    maxAge: o.impersonationMaxAge,
    client: {
      ...(ctx.ip ? { ip: ctx.ip } : {}),
      ...(ctx.request.headers.get('user-agent') ? { userAgent: ctx.request.headers.get('user-agent')! } : {}),
    },
  });
  const sealed = await seal(
    { sub: caller.user.id, v: own },
    ctx.auth.signingKey,
    PURPOSE,
    o.impersonationMaxAge,
    ctx.auth.clock,
  );
  await emit(ctx, 'onImpersonationStarted', { user, admin: caller.user, expires: issued.expires });
  ctx.auth.logger.warn(`[auth] security event impersonation-started: admin ${caller.user.id} as user ${user.id}`);
  return done(ctx, { user: publicUser(user), expires: issued.expires.toISOString() }, '/', [
    sessionCookie(ctx.auth, issued.value, issued.expires),
    {
      name: adminCookieName(ctx.auth),
      value: sealed,
      options: { ...attributes(ctx.auth), maxAge: o.impersonationMaxAge },
    },
  ]);
}

/**
 * `POST /admin/stop-impersonating`: ends the impersonation session and restores the admin's own session when it is
 * still valid (`{restored: true}`); otherwise the browser is signed out (`{restored: false}`).
 * @throws AuthError `NOT_IMPERSONATING` (400) from any other session, `UNAUTHENTICATED` (401) without one.
 */
export async function stopImpersonating(ctx: RouteContext): Promise<ActionResult> {
  const { auth } = ctx;
  const value = readCookie(ctx.request.headers.get('cookie'), auth.config.cookies.sessionToken.name);
  const read = value ? await auth.strategy.read(value, { fresh: true }) : { status: 'none' as const };
  if (read.status !== 'valid') throw authError('UNAUTHENTICATED', 'Sign in first');
  if (read.impersonatedBy === undefined) throw ADMIN_ERRORS.error('NOT_IMPERSONATING');
  await auth.strategy.revoke(value!);
  const cookies: OutCookie[] = [expiredCookie(adminCookieName(auth), attributes(auth))];
  const sealed = await unseal(ctx.cookies[adminCookieName(auth)], auth.signingKey, PURPOSE, auth.clock);
  // The admin's own session, only when it belongs to the admin this impersonation names.
  const own =
    sealed && sealed.sub === read.impersonatedBy && typeof sealed.v === 'string'
      ? await auth.strategy.read(sealed.v, { fresh: true })
      : undefined;
  const restored = own?.status === 'valid' && own.user.id === read.impersonatedBy && !own.impersonatedBy;
  cookies.push(
    restored
      ? sessionCookie(auth, own.refreshed?.value ?? (sealed!.v as string), own.refreshed?.expires ?? own.expires)
      : clearSessionCookie(auth),
  );
  const admin = restored ? own.user : ((await storageOf(ctx).getUser(read.impersonatedBy)) ?? null);
  await emit(ctx, 'onImpersonationStopped', { user: read.user, admin });
  auth.logger.warn(`[auth] security event impersonation-stopped: admin ${read.impersonatedBy} as user ${read.user.id}`);
  return done(ctx, { restored }, restored ? `${auth.config.basePath}/admin` : '/', cookies);
}

/**
 * Ends the admin's own session held in a sealed value: its database row is deleted; under the jwt strategy, which
 * cannot end one token, the admin's session version is bumped, so every JWT session of theirs ends. Only a value
 * that reads as `adminId`'s own valid, non-impersonating session is acted on.
 */
async function endSealedSession(auth: AuthInternals, adminId: string, value: string): Promise<void> {
  const own = await auth.strategy.read(value, { fresh: true });
  if (own.status !== 'valid' || own.user.id !== adminId || own.impersonatedBy !== undefined) return;
  if (auth.config.session.strategy === 'database') await auth.strategy.revoke(value);
  else await auth.strategy.revokeUser(adminId);
}

/**
 * The `signedOut` hook: a browser that signs out keeps no admin session behind an impersonation. When it holds the
 * sealed admin-session cookie, the cookie is cleared (`Max-Age=0`, the name, path and attributes it was set with)
 * and the admin session sealed in it ends ({@link endSealedSession}), so neither a replayed session cookie nor a
 * replayed sealed cookie (`POST /admin/stop-impersonating`) brings the admin back. Signing out of the
 * impersonation itself emits `onImpersonationStopped`.
 * @returns the cookies to clear (none when the browser held no sealed cookie).
 */
export async function signedOutOfImpersonation(ctx: RouteContext, ended: SignedOutSession): Promise<OutCookie[]> {
  const { auth } = ctx;
  const name = adminCookieName(auth);
  if (ctx.cookies[name] === undefined) return [];
  const sealed = await unseal(ctx.cookies[name], auth.signingKey, PURPOSE, auth.clock);
  if (sealed && typeof sealed.sub === 'string' && typeof sealed.v === 'string')
    await endSealedSession(auth, sealed.sub, sealed.v);
  if (ended.user && ended.impersonatedBy !== undefined) {
    const admin = (await storageOf(ctx).getUser(ended.impersonatedBy)) ?? null;
    await emit(ctx, 'onImpersonationStopped', { user: ended.user, admin });
    auth.logger.warn(
      `[auth] security event impersonation-signed-out: admin ${ended.impersonatedBy} as user ${ended.user.id}`,
    );
  }
  return [expiredCookie(name, attributes(auth))];
}
