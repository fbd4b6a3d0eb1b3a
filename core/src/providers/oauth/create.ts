/**
 * `createOAuth2Provider`, the custom provider, and the builder the presets share.
 * @module
 */
import type { Profile } from '../../types.js';
import type { OAuthEndpoints, OAuthProvider, ProfileContext, TokenSet, UserProfile } from './types.js';
import { checkProvider } from '../check.js';
import { withFlow, type SignInFlow } from '../flow.js';
import { standardClaimsProfile } from './standard-claims.js';

let oauthFlow: Promise<SignInFlow<OAuthProvider>> | undefined;

/** The authorization code flow's modules (the routes, oauth4webapi), loaded once per process. */
function loadOAuthFlow(): Promise<SignInFlow<OAuthProvider>> {
  return (oauthFlow ??= import('../../routes/oauth.js').then((m) => m.oauthFlow));
}

/**
 * Starts loading the flow when a provider is built (the app configures OAuth), so a cold import of the core does
 * not load it (issue 39) and the first sign-in does not wait for it. A failed load is reported by the first use.
 */
function preloadOAuthFlow(): void {
  loadOAuthFlow().catch(() => {});
}

/**
 * The OAuth 2.0 / OIDC flow attached to every provider `createOAuth2Provider` and the presets build: each call
 * goes to the loaded flow (`routes/oauth.ts`).
 */
const lazyOAuthFlow: SignInFlow<OAuthProvider> = {
  signIn: async (ctx, provider) => (await loadOAuthFlow()).signIn(ctx, provider),
  callback: async (ctx, provider) => (await loadOAuthFlow()).callback(ctx, provider),
  refresh: async (provider, refreshToken) => (await loadOAuthFlow()).refresh!(provider, refreshToken),
};

/** Options of {@link createOAuth2Provider} (spec: Providers › createOAuth2Provider). */
export interface OAuth2ProviderOptions {
  /** Unique provider id, used in `/signin/:id` and `/callback/:id`. */
  id: string;
  /** Display name on the sign-in page. */
  name: string;
  clientId: string;
  clientSecret: string;
  /** Authorization endpoint URL. Optional when `issuer` is given (discovered). */
  authorization?: string;
  /** Token endpoint URL. Optional when `issuer` is given. */
  token?: string;
  /**
   * UserInfo / profile endpoint URL. Optional when `issuer` is given: then it
   * overrides the discovered `userinfo_endpoint`.
   */
  userinfo?: string;
  /**
   * OIDC only: do not call the UserInfo endpoint; `profile` gets the ID token
   * claims alone. For providers known to put every claim in the ID token.
   * Default false (OIDC Core §5.4 lets a provider return `email`, `name` and
   * the like only from UserInfo).
   */
  skipUserInfo?: boolean;
  /** Space-separated scopes. Default `openid email profile` for OIDC, else none. */
  scope?: string;
  /**
   * Maps the provider's raw profile to `{id, email?, name?, image?, emailVerified?}`.
   * OAuth 2.0: the userinfo JSON. OIDC: the ID token claims with the UserInfo
   * claims merged over them (so read `email_verified` from it). Optional with
   * `issuer`: the default maps the standard claims ({@link standardClaimsProfile}).
   */
  profile?: (profile: Profile, tokens: TokenSet) => UserProfile | Promise<UserProfile>;
  /** OIDC issuer identifier: enables discovery and ID token validation (type `oidc`). */
  issuer?: string;
  /** Let a verified email from this provider link to an existing user. Default false. */
  trustEmail?: boolean;
  /** Default `client_secret_basic`. */
  clientAuth?: 'client_secret_basic' | 'client_secret_post';
  /** Extra authorization request parameters, e.g. `{ prompt: 'consent' }`. */
  authorizationParams?: Record<string, string>;
  /**
   * The `fetch` for every request the server makes to this provider: OIDC discovery, the token request (code
   * exchange and refresh), UserInfo (or the `userinfo` profile endpoint) and the JWKS. Default: the global `fetch`.
   * Use it to route through an egress proxy or to check each URL before it is fetched (as `sso()` does against
   * internal addresses); it is called with `(url, init)` where `init.redirect` is `'manual'`. A thrown `AuthError`
   * ends the sign-in with its own code, any other throw as a network failure (`OAUTH_SIGNIN_ERROR` /
   * `OAUTH_CALLBACK_ERROR`).
   */
  fetch?: typeof fetch;
}

/** Everything a preset or custom provider can set; used by the presets. @internal */
export interface OAuthProviderSpec {
  id: string;
  name: string;
  type: 'oauth' | 'oidc';
  clientId: string;
  clientSecret: string | (() => Promise<string>);
  issuer?: string;
  endpoints: OAuthEndpoints;
  scope: string;
  responseMode?: 'query' | 'form_post';
  clientAuth?: 'client_secret_basic' | 'client_secret_post';
  authorizationParams?: Record<string, string>;
  headers?: Record<string, string>;
  fetch?: typeof fetch;
  trustEmail?: boolean;
  tokenErrorsWith200?: boolean;
  skipUserInfo?: boolean;
  nonce?: boolean;
  userinfo?: (tokens: TokenSet, ctx: ProfileContext) => Promise<Profile>;
  profile: (profile: Profile, tokens: TokenSet, ctx: ProfileContext) => UserProfile | Promise<UserProfile>;
}

/** Builds and validates an OAuth provider record. @internal */
export function oauthProvider(spec: OAuthProviderSpec): OAuthProvider {
  const provider: OAuthProvider = {
    id: spec.id,
    name: spec.name,
    type: spec.type,
    clientId: spec.clientId,
    clientSecret: spec.clientSecret,
    ...(spec.issuer !== undefined ? { issuer: spec.issuer } : {}),
    endpoints: Object.freeze({ ...spec.endpoints }),
    scope: spec.scope,
    responseMode: spec.responseMode ?? 'query',
    clientAuth: spec.clientAuth ?? 'client_secret_basic',
    authorizationParams: Object.freeze({ ...(spec.authorizationParams ?? {}) }),
    headers: Object.freeze({ ...(spec.headers ?? {}) }),
    ...(spec.fetch ? { fetch: spec.fetch } : {}),
    trustEmail: spec.trustEmail ?? false,
    tokenErrorsWith200: spec.tokenErrorsWith200 ?? false,
    ...(spec.userinfo ? { userinfo: spec.userinfo } : {}),
    ...(spec.skipUserInfo ? { skipUserInfo: true } : {}),
    ...(spec.nonce === false ? { nonce: false } : {}),
    profile: spec.profile,
  };
  preloadOAuthFlow();
  return checkProvider(withFlow(provider, lazyOAuthFlow)) as OAuthProvider;
}

/**
 * A custom OAuth 2.0 provider (authorization code flow with state and PKCE
 * S256, RFC 6749 §4.1 and RFC 7636), or an OpenID Connect provider when
 * `issuer` is given (discovery, nonce, ID token validation against the
 * issuer's JWKS, then the UserInfo request whose claims are merged over the
 * ID token's, OIDC Core §5.3). Requires a storage adapter in `createAuth`.
 *
 * @throws AuthConfigError (`INVALID_CONFIG`) for a bad id, a missing client
 *   id/secret, missing endpoints without `issuer`, or non-URL endpoints.
 *   At sign-in, an OIDC UserInfo failure ends the flow on the error page with
 *   `OAUTH_USERINFO_FAILED` (502), a UserInfo `sub` other than the ID token's
 *   with `OAUTH_USERINFO_MISMATCH` (400). An `AuthError` thrown by `fetch` ends the flow with its own code.
 * @example
 * ```ts
 * createOAuth2Provider({
 *   id: 'acme', name: 'Acme',
 *   clientId: process.env.ACME_ID!, clientSecret: process.env.ACME_SECRET!,
 *   authorization: 'https://id.acme.test/oauth/authorize',
 *   token: 'https://id.acme.test/oauth/token',
 *   userinfo: 'https://api.acme.test/me',
 *   profile: (p) => ({ id: String(p.id), email: p.email as string, name: p.name as string }),
 * })
 * // OpenID Connect: endpoints from discovery; `claims` are the ID token's
 * // with the UserInfo response merged over them.
 * createOAuth2Provider({
 *   id: 'corp', name: 'Corp SSO', issuer: 'https://sso.corp.test',
 *   clientId: process.env.CORP_ID!, clientSecret: process.env.CORP_SECRET!,
 *   profile: (claims) => ({
 *     id: String(claims.sub), email: (claims.email as string) ?? null, name: (claims.name as string) ?? null,
 *     emailVerified: claims.email_verified === true ? new Date() : null,
 *   }),
 * })
 * // Every request to the provider (discovery, token, UserInfo, JWKS) through an egress proxy's fetch.
 * createOAuth2Provider({
 *   id: 'partner', name: 'Partner', issuer: 'https://login.partner.test',
 *   clientId: process.env.PARTNER_ID!, clientSecret: process.env.PARTNER_SECRET!,
 *   fetch: (input, init) => egressFetch(input, init),
 * })
 * ```
 */
export function createOAuth2Provider(options: OAuth2ProviderOptions): OAuthProvider {
  const oidc = options?.issuer !== undefined;
  const profile = options?.profile ?? (oidc ? standardClaimsProfile : undefined);
  return oauthProvider({
    id: options?.id,
    name: options?.name,
    type: oidc ? 'oidc' : 'oauth',
    clientId: options?.clientId,
    clientSecret: options?.clientSecret,
    ...(oidc ? { issuer: options.issuer! } : {}),
    endpoints: {
      ...(options?.authorization ? { authorization: options.authorization } : {}),
      ...(options?.token ? { token: options.token } : {}),
      ...(options?.userinfo ? { userinfo: options.userinfo } : {}),
    },
    scope: options?.scope ?? (oidc ? 'openid email profile' : ''),
    ...(options?.clientAuth ? { clientAuth: options.clientAuth } : {}),
    ...(options?.authorizationParams ? { authorizationParams: options.authorizationParams } : {}),
    ...(options?.fetch ? { fetch: options.fetch } : {}),
    trustEmail: options?.trustEmail ?? false,
    ...(options?.skipUserInfo ? { skipUserInfo: true } : {}),
    profile: typeof profile === 'function' ? (p, tokens) => profile(p, tokens) : (profile as never),
  });
}
