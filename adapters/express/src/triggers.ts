/**
 * `triggerRouter(runtime)`: a trigger runtime's webhooks as Express middleware.
 * @module
 */
import type { RequestHandler } from 'express';
import { requestPath, toWebRequest } from './request.js';
import { releaseBody, sendWebResponse } from './response.js';

/**
 * What {@link triggerRouter} needs of a trigger runtime (`createTriggerRuntime`
 * from `@framework/trigger` fits).
 */
export interface WebhookRuntime {
  /** Serves a webhook request; resolves null when no webhook owns the path. */
  fetch(request: Request): Promise<Response | null>;
  /**
   * The webhook routes. When given, requests to other paths go straight on
   * without their body being read; without it every request is handed to
   * `fetch`, which reads bodies it does not claim.
   */
  readonly webhooks?: ReadonlyArray<{ readonly path: string }>;
}

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
