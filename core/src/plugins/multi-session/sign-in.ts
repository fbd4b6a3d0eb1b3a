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
import { Continuations } from './continuation.js';

/** The account a sign-in is about to rotate away, and its user's session version then. */
interface Noted {
  session: DeviceSession;
  version: number | null;
}

/**
 * Remembers, per sign-in request, the account whose session the sign-in is about to rotate away. Read in the
 * `beforeSession` hook (the last step before the core issues the new session and deletes the one the browser
 * sent); nothing is written there, so a sign-in that another hook interrupts (a second factor) changes nothing.
 */
export class SignInCarry {
  /** The account to keep, and its user's session version then (see {@link SignInCarry.keep}). */
  readonly #kept = new WeakMap<Request, Noted>();
  readonly #continuations = new Continuations();

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

  /** The `beforeAction` hook: notes the arrival of every POST that carries a session cookie (no storage read). */
  arrived(ctx: RouteContext): undefined {
    if (ctx.request.method === 'POST' && sessionToken(ctx) !== undefined) this.#continuations.arrived(ctx.request);
    return undefined;
  }

  /**
   * The `afterSignIn` hook: the set becomes the live others (less any session of the user who just signed in, which
   * the new session replaces and which is revoked) plus the account that was active, re-issued (the token the
   * browser sent stays rotated away); past `maximumSessions`, the accounts added longest ago are revoked and
   * dropped. Answers the rewritten sealed cookie, or nothing when the browser holds no set and kept no account.
   * When every session of the kept account's user ended meanwhile (a ban, a password reset, sign-out everywhere:
   * each bumps the user's session version), the re-issued session is revoked at once and not kept, so no session
   * outlives that. Sign-ins that carried the same token at once share one re-issue (see `continuation.ts`).
   */
  async keep(
    ctx: RouteContext,
    subject: SignInSubject,
    maximumSessions: number,
  ): Promise<{ cookies: OutCookie[] } | undefined> {
    const noted = this.#kept.get(ctx.request);
    this.#kept.delete(ctx.request);
    const { auth } = ctx;
    const token = sessionToken(ctx);
    const now = auth.clock.now();
    // Started before anything is awaited, so two sign-ins of one browser never both issue one.
    let continued = token === undefined ? undefined : this.#continuations.shared(ctx.request, token, now);
    const shared = continued !== undefined;
    // With room for one account only, the one that was active is not kept (nothing to issue, then revoke).
    if (!continued && noted && maximumSessions > 1)
      continued = this.#continuations.start(token!, now, () => reissue(ctx, noted));
    if (!continued && !hasDeviceSetCookie(ctx)) return undefined;
    const previousUser = noted?.session.user.id;
    const others: DeviceSession[] = [];
    for (const other of await liveOthers(ctx)) {
      if (other.user.id === subject.user.id || other.user.id === previousUser) await auth.strategy.revoke(other.token);
      else others.push(other);
    }
    const kept = continued ? await (shared ? continued.catch(() => null) : continued) : null;
    // A shared one is read again: another sign-in may have ended it since (a cap, the user signing in here).
    const live = kept && shared ? await liveSession(auth, kept.token) : kept;
    if (live && live.user.id === subject.user.id) await auth.strategy.revoke(live.token);
    else if (live && !others.some((o) => o.user.id === live.user.id)) others.push(live);
    // The active account counts toward the cap.
    while (others.length + 1 > maximumSessions) await auth.strategy.revoke(others.shift()!.token);
    return { cookies: [await deviceSetCookie(ctx, others)] };
  }
}

/** The session cookie the request carries, if any. */
const sessionToken = (ctx: RouteContext) =>
  readCookie(ctx.request.headers.get('cookie'), ctx.auth.config.cookies.sessionToken.name) ?? undefined;

/**
 * Issues the noted account's session again, with its expiry and sign-in time; null (and the new session revoked)
 * when every session of its user ended since the note (the user's session version moved).
 */
async function reissue(ctx: RouteContext, noted: Noted): Promise<DeviceSession | null> {
  const { auth } = ctx;
  const previous = noted.session;
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
  if ((await storageOf(ctx).getSessionVersion(previous.user.id)) !== noted.version) {
    await auth.strategy.revoke(issued.value);
    return null;
  }
  return liveSession(auth, issued.value);
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
