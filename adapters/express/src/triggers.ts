/**
 * `triggerRouter(runtime)`: a trigger runtime's webhooks as Express middleware.
 * @module
 */
import type { RequestHandler } from 'express';
import { requestPath, toWebRequest } from './request.js';
import { releaseBody, sendWebResponse } from './response.js';
import type { WebhookRuntime } from '@framework/auth';

export type { WebhookRuntime };

/**
 * Mounts a trigger runtime's webhooks: requests whose path belongs to a
 * webhook are converted to a Web `Request` and answered by `runtime.fetch`
 * (verification, 405, 413, the handler's 200/500); everything else goes to
 * the next handler.
 *
 * Signatures are computed over the raw bytes, so mount it before body
 * parsers. If a JSON parser must come first, keep the exact bytes in
 * `req.rawBody` with its `verify` hook, and they are used instead of
 * re-serialising `req.body`.
 *
 * @param runtime a {@link WebhookRuntime}.
 * @returns Express middleware; unexpected failures go to `next(err)`.
 * @example
 * ```ts
 * const runtime = createTriggerRuntime({ triggers: await loadTriggersFromDir('app/triggers'), env: process.env });
 * app.use(triggerRouter(runtime));   // before express.json()
 * ```
 */
export function triggerRouter(runtime: WebhookRuntime): RequestHandler {
  return (req, res, next) => {
    const routes = runtime.webhooks;
    if (routes) {
      const path = requestPath(req);
      if (!routes.some((route) => route.path === path)) return next();
    }
    const request = toWebRequest(req, res);
    runtime
      .fetch(request)
      .then(async (response) => {
        if (!response) return next();
        await sendWebResponse(res, response);
        releaseBody(req, request);
      })
      .catch(next);
  };
}
