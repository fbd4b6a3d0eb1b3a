/**
 * The one sign-in completion every route (and plugin) ends in: the `signIn`
 * callback, the account-takeover defence on a first proof of the email, the
 * writes (user, account), the session issue with rotation, `isNewUser` and
 * the new-user page, and the callback URL. Routes never re-implement these
 * steps.
 * @internal
 * @module
 */
import type { SignInParams } from '../callbacks.js';
import { readCookie, type OutCookie } from '../http/cookies.js';
import type { Account, Profile, User } from '../types.js';
import type { ActionResult, RouteContext, SignInSubject } from '../contract/types.js';
import { authError } from '../errors/auth-error.js';
import { callUser, resolveCallbackUrl, sessionCookie } from './helpers.js';
import { resetCredentialsOnFirstProof } from './pre-hijacking.js';
import { emit, emitBeforeSignIn } from './emit.js';
import type { SessionClient } from '../session/types.js';

/** What a route hands to {@link completeSignIn}. */
export interface SignInAttempt {
  /** The user as the `signIn` callback sees it: the stored user, or the one about to be created (`id` may be empty). */
  user: User;
  account: Account | null;
  profile?: Profile;
  /** For the email provider (`verificationRequest: false` when the link is being used). */
  email?: SignInParams['email'];
  /** The submitted fields, for credentials. */
  credentials?: Record<string, string>;
  /**
   * True when this sign-in proves the user owns `user.email` through a
   * channel other than the link sent at their own sign-up: a magic link, or
   * an OAuth provider with `trustEmail` reporting the email verified. See
   * `pre-hijacking.ts`.
   */
  emailProven?: boolean;
  /** Whether the user is created by this sign-in (the jwt trigger `signUp`, and `pages.newUser`). */
  isNewUser: boolean;
  /**
   * Writes the sign-in needs (create the user, link the account), run only
   * after the `signIn` callback allowed it. Returns the stored user.
   */
  persist?: () => Promise<User>;
  /** Where to go after sign-in, already checked (`resolveCallbackUrl`). */
  callbackUrl: string;
  /** Extra cookies for the answer (e.g. clearing a flow cookie). */
  cookies?: OutCookie[];
  /** Extra fields for the JSON answer. */
  json?: Record<string, unknown>;
}

/**
 * Completes a sign-in and answers it: JSON `{ok: true, url, ...json}` for
 * JSON clients, a 303 to `url` otherwise, with the new session cookie.
 *
 * Steps, in order: the `signIn` callback (false → `ACCESS_DENIED`; a URL
 * string → the sign-in is refused and the browser sent there, as in
 * Auth.js: 303 for browsers, 403 `ACCESS_DENIED` with `url` for JSON
 * clients, and nothing is written); on a first proof of the email, the
 * credentials set while it was unverified are removed and the user's
 * sessions revoked; the writes (`persist`); the plugins' `beforeSession`
 * hooks, any of which may answer instead (a second-factor challenge: no
 * session then); a new session, rotating the one
 * the browser sent (OWASP ASVS V3.2.1); the route's rate-limit attempt is
 * settled as a success (its failure budget resets); the `afterSignIn`
 * hooks; `url` = `pages.newUser`
 * for a new user, else `callbackUrl`.
 * @throws AuthError `ACCESS_DENIED` (403) when the callback denies;
 *   `CALLBACK_ERROR` (500) when a callback throws.
 */
export async function completeSignIn(ctx: RouteContext, attempt: SignInAttempt): Promise<ActionResult> {
  const { auth } = ctx;
  const params: SignInParams = { user: attempt.user, account: attempt.account };
  if (attempt.profile !== undefined) params.profile = attempt.profile;
  if (attempt.email !== undefined) params.email = attempt.email;
  if (attempt.credentials !== undefined) params.credentials = attempt.credentials;
  const redirectTo = await allowSignIn(ctx, params);
  if (redirectTo !== undefined) return deniedWithRedirect(ctx, redirectTo, attempt.cookies);

  await emitBeforeSignIn(ctx, { user: attempt.user, account: attempt.account, isNewUser: attempt.isNewUser });
  if (attempt.emailProven && !attempt.isNewUser && attempt.user.id) {
    await resetCredentialsOnFirstProof(ctx, attempt.user, attempt.account);
  }
  const user = attempt.persist ? await attempt.persist() : attempt.user;
  const subject = { user, account: attempt.account, isNewUser: attempt.isNewUser, callbackUrl: attempt.callbackUrl };
  for (const hook of auth.hooks.beforeSession) {
    const answer = await hook(ctx, subject);
    if (answer) return { ...answer, cookies: [...(answer.cookies ?? []), ...(attempt.cookies ?? [])] };
  }

  return issueSignIn(ctx, subject, attempt);
}

/**
 * The end of every sign-in, once every check has passed (the `beforeSession` hooks included): a new session that
 * rotates the one the browser sent (OWASP ASVS V3.2.1), the route's rate-limit attempt settled as a success, the
 * `afterSignIn` hooks, the `onSignUp` / `onSignIn` events, and the answer (JSON `{ok, url}` or a 303). Plugins that
 * interrupt a sign-in (a second factor) call it when the interruption is resolved; their request counts its attempt
 * against the first step's account (`attemptIdentity` in `rate-limited.ts`), so this success settles that step too.
 */
export async function issueSignIn(
  ctx: RouteContext,
  subject: SignInSubject,
  extras: Pick<SignInAttempt, 'profile' | 'cookies' | 'json'> = {},
): Promise<ActionResult> {
  const { auth } = ctx;
  const { user } = subject;
  const previous = readCookie(ctx.request.headers.get('cookie'), auth.config.cookies.sessionToken.name);
  // Whose session the browser held, read before the issue rotates it away, only for plugins that ask.
  const replaced = previous && auth.hooks.signInReplaced.length > 0 ? await otherUser(auth, previous, user) : null;
  const issued = await callUser(auth, 'jwt callback', () =>
    auth.strategy.issue({
      user,
      account: subject.account,
      isNewUser: subject.isNewUser,
      ...(extras.profile !== undefined ? { profile: extras.profile } : {}),
      ...(previous ? { previous } : {}),
      client: clientOf(ctx),
    }),
  );
  await ctx.attempt?.succeeded();
  const hookCookies: OutCookie[] = [];
  for (const hook of auth.hooks.afterSignIn) hookCookies.push(...((await hook(ctx, subject))?.cookies ?? []));
  if (replaced) for (const hook of auth.hooks.signInReplaced) await hook(ctx, replaced, subject);
  if (subject.isNewUser) await emit(ctx, 'onSignUp', { user, account: subject.account });
  await emit(ctx, 'onSignIn', { user, account: subject.account, isNewUser: subject.isNewUser });
  const url = subject.isNewUser && auth.config.pages.newUser ? auth.config.pages.newUser : subject.callbackUrl;
  const cookies = [sessionCookie(auth, issued.value, issued.expires), ...(extras.cookies ?? []), ...hookCookies];
  if (ctx.wantsJson) return { status: 200, json: { ok: true, url, ...extras.json }, cookies };
  return { status: 303, redirect: url, cookies };
}

/** The user of the valid session `value`, when it is not `user`; else null. */
async function otherUser(auth: RouteContext['auth'], value: string, user: User): Promise<User | null> {
  const read = await auth.strategy.read(value, { fresh: true });
  return read.status === 'valid' && read.user.id !== user.id ? read.user : null;
}

/**
 * Runs the `signIn` callback. Returns the (checked) URL when the callback
 * answered with one: the caller refuses the sign-in and redirects there.
 * @throws AuthError `ACCESS_DENIED` (403) when it answered false.
 */
export async function allowSignIn(
  ctx: RouteContext,
  params: Parameters<NonNullable<RouteContext['auth']['callbacks']['signIn']>>[0],
): Promise<string | undefined> {
  const cb = ctx.auth.callbacks.signIn;
  if (!cb) return undefined;
  const verdict = await callUser(ctx.auth, 'signIn callback', () => cb(params));
  if (verdict === false) throw authError('ACCESS_DENIED');
  if (typeof verdict === 'string') return resolveCallbackUrl(ctx, verdict);
  return undefined;
}

/** The answer when the `signIn` callback returned a URL: no session, the browser goes there. */
export function deniedWithRedirect(ctx: RouteContext, url: string, cookies: OutCookie[] = []): ActionResult {
  if (ctx.wantsJson) {
    const error = authError('ACCESS_DENIED');
    return { status: 403, json: { ...error.toJSON(), url }, cookies };
  }
  return { status: 303, redirect: url, cookies };
}

/** The signing-in client as recorded on a database session: its `User-Agent` and IP address. */
export function clientOf(ctx: Pick<RouteContext, 'request' | 'ip'>): SessionClient {
  const userAgent = ctx.request.headers.get('user-agent');
  return { ...(userAgent ? { userAgent } : {}), ...(ctx.ip ? { ip: ctx.ip } : {}) };
}
