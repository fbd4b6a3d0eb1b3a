/**
 * The option keys `createAuth` accepts. `create-auth-keys.test.ts` keeps the list and `CreateAuthOptions` in step
 * (a key added to the interface and not here fails the typecheck), so this module imports nothing from `auth.ts`.
 * @module
 * @internal
 */

/** Every key of `CreateAuthOptions`, as a tuple. */
export const CREATE_AUTH_KEY_LIST = [
  'basePath',
  'session',
  'cookies',
  'pages',
  'secret',
  'plugins',
  'providers',
  'callbacks',
  'adapter',
  'secondaryStorage',
  'baseURL',
  'trustHost',
  'trustedOrigins',
  'env',
  'maxBodySize',
  'logger',
  'rbac',
  'rateLimit',
  'emailAndPassword',
  'events',
  'user',
  'clock',
  'locale',
] as const;

/** Every key of `CreateAuthOptions`. */
export const CREATE_AUTH_KEYS: ReadonlySet<string> = new Set(CREATE_AUTH_KEY_LIST);
