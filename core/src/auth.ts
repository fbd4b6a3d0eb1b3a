/**
 * `createAuth`: the Web `Request` → `Response` auth engine. It composes: the options (`engine/options.ts`), the
 * route registry, the session reader (`engine/session-reader.ts`) and the HTTP dispatch (`engine/dispatch.ts`).
 * @module
 */
import type { AuthInternals, AuthPlugin, PluginApis, PluginErrorCodes, PluginExtensions } from './contract/types.js';
import type { CoreErrorCode } from './error-codes.js';
import { signInRoutes } from './routes/router.js';
import { accountRoutes } from './routes/account/index.js';
import { buildRegistry } from './plugins/registry.js';
import { accessTokenGetter } from './access-token.js';
import { runInScope } from './scope.js';
import { createRefusalLog } from './rate-limit/refusals.js';
import { createDelivery } from './delivery.js';
import { resolveOptions } from './engine/options.js';
import { createSessionReader } from './engine/session-reader.js';
import { buildInternals } from './engine/internals.js';
import { createHandler } from './engine/dispatch.js';
import { csrfApi, responseOfError, sessionIssuer } from './engine/app-api.js';
import { createServerApi } from './engine/server-api.js';
import { CORE_API, EMAIL_PASSWORD_API, type CoreApi } from './engine/core-api.js';
import type { Auth, CreateAuthOptions } from './engine/types.js';
import type { AuthCallbacks } from './callbacks.js';
import type { Session, User } from './types.js';
import type { SessionUserOf } from './user-fields/infer.js';
import type { UserFieldsConfig } from './user-fields/types.js';
import type { UserFieldErrorCodesOf } from './user-fields/errors.js';

export type { Auth, CreateAuthOptions } from './engine/types.js';
export type { RequestInfo, RequestSource } from './contract/types.js';

/**
 * The error codes an engine answers with: the core's, those of the plugins `P` given to `createAuth`, and the
 * custom user fields' when `F` declares any. Typed on `Auth` for `@framework/auth-client` (`AuthErrorCodeOf`).
 */
type EngineErrorCode<P extends readonly AuthPlugin<string, unknown, any>[], F> =
  CoreErrorCode | PluginErrorCodes<P> | UserFieldErrorCodesOf<F>;

/**
 * Creates the auth engine.
 *
 * Routes under `basePath` (default `/auth`): `GET /providers`, `GET /csrf`,
 * `GET|POST /session`, `GET /signin`, `POST /signin/:provider`,
 * `POST /callback/:provider`, `GET|POST /signout`, `GET /error`,
 * `GET /verify-request`, `GET /sessions`, `POST /sessions/revoke`,
 * `POST /account/unlink`, `POST /account/delete`. JSON for clients that send `Accept:
 * application/json` (or a JSON body), redirects and HTML pages otherwise.
 * Every POST is CSRF-checked (Origin / `Sec-Fetch-Site`, then the
 * double-submit `csrfToken`); failures answer 403 `CSRF_ORIGIN_MISMATCH` /
 * `CSRF_TOKEN_INVALID`. Errors answer `{error: {code, message}}`.
 *
 * @throws AuthConfigError (`INVALID_CONFIG`) for a bad config: e.g. the
 *   database strategy without an adapter, a duplicate provider id, the jwt
 *   strategy without secret.
 * @example
 * ```ts
 * const auth = createAuth({
 *   ...defineAuthConfig({ session: { strategy: 'database' } }),
 *   adapter: createSqliteAdapter({ filename: '.data/auth.db' }),
 *   providers: [credentials({ credentials: { email: { label: 'Email', type: 'email' }, password: { label: 'Password', type: 'password' } }, authorize })],
 * });
 * await auth.adapter?.migrate();
 * const res = await auth.handler(new Request('http://localhost/auth/session'));
 * ```
 */
export function createAuth<
  const P extends readonly AuthPlugin<string, unknown, any>[] = [],
  const F extends UserFieldsConfig = Record<never, never>,
  S extends Session = Session,
>(
  options: CreateAuthOptions<P, F, S>,
): Auth<PluginExtensions<P>, SessionUserOf<F, S>, PluginApis<P>, EngineErrorCode<P, F>> {
  const resolved = resolveOptions(options);
  const { config, adapter, plugins, strategy } = resolved;
  const registry = buildRegistry([signInRoutes(), accountRoutes(), ...plugins], config.basePath);
  const extensions: Record<string, unknown> = {};
  const callbacks: AuthCallbacks = (options.callbacks ?? {}) as AuthCallbacks;
  const reader = createSessionReader({
    config,
    strategy,
    callbacks,
    hooks: registry.hooks,
    extensions,
    clock: resolved.clock,
  });
  const refusals = createRefusalLog();
  const delivery = createDelivery(resolved.logger);
  const { events, rbac } = options;
  const pluginExtensions: Record<string, unknown> = {};
  const internals = buildInternals({
    resolved,
    registry,
    callbacks,
    reader,
    refusals,
    delivery,
    events,
    rbac,
    extensions: pluginExtensions,
  });
  for (const plugin of plugins) pluginExtensions[plugin.id] = plugin.init ? plugin.init(internals) : undefined;
  Object.assign(extensions, pluginExtensions, options.rbac ? { rbac: options.rbac } : {});
  // The auth routes (and provider tokens) count only the session cookie: a credential a plugin's
  // resolveSession reads (an API key) never signs in, links, changes or revokes credentials there.
  const cookieOnly: AuthInternals = {
    ...internals,
    readSession: (request, opts) => reader.readSession(request, { ...opts, viaPlugins: false }),
  };
  const handler = createHandler(cookieOnly, registry);
  const api = createServerApi(internals, handler, [CORE_API, EMAIL_PASSWORD_API, ...plugins.map((p) => p.api)]);
  const engine: Auth<PluginExtensions<P>, User, PluginApis<P>> = {
    extensions: pluginExtensions as PluginExtensions<P>,
    api: api as unknown as CoreApi & PluginApis<P>,
    async migrate() {
      await adapter?.migrate();
      for (const plugin of plugins) await plugin.migrate?.(internals);
    },
    config,
    adapter,
    providers: resolved.providers,
    csrf: csrfApi(internals),
    getAccessToken: accessTokenGetter(cookieOnly),
    createSession: sessionIssuer(internals),
    handler,
    getSession: (request, info) => reader.readSession(request, info ? { info } : {}),
    rateLimitRefusals: (limit) => refusals.recent(limit),
    onMessage: delivery.observe,
    clock: resolved.clock,
    openScope: reader.openScope,
    run(request, fn, info) {
      // Not async: when the scope is ready now, fn runs in this tick and no promise waits on another (on Node 20,
      // where AsyncLocalStorage turns on promise hooks, each promise saved is a measurable share of a request).
      try {
        const scope = reader.openScope(request, info);
        if (scope instanceof Promise) return scope.then((ready) => runInScope(ready, () => fn(ready)));
        return Promise.resolve(runInScope(scope, () => fn(scope)));
      } catch (error) {
        return Promise.reject(error);
      }
    },
    toResponse: responseOfError(internals),
  };
  return engine as unknown as Auth<PluginExtensions<P>, SessionUserOf<F, S>, PluginApis<P>, EngineErrorCode<P, F>>;
}
