/**
 * The fresh sign-in an authorization request asked for (`prompt=login`, `max_age`), held on the server's side: a
 * sealed, HttpOnly, short-lived cookie binds the request (client, `redirect_uri`, `state`, PKCE challenge) to the
 * earliest sign-in time that satisfies it. Nothing in the URL can lower it: the return to `/oauth2/authorize` is only
 * accepted once the session's `auth_time` is at or after that time.
 * @module
 * @internal
 */
import { expiredCookie, seal, sha256Hex, unseal, type OutCookie, type RouteContext } from '../../plugin-kit.js';

const PURPOSE = 'oidc-reauth';
/** How long a person has to sign in again, in seconds. */
const REAUTH_TTL = 900;

type Auth = RouteContext['auth'];
const secure = (auth: Auth) => auth.config.cookies.sessionToken.options.secure;
const cookieName = (auth: Auth) => `${secure(auth) ? '__Secure-' : ''}framework.oidc-reauth`;
const attributes = (auth: Auth): OutCookie['options'] => ({
  httpOnly: true,
  secure: secure(auth),
  sameSite: 'lax',
  path: auth.config.basePath || '/',
});

/** What ties a pending fresh sign-in to one authorization request. */
export interface ReauthBinding {
  clientId: string;
  redirectUri: string;
  state: string | null;
  codeChallenge: string;
}

const keyOf = (b: ReauthBinding) =>
  sha256Hex(JSON.stringify([b.clientId, b.redirectUri, b.state ?? '', b.codeChallenge]));

/** The cookie that asks this request for a sign-in at or after `after` (ms since the epoch). */
export async function reauthCookie(ctx: RouteContext, binding: ReauthBinding, after: number): Promise<OutCookie> {
  const value = await seal(
    { k: await keyOf(binding), a: after },
    ctx.auth.signingKey,
    PURPOSE,
    REAUTH_TTL,
    ctx.auth.clock,
  );
  return { name: cookieName(ctx.auth), value, options: { ...attributes(ctx.auth), maxAge: REAUTH_TTL } };
}

/** The earliest sign-in time this request is bound to (ms since the epoch), or null when none is pending for it. */
export async function pendingReauth(ctx: RouteContext, binding: ReauthBinding): Promise<number | null> {
  const payload = await unseal(ctx.cookies[cookieName(ctx.auth)], ctx.auth.signingKey, PURPOSE, ctx.auth.clock);
  if (!payload || typeof payload.a !== 'number' || payload.k !== (await keyOf(binding))) return null;
  return payload.a;
}

/** Clears the pending fresh sign-in (once it is satisfied). */
export const clearReauth = (ctx: RouteContext): OutCookie => expiredCookie(cookieName(ctx.auth), attributes(ctx.auth));
