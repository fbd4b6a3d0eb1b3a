/**
 * Mounts a trigger runtime (`@framework/trigger`) in a Hono app: webhook
 * requests go to the runtime, every other request is reported to its tail
 * triggers.
 * @module
 */
import type { MiddlewareHandler } from 'hono';
import type { WebhookRuntime } from '@framework/auth';

export type { WebhookRuntime };

/**
 * Middleware serving the runtime's webhooks (path + method routing, raw-body
 * verification, 413 over the size limit, 401 on a bad signature — all done by
 * the runtime) and reporting other requests to tail triggers. Mount it before
 * body-reading middleware so the runtime sees the raw body.
 * @example
 * ```ts
 * const runtime = createTriggerRuntime({ triggers: { 'signed-webhook': webhook }, env });
 * app.use('*', mountTriggers(runtime));
 * ```
 */
export function mountTriggers(runtime: WebhookRuntime): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    const webhook = await runtime.fetch(c.req.raw);
    if (webhook) return webhook;
    await next();
    // Origin and path only: query strings carry magic-link tokens and OAuth codes, which tail events must not keep.
    const { origin, pathname } = new URL(c.req.url);
    runtime.recordRequest?.({
      method: c.req.method,
      url: origin + pathname,
      status: c.res.status,
      durationMs: performance.now() - started,
    });
  };
}
