/**
 * The browser's set of signed-in accounts: the session cookie (the active account) and one HttpOnly cookie holding
 * the session tokens of the others, sealed with the kit's `seal` (a JWE under a key derived from the auth secret for
 * this purpose only). Every token is checked against storage through the session strategy on every use: a session
 * that ended, expired, or whose user was banned (which ends their sessions) drops out without a word.
 * @module
 * @internal
 */
import {
  expiredCookie,
  readCookie,
  seal,
  unseal,
  type AuthInternals,
  type OutCookie,
  type RouteContext,
} from '../../plugin-kit.js';
import type { User } from '../../index.js';

const PURPOSE = 'multi-session';
/** The most tokens a sealed cookie is read with; `maximumSessions` is at most 20, so never more than it. */
const MAX_TOKENS = 20;
/** The longest token accepted from the sealed cookie, in characters (a database session token is 49). */
const MAX_TOKEN_LENGTH = 256;

/** One signed-in account of the browser: its live session. */
export interface DeviceSession {
  /** The session cookie value. Server-side only: never sent in a JSON answer or a page. */
  token: string;
  /** The session's public id (the part of the token before the dot). */
  sessionId: string;
  user: User;
  expires: Date;
  /** The admin acting as `user`, when the session is an impersonation (`admin()`). */
  impersonatedBy?: string;
  /** The slid expiry when the read moved it forward. */
  refreshedExpires?: Date;
  /** When the person signed in (the session's `authTime`), kept when the session is re-issued. */
  authTime?: Date;
}

const secure = (auth: AuthInternals) => auth.config.cookies.sessionToken.options.secure;

/**
 * Whether the session cookie is a `__Host-` cookie (the default over HTTPS). The set is one too then: a host that
 * shares the site (a sibling subdomain) cannot write a `__Host-` cookie, so it can no more plant an account in the
 * set than it can plant the session cookie. A `__Secure-` set would let it add its own account to a victim's browser.
 */
const hostOnly = (auth: AuthInternals) => auth.config.cookies.sessionToken.name.startsWith('__Host-');

/**
 * The cookie holding the other accounts' sealed tokens: `__Host-framework.multi-session` when the session cookie
 * is `__Host-`, else `framework.multi-session` (`__Secure-` over HTTPS).
 */
export const deviceSetCookieName = (auth: AuthInternals) =>
  `${hostOnly(auth) ? '__Host-' : secure(auth) ? '__Secure-' : ''}framework.multi-session`;

/**
 * HttpOnly, SameSite=Lax; sent only to the routes under `basePath` (where sign-ins and these routes are served),
 * except as a `__Host-` cookie, whose `Path` must be `/`.
 */
const attributes = (auth: AuthInternals): OutCookie['options'] => ({
  httpOnly: true,
  secure: secure(auth),
  sameSite: 'lax',
  path: hostOnly(auth) ? '/' : auth.config.basePath || '/',
});

/** The session behind `token` when it is live (checked against storage now); null otherwise. */
export async function liveSession(auth: AuthInternals, token: string): Promise<DeviceSession | null> {
  const read = await auth.strategy.read(token, { fresh: true });
  if (read.status !== 'valid' || read.sessionId === undefined) return null;
  const out: DeviceSession = { token, sessionId: read.sessionId, user: read.user, expires: read.expires };
  if (read.impersonatedBy !== undefined) out.impersonatedBy = read.impersonatedBy;
  if (read.refreshed) out.refreshedExpires = read.refreshed.expires;
  if (read.authTime) out.authTime = read.authTime;
  return out;
}

/** The tokens in the browser's sealed cookie, as sealed (unchecked); none when absent, tampered or expired. */
export async function sealedTokens(ctx: RouteContext): Promise<string[]> {
  const { auth } = ctx;
  const payload = await unseal(ctx.cookies[deviceSetCookieName(auth)], auth.signingKey, PURPOSE, auth.clock);
  const tokens = payload?.t;
  if (!Array.isArray(tokens)) return [];
  return tokens
    .filter((t): t is string => typeof t === 'string' && t.length > 0 && t.length <= MAX_TOKEN_LENGTH)
    .slice(0, MAX_TOKENS);
}

/** Whether the request carries the sealed cookie at all (valid or not). */
export const hasDeviceSetCookie = (ctx: RouteContext) => ctx.cookies[deviceSetCookieName(ctx.auth)] !== undefined;

/**
 * The other accounts (not `exceptSessionId`) whose sessions are live, oldest first, one per session. Impersonation
 * sessions never count: an admin's visit stays in the one browser tab state `admin()` manages.
 */
export async function liveOthers(ctx: RouteContext, exceptSessionId?: string): Promise<DeviceSession[]> {
  const out: DeviceSession[] = [];
  for (const token of await sealedTokens(ctx)) {
    const live = await liveSession(ctx.auth, token);
    if (!live || live.impersonatedBy !== undefined || live.sessionId === exceptSessionId) continue;
    if (out.some((s) => s.sessionId === live.sessionId)) continue;
    out.push(live);
  }
  return out;
}

/** The browser's accounts: the active one (the session cookie's, when live) and the others, oldest first. */
export interface DeviceSet {
  active: DeviceSession | null;
  others: DeviceSession[];
  /** Whether some token of the sealed cookie dropped out (the cookie should be written again). */
  dropped: boolean;
  /**
   * Whether `active` came out of the sealed cookie because the session cookie held no live session (missing,
   * expired, revoked elsewhere, ended by a ban): its session cookie must be set.
   */
  promoted: boolean;
}

/**
 * Reads the browser's accounts, each checked against storage. When the session cookie holds no live session but
 * the set does, the account added most recently becomes the active one (`promoted`).
 */
export async function readDeviceSet(ctx: RouteContext): Promise<DeviceSet> {
  const { auth } = ctx;
  const value = readCookie(ctx.request.headers.get('cookie'), auth.config.cookies.sessionToken.name);
  let active = value ? await liveSession(auth, value) : null;
  const sealed = await sealedTokens(ctx);
  const others = sealed.length > 0 ? await liveOthers(ctx, active?.sessionId) : [];
  // A cookie that no longer opens (tampered, forged, expired) or whose accounts ended is written again.
  let dropped = hasDeviceSetCookie(ctx) && (sealed.length === 0 || others.length !== sealed.length);
  const promoted = active === null && others.length > 0;
  if (promoted) {
    active = others.pop()!;
    dropped = true;
  }
  return { active, others, dropped, promoted };
}

/**
 * The sealed cookie holding `others`' tokens (in this order), valid as long as a session may last
 * (`session.maxAge`); an expiring cookie when there are none.
 */
export async function deviceSetCookie(ctx: RouteContext, others: readonly DeviceSession[]): Promise<OutCookie> {
  const { auth } = ctx;
  const name = deviceSetCookieName(auth);
  if (others.length === 0) return expiredCookie(name, attributes(auth));
  const maxAge = auth.config.session.maxAge;
  const value = await seal({ t: others.map((s) => s.token) }, auth.signingKey, PURPOSE, maxAge, auth.clock);
  return { name, value, options: { ...attributes(auth), maxAge } };
}

/** The expiring sealed cookie. */
export const clearDeviceSetCookie = (auth: AuthInternals): OutCookie =>
  expiredCookie(deviceSetCookieName(auth), attributes(auth));
