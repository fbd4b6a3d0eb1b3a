/**
 * `authMiddleware(options)`: a first line of defence in `middleware.ts`, on the Edge runtime.
 * @module
 */
import { NextResponse, type NextRequest } from 'next/server';
import { PATH_HEADER } from '../path-header.js';
import { sessionTokenVerifier } from './session-jwt.js';

/** Options of {@link authMiddleware}. */
export interface AuthMiddlewareOptions {
  /**
   * The paths to guard: a string guards that path and everything under it (`/dashboard` guards
   * `/dashboard/settings`, not `/dashboards`); a RegExp is tested against the pathname.
   */
  protect: readonly (string | RegExp)[];
  /**
   * How the session is checked, as the engine stores it (`createAuth({ session: { strategy } })`):
   * - `'jwt'` (default): the cookie's signature and expiry are verified with `secret`;
   * - `'database'`: a cookie of the session's shape (`id.secret`) must be present; only the server can tell
   *   whether it is valid.
   */
  strategy?: 'jwt' | 'database';
  /** The engine's `secret` (an array rotates). Needed for `'jwt'`. Default: `process.env.AUTH_SECRET`. */
  secret?: string | readonly string[];
  /**
   * The session cookie's name. Default: as the engine names it without `cookies.sessionToken.name`:
   * `__Host-framework.session-token` on https, `framework.session-token` on http.
   */
  cookieName?: string;
  /** The sign-in page (`pages.signIn`). Default `/auth/signin`. */
  signInPage?: string;
}

/** A middleware function as `middleware.ts` exports it. */
export type NextMiddlewareFunction = (request: NextRequest) => Promise<Response>;

const DATABASE_TOKEN = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/**
 * An API client: one that asks for JSON (and not HTML), sends `Authorization` or `X-Requested-With:
 * XMLHttpRequest`. Anything else is sent to the sign-in page, as a page guard would (a `fetch()` with the default
 * `Accept: *\/*` follows the redirect).
 */
function wantsJson(request: NextRequest): boolean {
  const accept = (request.headers.get('accept') ?? '').toLowerCase();
  if (accept.includes('json') && !accept.includes('text/html')) return true;
  return request.headers.has('authorization') || request.headers.get('x-requested-with') === 'XMLHttpRequest';
}

function guards(protect: AuthMiddlewareOptions['protect'], pathname: string): boolean {
  return protect.some((rule) =>
    typeof rule === 'string'
      ? pathname === rule || pathname.startsWith(rule.endsWith('/') ? rule : `${rule}/`)
      : rule.test(pathname),
  );
}

/** The answer to a request on a guarded path without a session: 401 JSON for API clients, else a redirect. */
function refuse(request: NextRequest, signInPage: string): Response {
  const noStore = { 'cache-control': 'no-store' };
  if (wantsJson(request))
    return NextResponse.json(
      { error: { code: 'UNAUTHENTICATED', message: 'Authentication required' } },
      { status: 401, headers: noStore },
    );
  const back = request.nextUrl.pathname + request.nextUrl.search;
  const location = new URL(`${signInPage}?callbackUrl=${encodeURIComponent(back)}`, request.url);
  const status = request.method === 'GET' || request.method === 'HEAD' ? 302 : 303;
  // Absolute, as Next.js wants a middleware's Location; it sends a same-origin one as a path.
  const response = NextResponse.redirect(location, status);
  response.headers.set('cache-control', noStore['cache-control']);
  return response;
}

/**
 * A `middleware.ts` function that keeps visitors without a session off the `protect`ed paths before any page
 * renders: browsers get a 302 (303 for other methods) to the sign-in page with `callbackUrl`, API clients a 401
 * `{error: {code: 'UNAUTHENTICATED'}}`. It reads no database, so it runs on the Edge runtime and imports nothing
 * of the engine (no `node:` modules, no SQLite driver): with the `jwt` strategy it verifies the cookie's signature
 * and expiry; with `database` it only sees that a session cookie is there.
 *
 * It is a first line, not the check: it cannot see a revoked session, a ban or a role. Guard every page, action
 * and route handler on the server too (`requireAuth()`, `requireRole()` from `createAuthHelpers`). Every request
 * it passes carries its path in `x-framework-path`, so those guards can send a signed-out visitor back to it.
 *
 * @throws Error at creation with `strategy: 'jwt'` and no secret of at least 32 characters.
 * @example
 * ```ts
 * // middleware.ts
 * import { authMiddleware } from '@framework/next/middleware';
 *
 * export default authMiddleware({ protect: ['/dashboard', /^\/admin(\/|$)/] });
 * export const config = { matcher: ['/((?!_next/|favicon.ico).*)'] };
 * ```
 */
export function authMiddleware(options: AuthMiddlewareOptions): NextMiddlewareFunction {
  const strategy = options.strategy ?? 'jwt';
  const verify = strategy === 'jwt' ? sessionTokenVerifier(options.secret ?? process.env.AUTH_SECRET ?? []) : undefined;
  const signInPage = options.signInPage ?? '/auth/signin';

  async function signedIn(request: NextRequest): Promise<boolean> {
    const name =
      options.cookieName ??
      (request.nextUrl.protocol === 'https:' ? '__Host-framework.session-token' : 'framework.session-token');
    const token = request.cookies.get(name)?.value;
    if (!token) return false;
    return verify ? (await verify(token)) !== null : DATABASE_TOKEN.test(token);
  }

  return async (request) => {
    if (guards(options.protect, request.nextUrl.pathname) && !(await signedIn(request)))
      return refuse(request, signInPage);
    const headers = new Headers(request.headers);
    headers.set(PATH_HEADER, request.nextUrl.pathname + request.nextUrl.search);
    return NextResponse.next({ request: { headers } });
  };
}
