/**
 * `anonymous()`: guest sessions without credentials, linked to the account the guest later signs up or in with.
 * @module
 */
import {
  AuthConfigError,
  adapterStorage,
  completeSignIn,
  escapeHtml,
  hidden,
  randomBytes,
  removeStoredUser,
  resolveCallbackUrl,
  storageOf,
  toHex,
  type AuthPlugin,
  type ErrorCodesOf,
  type RouteContext,
} from '../../plugin-kit.js';
import type { User } from '../../index.js';
import { ANONYMOUS_ERRORS } from './errors.js';
import { anonymousMessages } from './messages.js';
import { resolveAnonymousOptions, type AnonymousOptions } from './options.js';
import { createMemoryAnonymousStorage } from './storage/memory.js';
import { createSqlAnonymousStorage } from './storage/sql.js';
import type { AnonymousStorage } from './storage/types.js';

/** `auth.extensions.anonymous`. */
export interface AnonymousExtension {
  /** Whether `userId` is a guest. */
  isAnonymous(userId: string): Promise<boolean>;
  /** Where the guest marks live. */
  readonly storage: AnonymousStorage;
}

/**
 * The POST routes (templates under `basePath`) a guest is refused on with 403 `ANONYMOUS_NOT_ALLOWED`: the ones that
 * add or change a credential (password change, email change, two-factor enrolment, passkey registration, API key
 * creation). A guest may still sign out, list and revoke its sessions, update its name, and delete its account.
 */
export const GUEST_REFUSED_ROUTES: ReadonlySet<string> = new Set([
  '/password/change',
  '/email/change',
  '/two-factor/enable',
  '/two-factor/confirm',
  '/passkey/register/options',
  '/passkey/register/verify',
  '/api-keys',
]);

/** The account-free sign-in counts every request per client IP on the `login` limiter. */
function perIp(ctx: RouteContext) {
  const limiter = ctx.auth.limiters.login;
  return limiter ? { limiter, mode: 'count' as const, identifier: '' } : undefined;
}

/**
 * Guest users: `POST {basePath}/anonymous/sign-in` (CSRF-checked, counted per IP on the `login` limiter; JSON
 * `{ok, url}` or a 303 for a form) creates a user without credentials (no email unless `emailDomain` is set),
 * records it as a guest, and signs it in through `completeSignIn` (a normal session, either strategy). A browser
 * already signed in is refused with 400 `ANONYMOUS_ALREADY_SIGNED_IN`. The default sign-in page shows a "Continue as
 * guest" button.
 *
 * When a browser holding a guest session signs up or signs in by any method that ends in the core's sign-in
 * (credentials, OAuth, magic link, passkey, email OTP, a second factor's resumption), in this order: the new
 * session is issued (rotating the guest's), the `afterSignIn` hooks run, then `onLinkAccount({ anonymousUser,
 * newUser })` is awaited, then the guest is deleted as `POST /account/delete` would (the `beforeUserDelete` hooks,
 * the `onDeleteUser` callback, the `userDeleted` hooks, every session of the guest ended, the user removed). A throw
 * from `onLinkAccount` or from the deletion is logged and keeps the guest; it never undoes the sign-in. A sign-up
 * that does not sign in (email verification required) links nothing.
 *
 * Guests are refused with 403 `ANONYMOUS_NOT_ALLOWED` on {@link GUEST_REFUSED_ROUTES}.
 *
 * @throws AuthConfigError (`INVALID_CONFIG`) for bad options; at `createAuth`, without an `adapter`, or with one
 *   that is neither SQL nor memory when `storage` is not given.
 * @example
 * ```ts
 * import { createAuth, createMemoryAdapter } from '@framework/auth';
 * import { anonymous } from '@framework/auth/plugins/anonymous';
 *
 * const auth = createAuth({
 *   adapter: createMemoryAdapter(),
 *   emailAndPassword: {},
 *   plugins: [anonymous({ onLinkAccount: async ({ anonymousUser, newUser }) => moveCart(anonymousUser.id, newUser.id) })],
 * });
 * // POST /auth/anonymous/sign-in, later POST /auth/signup: the cart moves and the guest is deleted.
 * ```
 */
export function anonymous(
  options: AnonymousOptions = {},
): AuthPlugin<'anonymous', AnonymousExtension, Record<never, never>, ErrorCodesOf<typeof ANONYMOUS_ERRORS>> {
  const o = resolveAnonymousOptions(options);
  const marks = adapterStorage('anonymous()', options.storage, {
    sql: (db) => createSqlAnonymousStorage(db),
    memory: createMemoryAnonymousStorage,
  });
  const storage = marks.storage;

  async function signIn(ctx: RouteContext) {
    const { user } = await ctx.auth.readSession(ctx.request);
    if (user) throw ANONYMOUS_ERRORS.error('ANONYMOUS_ALREADY_SIGNED_IN');
    const adapter = storageOf(ctx);
    const email = o.emailDomain ? `guest-${toHex(randomBytes(12))}@${o.emailDomain}` : null;
    return completeSignIn(ctx, {
      user: { id: '', email, name: null, image: null, emailVerified: null },
      account: null,
      isNewUser: true,
      callbackUrl: await resolveCallbackUrl(ctx, ctx.body.callbackUrl),
      persist: async () => {
        const created = await adapter.createUser({ email, name: null, image: null, emailVerified: null });
        await storage.mark(created.id, new Date(ctx.auth.clock.now()));
        return created;
      },
    });
  }

  async function link(ctx: RouteContext, guest: User, newUser: User): Promise<void> {
    if (!(await storage.isAnonymous(guest.id))) return;
    const { logger } = ctx.auth;
    try {
      await o.onLinkAccount?.({ anonymousUser: guest, newUser });
    } catch (error) {
      logger.error(`anonymous(): onLinkAccount threw ${(error as Error)?.name ?? 'an error'}; the guest is kept`);
      return;
    }
    try {
      await removeStoredUser(ctx.auth, storageOf(ctx), guest);
      await storage.remove(guest.id);
    } catch (error) {
      logger.error(`anonymous(): deleting the linked guest failed (${(error as Error)?.name ?? 'error'}); it is kept`);
    }
  }

  return {
    id: 'anonymous',
    errorCodes: ANONYMOUS_ERRORS,
    init(auth) {
      if (!auth.adapter)
        throw new AuthConfigError('Invalid auth config: anonymous() needs `adapter` (users are stored)');
      marks.bind(auth.adapter);
      return { storage, isAnonymous: (userId) => storage.isAnonymous(userId) };
    },
    migrate: () => storage.migrate(),
    routes: {
      'anonymous/sign-in': { POST: signIn, rateLimit: perIp },
    },
    signInMethods: [
      {
        id: 'anonymous',
        name: 'Guest',
        type: 'anonymous',
        urls: { signInUrl: '/anonymous/sign-in' },
        signInForm: ({ basePath, csrfToken, callbackUrl, locale }) =>
          `<form method="post" action="${escapeHtml(`${basePath}/anonymous/sign-in`)}">${hidden('csrfToken', csrfToken)}${hidden('callbackUrl', callbackUrl)}<button type="submit">${escapeHtml(anonymousMessages.for(locale)('anonymous.continue'))}</button></form>`,
      },
    ],
    hooks: {
      async beforeAction(ctx) {
        if (ctx.request.method !== 'POST' || !ctx.route) return undefined;
        if (!GUEST_REFUSED_ROUTES.has(ctx.route.slice(ctx.auth.config.basePath.length))) return undefined;
        const { user } = await ctx.auth.readSession(ctx.request);
        if (user && (await storage.isAnonymous(user.id))) throw ANONYMOUS_ERRORS.error('ANONYMOUS_NOT_ALLOWED');
        return undefined;
      },
      signInReplaced: (ctx, replaced, subject) => link(ctx, replaced, subject.user),
      userDeleted: (userId) => storage.remove(userId),
    },
  };
}
