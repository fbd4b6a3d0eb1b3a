/**
 * `dashboardRouter(options)`: the `@framework/dashboard` pages as Express middleware.
 * @module
 */
import type { RequestHandler } from 'express';
import { dashboardOf, type Dashboard, type DashboardOptions } from '@framework/dashboard';
import { requestPath, toWebRequest } from './request.js';
import { releaseBody, sendWebResponse } from './response.js';

/**
 * Serves the dashboard at `options.basePath` (default `/_framework`) with the
 * socket address as the client IP; other paths go to the next handler. Mount
 * it before body parsers (its forms are read from the raw request).
 * @example
 * ```ts
 * import { dashboardRouter } from '@framework/express/dashboard';
 * app.use(dashboardRouter({ runtime, auth }));
 * ```
 */
export function dashboardRouter(options: DashboardOptions | Dashboard): RequestHandler {
  const dashboard = dashboardOf(options);
  const base = dashboard.basePath;
  return (req, res, next) => {
    const path = requestPath(req);
    if (path !== base && !path.startsWith(`${base}/`)) return next();
    const request = toWebRequest(req, res);
    const ip = req.socket.remoteAddress;
    dashboard
      .fetch(request, ip ? { ip } : {})
      .then(async (response) => {
        if (!response) return next();
        await sendWebResponse(res, response);
        releaseBody(req, request);
      })
      .catch(next);
  };
}
