/**
 * The auth configuration record (`defineAuthConfig`) and its defaults, as the
 * spec's "Auth configuration" table gives them, plus definition-time checks.
 * @module
 */
import { AuthConfigError } from './errors.js';
import { DEFAULT_SESSION_COOKIE, sessionCookieName } from './session/cookie-name.js';

/** How sessions are kept. */
export interface SessionConfig {
  /** `database`: an opaque token whose hash is stored; `jwt`: a signed token (needs `secret`). */
  strategy: 'database' | 'jwt';
  /** Session lifetime in seconds. Default 2592000 (30 days). */
  maxAge?: number;
  /** How often, in seconds, the expiry slides forward on use. Default 86400 (24 h). 0 extends on every request. */
  updateAge?: number;
  /**
   * `jwt` strategy with a storage `adapter`: how often, in seconds, a token
   * is re-checked against storage. Each check compares the token's session
   * version (claim `sv`) with the user's, so a token ends at its first check
   * after sign-out everywhere, a password change (`setPassword`), a role
   * change or the user's deletion. Default 60; 0 checks on every request.
   * Between checks a read costs a map lookup. Without an adapter there is
   * nothing to check against, and a JWT session cannot be revoked before it
   * expires. The `database` strategy reads storage on every request and
   * ignores this.
   */
  revalidateAge?: number;
  /**
   * How long after signing in, in seconds, a session counts as fresh:
   * `POST {basePath}/account/delete` accepts a fresh session alone, and asks
   * for the password (`{password}`) otherwise. Default 300 (5 minutes); 0
   * always asks. Read from the session's `createdAt` (database) or the
   * token's `auth_time` claim (jwt); a sliding refresh does not renew it.
   */
  freshAge?: number;
}

/** Cookie attributes (RFC 6265bis §4.1.2). */
export interface CookieOptions {
  /**
   * Default: true when `process.env.NODE_ENV` is `production`. Off Node
   * (workerd, Deno Deploy) there is usually no `NODE_ENV`, so the default is
   * false: set it from your own configuration there.
   */
  secure?: boolean;
  /** Default: true. */
  httpOnly?: boolean;
  /** Default: `lax`. `none` requires `secure`. */
  sameSite?: 'lax' | 'strict' | 'none';
  /** Default: `/`. */
  path?: string;
  domain?: string;
}

/** Cookie settings. */
export interface CookieConfig {
  sessionToken?: {
    /**
     * Default: `__Host-framework.session-token` when the cookie is `secure`
     * with path `/` and no `domain` (RFC 6265bis §4.1.3.2); with a `domain`
     * (or another path) `__Host-` cannot apply and the default is
     * `__Secure-framework.session-token`; over plain HTTP,
     * `framework.session-token`. A name you set is used as given; a
     * `__Host-`/`__Secure-` name must have the attributes its prefix needs.
     */
    name?: string;
    options?: CookieOptions;
  };
}

/** Paths of the pages the kit redirects to. */
export interface PagesConfig {
  /** Default: `${basePath}/signin`. */
  signIn?: string;
  /** Default: `${basePath}/signout`. */
  signOut?: string;
  /** Default: `${basePath}/error`. */
  error?: string;
  /** "Check your email" page. Default: `${basePath}/verify-request`. */
  verifyRequest?: string;
  /** Where a newly created user is sent after their first sign-in. Default: none (the callbackUrl). */
  newUser?: string;
}

/** The record taken by `defineAuthConfig` (spec: "Auth configuration"). */
export interface AuthConfig {
  /** Where the auth routes live. Default `/auth`. */
  basePath?: string;
  session?: SessionConfig;
  cookies?: CookieConfig;
  pages?: PagesConfig;
  /**
   * Secret for signing (JWT sessions, CSRF tokens, short-lived cookies), at
   * least 32 characters. An array enables rotation: the first signs, all
   * verify. Required with the `jwt` strategy and in production.
   */
  secret?: string | string[];
}

/** An {@link AuthConfig} with every default applied. */
export interface ResolvedAuthConfig {
  readonly basePath: string;
  readonly session: Readonly<Required<SessionConfig>>;
  readonly cookies: {
    readonly sessionToken: {
      readonly name: string;
      readonly options: Readonly<Required<Omit<CookieOptions, 'domain'>> & { domain?: string }>;
    };
  };
  readonly pages: Readonly<Required<Omit<PagesConfig, 'newUser'>> & { newUser?: string }>;
  readonly secret: readonly string[];
}

/** Default session lifetime: 30 days, in seconds. */
export const DEFAULT_MAX_AGE = 30 * 24 * 60 * 60;
/** Default sliding-refresh interval: 24 hours, in seconds. */
export const DEFAULT_UPDATE_AGE = 24 * 60 * 60;
/** Default session cookie name, before its prefix (see `cookies.sessionToken.name`). */
export { DEFAULT_SESSION_COOKIE };
/** Default interval of the storage re-check of JWT sessions: 60 seconds. */
export const DEFAULT_REVALIDATE_AGE = 60;
/** Default window in which a session counts as fresh for account deletion: 300 seconds. */
export const DEFAULT_FRESH_AGE = 300;
/** Minimum secret length, in characters. */
export const MIN_SECRET_LENGTH = 32;

export function isProduction(env?: Record<string, unknown>): boolean {
  if (env?.NODE_ENV !== undefined) return env.NODE_ENV === 'production';
  const processEnv = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  return processEnv?.NODE_ENV === 'production';
}

function fail(message: string): never {
  throw new AuthConfigError(`Invalid auth config: ${message}`);
}

function checkPath(name: string, value: unknown): string {
  if (typeof value !== 'string' || !value.startsWith('/') || value.startsWith('//')) {
    fail(`${name} must be a path starting with a single "/", got ${JSON.stringify(value)}`);
  }
  return value;
}

function checkSeconds(name: string, value: unknown, fallback: number, allowZero: boolean): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || (!allowZero && value === 0)) {
    fail(
      `${name} must be a ${allowZero ? 'non-negative' : 'positive'} number of seconds, got ${JSON.stringify(value)}`,
    );
  }
  return value;
}

/**
 * Applies defaults and validates. Idempotent: resolving a resolved config
 * gives the same config.
 *
 * @param defaultStrategy - the strategy when `session.strategy` is not given:
 *   `createAuth` passes `database` when a storage adapter is configured and `jwt` otherwise.
 * @throws AuthConfigError (`INVALID_CONFIG`) with a precise message.
 */
export function resolveAuthConfig(
  config: AuthConfig = {},
  defaultStrategy: 'database' | 'jwt' = 'jwt',
  env?: Record<string, unknown>,
): ResolvedAuthConfig {
  const production = isProduction(env);
  if (config === null || typeof config !== 'object') fail('the config must be an object');

  let basePath = checkPath('basePath', config.basePath ?? '/auth');
  if (basePath.length > 1 && basePath.endsWith('/')) basePath = basePath.slice(0, -1);

  const strategy = config.session?.strategy ?? defaultStrategy;
  if (strategy !== 'database' && strategy !== 'jwt') {
    fail(`session.strategy must be "database" or "jwt", got ${JSON.stringify(strategy)}`);
  }
  const maxAge = checkSeconds('session.maxAge', config.session?.maxAge, DEFAULT_MAX_AGE, false);
  const updateAge = checkSeconds(
    'session.updateAge',
    config.session?.updateAge,
    Math.min(DEFAULT_UPDATE_AGE, maxAge),
    true,
  );
  if (updateAge > maxAge) fail(`session.updateAge (${updateAge}) must not exceed session.maxAge (${maxAge})`);
  const revalidateAge = checkSeconds(
    'session.revalidateAge',
    config.session?.revalidateAge,
    DEFAULT_REVALIDATE_AGE,
    true,
  );
  const freshAge = checkSeconds('session.freshAge', config.session?.freshAge, DEFAULT_FRESH_AGE, true);

  const secrets = config.secret === undefined ? [] : Array.isArray(config.secret) ? config.secret : [config.secret];
  if (Array.isArray(config.secret) && secrets.length === 0) fail('secret must not be an empty array');
  for (const s of secrets) {
    if (typeof s !== 'string' || s.length < MIN_SECRET_LENGTH) {
      fail(
        `each secret must be a string of at least ${MIN_SECRET_LENGTH} characters (generate one with \`openssl rand -base64 32\`)`,
      );
    }
  }
  if (strategy === 'jwt' && secrets.length === 0) fail('the "jwt" session strategy requires `secret`');
  if (secrets.length === 0 && production) fail('`secret` is required in production (NODE_ENV=production)');

  const configuredName = config.cookies?.sessionToken?.name;
  if (
    configuredName !== undefined &&
    (typeof configuredName !== 'string' || !/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(configuredName))
  ) {
    fail(
      `cookies.sessionToken.name must be a cookie-name token (RFC 6265bis §4.1.1), got ${JSON.stringify(configuredName)}`,
    );
  }
  const o = config.cookies?.sessionToken?.options ?? {};
  const sameSite = o.sameSite ?? 'lax';
  if (!['lax', 'strict', 'none'].includes(sameSite))
    fail(`cookies.sessionToken.options.sameSite must be lax, strict or none`);
  const secure = o.secure ?? production;
  if (sameSite === 'none' && !secure) fail('sameSite "none" requires secure cookies (RFC 6265bis §5.6.19)');
  const options = {
    secure,
    httpOnly: o.httpOnly ?? true,
    sameSite,
    path: checkPath('cookies.sessionToken.options.path', o.path ?? '/'),
    ...(o.domain !== undefined ? { domain: o.domain } : {}),
  };
  const name = sessionCookieName(configuredName, options);

  const p = config.pages ?? {};
  const pages = {
    signIn: checkPath('pages.signIn', p.signIn ?? `${basePath}/signin`),
    signOut: checkPath('pages.signOut', p.signOut ?? `${basePath}/signout`),
    error: checkPath('pages.error', p.error ?? `${basePath}/error`),
    verifyRequest: checkPath('pages.verifyRequest', p.verifyRequest ?? `${basePath}/verify-request`),
    ...(p.newUser !== undefined ? { newUser: checkPath('pages.newUser', p.newUser) } : {}),
  };

  const resolved: ResolvedAuthConfig = {
    basePath,
    session: Object.freeze({ strategy, maxAge, updateAge, revalidateAge, freshAge }),
    cookies: { sessionToken: { name, options: Object.freeze(options) } },
    pages: Object.freeze(pages),
    secret: Object.freeze([...secrets]),
  };
  return Object.freeze(resolved);
}
