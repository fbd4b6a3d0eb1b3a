/**
 * `endpoint`: a route's entry on `auth.api`, with its types.
 * @module
 */
import type { ApiEndpoint } from '../contract/api.js';

/**
 * Declares a route for `auth.api` with its body and answer types: a plugin lists these as its `api`.
 * @example
 * ```ts
 * const api = { enableThing: endpoint<{ password: string }, { ok: true }>('POST', 'thing/enable') };
 * ```
 */
export function endpoint<Body = void, Answer = unknown>(
  method: 'GET' | 'POST',
  path: string,
): ApiEndpoint<Body, Answer> {
  return { method, path };
}
