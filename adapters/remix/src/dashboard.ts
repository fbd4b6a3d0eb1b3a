/**
 * `createDashboardRoute(options)`: the `@framework/dashboard` pages as a resource route.
 * @module
 */
import { dashboardOf, type Dashboard, type DashboardOptions } from '@framework/dashboard';
import { requestInfo, type ClientIpOption, type RouteArgs } from './args.js';
import type { ResourceRoute } from './route.js';

/**
 * The `loader` and `action` of a splat resource route at the dashboard's base
 * path (`app/routes/_framework.$.ts` for `/_framework/*`); the client IP comes
 * from `clientIp` (default `context.ip`, see `contextIp`).
 * @example
 * ```ts
 * // app/routes/_framework.$.ts
 * export const { loader, action } = createDashboardRoute({ runtime, auth });
 * ```
 */
export function createDashboardRoute(options: DashboardOptions | Dashboard, clientIp?: ClientIpOption): ResourceRoute {
  const dashboard = dashboardOf(options);
  const serve = async (args: RouteArgs) =>
    (await dashboard.fetch(args.request, requestInfo(args, clientIp))) ??
    Response.json({ error: { code: 'NOT_FOUND', message: 'No dashboard page at this path' } }, { status: 404 });
  return { loader: serve, action: serve };
}
