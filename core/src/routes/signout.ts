/**
 * `GET /signout` (confirmation page) and `POST /signout`. A body field
 * `everywhere=true` ends all of the user's sessions (not from an impersonation).
 * @internal
 * @module
 */
import { readCookie } from '../http/cookies.js';
import { signOutPage } from '../pages/pages.js';
import type { ActionResult, RouteContext, SignedOutSession } from '../contract/types.js';
import { clearSessionCookie, csrfFor, resolveCallbackUrl } from './helpers.js';
import { emit } from './emit.js';
import { coreMessages } from '../i18n/core/index.js';

export async function signOutPageAction(ctx: RouteContext): Promise<ActionResult> {
  const { token, cookie } = await csrfFor(ctx);
  const callbackUrl = await resolveCallbackUrl(ctx, ctx.url.searchParams.get('callbackUrl'));
  return {
    status: 200,
    html: signOutPage({ t: coreMessages.for(ctx), basePath: ctx.auth.config.basePath, csrfToken: token, callbackUrl }),
    cookies: cookie ? [cookie] : [],
  };
}

/**
 * `POST /signout`: ends the browser's session and clears its cookie. `everywhere=true` also ends the user's other
 * sessions, except from an impersonation (`admin()`): an admin acting as the user ends only this session, never
 * the user's own elsewhere. Every plugin's `signedOut` hook then runs with whose session it was and may clear more
 * cookies (`admin()` ends the admin's own session sealed beside an impersonation).
 */
export async function signOutAction(ctx: RouteContext): Promise<ActionResult> {
  const value = readCookie(ctx.request.headers.get('cookie'), ctx.auth.config.cookies.sessionToken.name);
  const everywhere = ctx.body.everywhere === 'true';
  const hooks = ctx.auth.hooks.signedOut;
  // Whose session it is, read only when something needs it: an app or plugin listening, or `everywhere`.
  const wanted = everywhere || hooks.length > 0 || ctx.auth.events?.onSignOut !== undefined;
  const read = value && wanted ? await ctx.auth.strategy.read(value) : undefined;
  const ended: SignedOutSession =
    read?.status === 'valid'
      ? { user: read.user, ...(read.impersonatedBy !== undefined ? { impersonatedBy: read.impersonatedBy } : {}) }
      : { user: null };
  if (value) await ctx.auth.strategy.revoke(value, everywhere && ended.impersonatedBy === undefined);
  const cookies = [clearSessionCookie(ctx.auth)];
  for (const hook of hooks) cookies.push(...((await hook(ctx, ended)) ?? []));
  if (read && ctx.auth.events?.onSignOut) await emit(ctx, 'onSignOut', { user: ended.user, everywhere });
  const url = await resolveCallbackUrl(ctx, ctx.body.callbackUrl ?? ctx.url.searchParams.get('callbackUrl'));
  if (ctx.wantsJson) return { status: 200, json: { ok: true, url }, cookies };
  return { status: 303, redirect: url, cookies };
}
