/**
 * `@framework/sveltekit`: mounts `@framework/auth` and `@framework/trigger`
 * webhooks in a SvelteKit 2 app through `handle` hooks, with guards that
 * throw SvelteKit's own `redirect` / `error`.
 * @example
 * ```ts
 * // src/hooks.server.ts
 * import { sequence } from '@sveltejs/kit';
 * import { building } from '$app/environment';
 * import { authHandle, triggerHandle } from '@framework/sveltekit';
 *
 * export const handle = sequence(triggerHandle(runtime), authHandle(auth, { building }));
 * ```
 * @module
 */
export { authHandle, type AuthHandleOptions, type AuthSource } from './handle.js';
export { requireUser, requireRole, type RequireUserOptions } from './guards.js';
export { forwardCookies } from './cookies.js';
export { triggerHandle, type RuntimeSource, type WebhookRuntime } from './triggers.js';
export { securityHeaders } from './security-headers.js';
export type { AuthLocals } from './locals.js';
