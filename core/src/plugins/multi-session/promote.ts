/**
 * When a route's answer ends the browser's active session (it clears the session cookie: account deletion,
 * `POST /sessions/revoke` of the current session, `POST /admin/stop-impersonating` without an admin session to
 * restore, or `GET /session` finding the session expired, revoked elsewhere or ended by a ban), the account the
 * browser added most recently among its still-live others becomes active instead, and accounts that ended drop out.
 * @module
 * @internal
 */
import {
  publicSession,
  readCookie,
  withoutCookie,
  sessionCookie,
  type ActionResult,
  type OutCookie,
  type RouteContext,
} from '../../plugin-kit.js';
import { deviceSetCookie, deviceSetCookieName, hasDeviceSetCookie, liveOthers } from './device-set.js';

/** Whether `result` sets (or clears) the cookie `name`, and whether the last line for it clears it. */
function lastWrite(result: ActionResult, name: string): 'set' | 'cleared' | undefined {
  let last: 'set' | 'cleared' | undefined;
  for (const c of result.cookies ?? [])
    if (c.name === name) last = c.options.maxAge === 0 || c.value === '' ? 'cleared' : 'set';
  for (const line of result.setCookies?.getSetCookie() ?? [])
    if (line.startsWith(`${name}=`))
      last = /;\s*max-age=0(?:;|$)/i.test(line) || line.startsWith(`${name}=;`) ? 'cleared' : 'set';
  return last;
}

/**
 * The `afterAction` hook. Acts only when the request carries the sealed set and the answer clears the session
 * cookie without writing the set itself (`POST /signout` and `POST /multi-session/revoke` decide the set on their
 * own); then reads the set's tokens against storage, so a browser without a set pays nothing. The most recently
 * added live account's session cookie replaces the clearing one, and the set is written again without it and
 * without the accounts that ended; with none left, the answer stands (the browser is signed out) and the set is
 * cleared. `GET /session` answers the promoted account's session instead of `null`.
 */
export async function promoteNext(ctx: RouteContext, result: ActionResult): Promise<ActionResult | undefined> {
  const { auth } = ctx;
  if (!hasDeviceSetCookie(ctx)) return undefined;
  const name = auth.config.cookies.sessionToken.name;
  if (lastWrite(result, name) !== 'cleared' || lastWrite(result, deviceSetCookieName(auth)) !== undefined)
    return undefined;
  // The session the request held may still be listed in the set (never, as the plugin writes it; a replayed one).
  const held = readCookie(ctx.request.headers.get('cookie'), name);
  const others = (await liveOthers(ctx)).filter((s) => s.token !== held);
  const next = others.pop();
  const setCookie = await deviceSetCookie(ctx, others);
  if (!next) return { ...result, cookies: [...(result.cookies ?? []), setCookie] };
  const expires = next.refreshedExpires ?? next.expires;
  const cookies: OutCookie[] = [sessionCookie(auth, next.token, expires), setCookie];
  const out = withoutCookie(result, name);
  out.cookies = [...out.cookies!, ...cookies];
  if (ctx.request.method === 'GET' && ctx.route === `${auth.config.basePath}/session` && result.json === null) {
    // What `GET /session` answers for a valid cookie, shaped by the app's `session` callback.
    const headers = new Headers(ctx.request.headers);
    headers.set('cookie', `${name}=${next.token}`);
    const state = await auth.readSession(new Request(ctx.request.url, { headers }));
    out.json = state.session ? publicSession(state.session) : null;
  }
  return out;
}
