/**
 * How the person signed in, for the ID token's `amr` (RFC 8176) and `acr`: an `afterSignIn` hook notes the method
 * in a sealed HttpOnly cookie beside the session (a sign-in finished by `twoFactor()` counts as multi-factor), and
 * the authorization endpoint reads it back for the same user.
 * @module
 * @internal
 */
import { seal, unseal, type OutCookie, type RouteContext } from '../../plugin-kit.js';

/** The `acr` of a sign-in that passed a second factor. */
export const ACR_MFA = 'urn:framework:auth:acr:mfa';
const PURPOSE = 'oidc-amr';

const cookieName = (ctx: RouteContext) =>
  `${ctx.auth.config.cookies.sessionToken.options.secure ? '__Host-' : ''}auth.oidc-amr`;

/** The methods a sign-in finished on `route` proves (by the route template under `basePath`). */
function methodsOf(ctx: RouteContext): string[] {
  const route = (ctx.route ?? '').slice(ctx.auth.config.basePath.length);
  if (route === '/two-factor/verify') return ['otp', 'mfa'];
  if (route === '/callback/:provider' || route === '/signin/:provider')
    return ctx.providerId === 'credentials' ? ['pwd'] : [];
  return [];
}

/** The `afterSignIn` hook: the cookie noting how this sign-in was made. */
export async function noteSignIn(ctx: RouteContext, userId: string): Promise<{ cookies: OutCookie[] }> {
  const amr = methodsOf(ctx);
  const maxAge = ctx.auth.config.session.maxAge;
  const value = await seal({ uid: userId, amr }, ctx.auth.signingKey, PURPOSE, maxAge, ctx.auth.clock);
  const secure = ctx.auth.config.cookies.sessionToken.options.secure;
  return {
    cookies: [
      { name: cookieName(ctx), value, options: { httpOnly: true, secure, sameSite: 'lax', path: '/', maxAge } },
    ],
  };
}

/** The noted methods for `userId` in this browser (empty when unknown), and `acr` when a second factor was passed. */
export async function readAmr(ctx: RouteContext, userId: string): Promise<{ amr: string[]; acr: string | null }> {
  const sealed = await unseal(ctx.cookies[cookieName(ctx)], ctx.auth.signingKey, PURPOSE, ctx.auth.clock);
  if (!sealed || sealed.uid !== userId || !Array.isArray(sealed.amr)) return { amr: [], acr: null };
  const amr = sealed.amr.filter((m): m is string => typeof m === 'string');
  return { amr, acr: amr.includes('mfa') ? ACR_MFA : null };
}
