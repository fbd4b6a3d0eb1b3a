/**
 * `mountDashboard(app, options)`: the `@framework/dashboard` pages in a Hono app.
 * @module
 */
import type { Hono, MiddlewareHandler } from 'hono';
import { dashboardOf, type Dashboard, type DashboardOptions } from '@framework/dashboard';
import { clientIp } from './index.js';

/**
 * Serves the dashboard at `options.basePath` (default `/_framework`) for
 * every method, with the socket address as the client IP (development mode
 * admits loopback clients only). Paths the dashboard does not know, and all
 * of them while it is disabled, fall through to the app's 404.
 * @returns the dashboard (its `history`, `close()`).
 * @example
 * ```ts
 * import { mountDashboard } from '@framework/hono/dashboard';
 * mountDashboard(app, { runtime, auth, enabled: process.env.DASHBOARD === '1' });
 * ```
 */
export function mountDashboard(app: Hono<any, any, any>, options: DashboardOptions | Dashboard): Dashboard {
  const dashboard = dashboardOf(options);
  const serve: MiddlewareHandler = async (c, next) => {
    const ip = clientIp(c);
    const response = await dashboard.fetch(c.req.raw, ip ? { ip } : {});
    if (response) return response;
    await next();
  };
  app.all(dashboard.basePath, serve);
  app.all(`${dashboard.basePath}/*`, serve);
  return dashboard;
}
