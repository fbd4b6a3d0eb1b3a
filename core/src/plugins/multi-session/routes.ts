/**
 * The routes of `multiSession()`: `GET /multi-session/list`, `POST /multi-session/set-active`,
 * `POST /multi-session/revoke`, and the no-JS page `GET /multi-session`.
 * @module
 * @internal
 */
import {
  badRequest,
  clearSessionCookie,
  csrfFor,
  done,
  impersonationRestricted,
  pageLocale,
  sessionCookie,
  type ActionResult,
  type OutCookie,
  type RouteContext,
} from '../../plugin-kit.js';
import { deviceSetCookie, readDeviceSet, type DeviceSession, type DeviceSet } from './device-set.js';
import { MULTI_SESSION_ERRORS } from './errors.js';
import { describeSession as describe, listOf } from './info.js';
import { accountsPage } from './pages.js';

/** The session cookie a read owes the browser: the promoted account's, or the slid one; none otherwise. */
function activeCookie(ctx: RouteContext, set: DeviceSet): OutCookie[] {
  const active = set.active;
  if (!active || (!set.promoted && !active.refreshedExpires)) return [];
  return [sessionCookie(ctx.auth, active.token, active.refreshedExpires ?? active.expires)];
}

/**
 * The cookies a read owes the browser: the session cookie of an account promoted to active or slid, and the sealed
 * cookie when an account dropped out.
 */
async function readCookies(ctx: RouteContext, set: DeviceSet): Promise<OutCookie[]> {
  const out = activeCookie(ctx, set);
  if (set.dropped) out.push(await deviceSetCookie(ctx, set.others));
  return out;
}

const pagePath = (ctx: RouteContext) => `${ctx.auth.config.basePath}/multi-session`;

/** `GET /multi-session/list`: `{ sessions: DeviceSessionInfo[] }` (empty for a browser with no live account). */
export async function listAction(ctx: RouteContext): Promise<ActionResult> {
  const set = await readDeviceSet(ctx);
  return { status: 200, json: { sessions: listOf(set) }, cookies: await readCookies(ctx, set) };
}

/** `GET /multi-session`: the page (JSON clients get the list); a browser with no account goes to sign in. */
export async function pageAction(ctx: RouteContext): Promise<ActionResult> {
  if (ctx.wantsJson) return listAction(ctx);
  const set = await readDeviceSet(ctx);
  const cookies = await readCookies(ctx, set);
  const back = `${ctx.auth.config.pages.signIn}?callbackUrl=${encodeURIComponent(pagePath(ctx))}`;
  if (!set.active && set.others.length === 0) return { status: 303, redirect: back, cookies };
  const { token, cookie } = await csrfFor(ctx);
  const html = accountsPage({
    basePath: ctx.auth.config.basePath,
    csrfToken: token,
    addAccountUrl: back,
    sessions: listOf(set),
    locale: pageLocale(ctx),
  });
  return { status: 200, html, cookies: [...cookies, ...(cookie ? [cookie] : [])] };
}

/**
 * The browser's set with the session the body names.
 * @throws AuthError `INVALID_REQUEST` (400) without `sessionId`; `IMPERSONATION_RESTRICTED` (403) from an
 *   impersonation session; `DEVICE_SESSION_NOT_FOUND` (404) when it is not one of this browser's live accounts.
 */
async function named(ctx: RouteContext): Promise<{ set: DeviceSet; target: DeviceSession }> {
  const sessionId = ctx.body.sessionId;
  if (typeof sessionId !== 'string' || sessionId.length === 0) throw badRequest('Send the `sessionId` of an account');
  const set = await readDeviceSet(ctx);
  if (set.active?.impersonatedBy !== undefined) throw impersonationRestricted();
  const target = set.active?.sessionId === sessionId ? set.active : set.others.find((s) => s.sessionId === sessionId);
  if (!target) throw MULTI_SESSION_ERRORS.error('DEVICE_SESSION_NOT_FOUND');
  return { set, target };
}

/**
 * `POST /multi-session/set-active {sessionId}`: the session cookie becomes that account's; the account that was
 * active joins the others. Answers `{ok, session}`; browsers go back to the page.
 */
export async function setActiveAction(ctx: RouteContext): Promise<ActionResult> {
  const { set, target } = await named(ctx);
  if (target === set.active)
    return done(ctx, { session: describe(target, true) }, pagePath(ctx), await readCookies(ctx, set));
  const others = [...set.others.filter((s) => s !== target), ...(set.active ? [set.active] : [])];
  const cookies = [
    sessionCookie(ctx.auth, target.token, target.refreshedExpires ?? target.expires),
    await deviceSetCookie(ctx, others),
  ];
  return done(ctx, { session: describe(target, true) }, pagePath(ctx), cookies);
}

/**
 * `POST /multi-session/revoke {sessionId}`: ends that account's session (its stored session is deleted). When it
 * was the active one, the account most recently added to the others becomes active, or the browser is signed out
 * when none is left. Answers `{ok, active}` (the active session id now, or null); browsers go back to the page.
 */
export async function revokeAction(ctx: RouteContext): Promise<ActionResult> {
  const { set, target } = await named(ctx);
  await ctx.auth.strategy.revoke(target.token);
  if (target !== set.active) {
    const others = set.others.filter((s) => s !== target);
    const cookies = [...activeCookie(ctx, set), await deviceSetCookie(ctx, others)];
    return done(ctx, { active: set.active?.sessionId ?? null }, pagePath(ctx), cookies);
  }
  const next = set.others.at(-1);
  const others = set.others.slice(0, -1);
  const cookies = [
    next ? sessionCookie(ctx.auth, next.token, next.refreshedExpires ?? next.expires) : clearSessionCookie(ctx.auth),
    await deviceSetCookie(ctx, others),
  ];
  return done(ctx, { active: next?.sessionId ?? null }, pagePath(ctx), cookies);
}
