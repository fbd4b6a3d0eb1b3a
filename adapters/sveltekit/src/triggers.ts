/**
 * `triggerHandle(runtime)`: a trigger runtime's webhooks as a SvelteKit
 * `handle` hook.
 * @module
 */
import type { Handle } from '@sveltejs/kit';
import { releaseBody } from './body.js';
import type { WebhookRuntime } from '@framework/auth';

export type { WebhookRuntime };

/** The runtime, or a function resolving it once (created after a database migration, say). */
export type RuntimeSource = WebhookRuntime | (() => WebhookRuntime | Promise<WebhookRuntime>);

/**
 * A `handle` hook serving a trigger runtime's webhooks: a request whose path
 * belongs to a webhook is answered by `runtime.fetch(event.request)`
 * (signature check over the raw body, 401, 405, 413, the handler's 200);
 * every other request goes on to `resolve` and is then reported to the tail
 * triggers, with its URL cut to origin and path (the query string, which can
 * hold magic-link tokens and OAuth codes, is never recorded). Put it first in `sequence()`, so nothing reads
 * the body before it.
 *
 * SvelteKit refuses cross-site form posts (`csrf.checkOrigin`) before any
 * hook runs; webhook senders post JSON, which that check lets through.
 *
 * @param runtime a {@link WebhookRuntime}, or a function resolving it.
 * @example
 * ```ts
 * // src/hooks.server.ts
 * export const handle = sequence(triggerHandle(runtime), authHandle(auth));
 * ```
 */
export function triggerHandle(runtime: RuntimeSource): Handle {
  let pending: Promise<WebhookRuntime> | undefined;
  const get = () => (pending ??= Promise.resolve(typeof runtime === 'function' ? runtime() : runtime));
  return async ({ event, resolve }) => {
    const started = performance.now();
    const triggers = await get();
    const routes = triggers.webhooks;
    if (!routes || routes.some((route) => route.path === event.url.pathname)) {
      const answer = await triggers.fetch(event.request);
      if (answer) {
        releaseBody(event.request);
        return answer;
      }
    }
    const response = await resolve(event);
    // Origin and path only: query strings carry magic-link tokens and OAuth codes, which tail events must not keep.
    triggers.recordRequest?.({
      method: event.request.method,
      url: event.url.origin + event.url.pathname,
      status: response.status,
      durationMs: performance.now() - started,
    });
    return response;
  };
}
