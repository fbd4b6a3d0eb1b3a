/**
 * `bearer()`: sessions carried in `Authorization: Bearer` by mobile and desktop clients.
 * @module
 */
import {
  publicSession,
  withoutCookie,
  type ActionResult,
  type AuthInternals,
  type AuthPlugin,
  type ErrorCodesOf,
  type OutCookie,
  type RouteContext,
  type SessionState,
} from '../../plugin-kit.js';
import type { Session } from '../../index.js';
import { BEARER_ERRORS } from './errors.js';
import { readBearerToken, isBearerRequest, TOKEN_HEADER } from './token.js';

/** `auth.extensions.bearer`. */
export interface BearerExtension {
  /** The header the session token is answered in (`set-auth-token`). */
  readonly header: string;
}

/**
 * Session tokens for clients that keep no cookies (mobile, desktop, CLI): the same session a browser gets, carried in
 * `Authorization: Bearer <token>` (RFC 6750 §2.1). Works with the `database` and `jwt` strategies; nothing new is
 * stored (database sessions stay SHA-256 hashed at rest, and the strategy compares them in constant time).
 *
 * The rule. A **bearer request** has no `Cookie` header at all and an `Authorization: Bearer` header (or
 * `x-auth-mode: bearer` before it has a token). A browser cannot send either header across sites without the
 * app's CORS consent, and with no cookie there is no ambient credential, so such a request cannot be forged by
 * another site: its POSTs under `basePath` are checked under the `origin` CSRF policy (`Origin` /
 * `Sec-Fetch-Site` must be the app's or trusted when present) instead of needing the double-submit cookie. Its
 * answers set no session cookie: a sign-in (credentials, sign-up, email OTP, ...) answers the token in the
 * `set-auth-token` header instead (an empty value when the route cleared the session), listed in
 * `Access-Control-Expose-Headers` when the request has an `Origin`. Browser (cookie) requests never get the
 * header, so an httpOnly cookie is never exposed to scripts.
 *
 * Where the token counts:
 * - the app's routes: `auth.getSession`, `auth.run`, and the adapters' session middleware (`authSession` in Hono)
 *   read it through the `resolveSession` hook, **only when the request has no session cookie**: with both, the
 *   cookie wins. Such a session is a plugin credential (`isPluginCredential`): the dashboard, `admin()`'s checks
 *   and organization roles refuse it unless the app opts in, as for API keys.
 * - `GET {basePath}/bearer/session`: the session of the token (`publicSession`), or 401 `BEARER_INVALID`.
 * - `POST {basePath}/bearer/sign-out`: ends the token's session; 400 `BEARER_WITH_COOKIE` when the request carries a
 *   `Cookie` header, 401 `BEARER_INVALID` for a bad token. With `database` sessions only that session ends (its row
 *   is deleted: refused by every process at once; the user's other devices and browsers stay signed in). With `jwt`
 *   sessions one token cannot be withdrawn (nothing is stored per token), so the user's session version is bumped:
 *   **every session of the user ends**, bearer tokens on other devices and browser cookies alike. When each
 *   instance sees it: this one at once; others refuse a bearer token at once too (a bearer read is confirmed
 *   against storage on every request), and a browser cookie at their next storage check (within
 *   `session.revalidateAge`; the cookie path adds no storage read per request). A session issued after the
 *   sign-out is unaffected. For a sign-out of one device only, use `database` sessions, or have the client drop
 *   its token (valid until it expires).
 * - Never on the core's routes under `basePath` (they read the session cookie only): a token never signs in,
 *   links, changes credentials or sets a cookie there.
 *
 * A malformed header (another scheme, no token, characters outside RFC 6750's b64token, over 4096 characters,
 * several tokens) is no session: `getSession` answers none and the bearer routes 401. With `apiKeys()` also
 * installed, a token that is no session is left to it.
 *
 * @example
 * ```ts
 * import { createAuth, createMemoryAdapter } from '@framework/auth';
 * import { bearer } from '@framework/auth/plugins/bearer';
 *
 * const auth = createAuth({ adapter: createMemoryAdapter(), emailAndPassword: {}, plugins: [bearer()] });
 * // POST /auth/callback/credentials with `x-auth-mode: bearer` and no cookie answers `set-auth-token: <token>`;
 * // then `Authorization: Bearer <token>` on the app's routes: (await auth.getSession(request)).user
 * ```
 */
export function bearer(): AuthPlugin<
  'bearer',
  BearerExtension,
  Record<never, never>,
  ErrorCodesOf<typeof BEARER_ERRORS>
> {
  let internals: AuthInternals | undefined;

  async function readToken(token: string) {
    const read = await internals!.strategy.read(token, { fresh: true });
    return read.status === 'valid' ? read : null;
  }

  /** The session of the request's token, or a 401. */
  async function sessionOf(ctx: RouteContext) {
    const token = readBearerToken(ctx.request);
    const read = token ? await readToken(token) : null;
    if (!token || !read) throw BEARER_ERRORS.error('BEARER_INVALID', { headers: { 'www-authenticate': 'Bearer' } });
    return { token, read };
  }

  /** A bearer request's answer: its session cookie becomes the `set-auth-token` header. */
  function toHeader(ctx: RouteContext, result: ActionResult): ActionResult | undefined {
    const name = ctx.auth.config.cookies.sessionToken.name;
    const isSession = (c: OutCookie) => c.name === name;
    const session = result.cookies?.filter(isSession).at(-1);
    const serialized = result.setCookies?.getSetCookie().filter((line) => line.startsWith(`${name}=`)) ?? [];
    if (!session && serialized.length === 0) return undefined;
    const headers: Record<string, string> = { ...result.headers };
    if (session) headers[TOKEN_HEADER] = session.options.maxAge === 0 ? '' : session.value;
    else {
      const value = serialized
        .at(-1)!
        .slice(name.length + 1)
        .split(';')[0]!;
      headers[TOKEN_HEADER] = /max-age=0/i.test(serialized.at(-1)!) ? '' : value;
    }
    if (ctx.request.headers.has('origin')) headers['access-control-expose-headers'] = TOKEN_HEADER;
    return { ...withoutCookie(result, name), headers };
  }

  return {
    id: 'bearer',
    errorCodes: BEARER_ERRORS,
    init(auth) {
      internals = auth;
      return { header: TOKEN_HEADER };
    },
    routes: {
      'bearer/session': {
        async GET(ctx) {
          const { read } = await sessionOf(ctx);
          const session: Session = { user: read.user, expires: read.expires };
          if (read.impersonatedBy) session.impersonatedBy = read.impersonatedBy;
          const headers: Record<string, string> = { 'cache-control': 'no-store' };
          return { status: 200, json: publicSession(session), headers };
        },
      },
      'bearer/sign-out': {
        // No cookie, and the credential is a header a browser never adds on its own: nothing a page can forge.
        csrf: 'none',
        async POST(ctx) {
          if (ctx.request.headers.has('cookie')) throw BEARER_ERRORS.error('BEARER_WITH_COOKIE');
          const { token } = await sessionOf(ctx);
          // A JWT cannot be withdrawn alone: under the jwt strategy every session of the user ends (its version bumps).
          await ctx.auth.strategy.revoke(token, ctx.auth.config.session.strategy === 'jwt');
          return { status: 200, json: { ok: true }, headers: { [TOKEN_HEADER]: '' } };
        },
      },
    },
    hooks: {
      async resolveSession(request): Promise<SessionState | undefined> {
        const token = readBearerToken(request);
        if (!token) return undefined;
        const read = await readToken(token);
        if (!read) return undefined;
        const session: Session = { user: read.user, expires: read.expires };
        if (read.impersonatedBy) session.impersonatedBy = read.impersonatedBy;
        const headers = new Headers();
        if (read.refreshed && read.refreshed.value !== token) headers.set(TOKEN_HEADER, read.refreshed.value);
        return { session, user: read.user, expired: false, headers };
      },
      relaxCsrf: isBearerRequest,
      afterAction: (ctx, result) => (isBearerRequest(ctx.request) ? toHeader(ctx, result) : undefined),
    },
  };
}
