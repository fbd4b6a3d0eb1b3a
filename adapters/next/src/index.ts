/**
 * `@framework/next`: mounts `@framework/auth` in a Next.js 15 / 16 App Router app. The kit's routes become a
 * catch-all Route Handler (`authRoute`); Server Components, Server Actions and Route Handlers read the session and
 * guard with `createAuthHelpers`. The Edge-runtime first line is `@framework/next/middleware`. ESM only, like
 * Next.js's App Router.
 * @example
 * ```ts
 * // app/auth/[...auth]/route.ts
 * export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = authRoute(auth);
 *
 * // app/dashboard/page.tsx
 * const { requireAuth } = createAuthHelpers(auth);
 * export default async function Page() {
 *   return <p>Hello {(await requireAuth()).name}</p>;
 * }
 * ```
 * @module
 */
export { authRoute, type AuthRouteHandlers, type RouteHandler } from './route.js';
export { createAuthHelpers, type GuardOptions, type NextAuthHelpers, type NextSession } from './helpers.js';
export { forwardCookies, withCookies } from './cookies.js';
export type { AuthSource, ClientIpOption, NextAuthOptions } from './engine.js';
export { PATH_HEADER } from './path-header.js';
