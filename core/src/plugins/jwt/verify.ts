/**
 * `verifyAccessToken`: checks an access token of the `jwt()` plugin on a
 * resource server (another service), against the issuer's published JWKS.
 * @module
 */
import { createLocalJWKSet, createRemoteJWKSet, errors, jwtVerify, type JSONWebKeySet, type JWTPayload } from 'jose';
import type { JwtSigningAlgorithm } from './storage/types.js';

/**
 * The `typ` header of the plugin's access tokens (RFC 9068 §2.1), so an ID token or another JWT of the same
 * issuer is not taken for one.
 */
export const ACCESS_TOKEN_TYPE = 'at+jwt';

/**
 * Options of {@link verifyAccessToken}: where the keys are (`jwksUrl` or `jwks`, exactly one) and what the
 * token must say.
 */
export interface VerifyAccessTokenOptions {
  /**
   * The issuer's JWKS endpoint, e.g. `https://app.example.com/auth/jwks`. Fetched with jose's remote key set,
   * cached per URL for the process.
   */
  jwksUrl?: string | URL;
  /** A key set you already hold (tests, pinned keys). */
  jwks?: JSONWebKeySet;
  /** The expected `iss`: the issuing app's `baseURL`, e.g. `https://app.example.com`. */
  issuer: string;
  /** The expected `aud` (one of them, when several are given). */
  audience: string | string[];
  /** Accepted algorithms. Default `['EdDSA', 'ES256']`. */
  algorithms?: JwtSigningAlgorithm[];
  /** Seconds of clock skew tolerated on `exp` / `iat`. Default 0. */
  clockTolerance?: number;
}

/** The actor claim of RFC 8693 §4.1: who acts as `sub`. */
export interface AccessTokenActor {
  /** The acting party's user id (the admin, during an impersonation). */
  sub: string;
}

/** The claims of a verified access token. */
export interface AccessTokenClaims extends JWTPayload {
  sub: string;
  iss: string;
  exp: number;
  iat: number;
  /**
   * Present when the token was issued from an impersonation (`admin()`): `sub` is the impersonated user and
   * `act.sub` the admin acting as them (RFC 8693 §4.1). Absent on the user's own tokens. Authorize on `sub`, and
   * refuse or audit on `act` as your service requires.
   */
  act?: AccessTokenActor;
}

const remoteSets = new Map<string, ReturnType<typeof createRemoteJWKSet>>();

/** One remote key set per URL, so its cache (and cooldown) is shared by every call. */
function remoteSet(url: string | URL) {
  const href = new URL(url).href;
  let set = remoteSets.get(href);
  if (!set) {
    set = createRemoteJWKSet(new URL(href));
    remoteSets.set(href, set);
  }
  return set;
}

/**
 * Verifies an access token issued by the `jwt()` plugin's `GET /token`:
 * signature against the issuer's JWKS (RFC 7517; jose's remote key set,
 * which refetches when it meets an unknown `kid`, at most every 30 s), the
 * `typ` header `at+jwt`, `iss`, `aud`, `exp`, and a string `sub`. A token
 * issued during an impersonation carries `act: { sub: adminId }` (RFC 8693
 * §4.1), checked to have that shape and returned in the claims.
 *
 * @returns the token's claims.
 * @throws TypeError when neither or both of `jwksUrl` / `jwks` are given.
 * @throws jose's errors (each with a stable `code`) when the token does not
 *   verify: `ERR_JWT_EXPIRED`, `ERR_JWT_CLAIM_VALIDATION_FAILED` (wrong
 *   `iss`, `aud`, `typ`, missing `sub`, malformed `act`), `ERR_JWS_SIGNATURE_VERIFICATION_FAILED`,
 *   `ERR_JWKS_NO_MATCHING_KEY`, `ERR_JWS_INVALID` / `ERR_JWT_INVALID`.
 * @example
 * ```ts
 * import { verifyAccessToken } from '@framework/auth/plugins/jwt';
 *
 * const token = request.headers.get('authorization')?.replace(/^Bearer /, '') ?? '';
 * const claims = await verifyAccessToken(token, {
 *   jwksUrl: 'https://app.example.com/auth/jwks',
 *   issuer: 'https://app.example.com',
 *   audience: 'https://api.example.com',
 * });
 * claims.sub; // the user id
 * claims.act?.sub; // the admin acting as them, during an impersonation
 * ```
 */
export async function verifyAccessToken(token: string, options: VerifyAccessTokenOptions): Promise<AccessTokenClaims> {
  if ((options.jwksUrl === undefined) === (options.jwks === undefined))
    throw new TypeError('verifyAccessToken needs exactly one of `jwksUrl` or `jwks`');
  const keys = options.jwks ? createLocalJWKSet(options.jwks) : remoteSet(options.jwksUrl!);
  const { payload } = await jwtVerify(token, keys, {
    issuer: options.issuer,
    audience: options.audience,
    algorithms: options.algorithms ?? ['EdDSA', 'ES256'],
    typ: ACCESS_TOKEN_TYPE,
    requiredClaims: ['sub', 'exp', 'iat'],
    ...(options.clockTolerance === undefined ? {} : { clockTolerance: options.clockTolerance }),
  });
  // The plugin writes `act` as `{sub: string}` only (RFC 8693 §4.1); anything else is not one of its tokens.
  const act = payload.act as { sub?: unknown } | undefined;
  if (act !== undefined && (act === null || typeof act !== 'object' || typeof act.sub !== 'string'))
    throw new errors.JWTClaimValidationFailed('"act" claim must be an object with a string "sub"', payload, 'act');
  return payload as AccessTokenClaims;
}
