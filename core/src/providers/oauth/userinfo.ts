/**
 * The OpenID Connect UserInfo step of the authorization code flow (OpenID
 * Connect Core 1.0 §5.3): after the ID token is validated, the UserInfo
 * endpoint is called with the access token, its `sub` is checked against the
 * ID token's (§5.3.4), and its claims are merged over the ID token claims.
 * Strict providers (§5.4) return `email`, `name` and the like only there.
 * @internal
 * @module
 */
import * as oauth from 'oauth4webapi';
import { authError } from '../../errors/auth-error.js';
import type { Profile } from '../../types.js';
import type { TokenSet } from './types.js';

/** Error code: the UserInfo `sub` differs from the ID token's `sub` (OIDC Core §5.3.4). Status 400. */
export const USERINFO_MISMATCH = 'OAUTH_USERINFO_MISMATCH';
/** Error code: the UserInfo request failed (network, non-200, bad JSON, bad signature). Status 502. */
export const USERINFO_FAILED = 'OAUTH_USERINFO_FAILED';

/** How long a UserInfo request may take, in milliseconds. */
export const USERINFO_TIMEOUT_MS = 10_000;

/**
 * Claims about the authentication itself (OIDC Core §2, §3.1.3.6): they stay
 * the validated ID token's, whatever a UserInfo response says.
 */
const ID_TOKEN_CLAIMS = new Set([
  'iss',
  'aud',
  'exp',
  'iat',
  'nbf',
  'jti',
  'nonce',
  'azp',
  'at_hash',
  'c_hash',
  'auth_time',
  'acr',
  'amr',
  'sid',
]);

/** A claim and the flag that vouches for it (OIDC Core §5.1): the flag is only kept with the value it was given for. */
const VERIFIED_FLAGS: ReadonlyArray<readonly [string, string]> = [
  ['email', 'email_verified'],
  ['phone_number', 'phone_number_verified'],
];

/**
 * Merges UserInfo claims over ID token claims. End-User claims from UserInfo
 * win; the ID token's authentication claims (`iss`, `aud`, `nonce`, ...) are
 * kept. A `*_verified` flag from the ID token is dropped when UserInfo gives a
 * different value without its own flag, so `email_verified` always describes
 * the `email` it sits beside.
 */
export function mergeClaims(idToken: Profile, userinfo: Profile): Profile {
  const fromUserinfo = Object.entries(userinfo).filter(([key]) => !ID_TOKEN_CLAIMS.has(key));
  // Object.fromEntries defines own properties, so a "__proto__" claim stays a plain claim.
  const merged = Object.fromEntries([...Object.entries(idToken), ...fromUserinfo]) as Profile;
  for (const [claim, flag] of VERIFIED_FLAGS) {
    if (Object.hasOwn(userinfo, claim) && !Object.hasOwn(userinfo, flag) && userinfo[claim] !== idToken[claim])
      delete merged[flag];
  }
  return merged;
}

/** The endpoint as shown in logs and errors: origin and path, never a query string. */
function shown(endpoint: string): string {
  try {
    const url = new URL(endpoint);
    return `${url.origin}${url.pathname}`;
  } catch {
    return '(invalid URL)';
  }
}

/** An error code sent by the provider, kept to RFC 6749 §5.2 characters so a log line cannot be forged. */
function errorCode(value: unknown): string {
  return typeof value === 'string' ? value.replace(/[^\x21\x23-\x5b\x5d-\x7e]/g, '').slice(0, 64) : '';
}

/** A short, secret-free reason for a failed UserInfo request. */
function reason(error: unknown): string {
  if (error instanceof oauth.WWWAuthenticateChallengeError) {
    const code = errorCode(error.cause[0]?.parameters.error);
    return `HTTP ${error.status}${code ? ` ${code}` : ''}`;
  }
  if (error instanceof oauth.ResponseBodyError) return `HTTP ${error.status} ${errorCode(error.error)}`.trimEnd();
  if (error instanceof oauth.OperationProcessingError) {
    const status = error.cause instanceof Response ? ` (HTTP ${error.cause.status})` : '';
    return `${error.code ?? 'invalid response'}${status}`;
  }
  if (error instanceof DOMException && (error.name === 'TimeoutError' || error.name === 'AbortError'))
    return 'timed out';
  if (error instanceof TypeError) return 'network error';
  return error instanceof Error ? error.name : 'unknown error';
}

/** Whether oauth4webapi read the response as a JWT UserInfo response (it compares the media type the same way). */
function isJwt(response: Response): boolean {
  return response.headers.get('content-type')?.split(';')[0] === 'application/jwt';
}

function isSubjectMismatch(error: unknown): boolean {
  return (
    error instanceof oauth.OperationProcessingError &&
    error.code === oauth.JSON_ATTRIBUTE_COMPARISON &&
    (error.cause as { attribute?: unknown } | undefined)?.attribute === 'sub'
  );
}

/** What the UserInfo step needs from the provider client. */
export interface UserInfoClient {
  providerName: string;
  client: oauth.Client;
  http: oauth.UserInfoRequestOptions;
  /**
   * Verifies a signed (`application/jwt`) response against the issuer's JWKS, refreshing it once for an
   * unknown key.
   */
  verifySignature(as: oauth.AuthorizationServer, response: Response): Promise<void>;
}

/**
 * Calls the UserInfo endpoint with the access token and returns the ID token
 * claims with the UserInfo claims merged over them. A signed UserInfo
 * response (`application/jwt`, OIDC Core §5.3.2) is validated by oauth4webapi
 * (`iss`, `aud`) and its signature checked against the issuer's JWKS.
 *
 * @throws AuthError `OAUTH_USERINFO_MISMATCH` (400) when the UserInfo `sub`
 *   is not the ID token's `sub` (OIDC Core §5.3.4: token substitution).
 * @throws AuthError `OAUTH_USERINFO_FAILED` (502) for any other failure
 *   (network, timeout, non-200 such as 401, a body that is not a JSON object,
 *   a bad signature). The message names the endpoint and a short reason; it
 *   never carries the token.
 */
export async function fetchUserInfo(
  uc: UserInfoClient,
  as: oauth.AuthorizationServer,
  tokens: TokenSet,
  claims: Profile,
): Promise<Profile> {
  const endpoint = as.userinfo_endpoint!;
  const sub = claims.sub;
  if (typeof sub !== 'string') throw new Error('the validated ID token has no sub');
  try {
    const response = await oauth.userInfoRequest(as, uc.client, tokens.access_token, {
      ...uc.http,
      signal: () => AbortSignal.timeout(USERINFO_TIMEOUT_MS),
    });
    const userinfo = (await oauth.processUserInfoResponse(as, uc.client, sub, response)) as Profile;
    if (isJwt(response)) await uc.verifySignature(as, response);
    return mergeClaims(claims, userinfo);
  } catch (error) {
    if (isSubjectMismatch(error)) {
      throw authError(USERINFO_MISMATCH, {
        message: `${uc.providerName}: the UserInfo response at ${shown(endpoint)} is for another subject than the ID token`,
        cause: error,
      });
    }
    throw authError(USERINFO_FAILED, {
      message: `${uc.providerName}: the UserInfo request to ${shown(endpoint)} failed: ${reason(error)}`,
      cause: error,
    });
  }
}
