/**
 * What the adapter keeps on a Fastify request, and the route marker of its own routes.
 * @module
 */
import type { AuthScope, Session, User } from '@framework/auth';

/** What `authPlugin` puts on `request.auth`. */
export interface FastifyAuthState {
  user: User | null;
  session: Session | null;
  /**
   * The request scope (`auth.openScope`): what the guards (`requireAuth()`, `authorize()`) read, and what
   * `withRequestScope(scope, fn)` from `@framework/auth` enters for the global helpers in synchronous code.
   */
  scope: AuthScope;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The session of the request, set by `authPlugin` from `@framework/fastify`; null before its hook ran. */
    auth: FastifyAuthState | null;
  }
}

/**
 * Route `config` key marking the adapter's own routes (auth routes, webhooks): the session hook skips them and
 * their handlers are not wrapped in the request scope.
 * @internal
 */
export const OWN_ROUTE = '@framework/fastify:route';

/** Whether a route's config carries {@link OWN_ROUTE}. @internal */
export function isOwnRoute(config: unknown): boolean {
  return typeof config === 'object' && config !== null && (config as Record<string, unknown>)[OWN_ROUTE] === true;
}
