/**
 * `emailAndPassword()`: email + password accounts on the public plugin surface (`createAuth({ emailAndPassword })`
 * only adds it).
 * @module
 */
import { AuthConfigError } from '../errors.js';
import { authError } from '../errors/auth-error.js';
import { PASSWORD_PROVIDER, passwordAccounts, type PasswordAccounts } from '../password-accounts.js';
import type { AuthPlugin, SignInLink } from '../contract/types.js';
import { credentials } from '../providers/credentials.js';
import type { StorageAdapter } from '../storage/types.js';
import type { CredentialsProvider } from '../providers/types.js';
import { errorResult, resolveCallbackUrl } from '../routes/helpers.js';
import { resolveEmailAndPassword, type EmailAndPasswordOptions } from './options.js';
import { emailPasswordRoutes } from './routes.js';
import { sendQuietly, sendVerification, type EmailPasswordDeps } from './shared.js';
import { emit } from '../routes/emit.js';

/**
 * Email + password accounts as a plugin: `GET/POST /signup`, email verification (`/verify-email`,
 * `/verify-email/send`), password reset (`/password/forgot`, `/password/reset`), `/password/change` and
 * `/email/change` (with its undo), with default pages; the email + password `credentials` provider (id
 * `credentials`; the app's own provider of that id wins); the sign-in page's "Forgot password?" and
 * "Create an account" links; and, with `requireEmailVerification`, the gate in front of every password sign-in and
 * every plugin credential (an API key) of an unverified user. `createAuth({ emailAndPassword })` adds this plugin.
 * Needs the auth `adapter`.
 *
 * @throws AuthConfigError (`INVALID_CONFIG`) for bad options; at `createAuth`, without an `adapter`.
 * @example
 * ```ts
 * createAuth({ adapter, providers: [], plugins: [emailAndPassword({ sendResetPassword: ({ email, url }) => mailer.send(email, url) })] });
 * ```
 */
export function emailAndPassword(given: EmailAndPasswordOptions): AuthPlugin<'emailAndPassword'> {
  const options = resolveEmailAndPassword(given);
  let accounts: PasswordAccounts | undefined;
  let adapter: StorageAdapter | undefined;
  const deps: EmailPasswordDeps = {
    options,
    get passwords() {
      return accounts!;
    },
  };
  const credentialsProvider = credentials({
    id: PASSWORD_PROVIDER,
    name: 'Email and password',
    credentials: {
      email: { label: 'Email', type: 'email', required: true },
      password: { label: 'Password', type: 'password', required: true },
    },
    authorize: (input) => deps.passwords.authorize(input),
  });
  // The page shows these in the person's language (the core catalog's ids).
  const provider: CredentialsProvider = {
    ...credentialsProvider,
    messageIds: { name: 'signIn.emailAndPassword', labels: { email: 'common.email', password: 'common.password' } },
  };
  const links: SignInLink[] = [
    ...(options.sendResetPassword
      ? [{ label: 'Forgot password?', messageId: 'signIn.forgotPassword', path: '/password/forgot' }]
      : []),
    ...(options.signUp
      ? [{ label: 'Create an account', messageId: 'signIn.createAccount', path: '/signup', withCallbackUrl: true }]
      : []),
  ];
  return {
    id: 'emailAndPassword',
    providers: [provider],
    signInLinks: links,
    init(auth) {
      if (!auth.adapter)
        throw new AuthConfigError(
          'Invalid auth config: emailAndPassword needs `adapter` (users and passwords are stored)',
        );
      // The auth's own adapter (wrapped by the secondary storage), so revocations reach the session cache.
      adapter = auth.adapter;
      accounts = passwordAccounts(adapter, { minLength: options.minPasswordLength });
      return undefined;
    },
    routes: emailPasswordRoutes(deps),
    hooks: {
      checkCredential({ user }) {
        if (options.requireEmailVerification && user.email && !user.emailVerified)
          throw authError('EMAIL_NOT_VERIFIED', 'Verify your email address before using this credential');
      },
      async beforeSession(ctx, subject) {
        if (!options.requireEmailVerification || subject.account?.provider !== PASSWORD_PROVIDER || subject.isNewUser)
          return undefined;
        const stored = await adapter!.getUser(subject.user.id);
        if (!stored?.email || stored.emailVerified) return undefined;
        // A fresh link, within the email-verification budget of this address.
        const limiter = ctx.auth.limiters.emailVerification;
        const verdict = limiter
          ? await limiter.check(ctx.request, {
              ...(ctx.ip ? { ip: ctx.ip } : {}),
              identifier: stored.email.toLowerCase(),
            })
          : { success: true };
        if (verdict.success && options.sendVerificationEmail) {
          const callbackUrl = await resolveCallbackUrl(ctx, subject.callbackUrl);
          const user = stored;
          sendQuietly(ctx, 'sendVerificationEmail', () => sendVerification(ctx, deps, user, user.email!, callbackUrl));
        }
        await emit(ctx, 'onSignInFailed', {
          provider: PASSWORD_PROVIDER,
          identifier: stored.email,
          reason: 'email-not-verified',
        });
        return errorResult(
          ctx,
          authError('EMAIL_NOT_VERIFIED', 'Verify your email address first: we sent you a new link'),
        );
      },
    },
  };
}
