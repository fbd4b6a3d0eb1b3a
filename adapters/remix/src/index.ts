/**
 * `@framework/remix`: mounts `@framework/auth` and `@framework/trigger`
 * webhooks in a React Router 7 framework-mode app (Remix's successor), which
 * hands loaders and actions a Web `Request`. Remix 2 is not tested and not
 * claimed.
 * @example
 * ```ts
 * // app/routes/auth.$.tsx
 * export const { loader, action } = createAuthRoute(auth);
 *
 * // app/routes/dashboard.tsx
 * const { requireUser, withAuth } = createAuthHelpers(auth);
 * export const loader = withAuth(async ({ request }) => ({ user: await requireUser(request) }));
 * ```
 * @module
 */
export { createAuthRoute, type AuthRouteOptions, type ResourceRoute } from './route.js';
export {
  createAuthHelpers,
  type AuthArgs,
  type AuthHelpers,
  type AuthHelpersOptions,
  type RequestSession,
  type RequireUserOptions,
} from './helpers.js';
export { createWebhookRoute, type WebhookRuntime } from './webhooks.js';
export { withCookies, type DataResult, type WithCookies } from './cookies.js';
export { contextIp, type ClientIpOption, type RouteArgs } from './args.js';
export { securityHeaders, secureRoute } from './security-headers.js';
