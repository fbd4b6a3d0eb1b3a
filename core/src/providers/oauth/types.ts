/**
 * OAuth 2.0 / OpenID Connect provider records. Field names follow RFC 6749
 * and OpenID Connect Core 1.0.
 * @module
 */
import type { Profile } from '../../types.js';

/** What a provider's `profile()` returns (spec: UserProfile). `id` is the provider's account id. */
export interface UserProfile {
  id: string;
  email?: string | null;
  name?: string | null;
  image?: string | null;
  /** When the provider vouches that the email is the user's (e.g. OIDC `email_verified`), else null. */
  emailVerified?: Date | null;
}

/** The token endpoint response (RFC 6749 §5.1), plus the ID token claims for OIDC. */
export interface TokenSet {
  access_token: string;
  token_type?: string;
  /** Lifetime of the access token in seconds. */
  expires_in?: number;
  refresh_token?: string;
  scope?: string;
  id_token?: string;
  /** Validated ID token claims (OIDC only). */
  claims?: Profile;
}

/** Context handed to `profile()` and `userinfo()`. */
export interface ProfileContext {
  /** The parameters of the authorization response (query or form_post body), e.g. Apple's one-time `user`. */
  callbackParams: URLSearchParams;
  /** `fetch` with the provider's extra request headers (e.g. GitHub's required User-Agent). */
  fetch: typeof fetch;
}

/** Endpoint URLs. With `issuer` set, missing ones come from OIDC discovery. */
export interface OAuthEndpoints {
  /** Authorization endpoint (RFC 6749 §3.1). */
  authorization?: string;
  /** Token endpoint (RFC 6749 §3.2). */
  token?: string;
  /**
   * UserInfo endpoint (OIDC Core §5.3) or the provider's profile API. For OIDC it overrides the discovered
   * `userinfo_endpoint`.
   */
  userinfo?: string;
  /** JSON Web Key Set for ID token signatures. */
  jwks?: string;
}

/** A configured OAuth / OIDC provider. Made by `createOAuth2Provider` or a preset. */
export interface OAuthProvider {
  readonly id: string;
  readonly name: string;
  /**
   * `oidc`: an ID token is required and validated (iss, aud, exp, nonce, JWKS signature); `oauth`: profile
   * from `userinfo`.
   */
  readonly type: 'oauth' | 'oidc';
  readonly clientId: string;
  /** The client secret, or a function producing it (Apple's ES256 client-secret JWT). */
  readonly clientSecret: string | (() => Promise<string>);
  /** Issuer identifier for OIDC discovery (`/.well-known/openid-configuration`). */
  readonly issuer?: string;
  readonly endpoints: Readonly<OAuthEndpoints>;
  /** Space-separated scopes. */
  readonly scope: string;
  /** `form_post` (OAuth 2.0 Form Post Response Mode) makes the provider POST back to the callback. Default `query`. */
  readonly responseMode: 'query' | 'form_post';
  /** How the client authenticates at the token endpoint (RFC 6749 §2.3.1). Default `client_secret_basic`. */
  readonly clientAuth: 'client_secret_basic' | 'client_secret_post';
  /** Extra authorization request parameters. */
  readonly authorizationParams: Readonly<Record<string, string>>;
  /** Headers sent with every request to the provider. */
  readonly headers: Readonly<Record<string, string>>;
  /**
   * The `fetch` every request to the provider goes through: discovery, token, UserInfo (or the OAuth 2.0 profile
   * endpoint), JWKS and refresh. Absent: the global `fetch`. It gets the URL and the request init oauth4webapi
   * builds (`redirect: 'manual'`); a throw ends the step as a network failure would, an `AuthError` keeps its code.
   */
  readonly fetch?: typeof fetch;
  /**
   * Whether a verified email from this provider may link to an existing user
   * with that email. Default false: such sign-ins fail with `OAuthAccountNotLinked`.
   */
  readonly trustEmail: boolean;
  /**
   * The token endpoint reports errors with HTTP 200 and an `error` field (GitHub); they are read as the RFC
   * 6749 §5.2 errors they are.
   */
  readonly tokenErrorsWith200: boolean;
  /**
   * Fetches the raw profile. Default: OIDC → the validated ID token claims
   * with the UserInfo response merged over them (OIDC Core §5.3); OAuth → GET
   * `userinfo` with the access token.
   */
  readonly userinfo?: (tokens: TokenSet, ctx: ProfileContext) => Promise<Profile>;
  /**
   * OIDC only: skip the UserInfo request and use the ID token claims alone,
   * for providers known to put every claim in the ID token (Apple, which has
   * no UserInfo endpoint). Default false: the UserInfo endpoint is called
   * whenever one is discovered or configured.
   */
  readonly skipUserInfo?: boolean;
  /**
   * OIDC only: send a `nonce` and require it back in the ID token. Default
   * true. Set false only for a provider that never echoes it (LinkedIn): in
   * the code flow the nonce is optional (OIDC Core §3.1.2.1), and state and
   * PKCE still bind the callback to the browser; an ID token that carries a
   * nonce anyway is then refused.
   */
  readonly nonce?: boolean;
  /** Maps the raw profile to a {@link UserProfile}. */
  readonly profile: (profile: Profile, tokens: TokenSet, ctx: ProfileContext) => UserProfile | Promise<UserProfile>;
}
