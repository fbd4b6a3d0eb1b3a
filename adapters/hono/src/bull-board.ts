/**
 * `mountBullBoard(app, dashboard, options)`: bull-board's queue inspection
 * for BullMQ users, behind the dashboard's access check.
 * @module
 */
import type { Hono, MiddlewareHandler } from 'hono';
import type { Queue } from 'bullmq';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { HonoAdapter } from '@bull-board/hono';
import { serveStatic } from '@hono/node-server/serve-static';
import type { Dashboard } from '@framework/dashboard';
import { clientIp } from './index.js';

/** Options of {@link mountBullBoard}. */
export interface BullBoardOptions {
  /** The BullMQ queues to show (`new Queue(name, { connection, prefix })`, with the engine's prefix). */
  queues: readonly Queue[];
  /**
   * Where bull-board is served. Default `<dashboard.basePath>/bull-board`; pass the same as the dashboard's
   * `bullBoardPath` for its link.
   */
  path?: string;
  /** Hide retry, clean, promote and delete. Default `false`. */
  readOnly?: boolean;
}

/**
 * Serves bull-board (`@bull-board/api` with its Hono adapter) at `path`,
 * guarded like the dashboard: `dashboard.authorize` decides every request
 * (loopback in development, an admin in production), and state-changing
 * requests must be same-origin JSON (`Origin` or `Sec-Fetch-Site`, and
 * `Content-Type: application/json`, which a cross-site form cannot send),
 * else 403 `CSRF_ORIGIN_MISMATCH`. Nothing is served while the dashboard is
 * disabled. Node only (bull-board's static files are read from disk).
 * @returns the bull-board handle (`addQueue`, `removeQueue`, …).
 * @example
 * ```ts
 * const dashboard = mountDashboard(app, { runtime, auth, bullBoardPath: '/_framework/bull-board' });
 * mountBullBoard(app, dashboard, { queues: [new Queue('welcome-mail', { connection })] });
 * ```
 */
export function mountBullBoard(
  app: Hono<any, any, any>,
  dashboard: Dashboard,
  options: BullBoardOptions,
): ReturnType<typeof createBullBoard> {
  const path = (options.path ?? `${dashboard.basePath}/bull-board`).replace(/\/+$/, '');
  const serverAdapter = new HonoAdapter(serveStatic);
  serverAdapter.setBasePath(path);
  const board = createBullBoard({
    queues: options.queues.map((queue) => new BullMQAdapter(queue, { readOnlyMode: options.readOnly ?? false })),
    serverAdapter,
  });
  const guard: MiddlewareHandler = async (c, next) => {
    if (!dashboard.enabled) return c.notFound();
    const ip = clientIp(c);
    const refusal = await dashboard.authorize(c.req.raw, ip ? { ip } : {});
    if (refusal) return refusal;
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD' && !sameOriginJson(c.req.raw)) {
      return c.json({ error: { code: 'CSRF_ORIGIN_MISMATCH', message: 'Send same-origin JSON.' } }, 403);
    }
    await next();
  };
  app.use(path, guard);
  app.use(`${path}/*`, guard);
  app.route(path, serverAdapter.registerPlugin());
  return board;
}

function sameOriginJson(request: Request): boolean {
  if (!(request.headers.get('content-type') ?? '').startsWith('application/json')) return false;
  const origin = request.headers.get('origin');
  if (origin) return origin === new URL(request.url).origin;
  return request.headers.get('sec-fetch-site') === 'same-origin';
}
