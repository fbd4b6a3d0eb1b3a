/**
 * `createWebhookRoute(runtime)`: a trigger runtime's webhooks as a resource route.
 * @module
 */
import type { ResourceRoute } from './route.js';
import type { RouteArgs } from './args.js';
import type { WebhookRuntime } from '@framework/auth';

export type { WebhookRuntime };

/**
 * The `loader` and `action` of a resource route for webhooks: the request
 * goes to `runtime.fetch` (signature check over the raw body, 401, 405, 413,
 * the handler's 200); a path no webhook owns answers 404. Place the route at
 * the webhook's path (`app/routes/webhooks.demo.ts` for `/webhooks/demo`),
 * or a splat (`webhooks.$.ts`) for all of them. Resource routes get the
 * body unread, so signatures verify over the exact bytes.
 *
 * @param runtime a {@link WebhookRuntime}, or a function resolving it.
 * @example
 * ```ts
 * // app/routes/webhooks.$.ts
 * import { createWebhookRoute } from '@framework/remix';
 * import { runtime } from '~/triggers.server';
 *
 * export const { loader, action } = createWebhookRoute(runtime);
 * ```
 */
export function createWebhookRoute(
  runtime: WebhookRuntime | (() => WebhookRuntime | Promise<WebhookRuntime>),
): ResourceRoute {
  const serve = async ({ request }: RouteArgs) => {
    const triggers = typeof runtime === 'function' ? await runtime() : runtime;
    return (
      (await triggers.fetch(request)) ??
      Response.json({ error: { code: 'NOT_FOUND', message: 'No webhook at this path' } }, { status: 404 })
    );
  };
  return { loader: serve, action: serve };
}
