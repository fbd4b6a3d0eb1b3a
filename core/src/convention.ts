/**
 * Definition helpers (`@framework/auth/convention`). Each validates at
 * definition time and throws `AuthConfigError` (`INVALID_CONFIG`) with a
 * precise message, so a bad config fails when the app starts, not on the
 * first request.
 * @module
 */
import { AuthConfigError } from './errors.js';
import { resolveAuthConfig, type AuthConfig } from './config.js';
import { checkProvider } from './providers/check.js';
import type { Provider } from './providers/types.js';
import type { AuthCallbacks } from './callbacks.js';

export type {
  AuthConfig,
  SessionConfig,
  CookieConfig,
  CookieOptions,
  PagesConfig,
  ResolvedAuthConfig,
} from './config.js';
export type { AuthCallbacks, SignInParams, RedirectParams, SessionParams, JwtParams } from './callbacks.js';
export type {
  Provider,
  CredentialsProvider,
  CredentialsOptions,
  CredentialInput,
  AuthContext,
} from './providers/types.js';
export { defineRBAC } from './rbac/define.js';
export type { RBAC, RBACConfig, Role, OwnedResource } from './rbac/types.js';

/**
 * Validates an auth config and applies the defaults documented in core/README.md ("Configuration"): basePath `/auth`;
 * session maxAge 2592000 s (30 days) and updateAge 86400 s (24 h); cookie
 * `framework.session-token` (httpOnly, sameSite `lax`, path `/`, secure in
 * production); pages under basePath. `session.strategy`, when omitted, is
 * chosen by `createAuth`: `database` with a storage adapter, `jwt` without.
 *
 * @throws AuthConfigError (`INVALID_CONFIG`), e.g. for the jwt strategy
 *   without `secret`, a secret shorter than 32 characters, a negative maxAge,
 *   updateAge above maxAge, or sameSite `none` without secure.
 * @example
 * ```ts
 * export default defineAuthConfig({
 *   session: { strategy: 'jwt', maxAge: 7 * 24 * 3600 },
 *   secret: process.env.AUTH_SECRET,
 * });
 * ```
 */
export function defineAuthConfig<T extends AuthConfig>(config: T): T & AuthConfig {
  const resolved = resolveAuthConfig(config, config?.session?.strategy ?? (config?.secret ? 'jwt' : 'database'));
  return Object.freeze({
    ...config,
    basePath: resolved.basePath,
    session: { ...resolved.session, ...(config.session?.strategy ? {} : { strategy: undefined }) } as never,
    cookies: resolved.cookies,
    pages: resolved.pages,
  });
}

/**
 * Validates a provider made by a factory (`credentials(...)`, …) and returns it frozen.
 * @throws AuthConfigError (`INVALID_CONFIG`) for a bad id, name, field map or missing function.
 * @example
 * ```ts
 * export default defineProvider(credentials({ credentials: { email: { label: 'Email', type: 'email' } }, authorize }));
 * ```
 */
export function defineProvider<P extends Provider>(provider: P): P {
  return checkProvider(provider) as P;
}

const CALLBACK_NAMES = new Set(['signIn', 'redirect', 'session', 'jwt']);

/**
 * Validates a callbacks record: only `signIn`, `redirect`, `session` and `jwt`, each a function.
 * @throws AuthConfigError (`INVALID_CONFIG`) for an unknown name or a non-function.
 * @example
 * ```ts
 * export default defineAuthCallbacks({
 *   signIn: ({ user }) => !user.email?.endsWith('@blocked.example'),
 *   session: ({ session, token }) => ({ ...session, plan: token?.plan }),
 * });
 * ```
 */
export function defineAuthCallbacks<C extends AuthCallbacks>(callbacks: C): C {
  if (callbacks === null || typeof callbacks !== 'object')
    throw new AuthConfigError('Invalid callbacks: expected an object');
  for (const [name, fn] of Object.entries(callbacks)) {
    if (!CALLBACK_NAMES.has(name)) {
      throw new AuthConfigError(
        `Invalid callbacks: unknown callback "${name}" (expected signIn, redirect, session or jwt)`,
      );
    }
    if (typeof fn !== 'function') throw new AuthConfigError(`Invalid callbacks: "${name}" must be a function`);
  }
  return Object.freeze({ ...callbacks });
}
