/**
 * The protocol glue over oauth4webapi: authorization server metadata
 * (discovery or configured endpoints), the authorization URL, the code
 * exchange with ID token validation, the profile fetch and refresh.
 * @internal
 * @module
 */
import * as oauth from 'oauth4webapi';
import type { Profile } from '../../types.js';
import type { OAuthProvider, ProfileContext, TokenSet } from './types.js';
import { fetchUserInfo } from './userinfo.js';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * True when every URL of the provider is on a loopback host: the only case where plain http is accepted
 * (local test and dev servers).
 */
function loopbackOnly(provider: OAuthProvider): boolean {
  const urls = [provider.issuer, ...Object.values(provider.endpoints)].filter(
    (u): u is string => typeof u === 'string',
  );
  return urls.length > 0 && urls.every((u) => LOOPBACK.has(new URL(u).hostname));
}

/** Re-labels a 200 response whose JSON body is an OAuth error (`{error: ...}` without `access_token`) as 400. */
async function errorStatusFor200Errors(res: Response): Promise<Response> {
  if (res.status !== 200 || !(res.headers.get('content-type') ?? '').includes('json')) return res;
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = null;
  }
  const isError =
    body !== null &&
    typeof body === 'object' &&
    typeof (body as { error?: unknown }).error === 'string' &&
    !('access_token' in body);
  return new Response(text, { status: isError ? 400 : 200, headers: res.headers });
}

/** oauth4webapi options for every request: loopback-only http, the provider's headers. */
type HttpOptions = oauth.TokenEndpointRequestOptions & oauth.ValidateSignatureOptions & oauth.DiscoveryRequestOptions;

/** Per-provider protocol state: metadata cache and HTTP options. */
export interface ProviderClient {
  provider: OAuthProvider;
  /** The authorization server metadata, loaded once (discovery for OIDC) and cached. */
  server(): Promise<oauth.AuthorizationServer>;
  /**
   * Verifies the signature of a response oauth4webapi has processed (ID
   * token, signed UserInfo) against the issuer's JWKS. When no key matches
   * (the provider rotated its keys), the metadata and JWKS are loaded afresh
   * once and the check is repeated; concurrent callers share that reload.
   */
  verifySignature(as: oauth.AuthorizationServer, response: Response): Promise<void>;
  client: oauth.Client;
  clientAuth(): Promise<oauth.ClientAuth>;
  http: HttpOptions;
  fetch: typeof fetch;
}

export function providerClient(provider: OAuthProvider): ProviderClient {
  const insecure = loopbackOnly(provider);
  const extraHeaders = provider.headers;
  // The provider's own fetch for every request (oauth4webapi's customFetch below), else the global one.
  const send: typeof fetch = provider.fetch ?? ((input, init) => fetch(input, init));
  const fetchWithHeaders: typeof fetch = async (input, init) => {
    const headers = new Headers(init?.headers);
    for (const [k, v] of Object.entries(extraHeaders)) if (!headers.has(k)) headers.set(k, v);
    const res = await send(input, { ...init, headers });
    return provider.tokenErrorsWith200 && init?.method === 'POST' ? errorStatusFor200Errors(res) : res;
  };
  const http = {
    ...(insecure ? { [oauth.allowInsecureRequests]: true } : {}),
    [oauth.customFetch]: fetchWithHeaders,
  } as HttpOptions;

  let cached: Promise<oauth.AuthorizationServer> | undefined;
  /** The metadata object `cached` resolved to, so a stale one is recognised without awaiting. */
  let latest: oauth.AuthorizationServer | undefined;
  function server(): Promise<oauth.AuthorizationServer> {
    cached ??= load().then(
      (as) => (latest = as),
      (error: unknown) => {
        cached = undefined;
        throw error;
      },
    );
    return cached;
  }
  async function load(): Promise<oauth.AuthorizationServer> {
    const e = provider.endpoints;
    let as: oauth.AuthorizationServer;
    if (provider.issuer) {
      const issuer = new URL(provider.issuer);
      const res = await oauth.discoveryRequest(issuer, { ...http, algorithm: 'oidc' });
      as = await oauth.processDiscoveryResponse(issuer, res);
    } else {
      as = { issuer: new URL(e.token!).origin };
    }
    return {
      ...as,
      ...(e.authorization ? { authorization_endpoint: e.authorization } : {}),
      ...(e.token ? { token_endpoint: e.token } : {}),
      ...(e.userinfo ? { userinfo_endpoint: e.userinfo } : {}),
      ...(e.jwks ? { jwks_uri: e.jwks } : {}),
    };
  }

  /**
   * oauth4webapi caches a JWKS per metadata object and refetches it for an
   * unknown `kid` only once the copy is 60 s old; a new metadata object gets
   * a fresh JWKS at once, so a rotated key is found within the same sign-in.
   * Only a response from the provider's own token or UserInfo endpoint can
   * trigger the reload.
   */
  async function verifySignature(as: oauth.AuthorizationServer, response: Response): Promise<void> {
    try {
      await oauth.validateApplicationLevelSignature(as, response, http);
    } catch (error) {
      if (!(error instanceof oauth.OperationProcessingError && error.code === oauth.KEY_SELECTION)) throw error;
      if (latest === as) {
        cached = undefined;
        latest = undefined;
      }
      await oauth.validateApplicationLevelSignature(await server(), response, http);
    }
  }

  return {
    provider,
    server,
    verifySignature,
    client: { client_id: provider.clientId },
    async clientAuth() {
      const secret =
        typeof provider.clientSecret === 'function' ? await provider.clientSecret() : provider.clientSecret;
      return provider.clientAuth === 'client_secret_post'
        ? oauth.ClientSecretPost(secret)
        : oauth.ClientSecretBasic(secret);
    },
    http,
    fetch: fetchWithHeaders,
  };
}

/** The values a flow must keep between the redirect and the callback. */
export interface FlowChecks {
  state: string;
  codeVerifier: string;
  nonce?: string;
}

/** Builds the authorization request URL (RFC 6749 §4.1.1, RFC 7636 §4.3, OIDC Core §3.1.2.1). */
export async function authorizationUrl(
  pc: ProviderClient,
  redirectUri: string,
): Promise<{ url: URL; checks: FlowChecks }> {
  const as = await pc.server();
  if (!as.authorization_endpoint) throw new Error(`provider "${pc.provider.id}" has no authorization endpoint`);
  const url = new URL(as.authorization_endpoint);
  const checks: FlowChecks = { state: oauth.generateRandomState(), codeVerifier: oauth.generateRandomCodeVerifier() };
  const p = pc.provider;
  for (const [k, v] of Object.entries(p.authorizationParams)) url.searchParams.set(k, v);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', p.clientId);
  url.searchParams.set('redirect_uri', redirectUri);
  if (p.scope) url.searchParams.set('scope', p.scope);
  url.searchParams.set('state', checks.state);
  url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(checks.codeVerifier));
  url.searchParams.set('code_challenge_method', 'S256');
  if (p.type === 'oidc' && p.nonce !== false) {
    checks.nonce = oauth.generateRandomNonce();
    url.searchParams.set('nonce', checks.nonce);
  }
  if (p.responseMode === 'form_post') url.searchParams.set('response_mode', 'form_post');
  return { url, checks };
}

/**
 * Validates the authorization response and exchanges the code (RFC 6749
 * §4.1.2–4.1.4). For OIDC it requires an ID token, validates iss/aud/exp/
 * nonce, and checks its signature against the issuer's JWKS.
 * @throws oauth4webapi errors (AuthorizationResponseError for `error=...`, ResponseBodyError,
 * OperationProcessingError).
 */
export async function exchangeCode(
  pc: ProviderClient,
  params: URLSearchParams,
  checks: FlowChecks,
  redirectUri: string,
): Promise<TokenSet> {
  const as = await pc.server();
  const callbackParams = oauth.validateAuthResponse(as, pc.client, params, checks.state);
  const response = await oauth.authorizationCodeGrantRequest(
    as,
    pc.client,
    await pc.clientAuth(),
    callbackParams,
    redirectUri,
    checks.codeVerifier,
    pc.http,
  );
  const oidc = pc.provider.type === 'oidc';
  const result = await oauth.processAuthorizationCodeResponse(as, pc.client, response, {
    expectedNonce: checks.nonce ?? oauth.expectNoNonce,
    requireIdToken: oidc,
  });
  const tokens: TokenSet = { access_token: result.access_token };
  if (result.token_type) tokens.token_type = result.token_type;
  if (typeof result.expires_in === 'number') tokens.expires_in = result.expires_in;
  if (result.refresh_token) tokens.refresh_token = result.refresh_token;
  if (result.scope) tokens.scope = result.scope;
  if (oidc) {
    await pc.verifySignature(as, response);
    tokens.id_token = result.id_token!;
    tokens.claims = { ...oauth.getValidatedIdTokenClaims(result) } as Profile;
  }
  return tokens;
}

/**
 * The raw profile handed to `profile()`:
 * - the provider's own `userinfo()` when it has one;
 * - OIDC: the validated ID token claims with the UserInfo response merged
 *   over them (OIDC Core §5.3), unless the provider sets `skipUserInfo` or
 *   has no UserInfo endpoint (neither discovered nor configured);
 * - OAuth 2.0: GET on the `userinfo` endpoint with the bearer token.
 * @throws AuthError `OAUTH_USERINFO_MISMATCH` (400) / `OAUTH_USERINFO_FAILED` (502) from the OIDC UserInfo step.
 */
export async function fetchProfile(pc: ProviderClient, tokens: TokenSet, ctx: ProfileContext): Promise<Profile> {
  if (pc.provider.userinfo) return pc.provider.userinfo(tokens, ctx);
  const as = await pc.server();
  if (pc.provider.type === 'oidc') {
    if (!tokens.claims) throw new Error(`provider "${pc.provider.id}" returned no validated ID token`);
    if (pc.provider.skipUserInfo || !as.userinfo_endpoint) return tokens.claims;
    return fetchUserInfo(
      { providerName: pc.provider.name, client: pc.client, http: pc.http, verifySignature: pc.verifySignature },
      as,
      tokens,
      tokens.claims,
    );
  }
  if (!as.userinfo_endpoint) throw new Error(`provider "${pc.provider.id}" has no userinfo endpoint`);
  const res = await pc.fetch(as.userinfo_endpoint, {
    headers: { authorization: `Bearer ${tokens.access_token}`, accept: 'application/json' },
  });
  if (!res.ok) throw new Error(`userinfo request failed with HTTP ${res.status}`);
  const body = (await res.json()) as unknown;
  if (body === null || typeof body !== 'object') throw new Error('userinfo response is not a JSON object');
  return body as Profile;
}

/** Refresh Token Grant (RFC 6749 §6). */
export async function refreshTokens(pc: ProviderClient, refreshToken: string): Promise<TokenSet> {
  const as = await pc.server();
  const response = await oauth.refreshTokenGrantRequest(as, pc.client, await pc.clientAuth(), refreshToken, pc.http);
  const result = await oauth.processRefreshTokenResponse(as, pc.client, response);
  const tokens: TokenSet = { access_token: result.access_token };
  if (result.token_type) tokens.token_type = result.token_type;
  if (typeof result.expires_in === 'number') tokens.expires_in = result.expires_in;
  if (result.refresh_token) tokens.refresh_token = result.refresh_token;
  if (result.scope) tokens.scope = result.scope;
  if (result.id_token) tokens.id_token = result.id_token;
  return tokens;
}

/** Whether an error is the provider's `error=access_denied` authorization response. */
export function isAccessDenied(error: unknown): boolean {
  return error instanceof oauth.AuthorizationResponseError && error.error === 'access_denied';
}
