/**
 * `createAuthHelpers(auth)`: the session and guards for Server Components, Server Actions and Route Handlers.
 * @module
 */
import { cache } from 'react';
import * as navigation from 'next/navigation';
import {
  currentScope,
  hasRequestScope,
  requirePermission as permissionIn,
  requireRole as roleIn,
  SessionExpiredError,
  UnauthenticatedError,
  ForbiddenError,
  withRequestScope,
  type AuthScope,
  type OwnedResource,
  type Session,
  type User,
} from '@framework/auth';
import { forwardCookies, withCookies } from './cookies.js';
import { engineOf, requestInfo, type AuthSource, type NextAuthOptions } from './engine.js';
import { requestFromNext } from './request.js';
import type { RouteHandler } from './route.js';

/** What {@link NextAuthHelpers.getSession} resolves: the signed-in user and session, or nulls. */
export interface NextSession {
  user: User | null;
  session: Session | null;
  /** True when a session cookie was sent but had expired (or was revoked). */
  expired: boolean;
}

/** Options of the guards. */
export interface GuardOptions {
  /** Send signed-out visitors here instead of the sign-in page (`pages.signIn`, with `callbackUrl`). */
  redirectTo?: string;
  /**
   * Where the sign-in page sends the visitor back. Default: the path of the request (in Server Components, the
   * path `authMiddleware` forwarded in `x-framework-path`, else `/`).
   */
  callbackUrl?: string;
  /**
   * Throw the kit's typed error instead of redirecting or rendering `forbidden.tsx`: `UnauthenticatedError`
   * (`UNAUTHENTICATED`, 401), `SessionExpiredError` (`SESSION_EXPIRED`, 401) or `ForbiddenError` (`FORBIDDEN`, 403).
   * Inside {@link NextAuthHelpers.withAuth} they become the kit's JSON or HTML answer.
   */
  throwError?: boolean;
}

/** The helpers {@link createAuthHelpers} returns, bound to one engine. */
export interface NextAuthHelpers {
  /**
   * The request's session. In a Route Handler wrapped by `withAuth` it is the handler's request; elsewhere the
   * headers of `next/headers` (read once per request, shared by every helper). Refreshed or cleared session
   * cookies are written where Next.js allows it (Server Actions, Route Handlers), not in Server Components.
   */
  getSession(): Promise<NextSession>;
  /**
   * The signed-in user. Signed out: `redirect()` from `next/navigation` to the sign-in page with `callbackUrl`
   * (or to `redirectTo`); with `throwError`, the kit's `UnauthenticatedError` / `SessionExpiredError`.
   */
  requireAuth(options?: GuardOptions): Promise<User>;
  /**
   * The signed-in user when they hold `role` (an array: any of them), as the core's `requireRole` decides
   * (`createAuth({rbac})` only, with the hierarchy and the roles plugins grant; no rbac: an Error, fails closed).
   * Signed out: as `requireAuth`. Without the role: `forbidden()` from `next/navigation` (HTTP 403 and the app's
   * `forbidden.tsx`; needs `experimental.authInterrupts` in next.config), never a redirect; with `throwError`, the
   * kit's `ForbiddenError` (`FORBIDDEN`, 403).
   */
  requireRole(role: string | readonly string[], options?: GuardOptions): Promise<User>;
  /** As `requireRole`, for a permission (`posts:edit`; an array: any of them), optionally on an owned resource. */
  requirePermission(
    permission: string | readonly string[],
    options?: GuardOptions & { resource?: OwnedResource | null },
  ): Promise<User>;
  /**
   * Wraps a Route Handler: it runs inside the kit's request scope (the helpers above, and `getUser()`,
   * `requireAuth()`, `hasPermission()` from `@framework/auth`, read this request), refreshed or cleared session
   * cookies ride on its `Response`, and the kit's errors it throws become the kit's answer (401 / 403 / 429 as JSON
   * for JSON clients, the error page for browsers). API keys (`Authorization: Bearer`, `X-API-Key`) count here.
   */
  withAuth<C = unknown>(handler: (request: Request, context: C) => Response | Promise<Response>): RouteHandler;
}

/** `forbidden()` of Next.js 15.1 and later; the kit's error before it. */
function refuseRole(error: ForbiddenError): never {
  const forbidden = (navigation as { forbidden?: () => never }).forbidden;
  if (typeof forbidden === 'function') forbidden();
  throw error;
}

/**
 * Session helpers for Server Components, Server Actions and Route Handlers, bound to `auth`. Create them once in a
 * server module and import them where needed.
 *
 * @param auth the engine from `createAuth`, or a function resolving it (see `AuthSource`).
 * @param options `clientIp` (see `ClientIpOption`).
 * @example
 * ```ts
 * // lib/auth.ts
 * export const { getSession, requireAuth, requireRole, requirePermission, withAuth } = createAuthHelpers(auth);
 *
 * // app/dashboard/page.tsx
 * export default async function Dashboard() {
 *   const user = await requireAuth();
 *   return <p>Hello {user.name}</p>;
 * }
 * ```
 */
export function createAuthHelpers(auth: AuthSource, options: NextAuthOptions = {}): NextAuthHelpers {
  const engine = engineOf(auth);

  /** The scope from `next/headers`, once per server request (React's `cache`). */
  const fromHeaders = cache(async (): Promise<AuthScope> => {
    const request = await requestFromNext();
    const scope = await (await engine()).openScope(request, requestInfo(request, options.clientIp));
    await forwardCookies(scope.headers);
    return scope;
  });
  const scopeNow = (): Promise<AuthScope> =>
    hasRequestScope() ? Promise.resolve(currentScope('@framework/next')) : fromHeaders();

  /** Answers a refusal: the kit error with `throwError`, else Next.js's redirect or forbidden(). */
  function refuse(error: unknown, scope: AuthScope, guard: GuardOptions): never {
    if (error instanceof UnauthenticatedError) {
      if (guard.throwError) throw scope.expired ? new SessionExpiredError() : error;
      const url = new URL(scope.request.url);
      const back = guard.callbackUrl ?? url.pathname + url.search;
      navigation.redirect(guard.redirectTo ?? `${scope.config.pages.signIn}?callbackUrl=${encodeURIComponent(back)}`);
    }
    if (error instanceof ForbiddenError && !guard.throwError) refuseRole(error);
    throw error;
  }

  async function guarded(check: () => User, guard: GuardOptions = {}): Promise<User> {
    const scope = await scopeNow();
    try {
      return withRequestScope(scope, check);
    } catch (error) {
      refuse(error, scope, guard);
    }
  }

  return {
    async getSession() {
      const { user, session, expired } = await scopeNow();
      return { user, session, expired };
    },
    requireAuth: (guard) =>
      guarded(() => {
        const { user } = currentScope('requireAuth');
        if (!user) throw new UnauthenticatedError();
        return user;
      }, guard),
    requireRole: (role, guard) => guarded(() => roleIn(role), guard),
    requirePermission: (permission, guard) => guarded(() => permissionIn(permission, guard?.resource), guard),
    withAuth(handler) {
      return async (request, context) => {
        const kit = await engine();
        try {
          return await kit.run(
            request,
            async (scope) => {
              try {
                return withCookies(await handler(request, context as never), scope.headers);
              } catch (thrown) {
                const answer = kit.toResponse(thrown, request);
                if (answer) return withCookies(answer, scope.headers);
                throw thrown;
              }
            },
            requestInfo(request, options.clientIp),
          );
        } catch (thrown) {
          // A refusal while reading the session (an API key past its budget: 429).
          const answer = kit.toResponse(thrown, request);
          if (answer) return answer;
          throw thrown;
        }
      };
    },
  };
}
