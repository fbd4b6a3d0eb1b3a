/**
 * How sign-ins and sign-outs change the browser's set of accounts: a sign-in as another user keeps the account
 * that was active (under a fresh token, same expiry) beside the new one, within `maximumSessions`; a sign-out ends
 * every account of the set.
 * @module
 * @internal
 */
import {
  clientOf,
  readCookie,
  storageOf,
  type OutCookie,
  type RouteContext,
  type SignInSubject,
} from '../../plugin-kit.js';
import {
  clearDeviceSetCookie,
  deviceSetCookie,
  hasDeviceSetCookie,
  liveOthers,
  liveSession,
  sealedTokens,
  type DeviceSession,
} from './device-set.js';

/**
 * Remembers, per sign-in request, the account whose session the sign-in is about to rotate away. Read in the
 * `beforeSession` hook (the last step before the core issues the new session and deletes the one the browser
 * sent); nothing is written there, so a sign-in that another hook interrupts (a second factor) changes nothing.
 */
export class SignInCarry {
  /** The account to keep, and its user's session version then (see {@link SignInCarry.keep}). */
  readonly #kept = new WeakMap<Request, { session: DeviceSession; version: number | null }>();

  /** The `beforeSession` hook: notes the browser's live session when it is another user's own (not an impersonation). */
  async note(ctx: RouteContext, subject: SignInSubject): Promise<undefined> {
    const value = readCookie(ctx.request.headers.get('cookie'), ctx.auth.config.cookies.sessionToken.name);
    if (!value) return undefined;
    const previous = await liveSession(ctx.auth, value);
    if (previous && previous.impersonatedBy === undefined && previous.user.id !== subject.user.id)
      this.#kept.set(ctx.request, {
        session: previous,
        version: await storageOf(ctx).getSessionVersion(previous.user.id),
      });
    return undefined;
  }

  /**
   * The `afterSignIn` hook: the set becomes the live others (less any session of the user who just signed in, which
   * the new session replaces and which is revoked) plus the account that was active, re-issued (the token the
   * browser sent stays rotated away); past `maximumSessions`, the accounts added longest ago are revoked and
   * dropped. Answers the rewritten sealed cookie, or nothing when the browser holds no set and kept no account.
   * When every session of the kept account's user ended meanwhile (a ban, a password reset, sign-out everywhere:
   * each bumps the user's session version), the re-issued session is revoked at once and not kept, so no session
   * outlives that.
   */
  async keep(
    ctx: RouteContext,
    subject: SignInSubject,
    maximumSessions: number,
  ): Promise<{ cookies: OutCookie[] } | undefined> {
    const noted = this.#kept.get(ctx.request);
    const previous = noted?.session;
    this.#kept.delete(ctx.request);
    if (!previous && !hasDeviceSetCookie(ctx)) return undefined;
    const { auth } = ctx;
    const others: DeviceSession[] = [];
    for (const other of await liveOthers(ctx)) {
      if (other.user.id === subject.user.id || other.user.id === previous?.user.id)
        await auth.strategy.revoke(other.token);
      else others.push(other);
    }
    // With room for one account only, the one that was active is not kept (nothing to issue, then revoke).
    if (previous && maximumSessions > 1) {
      const remaining = Math.max(1, Math.ceil((previous.expires.getTime() - auth.clock.now()) / 1000));
      const issued = await auth.strategy.issue({
        user: previous.user,
        account: null,
        client: clientOf(ctx),
        maxAge: remaining,
        // The same sign-in going on: a freshness check must not see a new one.
        ...(previous.authTime ? { authTime: previous.authTime } : {}),
      });
      // Checked after the issue: an ending of all sessions that lands later deletes this one too.
      if ((await storageOf(ctx).getSessionVersion(previous.user.id)) !== noted!.version)
        await auth.strategy.revoke(issued.value);
      else {
        const live = await liveSession(auth, issued.value);
        if (live) others.push(live);
      }
    }
    // The active account counts toward the cap.
    while (others.length + 1 > maximumSessions) await auth.strategy.revoke(others.shift()!.token);
    return { cookies: [await deviceSetCookie(ctx, others)] };
  }
}

/**
 * The `signedOut` hook: `POST /signout` ends every account of the browser's set, not only the active one, so a
 * shared computer keeps nobody signed in after "Sign out". To sign one account out, `POST /multi-session/revoke`.
 */
export async function signOutAll(ctx: RouteContext): Promise<OutCookie[]> {
  if (!hasDeviceSetCookie(ctx)) return [];
  for (const token of await sealedTokens(ctx)) await ctx.auth.strategy.revoke(token);
  return [clearDeviceSetCookie(ctx.auth)];
}
