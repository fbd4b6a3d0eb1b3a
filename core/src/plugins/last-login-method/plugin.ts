/**
 * `lastLoginMethod()`: remembers how a person signed in last, so the sign-in page can mark it.
 * @module
 */
import { AuthConfigError, readCookie, type AuthPlugin, type OutCookie } from '../../plugin-kit.js';
import { userFieldsOfAuth } from '../../index.js';
import { isLastLoginMethod, methodOf, type LastLoginMethod } from './methods.js';

/** The cookie's name. Readable by the page's scripts (not HttpOnly): it names a sign-in method, nothing secret. */
export const LAST_LOGIN_METHOD_COOKIE = 'framework.last-login-method';

/** How long the cookie lives, in **seconds**: 400 days, the longest browsers keep a cookie. */
export const LAST_LOGIN_METHOD_MAX_AGE = 400 * 24 * 60 * 60;

/**
 * The custom user field `storeInDatabase` writes: spread it into `createAuth({ user: { additionalFields } })`.
 * Server-only (`input: false`): no route lets a client set it.
 */
export const lastLoginMethodField = { lastLoginMethod: { type: 'string', input: false } } as const;

/** Options of `lastLoginMethod()`. */
export interface LastLoginMethodOptions {
  /**
   * Also store the method on the user, in the custom user field `lastLoginMethod` (declare it with
   * {@link lastLoginMethodField}; `createAuth` throws `INVALID_CONFIG` otherwise). Default false.
   */
  storeInDatabase?: boolean;
}

/** `auth.extensions.lastLoginMethod`. */
export interface LastLoginMethodExtension {
  /** The method the browser that sent `request` used last, from its cookie; null when absent or not a known value. */
  read(request: Request): LastLoginMethod | null;
}

/**
 * Sets the cookie `framework.last-login-method` on every successful sign-in (through `completeSignIn`) to the
 * method used: `credentials`, `email-otp`, `magic-link`, `passkey`, `phone-number`, `username` or
 * `oauth:<provider id>`. The cookie is `SameSite=Lax`, `Path=/`, `Secure` when the session cookie is, lives 400
 * days ({@link LAST_LOGIN_METHOD_MAX_AGE}) and is not HttpOnly, so the client's `getLastUsedLoginMethod()` reads it.
 * The default sign-in page marks that method "Last used". A cookie value outside the list (forged, corrupted) is
 * ignored everywhere: it is never shown, only compared. With `storeInDatabase`, the user's `lastLoginMethod` field
 * is written too.
 *
 * @throws AuthConfigError (`INVALID_CONFIG`) at `createAuth` with `storeInDatabase` and no `lastLoginMethod` field
 *   of type `string`, or without an adapter.
 * @example
 * ```ts
 * import { createAuth } from '@framework/auth';
 * import { lastLoginMethod, lastLoginMethodField } from '@framework/auth/plugins/last-login-method';
 *
 * const auth = createAuth({
 *   adapter,
 *   providers: [github],
 *   user: { additionalFields: { ...lastLoginMethodField } },
 *   plugins: [lastLoginMethod({ storeInDatabase: true })],
 * });
 * ```
 */
export function lastLoginMethod(
  options: LastLoginMethodOptions = {},
): AuthPlugin<'lastLoginMethod', LastLoginMethodExtension> {
  if (options === null || typeof options !== 'object')
    throw new AuthConfigError('Invalid auth config: lastLoginMethod(): options must be an object');
  if (options.storeInDatabase !== undefined && typeof options.storeInDatabase !== 'boolean')
    throw new AuthConfigError('Invalid auth config: lastLoginMethod(): storeInDatabase must be a boolean');
  const store = options.storeInDatabase === true;
  const read = (request: Request): LastLoginMethod | null => {
    const value = readCookie(request.headers.get('cookie'), LAST_LOGIN_METHOD_COOKIE);
    return isLastLoginMethod(value) ? value : null;
  };
  return {
    id: 'lastLoginMethod',
    init(auth) {
      if (store) {
        const field = userFieldsOfAuth(auth).find((f) => f.name === 'lastLoginMethod');
        if (!auth.adapter || !field || field.type !== 'string')
          throw new AuthConfigError(
            'Invalid auth config: lastLoginMethod({ storeInDatabase: true }) needs an adapter and the user field lastLoginMethod: add `user: { additionalFields: { ...lastLoginMethodField } }`',
          );
      }
      return { read };
    },
    hooks: {
      async afterSignIn(ctx, subject) {
        const method = methodOf(ctx, subject);
        if (!method) return undefined;
        if (store) await ctx.auth.adapter?.updateUser(subject.user.id, { lastLoginMethod: method } as object);
        const cookie: OutCookie = {
          name: LAST_LOGIN_METHOD_COOKIE,
          value: method,
          options: {
            httpOnly: false,
            secure: ctx.auth.config.cookies.sessionToken.options.secure,
            sameSite: 'lax',
            path: '/',
            maxAge: LAST_LOGIN_METHOD_MAX_AGE,
          },
        };
        return { cookies: [cookie] };
      },
      lastUsedMethod: (ctx) => read(ctx.request),
    },
  };
}
