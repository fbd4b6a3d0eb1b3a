/**
 * `createAuth`'s first step: validate the options and resolve them into what the engine runs with (config, origin
 * policy, storage, providers, plugins, limiters, session strategy). Everything a bad option can throw is thrown here.
 * @internal
 * @module
 */
import { AuthConfigError } from '../errors.js';
import { resolveAuthConfig, type ResolvedAuthConfig } from '../config.js';
import { resolveOriginPolicy, type OriginPolicy } from '../http/origin.js';
import { checkProviders } from '../providers/check.js';
import type { Provider } from '../providers/types.js';
import { flowOf } from '../providers/flow.js';
import { preloadSealing } from '../http/sealed.js';
import type { StorageAdapter } from '../storage/types.js';
import { encryptAccountTokens } from '../storage/encrypted-tokens.js';
import { databaseStrategy } from '../session/database.js';
import { jwtStrategy } from '../session/jwt.js';
import type { SessionStrategy } from '../session/types.js';
import { DEFAULT_MAX_BODY_BYTES } from '../http/body.js';
import { rejectUnknownKeys } from '../config-check/unknown-keys.js';
import { CREATE_AUTH_KEYS } from '../config-check/create-auth-keys.js';
import { isRBAC } from '../rbac/lookup.js';
import { emailAndPassword } from '../email-password/plugin.js';
import type { AuthInternals, AuthLogger, AuthPlugin } from '../contract/types.js';
import { createLoginRateLimiter, createPasswordResetRateLimiter } from '../rate-limit/factories.js';
import { createFixedWindowStorage } from '../rate-limit/storage.js';
import { createRuleLimiters } from '../rate-limit/rules.js';
import type { CreateAuthOptions } from './types.js';
import type { AuthCallbacks } from '../callbacks.js';
import { bindUserFields } from '../user-fields/bind.js';
import { systemClock, type AuthClock } from '../clock.js';
import { resolveLocaleOptions, type LocalePolicy } from '../i18n/options.js';

/** The options, checked and resolved. */
export interface ResolvedOptions {
  config: ResolvedAuthConfig;
  originPolicy: OriginPolicy;
  env: Record<string, unknown>;
  adapter: StorageAdapter | undefined;
  /** Every plugin in registration order: the sugar's (`emailAndPassword`, a `passkey()` in `providers`), then the app's. */
  plugins: AuthPlugin[];
  providers: ReadonlyMap<string, Provider>;
  strategy: SessionStrategy;
  limiters: AuthInternals['limiters'];
  maxBodySize: number;
  logger: AuthLogger;
  /** `clock`, checked; default {@link systemClock}. */
  clock: AuthClock;
  /** `locale`, checked (see `LocaleOptions`). */
  locale: LocalePolicy;
}

function processEnv(): Record<string, unknown> {
  return ((globalThis as { process?: { env?: Record<string, unknown> } }).process?.env ?? {}) as Record<
    string,
    unknown
  >;
}

const isPlugin = (entry: Provider | AuthPlugin): entry is AuthPlugin => !('type' in entry);

/** The plugins in registration order; `emailAndPassword` and sign-in method plugins in `providers` are sugar. */
function pluginsOf(options: CreateAuthOptions): AuthPlugin[] {
  if (options.plugins !== undefined && !Array.isArray(options.plugins))
    throw new AuthConfigError('Invalid auth config: plugins must be an array');
  const fromProviders = (options.providers ?? []).filter(
    (p): p is AuthPlugin => !!p && typeof p === 'object' && isPlugin(p),
  );
  const sugar = options.emailAndPassword === undefined ? [] : [emailAndPassword(options.emailAndPassword)];
  return [...sugar, ...fromProviders, ...(options.plugins ?? [])];
}

/** The app's providers, then the plugins' (the app's own provider of an id wins). */
function providersOf(options: CreateAuthOptions, plugins: readonly AuthPlugin[]): ReadonlyMap<string, Provider> {
  const given = (options.providers ?? []).filter((p) => !p || typeof p !== 'object' || !isPlugin(p)) as Provider[];
  const brought = plugins.flatMap((p) => p.providers ?? []).filter((b) => !given.some((g) => g?.id === b.id));
  const providers = checkProviders([...brought, ...given]);
  for (const p of providers.values())
    if ((p.type === 'oauth' || p.type === 'oidc' || p.type === 'email') && !flowOf(p))
      throw new AuthConfigError(
        `Invalid auth config: provider "${p.id}" has no sign-in flow; build it with createOAuth2Provider(), a preset or email()`,
      );
  // OAuth flows seal their state cookie: jose's JWE modules load now, not on the first sign-in.
  if ([...providers.values()].some((p) => p.type === 'oauth' || p.type === 'oidc')) preloadSealing();
  return providers;
}

function requireStorage(providers: ReadonlyMap<string, Provider>, adapter: StorageAdapter | undefined): void {
  const needsStorage = [...providers.values()].find(
    (p) => p.type === 'email' || p.type === 'oauth' || p.type === 'oidc',
  );
  if (needsStorage && !adapter) {
    const kind = needsStorage.type === 'email' ? 'The email provider' : 'OAuth providers';
    throw new AuthConfigError(
      `Invalid auth config: ${kind} need \`adapter\` (users, accounts and tokens are stored, and user ids are ours)`,
    );
  }
}

/** The default limiters count where the secondary storage says (Redis: shared by every instance), else in memory. */
function limitersOf(
  options: CreateAuthOptions,
  plugins: readonly AuthPlugin[],
  clock: AuthClock,
): AuthInternals['limiters'] {
  const shared = options.secondaryStorage?.rateLimitStorage?.();
  // The limiters built here count on the auth's clock (in memory; a shared Redis keeps its own time).
  const memory = () => createFixedWindowStorage();
  const login =
    options.rateLimit?.login === false
      ? undefined
      : (options.rateLimit?.login ?? createLoginRateLimiter(shared ?? memory(), { clock }));
  const hasPasswords = plugins.some((p) => p.id === 'emailAndPassword');
  const passwordReset =
    options.rateLimit?.passwordReset ??
    (hasPasswords ? createPasswordResetRateLimiter(shared ?? memory(), { clock }) : undefined);
  // Per-route rules count where the login limiter does (a shared Redis), else in the secondary storage or memory.
  const rules = createRuleLimiters(
    options.rateLimit?.rules,
    (login ? login.storage : undefined) ?? shared ?? memory(),
    clock,
  );
  return { login, emailVerification: options.rateLimit?.emailVerification ?? login, passwordReset, rules };
}

/**
 * Checks and resolves `createAuth`'s options.
 * @throws AuthConfigError (`INVALID_CONFIG`) for an unknown key or a bad value.
 */
export function resolveOptions(options: CreateAuthOptions<any, any, any>): ResolvedOptions {
  if (!options || typeof options !== 'object')
    throw new AuthConfigError('Invalid auth config: createAuth needs an options object');
  rejectUnknownKeys(options, CREATE_AUTH_KEYS, 'Invalid auth config');
  const env = options.env ?? processEnv();
  const config = resolveAuthConfig(options, options.adapter ? 'database' : 'jwt', env);
  const originPolicy = resolveOriginPolicy(options, env);
  bindUserFields(config, options.adapter, options.user);
  // OAuth tokens are stored encrypted under `secret` (see encryptAccountTokens).
  const stored = options.adapter && encryptAccountTokens(options.adapter, config.secret);
  const adapter = stored && options.secondaryStorage ? options.secondaryStorage.wrapAdapter(stored) : stored;
  const plugins = pluginsOf(options);
  const providers = providersOf(options, plugins);
  if (config.session.strategy === 'database' && !adapter)
    throw new AuthConfigError(
      'Invalid auth config: the "database" session strategy requires `adapter` (or use strategy "jwt" with a secret)',
    );
  requireStorage(providers, adapter);
  if (options.rbac !== undefined && !isRBAC(options.rbac))
    throw new AuthConfigError('Invalid auth config: rbac must come from defineRBAC()');
  const maxBodySize = options.maxBodySize ?? DEFAULT_MAX_BODY_BYTES;
  if (!Number.isInteger(maxBodySize) || maxBodySize <= 0)
    throw new AuthConfigError('Invalid auth config: maxBodySize must be a positive integer (bytes)');
  const callbacks = (options.callbacks ?? {}) as AuthCallbacks;
  const clock = options.clock ?? systemClock;
  if (typeof (clock as Partial<AuthClock> | null)?.now !== 'function')
    throw new AuthConfigError('Invalid auth config: clock must be an object with now() (ms since the epoch)');
  const strategy =
    config.session.strategy === 'database'
      ? databaseStrategy(config, adapter!, clock)
      : jwtStrategy(config, callbacks, adapter, clock);
  return {
    config,
    originPolicy,
    env,
    adapter,
    plugins,
    providers,
    strategy,
    limiters: limitersOf(options, plugins, clock),
    maxBodySize,
    logger: options.logger ?? { error: (m) => console.error(m), warn: (m) => console.warn(m) },
    clock,
    locale: resolveLocaleOptions(options.locale),
  };
}
