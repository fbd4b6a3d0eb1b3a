/**
 * `GET /error` and `GET /verify-request`.
 * @internal
 * @module
 */
import { errorPage, verifyRequestPage } from '../pages/pages.js';
import type { ActionResult, RouteContext } from '../contract/types.js';
import { coreMessages } from '../i18n/core/index.js';

export function errorPageAction(ctx: RouteContext): ActionResult {
  const code = ctx.url.searchParams.get('error');
  if (ctx.wantsJson) return { status: 200, json: { error: code ?? 'Default' } };
  return { status: 200, html: errorPage({ t: coreMessages.for(ctx), code, signInUrl: ctx.auth.config.pages.signIn }) };
}

export function verifyRequestAction(ctx: RouteContext): ActionResult {
  return { status: 200, html: verifyRequestPage(coreMessages.for(ctx)) };
}
