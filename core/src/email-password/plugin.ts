/**
 * `createAuth({ emailAndPassword })` on the plugin surface: the account
 * routes, the built-in email + password credentials provider, and the
 * `requireEmailVerification` gate in front of every password sign-in.
 * @internal
 * @module
 */
import { AuthConfigError, AuthError } from '../errors.js';
import { PASSWORD_PROVIDER, passwordAccounts } from '../password-accounts.js';
import type { AuthPlugin } from '../plugins/types.js';
import { credentials } from '../providers/credentials.js';
import type { CredentialsProvider } from '../providers/types.js';
import type { StorageAdapter } from '../storage/types.js';
import { errorResult, resolveCallbackUrl } from '../routes/helpers.js';
import { resolveEmailAndPassword, type EmailAndPasswordOptions, type ResolvedEmailAndPassword } from './options.js';
import { emailPasswordRoutes } from './routes.js';
import { sendQuietly, sendVerification } from './shared.js';
import { emit } from '../routes/emit.js';

/** What `createAuth` adds for `emailAndPassword`. */
export interface EmailPasswordSetup {
  options: ResolvedEmailAndPassword;
  plugin: AuthPlugin<'emailAndPassword'>;
  /** The built-in `credentials` provider (email + password), unless the app declared its own `credentials`. */
  provider: CredentialsProvider;
}

/**
 * Builds the routes, the provider and the verification gate.
 * @throws AuthConfigError (`INVALID_CONFIG`) for bad options or a missing adapter.
 */
export function emailPasswordSetup(
  given: EmailAndPasswordOptions,
  adapter: StorageAdapter | undefined,
): EmailPasswordSetup {
  const options = resolveEmailAndPassword(given);
  if (!adapter)
    throw new AuthConfigError('Invalid auth config: emailAndPassword needs `adapter` (users and passwords are stored)');
  const passwords = passwordAccounts(adapter, { minLength: options.minPasswordLength });
  const provider = credentials({
    id: PASSWORD_PROVIDER,
    name: 'Email and password',
    credentials: {
      email: { label: 'Email', type: 'email', required: true },
      password: { label: 'Password', type: 'password', required: true },
    },
    authorize: passwords.authorize,
  });
  const plugin: AuthPlugin<'emailAndPassword'> = {
    id: 'emailAndPassword',
    routes: emailPasswordRoutes({ options, passwords }),
    hooks: {
      async beforeSession(ctx, subject) {
        if (!options.requireEmailVerification || subject.account?.provider !== PASSWORD_PROVIDER || subject.isNewUser)
          return undefined;
        const stored = await adapter.getUser(subject.user.id);
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
          sendQuietly(ctx, 'sendVerificationEmail', () =>
            sendVerification(ctx, { options, passwords }, user, user.email!, callbackUrl),
          );
        }
        await emit(ctx, 'onSignInFailed', {
          provider: PASSWORD_PROVIDER,
          identifier: stored.email,
          reason: 'email-not-verified',
        });
        return errorResult(
          ctx,
          new AuthError('Verify your email address first: we sent you a new link', {
            code: 'EMAIL_NOT_VERIFIED',
            status: 403,
          }),
        );
      },
    },
  };
  return { options, plugin, provider };
}
