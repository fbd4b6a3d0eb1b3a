/**
 * `oidcProvider()`: the app as an OpenID Provider for its other services (issue #44).
 * @module
 */
import {
  AuthConfigError,
  endpoint,
  type ActionResult,
  type AuthPlugin,
  type PluginRoute,
  type RouteContext,
} from '../../plugin-kit.js';
import type { AuthClock } from '../../index.js';
import type { JwtExtension } from '../jwt/index.js';
import { appsOf, listApps, revokeApp, revokeAppAction, type AppWithAccess } from './account.js';
import { noteSignIn } from './amr.js';
import { authorize, consent } from './authorize.js';
import { createClients, type Clients } from './clients.js';
import { createCors, publicClientOrigins } from './cors.js';
import { discoveryDocument } from './discovery.js';
import { OIDC_PROVIDER_ERRORS, type OidcProviderErrorCode } from './errors.js';
import { oauthEndpoint } from './oauth-error.js';
import { resolveOidcProviderOptions, type NewClientInput, type OidcProviderOptions } from './options.js';
import { registerEndpoint, registrationRateLimit } from './register.js';
import { introspect, revoke, userinfo } from './resource.js';
import { endSession, endSessionDone } from './session-end.js';
import { createSigner, type Signer } from './signer.js';
import { tokenEndpoint } from './token.js';
import type { OidcClientRecord, OidcProviderStorage } from './types.js';

/** A client created with {@link OidcProviderExtension.createClient}. */
export interface CreatedClient {
  client: OidcClientRecord;
  /** The secret of a confidential client, shown this once (only its SHA-256 is stored); undefined for a public one. */
  clientSecret: string | undefined;
}

/** `auth.extensions.oidcProvider`. */
export interface OidcProviderExtension {
  /** The `iss` of every token: the auth's base URL + basePath (e.g. `https://app.example.com/auth`). */
  readonly issuer: string;
  /** The provider's storage. */
  readonly storage: OidcProviderStorage;
  /**
   * Registers a client in storage (or replaces the one with the same `clientId`): a confidential client gets a
   * random secret, returned once; `public: true` makes a public client (PKCE only, no secret).
   * @throws AuthConfigError (`INVALID_CONFIG`) for a malformed registration (bad URL, unknown scope, …).
   */
  createClient(input: NewClientInput): Promise<CreatedClient>;
  /** The applications `userId` allowed, oldest first. */
  listConsents(userId: string): Promise<AppWithAccess[]>;
  /** Withdraws `userId`'s consent to `clientId` and revokes its tokens; false when there was none. */
  revokeConsent(userId: string, clientId: string): Promise<boolean>;
  /** The discovery document (to serve it at the site root too, when `basePath` is not the issuer you want). */
  discovery(): Promise<Record<string, unknown>>;
}

/** The plugin's routes on `auth.api` (acting as the session in `headers`). */
export const OIDC_PROVIDER_API = {
  /** `GET /oauth2/consents`: the applications the signed-in user allowed (dates as ISO strings over HTTP). */
  listAppsWithAccess: endpoint<void, { apps: AppWithAccess[] }>('GET', 'oauth2/consents'),
  /** `POST /oauth2/consents/revoke`: withdraws the consent and revokes that application's tokens. */
  revokeAppAccess: endpoint<{ clientId: string }, { ok: true }>('POST', 'oauth2/consents/revoke'),
};

/**
 * The app as an OpenID Provider (OpenID Connect Core 1.0, authorization code flow with PKCE S256 only): the app's
 * other services (a mobile app, a CLI, a partner) sign their users in with standard OAuth 2.0 / OpenID Connect.
 * Needs `jwt()` before it in `plugins` (ID tokens and access tokens are signed with its key ring; its `GET /jwks`
 * is the provider's `jwks_uri`). Routes under `basePath` (the issuer is `baseURL` + `basePath`):
 *
 * - `GET /.well-known/openid-configuration`: discovery.
 * - `GET /oauth2/authorize`: an unknown `client_id` or a `redirect_uri` not registered exactly answers the error
 *   page (400 `OIDC_CLIENT_UNKNOWN` / `OIDC_REDIRECT_URI_INVALID`) and never redirects; every other mistake goes
 *   back to the client as `error=` with `state` (RFC 6749 §4.1.2.1). `code_challenge` with
 *   `code_challenge_method=S256` is required for every client. A signed-out browser goes to the sign-in page and
 *   comes back; `prompt=none|login|consent` and `max_age` are honoured (a forced sign-in is bound to the request in a
 *   sealed HttpOnly cookie, not the URL). Then the consent page (unless the user
 *   allowed these scopes before, or the client `skipConsent`), then `redirect_uri?code&state&iss`.
 * - `POST /oauth2/consent`: the consent page's Allow / Deny (CSRF-checked).
 * - `POST /oauth2/token`: `authorization_code` (single use, 60 s, bound to the client, `redirect_uri` and the
 *   PKCE challenge; a replayed code revokes what it issued) and `refresh_token` (issued only when the grant holds
 *   `offline_access`, OpenID Connect Core 1.0 §11; rotated on every use; a rotated token used again revokes its
 *   family). Client authentication `client_secret_basic`, `client_secret_post`, or
 *   `none` for public clients. Errors in the RFC 6749 §5.2 shape.
 * - `GET|POST /oauth2/userinfo` (Bearer): `sub`, plus `name`/`picture` for `profile` and `email`/`email_verified`
 *   for `email`.
 * - `POST /oauth2/revoke` (RFC 7009) and `POST /oauth2/introspect` (RFC 7662, confidential clients).
 * - CORS: token, UserInfo, revocation, discovery and JWKS answer the exact origins of the redirect URIs of public
 *   clients registered in `clients` (`Vary: Origin`, no credentials, `OPTIONS` preflights without side effects);
 *   authorize and consent never answer CORS.
 * - `GET /oauth2/end-session`: `id_token_hint`, `post_logout_redirect_uri` (registered per client), `state`.
 * - `GET /oauth2/consents` and `POST /oauth2/consents/revoke`: the user's "Apps with access" with Revoke.
 * - `POST /oauth2/register` (RFC 7591), only with `dynamicRegistration`: a client registers its redirect URIs
 *   (https, or http on a loopback IP literal), name, authentication method and scopes; 201 with `client_id` and,
 *   when confidential, `client_secret`; `invalid_redirect_uri` / `invalid_client_metadata` (400) otherwise. No
 *   registration access token (no read or update endpoint).
 *
 * ID tokens carry `iss`, `sub`, `aud`, `exp`, `iat`, `auth_time`, `nonce`, `at_hash` and, when known in this
 * browser, `amr` (`['pwd']`, or `['otp', 'mfa']` after `twoFactor()`) and `acr` (`urn:framework:auth:acr:mfa`
 * after a second factor). Access tokens are JWTs (RFC 9068, `typ: at+jwt`, 1 hour by default) tied to their grant,
 * so revoking the grant ends them at UserInfo and introspection. Codes, refresh tokens and client secrets are stored
 * only as SHA-256 hashes.
 *
 * @throws AuthConfigError (`INVALID_CONFIG`) for bad options; at `createAuth`, without `jwt()` before it, without
 *   `baseURL`, or without an `adapter`.
 * @example
 * ```ts
 * import { createAuth } from '@framework/auth';
 * import { jwt } from '@framework/auth/plugins/jwt';
 * import { oidcProvider } from '@framework/auth/plugins/oidc-provider';
 *
 * const auth = createAuth({
 *   baseURL: 'https://app.example.com',
 *   secret: process.env.AUTH_SECRET,
 *   adapter,
 *   providers,
 *   plugins: [
 *     jwt({ audience: 'https://api.example.com' }),
 *     oidcProvider({
 *       clients: [
 *         { clientId: 'cli', name: 'Our CLI', redirectUris: ['http://127.0.0.1:8765/callback'] },
 *         {
 *           clientId: 'partner',
 *           clientSecret: process.env.PARTNER_SECRET,
 *           name: 'Partner portal',
 *           redirectUris: ['https://partner.example/callback'],
 *         },
 *       ],
 *     }),
 *   ],
 * });
 * // Issuer: https://app.example.com/auth (discovery at /auth/.well-known/openid-configuration)
 * ```
 */
export function oidcProvider(
  options: OidcProviderOptions = {},
): AuthPlugin<'oidcProvider', OidcProviderExtension, typeof OIDC_PROVIDER_API, OidcProviderErrorCode> {
  const o = resolveOidcProviderOptions(options);
  let state: { clients: Clients; signer: Signer; jwt: JwtExtension; clock: AuthClock } | undefined;
  const ready = () => {
    if (!state) throw new Error('oidcProvider(): used before createAuth initialised it');
    return state;
  };
  const deps = {
    o,
    get clients() {
      return ready().clients;
    },
    signer: () => ready().signer,
    issuer: () => ready().signer.issuer,
  };
  const discovery = async () => discoveryDocument(deps.issuer(), o, (await ready().jwt.signingKey()).alg);

  // Browser clients: the origins of public clients' redirect URIs may call the token, UserInfo, revocation,
  // discovery and JWKS endpoints (CORS); authorize and consent never answer CORS.
  const origins = publicClientOrigins(o.clients);
  const cors = createCors(() => origins);
  const oauth = (run: (ctx: RouteContext) => Promise<ActionResult>) => async (ctx: RouteContext) =>
    cors.add(ctx, await oauthEndpoint(() => run(ctx)));

  const routes: Record<string, PluginRoute> = {
    '.well-known/openid-configuration': {
      GET: async (ctx) =>
        cors.add(ctx, { status: 200, json: await discovery(), headers: { 'cache-control': 'public, max-age=300' } }),
      OPTIONS: cors.preflight(['GET']),
    },
    'oauth2/authorize': { GET: (ctx) => authorize(ctx, deps) },
    'oauth2/consent': { POST: (ctx) => consent(ctx, deps), csrf: 'token' },
    // The client authenticates itself (or, public, proves PKCE): no cookie is read, so no CSRF token applies.
    'oauth2/token': {
      POST: oauth((ctx) => tokenEndpoint(ctx, deps)),
      OPTIONS: cors.preflight(['POST']),
      csrf: 'none',
    },
    'oauth2/userinfo': {
      GET: oauth((ctx) => userinfo(ctx, deps)),
      POST: oauth((ctx) => userinfo(ctx, deps)),
      OPTIONS: cors.preflight(['GET', 'POST']),
      csrf: 'none',
    },
    'oauth2/revoke': { POST: oauth((ctx) => revoke(ctx, deps)), OPTIONS: cors.preflight(['POST']), csrf: 'none' },
    // Confidential clients only (a server): no CORS.
    'oauth2/introspect': {
      POST: async (ctx) => oauthEndpoint(() => introspect(ctx, deps)),
      csrf: 'none',
    },
    'oauth2/end-session': { GET: (ctx) => endSession(ctx, deps) },
    'oauth2/end-session/done': { GET: (ctx) => endSessionDone(ctx) },
    'oauth2/consents': { GET: (ctx) => listApps(ctx, o, deps.clients) },
    'oauth2/consents/revoke': { POST: (ctx) => revokeAppAction(ctx, o), csrf: 'token' },
  };
  // Dynamic registration: an API for non-browser clients (no cookie is read, so no CSRF token applies); a JSON
  // body with arrays (redirect_uris). Absent unless turned on, so the path answers 404.
  if (o.dynamicRegistration) {
    const initialAccessToken = o.dynamicRegistration.initialAccessToken;
    routes['oauth2/register'] = {
      POST: async (ctx) => oauthEndpoint(() => registerEndpoint(ctx, { o, clients: deps.clients, initialAccessToken })),
      csrf: 'none',
      body: 'json',
      rateLimit: registrationRateLimit,
    };
  }

  return {
    id: 'oidcProvider',
    errorCodes: OIDC_PROVIDER_ERRORS,
    init(auth) {
      const jwt = auth.extensionOf('jwt') as JwtExtension | undefined;
      if (!jwt || typeof jwt.signingKey !== 'function')
        throw new AuthConfigError(
          'Invalid auth config: oidcProvider() needs jwt() before it in `plugins`: ID tokens are signed with its keys and its /jwks is the jwks_uri',
        );
      const base = auth.originPolicy.baseURL;
      if (!base)
        throw new AuthConfigError(
          'Invalid auth config: oidcProvider() needs `baseURL` (or AUTH_URL): the issuer must not depend on the request',
        );
      if (!auth.adapter)
        throw new AuthConfigError('Invalid auth config: oidcProvider() needs `adapter` (users are stored)');
      o.bindStorage(auth.adapter);
      const issuer = `${base.replace(/\/+$/, '')}${auth.config.basePath}`;
      const signer = createSigner(jwt, issuer, auth.clock, { idToken: o.idTokenTtl, accessToken: o.accessTokenTtl });
      state = { clients: createClients(o, auth.clock), signer, jwt, clock: auth.clock };
      const now = () => new Date(auth.clock.now());
      return {
        issuer,
        storage: o.storage,
        createClient: (input) => ready().clients.create(input),
        listConsents: (userId) => appsOf(o, ready().clients, userId),
        revokeConsent: (userId, clientId) => revokeApp(o, userId, clientId, now()),
        discovery,
      };
    },
    api: OIDC_PROVIDER_API,
    migrate: () => o.storage.migrate(),
    hooks: {
      // jwt()'s /jwks is this provider's jwks_uri: browser clients fetch it too.
      afterAction: (ctx, result) =>
        ctx.route === `${ctx.auth.config.basePath}/jwks` ? cors.add(ctx, result) : undefined,
      afterSignIn: (ctx, { user }) => noteSignIn(ctx, user.id),
      // A deleted user's grants end with them.
      userDeleted: async (userId) => {
        if (state) await o.storage.revokeGrantsOf(userId, undefined, new Date(state.clock.now()));
      },
    },
    routes,
  };
}
