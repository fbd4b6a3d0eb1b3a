/**
 * Set-Cookie forwarding onto a SvelteKit response.
 * @module
 */
import type { RequestEvent } from '@sveltejs/kit';
import { stateOf } from './state.js';

/**
 * Queues the Set-Cookie lines of `headers` for the response of this request
 * (for cookies the kit hands back as headers, such as
 * `auth.csrf.issue(request).headers`). `authHandle` appends them verbatim,
 * so their attributes (HttpOnly, SameSite, Max-Age) are kept exactly.
 * @throws Error when `authHandle` did not run for this request.
 * @example
 * ```ts
 * export const load: PageServerLoad = async (event) => {
 *   const { token, headers } = await auth.csrf.issue(event.request);
 *   forwardCookies(event, headers);
 *   return { csrfToken: token };
 * };
 * ```
 */
export function forwardCookies(event: Pick<RequestEvent, 'locals'>, headers: Headers): void {
  const state = stateOf(event, 'forwardCookies');
  const lines = headers.getSetCookie();
  if (lines.length > 0) (state.cookies ??= []).push(...lines);
}
