/**
 * `triggerRoutes(runtime)`: a trigger runtime's webhooks as Fastify routes.
 * @module
 */
import type { FastifyPluginAsync } from 'fastify';
import { AuthError } from '@framework/auth';
import { leaveBodiesUnread } from './body.js';
import { OWN_ROUTE } from './state.js';
import { toWebRequest } from './request.js';
import { releaseBodyAfter, sendWebResponse } from './response.js';
import type { WebhookRuntime } from '@framework/auth';

export type { WebhookRuntime };

/**
 * A Fastify plugin registering the runtime's webhook paths. Each request is converted to a Web `Request` with its
 * body unread by Fastify (the runtime verifies signatures over the exact bytes and answers 413 past its own
 * limit; Fastify's `bodyLimit` and JSON parser are not involved) and answered by `runtime.fetch`: verification,
 * 401, 405, 413, the handler's 200/500. A `null` answer goes to Fastify's not-found handler. A malformed `Host`
 * or an absolute-form target gets 400 `INVALID_REQUEST` (JSON); other errors go to the app's error handler. The
 * plugin is encapsulated: its body handling stays on these routes.
 *
 * @param runtime a {@link WebhookRuntime} that lists its `webhooks` (Fastify registers each path as a route).
 * @example
 * ```ts
 * const runtime = createTriggerRuntime({ triggers: await loadTriggersFromDir('app/triggers'), env: process.env });
 * await app.register(triggerRoutes(runtime));
 * ```
 */
export function triggerRoutes(
  runtime: WebhookRuntime & Required<Pick<WebhookRuntime, 'webhooks'>>,
): FastifyPluginAsync {
  return async function frameworkTriggerRoutes(instance) {
    leaveBodiesUnread(instance);
    // A request whose URL cannot be built (malformed Host, absolute-form target) is the kit's 400 here too,
    // whether or not authPlugin's error handler was set when this context was created; other errors go on to it.
    instance.setErrorHandler((error, _request, reply) => {
      if (!(error instanceof AuthError)) throw error;
      return sendWebResponse(reply, error.getResponse());
    });
    for (const path of new Set(runtime.webhooks.map((route) => route.path))) {
      instance.all(path, { config: { [OWN_ROUTE]: true } }, async (request, reply) => {
        const web = toWebRequest(request, reply);
        const response = await runtime.fetch(web);
        if (!response) return reply.callNotFound();
        releaseBodyAfter(reply, request.raw, web);
        return sendWebResponse(reply, response);
      });
    }
  };
}
