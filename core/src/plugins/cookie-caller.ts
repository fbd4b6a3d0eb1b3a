/**
 * The caller of a plugin route under `basePath` that takes the session cookie only (`admin()`, `organizations()`):
 * a request presenting an API key there is told so (403 `API_KEY_NOT_ALLOWED`) rather than taken for signed out.
 * @module
 * @internal
 */
import { AuthError } from '../errors.js';
import { readCookie } from '../http/cookies.js';
import { signedIn, type Caller } from '../routes/account/signed-in.js';
import type { RouteContext } from '../contract/types.js';
import { apiKeyNotAllowed } from './credential.js';

/**
 * Whether a request without a session cookie presents a credential some plugin's `resolveSession` reads. A resolver
 * that refuses the credential (a budget spent, a banned owner) still counts: the credential was presented.
 */
async function presentsCredential(ctx: RouteContext): Promise<boolean> {
  if (readCookie(ctx.request.headers.get('cookie'), ctx.auth.config.cookies.sessionToken.name)) return false;
  for (const resolve of ctx.auth.hooks.resolveSession) {
    try {
      if (await resolve(ctx.request, ctx.ip ? { ip: ctx.ip } : {})) return true;
    } catch {
      return true;
    }
  }
  return false;
}

/**
 * {@link signedIn} for routes people use (`what` names them in the message). The session cookie only, as always
 * under `basePath`: a plugin credential never acts there.
 * @throws AuthError `API_KEY_NOT_ALLOWED` (403) when the request carries no session but presents an API key (any
 *   credential a plugin reads); else `signedIn`'s errors (`UNAUTHENTICATED`, 401).
 */
export async function cookieCaller(ctx: RouteContext, what: string): Promise<Caller> {
  try {
    return await signedIn(ctx);
  } catch (error) {
    if (error instanceof AuthError && error.code === 'UNAUTHENTICATED' && (await presentsCredential(ctx)))
      throw apiKeyNotAllowed(what);
    throw error;
  }
}
