/**
 * `GET /error` and `GET /verify-request`.
 * @internal
 * @module
 */
import { errorPage, verifyRequestPage } from '../pages/pages.js';
import type { ActionResult, RouteContext } from '../contract/types.js';

export function errorPageAction(ctx: RouteContext): ActionResult {
  const code = ctx.url.searchParams.get('error');
  if (ctx.wantsJson) return { status: 200, json: { error: code ?? 'Default' } };
  return { status: 200, html: errorPage({ code, signInUrl: ctx.auth.config.pages.signIn }) };
}

export function verifyRequestAction(): ActionResult {
  return { status: 200, html: verifyRequestPage() };
}
