/**
 * `GET /signout` (confirmation page) and `POST /signout`. A body field
 * `everywhere=true` ends all of the user's sessions (database strategy).
 * @internal
 * @module
 */
import { readCookie } from '../http/cookies.js';
import { signOutPage } from '../pages/pages.js';
import type { ActionResult, RouteContext } from './context.js';
import { clearSessionCookie, csrfFor, resolveCallbackUrl } from './helpers.js';
import { emit } from './emit.js';

export async function signOutPageAction(ctx: RouteContext): Promise<ActionResult> {
  const { token, cookie } = await csrfFor(ctx);
  const callbackUrl = await resolveCallbackUrl(ctx, ctx.url.searchParams.get('callbackUrl'));
  return {
    status: 200,
    html: signOutPage({ basePath: ctx.auth.config.basePath, csrfToken: token, callbackUrl }),
    cookies: cookie ? [cookie] : [],
  };
}

export async function signOutAction(ctx: RouteContext): Promise<ActionResult> {
  const value = readCookie(ctx.request.headers.get('cookie'), ctx.auth.config.cookies.sessionToken.name);
  const everywhere = ctx.body.everywhere === 'true';
  // Who signs out is read only when an app listens for it.
  const read = value && ctx.auth.events?.onSignOut ? await ctx.auth.strategy.read(value) : undefined;
  if (value) await ctx.auth.strategy.revoke(value, everywhere);
  if (read) await emit(ctx, 'onSignOut', { user: read.status === 'valid' ? read.user : null, everywhere });
  const url = await resolveCallbackUrl(ctx, ctx.body.callbackUrl ?? ctx.url.searchParams.get('callbackUrl'));
  const cookies = [clearSessionCookie(ctx.auth)];
  if (ctx.wantsJson) return { status: 200, json: { ok: true, url }, cookies };
  return { status: 303, redirect: url, cookies };
}
