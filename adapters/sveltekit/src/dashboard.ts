/**
 * `dashboardHandle(options)`: the `@framework/dashboard` pages as a SvelteKit `handle` hook.
 * @module
 */
import type { Handle } from '@sveltejs/kit';
import { dashboardOf, type Dashboard, type DashboardOptions } from '@framework/dashboard';
import { clientInfo } from './handle.js';

/**
 * Answers requests under `options.basePath` (default `/_framework`) with the
 * dashboard, the client IP from `event.getClientAddress()`; other requests go
 * on to `resolve`. SvelteKit's own `csrf.checkOrigin` also covers its forms.
 * @example
 * ```ts
 * // src/hooks.server.ts
 * export const handle = sequence(dashboardHandle({ runtime, auth }), authHandle(auth));
 * ```
 */
export function dashboardHandle(options: DashboardOptions | Dashboard): Handle {
  const dashboard = dashboardOf(options);
  return async ({ event, resolve }) => (await dashboard.fetch(event.request, clientInfo(event))) ?? resolve(event);
}
