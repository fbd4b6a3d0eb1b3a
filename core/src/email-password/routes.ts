/**
 * The email-and-password account routes: sign-up, email verification,
 * forgot / reset password, password change and email change. Every POST is
 * CSRF-checked by the core's route policy before the action runs.
 * @internal
 * @module
 */
import { AuthError, badRequest } from '../errors.js';
import { hashPassword, verifyPassword } from '../password.js';
import { PASSWORD_PROVIDER, type PasswordAccounts } from '../password-accounts.js';
import { randomString, sha256Hex } from '../crypto.js';
import type { Action, PluginRoute } from '../plugins/types.js';
import { StorageConflictError, type AdapterUser } from '../storage/types.js';
import type { User } from '../types.js';
import type { ActionResult, RouteContext } from '../routes/context.js';
import { completeSignIn, clientOf } from '../routes/complete-sign-in.js';
import { parseEmailAddress } from '../routes/email.js';
import { csrfFor, resolveCallbackUrl, sessionCookie } from '../routes/helpers.js';
import { resetCredentialsOnFirstProof } from '../routes/pre-hijacking.js';
import { emit } from '../routes/emit.js';
import type { RouteRateLimit } from '../routes/rate-limited.js';
import { done, notSupported, signedIn, signedInAsSelf, storageOf } from '../routes/account/signed-in.js';
import { RESET_TTL, VERIFICATION_TTL, type ResolvedEmailAndPassword } from './options.js';
import { checkEmailPage, forgotPasswordPage, resetPasswordPage, signUpPage } from './pages.js';
import { consumeLinkToken, issueLinkToken, userIdOf, type LinkPurpose } from './tokens.js';

const tokenInvalid = () =>
  new AuthError('The link is invalid, used or expired', { code: 'TOKEN_INVALID', status: 400 });

/** The neutral answer of the routes that must not tell known addresses from unknown ones: the same bytes either way. */
function neutral(ctx: RouteContext, what: 'verify' | 'reset' | 'change'): ActionResult {
  if (ctx.wantsJson) return { status: 200, json: { ok: true } };
  return {
    status: 200,
    html: checkEmailPage({ basePath: ctx.auth.config.basePath, what }),
    headers: { 'cache-control': 'no-store' },
  };
}

/** A form page with a fresh CSRF token. */
async function page(
  ctx: RouteContext,
  render: (csrfToken: string, callbackUrl: string) => string,
): Promise<ActionResult> {
  const { token, cookie } = await csrfFor(ctx);
  const callbackUrl = await resolveCallbackUrl(ctx, ctx.url.searchParams.get('callbackUrl'));
  return {
    status: 200,
    html: render(token, callbackUrl),
    cookies: cookie ? [cookie] : [],
    headers: { 'cache-control': 'no-store', 'referrer-policy': 'same-origin' },
  };
}

/** A link under `basePath`, on the canonical origin (`baseURL`), never on the request's Host. */
function link(ctx: RouteContext, path: string, params: Record<string, string>): string {
  const url = new URL(`${ctx.origin}${ctx.auth.config.basePath}/${path}`);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return url.href;
}

/**
 * Runs a mail hook without letting its failure (or its timing) reach the client; failures are logged without
 * details.
 */
function sendQuietly(ctx: RouteContext, what: string, send: () => Promise<void> | void): void {
  Promise.resolve()
    .then(send)
    .catch((error: unknown) =>
      ctx.auth.logger.error(`[auth] ${what} threw: ${error instanceof Error ? error.name : typeof error}`),
    );
}

/** Everything the routes share. */
export interface EmailPasswordDeps {
  options: ResolvedEmailAndPassword;
  passwords: PasswordAccounts;
}

/**
 * Checks a new password against `minPasswordLength` / `maxPasswordLength` (characters).
 * @throws AuthError `INVALID_REQUEST` (400).
 */
function newPassword(o: ResolvedEmailAndPassword, value: unknown): string {
  if (typeof value !== 'string' || [...value].length < o.minPasswordLength)
    throw badRequest(`Password must be at least ${o.minPasswordLength} characters`);
  if ([...value].length > o.maxPasswordLength)
    throw badRequest(`Password must be at most ${o.maxPasswordLength} characters`);
  return value;
}

/** Sends a verification link for `email` (the user's own, or the new one of an email change). */
async function sendVerification(
  ctx: RouteContext,
  deps: EmailPasswordDeps,
  user: User,
  email: string,
  purpose: LinkPurpose,
  callbackUrl: string,
): Promise<void> {
  const send = deps.options.sendVerificationEmail;
  if (!send) return;
  const token = await issueLinkToken(storageOf(ctx), purpose, user.id, email, VERIFICATION_TTL);
  const params: Record<string, string> = { token };
  if (purpose === 'change-email') params.email = email;
  if (callbackUrl !== '/') params.callbackUrl = callbackUrl;
  await send({ user, url: link(ctx, 'verify-email', params), token, email });
}

/** `POST /signup` (`email`, `password`, `name`, `callbackUrl`). */
function signUpAction(deps: EmailPasswordDeps): Action {
  const o = deps.options;
  return async (ctx) => {
    const email = parseEmailAddress(ctx.body.email);
    if (!email) throw badRequest('Enter a valid email address');
    const password = newPassword(o, ctx.body.password);
    const name = (ctx.body.name ?? '').trim().slice(0, 100) || null;
    const callbackUrl = await resolveCallbackUrl(ctx, ctx.body.callbackUrl);
    const adapter = storageOf(ctx);
    const taken = async (): Promise<ActionResult> => {
      if (!o.requireEmailVerification)
        throw new AuthError('An account with this email already exists', { code: 'EMAIL_TAKEN', status: 409 });
      await hashPassword(password); // the same work as a new account, so timing tells nothing either
      return neutral(ctx, 'verify');
    };
    if (await adapter.getUserByEmail(email)) return taken();
    const register = async () => {
      try {
        return await deps.passwords.register({ id: crypto.randomUUID(), email, password, name });
      } catch (error) {
        if (error instanceof AuthError && error.code === 'EMAIL_TAKEN') return null;
        throw error;
      }
    };
    if (o.requireEmailVerification || !o.autoSignIn) {
      const user = await register();
      if (!user) return taken();
      await ctx.attempt?.succeeded();
      await sendVerification(ctx, deps, user, email, 'verify-email', callbackUrl);
      return o.requireEmailVerification ? neutral(ctx, 'verify') : done(ctx, {}, ctx.auth.config.pages.signIn);
    }
    // Sign-up is a sign-in: the signIn callback decides before anything is stored.
    const id = crypto.randomUUID();
    return completeSignIn(ctx, {
      user: { id, email, name, emailVerified: null },
      account: { provider: PASSWORD_PROVIDER, providerAccountId: id, type: 'credentials' },
      isNewUser: true,
      callbackUrl,
      persist: async () => {
        const user = await deps.passwords.register({ id, email, password, name });
        await sendVerification(ctx, deps, user, email, 'verify-email', callbackUrl);
        return user;
      },
    });
  };
}

/**
 * `GET /verify-email?token=…[&email=…]`: a sign-up (or resend) link marks the
 * user's current address verified, keeping every credential; an email-change
 * link (with `email`) switches the address to the new, now verified, one.
 */
async function verifyEmailAction(ctx: RouteContext): Promise<ActionResult> {
  const adapter = storageOf(ctx);
  const token = ctx.url.searchParams.get('token') ?? '';
  const userId = userIdOf(token);
  const user = userId ? await adapter.getUser(userId) : null;
  const newEmail = ctx.url.searchParams.has('email') ? parseEmailAddress(ctx.url.searchParams.get('email')) : undefined;
  if (!user || newEmail === null) throw tokenInvalid();
  const callbackUrl = await resolveCallbackUrl(ctx, ctx.url.searchParams.get('callbackUrl'));
  if (newEmail !== undefined) {
    if (!(await consumeLinkToken(adapter, 'change-email', token, newEmail))) throw tokenInvalid();
    try {
      await adapter.updateUser(user.id, { email: newEmail, emailVerified: new Date() });
    } catch (error) {
      if (error instanceof StorageConflictError)
        throw new AuthError('An account with this email already exists', { code: 'EMAIL_TAKEN', status: 409 });
      throw error;
    }
    ctx.auth.logger.warn(`[auth] security event email-changed: user ${user.id}`);
    await emit(ctx, 'onEmailChanged', { user: { ...user, email: newEmail }, from: user.email, to: newEmail });
  } else {
    if (!user.email || !(await consumeLinkToken(adapter, 'verify-email', token, user.email))) throw tokenInvalid();
    if (!user.emailVerified) await adapter.updateUser(user.id, { emailVerified: new Date() });
    await emit(ctx, 'onEmailVerified', { user, email: user.email });
  }
  return ctx.wantsJson ? { status: 200, json: { ok: true, url: callbackUrl } } : { status: 303, redirect: callbackUrl };
}

/** `POST /verify-email/send` (the signed-in user, or `{email}`): always the neutral answer. */
function resendAction(deps: EmailPasswordDeps): Action {
  return async (ctx) => {
    if (!deps.options.sendVerificationEmail) throw notSupported('Email verification is not configured');
    const adapter = storageOf(ctx);
    let user: AdapterUser | null;
    if (ctx.body.email !== undefined) {
      const email = parseEmailAddress(ctx.body.email);
      if (!email) throw badRequest('Enter a valid email address');
      user = await adapter.getUserByEmail(email);
    } else {
      user = await adapter.getUser((await signedIn(ctx)).user.id);
    }
    const callbackUrl = await resolveCallbackUrl(ctx, ctx.body.callbackUrl);
    if (user?.email && !user.emailVerified) {
      const target = user;
      sendQuietly(ctx, 'sendVerificationEmail', () =>
        sendVerification(ctx, deps, target, target.email!, 'verify-email', callbackUrl),
      );
    }
    return neutral(ctx, 'verify');
  };
}

/**
 * `POST /password/forgot` (`email`): the same 200 and bytes for known and
 * unknown addresses. The reset mail is sent without being awaited, so the
 * answer's timing does not depend on the mailer.
 */
function forgotAction(deps: EmailPasswordDeps): Action {
  return async (ctx) => {
    if (!deps.options.sendResetPassword) throw notSupported('Password reset is not configured');
    const email = parseEmailAddress(ctx.body.email);
    if (!email) throw badRequest('Enter a valid email address');
    const adapter = storageOf(ctx);
    const user = await adapter.getUserByEmail(email);
    if (user?.email) {
      const token = await issueLinkToken(adapter, 'password-reset', user.id, user.email, RESET_TTL);
      const url = link(ctx, 'password/reset', { token });
      const send = deps.options.sendResetPassword;
      sendQuietly(ctx, 'sendResetPassword', () => send({ user, url, token, email: user.email! }));
    } else {
      await sha256Hex(randomString(32)); // the token work of a known address
    }
    return neutral(ctx, 'reset');
  };
}

/**
 * `POST /password/reset` (`token`, `password`): sets the password and marks
 * the email verified (the link proved it). Credentials added while the email
 * was unverified are removed first (the account pre-hijacking defence), and
 * every session of the user ends.
 */
function resetAction(deps: EmailPasswordDeps): Action {
  return async (ctx) => {
    const adapter = storageOf(ctx);
    const token = ctx.body.token ?? '';
    const userId = userIdOf(token);
    const user = userId ? await adapter.getUser(userId) : null;
    const password = newPassword(deps.options, ctx.body.password);
    if (!user?.email || !(await consumeLinkToken(adapter, 'password-reset', token, user.email))) throw tokenInvalid();
    await resetCredentialsOnFirstProof(ctx, user, null);
    await deps.passwords.setPassword(user.id, password);
    await ctx.auth.strategy.revokeUser(user.id);
    if (!user.emailVerified) await adapter.updateUser(user.id, { emailVerified: new Date() });
    ctx.auth.logger.warn(`[auth] security event password-reset: user ${user.id}`);
    await emit(ctx, 'onPasswordReset', { user });
    return done(ctx, {}, ctx.auth.config.pages.signIn);
  };
}

/** A password sent to `/password/change` is a guess on the login limiter, per IP and per session. */
function changeLimit(ctx: RouteContext): RouteRateLimit | undefined {
  const { login } = ctx.auth.limiters;
  if (!login) return undefined;
  const cookie = ctx.cookies[ctx.auth.config.cookies.sessionToken.name] ?? '';
  const id = ctx.auth.config.session.strategy === 'database' ? (cookie.split('.')[0] ?? '') : '';
  return { limiter: login, mode: 'attempt', identifier: id ? `session:${id}` : '' };
}

/**
 * `POST /password/change` (signed in; `currentPassword`, `newPassword`,
 * `revokeOtherSessions`, default true): a wrong current password answers
 * `INVALID_CREDENTIALS` and counts on the login limiter. With
 * `revokeOtherSessions` every other session ends and this one is re-issued.
 */
function changePasswordAction(deps: EmailPasswordDeps): Action {
  return async (ctx) => {
    const caller = await signedInAsSelf(ctx);
    const adapter = storageOf(ctx);
    const key = { provider: PASSWORD_PROVIDER, providerAccountId: caller.user.id };
    const account = await adapter.getAccount(key);
    const password = newPassword(deps.options, ctx.body.newPassword);
    if (!account?.passwordHash || !(await verifyPassword(ctx.body.currentPassword ?? '', account.passwordHash))) {
      await ctx.attempt?.failed();
      throw new AuthError('The current password is wrong', { code: 'INVALID_CREDENTIALS', status: 401 });
    }
    await ctx.attempt?.succeeded();
    const revoke = ctx.body.revokeOtherSessions !== 'false' && (ctx.body.revokeOtherSessions as unknown) !== false;
    if (!revoke) {
      await adapter.updateAccount(key, { passwordHash: await hashPassword(password) });
      await emit(ctx, 'onPasswordChanged', { user: caller.user, otherSessionsRevoked: false });
      return done(ctx, { revokedOtherSessions: false }, '/', caller.cookies);
    }
    await deps.passwords.setPassword(caller.user.id, password);
    await ctx.auth.strategy.revokeUser(caller.user.id);
    const stored = (await adapter.getUser(caller.user.id)) ?? caller.user;
    const issued = await ctx.auth.strategy.issue({ user: stored, account: null, client: clientOf(ctx) });
    ctx.auth.logger.warn(`[auth] security event password-changed: user ${caller.user.id}`);
    await emit(ctx, 'onPasswordChanged', { user: caller.user, otherSessionsRevoked: true });
    return done(ctx, { revokedOtherSessions: true }, '/', [sessionCookie(ctx.auth, issued.value, issued.expires)]);
  };
}

/** `POST /email/change` (signed in; `newEmail`): a link to the new address; the email changes when it is opened. */
function changeEmailAction(deps: EmailPasswordDeps): Action {
  return async (ctx) => {
    if (!deps.options.sendVerificationEmail) throw notSupported('Email verification is not configured');
    const caller = await signedInAsSelf(ctx);
    const newEmail = parseEmailAddress(ctx.body.newEmail);
    if (!newEmail) throw badRequest('Enter a valid email address');
    if (newEmail === caller.user.email?.toLowerCase()) throw badRequest('This is your current address');
    const callbackUrl = await resolveCallbackUrl(ctx, ctx.body.callbackUrl);
    // A taken address gets the same answer and no mail, so this route cannot probe for accounts.
    if (!(await storageOf(ctx).getUserByEmail(newEmail)))
      await sendVerification(ctx, deps, caller.user, newEmail, 'change-email', callbackUrl);
    return ctx.wantsJson
      ? { status: 200, json: { ok: true }, cookies: caller.cookies }
      : { ...neutral(ctx, 'change'), cookies: caller.cookies };
  };
}

/** The limiter of the routes that send mail: counted per IP and per (IP, address). */
function mailLimit(pick: (ctx: RouteContext) => RouteRateLimit['limiter'] | undefined, field: string) {
  return (ctx: RouteContext): RouteRateLimit | undefined => {
    const limiter = pick(ctx);
    return limiter ? { limiter, mode: 'count', identifier: ctx.body[field] ?? '' } : undefined;
  };
}

/**
 * Sign-ups count as attempts on the login limiter: every one against the
 * client IP's budget (`ipLimit`, 50 per 15 min by default), so a flood
 * cannot create accounts (or burn argon2 time) without bound.
 */
function signUpLimit(ctx: RouteContext): RouteRateLimit | undefined {
  const { login } = ctx.auth.limiters;
  return login ? { limiter: login, mode: 'attempt', identifier: ctx.body.email ?? '' } : undefined;
}

/**
 * For browsers, a refused form (400, 409) shows its page again with the
 * message and the same status; JSON clients get the error as usual.
 */
function againOnError(
  action: Action,
  render: (ctx: RouteContext, csrfToken: string, callbackUrl: string, error: string) => string,
): Action {
  return async (ctx) => {
    try {
      return await action(ctx);
    } catch (error) {
      if (ctx.wantsJson || !(error instanceof AuthError) || (error.status !== 400 && error.status !== 409)) throw error;
      const shown = await page(ctx, (csrfToken, callbackUrl) => render(ctx, csrfToken, callbackUrl, error.message));
      return { ...shown, status: error.status };
    }
  };
}

/** The route table of `emailAndPassword`, under `basePath`. */
export function emailPasswordRoutes(deps: EmailPasswordDeps): Record<string, PluginRoute> {
  const o = deps.options;
  const pages =
    (render: (ctx: RouteContext, csrfToken: string, callbackUrl: string) => string): Action =>
    (ctx) =>
      page(ctx, (t, c) => render(ctx, t, c));
  const routes: Record<string, PluginRoute> = {
    'verify-email': { GET: verifyEmailAction },
    'verify-email/send': {
      POST: resendAction(deps),
      rateLimit: mailLimit((ctx) => ctx.auth.limiters.emailVerification, 'email'),
    },
    'password/forgot': {
      GET: pages((ctx, csrfToken, callbackUrl) =>
        forgotPasswordPage({ basePath: ctx.auth.config.basePath, csrfToken, callbackUrl }),
      ),
      POST: forgotAction(deps),
      rateLimit: mailLimit((ctx) => ctx.auth.limiters.passwordReset, 'email'),
    },
    'password/reset': {
      GET: async (ctx) => {
        const token = ctx.url.searchParams.get('token') ?? '';
        if (!userIdOf(token)) throw tokenInvalid();
        return page(ctx, (csrfToken, callbackUrl) =>
          resetPasswordPage({ basePath: ctx.auth.config.basePath, csrfToken, callbackUrl, token, ...o }),
        );
      },
      // The token is 256 random bits, single-use: no budget to spend here.
      POST: resetAction(deps),
    },
    'password/change': { POST: changePasswordAction(deps), rateLimit: changeLimit },
    'email/change': {
      POST: changeEmailAction(deps),
      rateLimit: mailLimit((ctx) => ctx.auth.limiters.emailVerification, 'newEmail'),
    },
  };
  if (o.signUp) {
    routes.signup = {
      GET: pages((ctx, csrfToken, callbackUrl) =>
        signUpPage({ basePath: ctx.auth.config.basePath, csrfToken, callbackUrl, ...o }),
      ),
      POST: againOnError(signUpAction(deps), (ctx, csrfToken, callbackUrl, error) =>
        signUpPage({ basePath: ctx.auth.config.basePath, csrfToken, callbackUrl, error, ...o }),
      ),
      rateLimit: signUpLimit,
    };
  }
  return routes;
}
