/**
 * The email-and-password account routes: sign-up, email verification,
 * forgot / reset password, password change and email change. Every POST is
 * CSRF-checked by the core's route policy before the action runs.
 * @internal
 * @module
 */
import { AuthError, badRequest } from '../errors.js';
import { authError } from '../errors/auth-error.js';
import { hashPassword, verifyPassword } from '../password.js';
import { PASSWORD_PROVIDER } from '../password-accounts.js';
import { randomString, sha256Hex } from '../crypto.js';
import { confirmLinkPage, emailedLinkRoute, emailedLinkUrl, type LinkForm } from '../links/emailed-link.js';
import type { Action, PluginRoute, ActionResult, RouteContext, RouteRateLimit } from '../contract/types.js';
import type { AdapterUser } from '../storage/types.js';
import { completeSignIn, clientOf } from '../routes/complete-sign-in.js';
import { parseDisplayName, parseEmailAddress } from '../input/text.js';
import { resolveCallbackUrl, sessionCookie } from '../routes/helpers.js';
import { resetCredentialsOnFirstProof } from '../routes/pre-hijacking.js';
import { emit } from '../routes/emit.js';
import { done, notSupported, signedIn, signedInAsSelf, storageOf } from '../routes/account/signed-in.js';
import { RESET_TTL } from './options.js';
import { forgotPasswordPage, resetPasswordPage, signInToConfirmPage, signUpPage } from './pages.js';
import { changeEmailAction, changeEmailLimit, confirmEmailChange, undoEmailChangeRoute } from './email-change.js';
import {
  acceptNewPassword,
  neutral,
  page,
  sendQuietly,
  sendVerification,
  tokenInvalid,
  type EmailPasswordDeps,
} from './shared.js';
import { consumeLinkToken, issueLinkToken, userIdOf } from './tokens.js';
import { userFieldsOf } from '../user-fields/bind.js';
import { signUpFields } from '../user-fields/sign-up.js';
import { signUpFieldInputs, type SignUpValues } from '../user-fields/sign-up-page.js';
import { coreMessages } from '../i18n/core/index.js';
import { errorMessageFor } from '../i18n/catalog.js';
import { pageLocale } from '../i18n/request-locale.js';

export type { EmailPasswordDeps } from './shared.js';

/**
 * The sign-up page's inputs for the plugins' sign-up fields and the custom user fields the client may set, filled in
 * with `values` (a refused form's body).
 */
const fieldInputs = (ctx: RouteContext, values: SignUpValues = {}) =>
  signUpFieldInputs(userFieldsOf(ctx.auth.config), ctx.auth.signUpFields, values, pageLocale(ctx));

/** What a refused sign-up form shows again: what was typed, never the password. */
function keptValues(body: Readonly<Record<string, unknown>>): SignUpValues {
  const { password: _password, csrfToken: _csrf, ...kept } = body;
  return kept;
}

/** The longest name sign-up takes, in characters (the sign-up page's field says the same). */
const SIGN_UP_NAME_MAX_LENGTH = 100;

/**
 * `POST /signup` (`email`, `password`, `name`, `callbackUrl`). An address or a name with control, direction or
 * invisible characters is refused (400 `INVALID_REQUEST`), never stored.
 */
function signUpAction(deps: EmailPasswordDeps): Action {
  const o = deps.options;
  return async (ctx) => {
    const email = parseEmailAddress(ctx.body.email);
    if (!email) throw badRequest('Enter a valid email address');
    const password = await acceptNewPassword(ctx, o, ctx.body.password);
    const name = parseDisplayName(ctx.body.name, { maxLength: SIGN_UP_NAME_MAX_LENGTH });
    const callbackUrl = await resolveCallbackUrl(ctx, ctx.body.callbackUrl);
    const adapter = storageOf(ctx);
    const fields = await signUpFields({
      ctx,
      email,
      fields: userFieldsOf(ctx.auth.config),
      pluginFields: ctx.auth.signUpFields,
      adapter,
      passwords: deps.passwords,
      minPasswordLength: o.minPasswordLength,
    });
    const taken = async (): Promise<ActionResult> => {
      if (!o.requireEmailVerification) throw authError('EMAIL_TAKEN');
      await hashPassword(password); // the same work as a new account, so timing tells nothing either
      return neutral(ctx, 'verify');
    };
    if (await adapter.getUserByEmail(email)) return taken();
    const register = async () => {
      try {
        return await fields.register({ id: crypto.randomUUID(), email, password, name }, false);
      } catch (error) {
        if (error instanceof AuthError && error.code === 'EMAIL_TAKEN') return null;
        throw error;
      }
    };
    if (o.requireEmailVerification || !o.autoSignIn) {
      const user = await register();
      if (!user) return taken();
      await ctx.attempt?.succeeded();
      await sendVerification(ctx, deps, user, email, callbackUrl);
      return o.requireEmailVerification ? neutral(ctx, 'verify') : done(ctx, {}, ctx.auth.config.pages.signIn);
    }
    // Sign-up is a sign-in: the signIn callback decides before anything is stored.
    const id = crypto.randomUUID();
    return completeSignIn(ctx, {
      user: { id, email, name, emailVerified: null, ...fields.values },
      account: { provider: PASSWORD_PROVIDER, providerAccountId: id, type: 'credentials' },
      isNewUser: true,
      callbackUrl,
      persist: async () => {
        const user = await fields.register({ id, email, password, name }, true);
        await sendVerification(ctx, deps, user, email, callbackUrl);
        return user;
      },
    });
  };
}

/**
 * `POST /verify-email` (`token`, and `email` for an email change), from the page the link opens: a sign-up (or
 * resend) link marks the user's current address verified, keeping every credential; an email-change link
 * (with `email`) switches the address to the new one (see `confirmEmailChange`).
 */
function verifyEmailAction(deps: EmailPasswordDeps): Action {
  return async (ctx) => {
    const adapter = storageOf(ctx);
    const token = ctx.body.token ?? '';
    if (ctx.body.email !== undefined) {
      const newEmail = parseEmailAddress(ctx.body.email);
      if (!newEmail || !userIdOf(token)) throw tokenInvalid();
      return confirmEmailChange(ctx, deps, token, newEmail);
    }
    const userId = userIdOf(token);
    const user = userId ? await adapter.getUser(userId) : null;
    if (!user?.email || !(await consumeLinkToken(adapter, 'verify-email', token, user.email, ctx.auth.clock)))
      throw tokenInvalid();
    const callbackUrl = await resolveCallbackUrl(ctx, ctx.body.callbackUrl);
    if (!user.emailVerified) await adapter.updateUser(user.id, { emailVerified: new Date(ctx.auth.clock.now()) });
    await emit(ctx, 'onEmailVerified', { user, email: user.email });
    return ctx.wantsJson
      ? { status: 200, json: { ok: true, url: callbackUrl } }
      : { status: 303, redirect: callbackUrl };
  };
}

/** The page a verification link opens: nothing is used until its button POSTs. */
async function verifyEmailPage(ctx: RouteContext, form: LinkForm): Promise<string> {
  const t = coreMessages.for(ctx);
  const email = form.params.email;
  if (email === undefined)
    return confirmLinkPage({
      title: t('verifyEmail.title'),
      message: t('verifyEmail.text'),
      button: t('verifyEmail.button'),
      form,
      lang: t.lang,
    });
  const session = await ctx.auth.readSession(ctx.request);
  if (!session.user) {
    const back = `${ctx.url.pathname}${ctx.url.search}`;
    return signInToConfirmPage({
      t,
      signInUrl: `${ctx.auth.config.pages.signIn}?callbackUrl=${encodeURIComponent(back)}`,
      email,
    });
  }
  const current = session.user.email;
  return confirmLinkPage({
    title: t('changeEmail.title'),
    message: current ? t('changeEmail.textWithCurrent', { email, current }) : t('changeEmail.text', { email }),
    button: t('changeEmail.button'),
    form,
    lang: t.lang,
  });
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
      sendQuietly(ctx, 'sendVerificationEmail', () => sendVerification(ctx, deps, target, target.email!, callbackUrl));
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
      const token = await issueLinkToken(adapter, 'password-reset', user.id, user.email, RESET_TTL, ctx.auth.clock);
      const url = emailedLinkUrl(ctx, 'password/reset', { token });
      const send = deps.options.sendResetPassword;
      const mail = { user, url, token, email: user.email };
      sendQuietly(ctx, 'sendResetPassword', () =>
        ctx.auth.deliver({ kind: 'reset-password', channel: 'email', to: mail.email, url, token, data: mail }, () =>
          send(mail),
        ),
      );
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
    const password = await acceptNewPassword(ctx, deps.options, ctx.body.password);
    if (!user?.email || !(await consumeLinkToken(adapter, 'password-reset', token, user.email, ctx.auth.clock)))
      throw tokenInvalid();
    await resetCredentialsOnFirstProof(ctx, user, null);
    await deps.passwords.setPassword(user.id, password);
    await ctx.auth.strategy.revokeUser(user.id);
    if (!user.emailVerified) await adapter.updateUser(user.id, { emailVerified: new Date(ctx.auth.clock.now()) });
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
    const password = await acceptNewPassword(ctx, deps.options, ctx.body.newPassword);
    if (!account?.passwordHash || !(await verifyPassword(ctx.body.currentPassword ?? '', account.passwordHash))) {
      await ctx.attempt?.failed();
      throw authError('INVALID_CREDENTIALS', 'The current password is wrong');
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
      const message = errorMessageFor(ctx, error, coreMessages);
      const shown = await page(ctx, (csrfToken, callbackUrl) => render(ctx, csrfToken, callbackUrl, message));
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
    'verify-email': emailedLinkRoute({
      params: ['token', 'email'],
      check: (_ctx, params) => {
        if (!userIdOf(params.token)) throw tokenInvalid();
      },
      page: verifyEmailPage,
      use: verifyEmailAction(deps),
    }),
    'verify-email/send': {
      POST: resendAction(deps),
      rateLimit: mailLimit((ctx) => ctx.auth.limiters.emailVerification, 'email'),
    },
    'password/forgot': {
      GET: pages((ctx, csrfToken, callbackUrl) =>
        forgotPasswordPage({ t: coreMessages.for(ctx), basePath: ctx.auth.config.basePath, csrfToken, callbackUrl }),
      ),
      POST: forgotAction(deps),
      rateLimit: mailLimit((ctx) => ctx.auth.limiters.passwordReset, 'email'),
    },
    // The token is 256 random bits, single-use: no budget to spend on its POST.
    'password/reset': emailedLinkRoute({
      params: ['token'],
      check: (_ctx, params) => {
        if (!userIdOf(params.token)) throw tokenInvalid();
      },
      page: (ctx, form) => resetPasswordPage({ t: coreMessages.for(ctx), form, ...o }),
      use: resetAction(deps),
    }),
    'password/change': { POST: changePasswordAction(deps), rateLimit: changeLimit },
    'email/change': { POST: changeEmailAction(deps), rateLimit: changeEmailLimit },
    'email/change/undo': undoEmailChangeRoute,
  };
  if (o.signUp) {
    routes.signup = {
      GET: pages((ctx, csrfToken, callbackUrl) =>
        signUpPage({
          t: coreMessages.for(ctx),
          basePath: ctx.auth.config.basePath,
          csrfToken,
          callbackUrl,
          fieldInputs: fieldInputs(ctx),
          ...o,
        }),
      ),
      POST: againOnError(signUpAction(deps), (ctx, csrfToken, callbackUrl, error) =>
        signUpPage({
          t: coreMessages.for(ctx),
          basePath: ctx.auth.config.basePath,
          csrfToken,
          callbackUrl,
          error,
          values: keptValues(ctx.body),
          fieldInputs: fieldInputs(ctx, keptValues(ctx.body)),
          ...o,
        }),
      ),
      rateLimit: signUpLimit,
    };
  }
  return routes;
}
