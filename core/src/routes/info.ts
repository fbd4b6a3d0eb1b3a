/**
 * `GET /providers`, `GET /csrf`, `GET /session` and `POST /session`.
 * @internal
 * @module
 */
import type { ActionResult, RouteContext } from '../contract/types.js';
import { callUser, clearSessionCookie, csrfFor, publicSession, sessionCookie } from './helpers.js';
import { readCookie } from '../http/cookies.js';

/**
 * `GET /providers`: each provider with the URLs it really serves. Credentials, email and OAuth/OIDC sign in at
 * `signin/:id` and `callback/:id`; a plugin's sign-in method (a passkey) lists the URLs of its own routes.
 */
export function providersAction(ctx: RouteContext): ActionResult {
  const base = `${ctx.origin}${ctx.auth.config.basePath}`;
  const json: Record<string, unknown> = {};
  for (const p of ctx.auth.providers.values()) {
    json[p.id] = {
      id: p.id,
      name: p.name,
      type: p.type,
      signinUrl: `${base}/signin/${p.id}`,
      callbackUrl: `${base}/callback/${p.id}`,
    };
  }
  for (const m of ctx.auth.signInMethods) {
    const urls = Object.fromEntries(Object.entries(m.urls).map(([name, path]) => [name, `${base}${path}`]));
    json[m.id] = { id: m.id, name: m.name, type: m.type, ...urls };
  }
  return { status: 200, json };
}

export async function csrfAction(ctx: RouteContext): Promise<ActionResult> {
  const { token, cookie } = await csrfFor(ctx);
  return { status: 200, json: { csrfToken: token }, cookies: cookie ? [cookie] : [] };
}

export async function sessionAction(ctx: RouteContext): Promise<ActionResult> {
  const state = await ctx.auth.readSession(ctx.request);
  return { status: 200, json: state.session ? publicSession(state.session) : null, setCookies: state.headers };
}

/**
 * `POST /session`: with the jwt strategy runs the `jwt` callback with trigger `update` and the posted data;
 * with database sessions extends the expiry.
 */
export async function sessionUpdateAction(ctx: RouteContext): Promise<ActionResult> {
  const value = readCookie(ctx.request.headers.get('cookie'), ctx.auth.config.cookies.sessionToken.name);
  if (!value) return { status: 200, json: null };
  const data = ctx.body.data !== undefined ? safeJson(ctx.body.data) : { ...ctx.body, csrfToken: undefined };
  const read = await callUser(ctx.auth, 'jwt callback', () => ctx.auth.strategy.update(value, data));
  if (read.status !== 'valid') return { status: 200, json: null, cookies: [clearSessionCookie(ctx.auth)] };
  let session = { user: read.user, expires: read.expires };
  if (ctx.auth.callbacks.session) {
    const cb = ctx.auth.callbacks.session;
    session = await callUser(ctx.auth, 'session callback', () =>
      cb({ session, user: read.user, ...(read.token ? { token: read.token } : {}) }),
    );
  }
  return {
    status: 200,
    json: publicSession(session),
    cookies: read.refreshed ? [sessionCookie(ctx.auth, read.refreshed.value, read.refreshed.expires)] : [],
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
