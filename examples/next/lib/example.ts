// The example's engine, triggers and registration (from examples/shared, as in the SvelteKit and React Router
// examples), created on the first request rather than when a module loads: `next build` loads route modules to
// collect their configuration, and must not open the database or start the cron. One per process (globalThis),
// however many bundles import this module.
import 'server-only';
import { createAuthHelpers } from '@framework/next';
import { createWebExample, type WebExample } from '@framework/example-shared/web-example';

export { ADMIN_ROLE } from '@framework/example-shared/web-example';

const shared = globalThis as { frameworkNextExample?: Promise<WebExample> };

/** The running example (created once per process). */
export function example(): Promise<WebExample> {
  shared.frameworkNextExample ??= createWebExample(process.env);
  return shared.frameworkNextExample;
}

/** The engine, resolved lazily (the adapter's `AuthSource`). */
export const auth = async () => (await example()).auth;

/**
 * The socket address: server.mjs overwrites X-Forwarded-For with it before Next.js sees the request, so the kit's
 * sign-in rate limits key on the real client.
 */
export const clientIp = (request: Request) => request.headers.get('x-forwarded-for') ?? undefined;

export const { getSession, requireAuth, requireRole, requirePermission, withAuth } = createAuthHelpers(auth, {
  clientIp,
});
