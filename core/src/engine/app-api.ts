/**
 * The parts of `Auth` an app calls around its own routes: the CSRF API for its forms, `toResponse` for errors the
 * request helpers throw, and `createSession` for trusted server code.
 * @internal
 * @module
 */
import { AuthError, AuthRedirect } from '../errors.js';
import { authError } from '../errors/auth-error.js';
import { readCookie, serializeCookie } from '../http/cookies.js';
import { checkCsrfToken, checkOrigin, csrfCookieName, issueCsrfToken } from '../http/csrf.js';
import { publicOrigin } from '../http/origin.js';
import { toWebResponse } from '../http/response.js';
import type { AuthInternals } from '../contract/types.js';
import { errorResult, sessionCookie } from '../routes/helpers.js';
import type { Auth } from './types.js';
import { wantsJsonError } from './negotiate.js';

/** `auth.csrf`: the kit's double-submit token for the app's own state-changing routes. */
export function csrfApi(auth: AuthInternals): Auth['csrf'] {
  const secure = auth.config.cookies.sessionToken.options.secure;
  const cookieOf = (request: Request) => readCookie(request.headers.get('cookie'), csrfCookieName(secure));
  return {
    async issue(request) {
      const { token, cookie } = await issueCsrfToken(cookieOf(request), auth.signingKey, secure);
      const headers = new Headers();
      if (cookie) headers.append('set-cookie', serializeCookie(cookie));
      return { token, headers };
    },
    async verify(request, submitted) {
      checkOrigin(request, publicOrigin(auth.originPolicy, new URL(request.url).origin), auth.trustedOrigins);
      await checkCsrfToken(submitted ?? undefined, cookieOf(request), auth.signingKey);
    },
  };
}

/** `auth.toResponse`: the Response the kit gives for an `AuthRedirect` or `AuthError`, else null. */
export function responseOfError(auth: AuthInternals): Auth['toResponse'] {
  return (error, request) => {
    if (error instanceof AuthRedirect)
      return new Response(null, { status: error.status, headers: { location: error.location } });
    if (error instanceof AuthError)
      return toWebResponse(errorResult({ auth, request, wantsJson: wantsJsonError(request) }, error));
    return null;
  };
}

/** `auth.createSession`: a session for a stored user (by id) or a user record, as a sign-in issues one. */
export function sessionIssuer(auth: AuthInternals): Auth['createSession'] {
  return async (user) => {
    const resolved = typeof user !== 'string' ? user : auth.adapter ? await auth.adapter.getUser(user) : null;
    if (!resolved) throw authError('NOT_FOUND', 'No such user');
    const issued = await auth.strategy.issue({ user: resolved, account: null });
    const headers = new Headers();
    headers.append('set-cookie', serializeCookie(sessionCookie(auth, issued.value, issued.expires)));
    return { ...issued, headers };
  };
}
