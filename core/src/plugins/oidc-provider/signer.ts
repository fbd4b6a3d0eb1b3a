/**
 * Signing and verifying the provider's tokens with jose, on the `jwt()` plugin's key ring: ID tokens (OpenID
 * Connect Core 1.0 §2, with `at_hash` per §3.1.3.6), JWT access tokens (RFC 9068, `typ: at+jwt`), and reading an
 * `id_token_hint` at end-session.
 * @module
 * @internal
 */
import { SignJWT, compactVerify, createLocalJWKSet, errors as joseErrors, jwtVerify, type JWTPayload } from 'jose';
import type { AuthClock } from '../../index.js';
import type { JwtExtension } from '../jwt/index.js';
import { randomString, toBase64Url } from '../../plugin-kit.js';

/** The private claim of our access tokens that names their grant (revoking the grant ends them). */
const GRANT_CLAIM = 'gid';
const ACCESS_TOKEN_TYPE = 'at+jwt';

/** What an ID token says about the sign-in. */
export interface IdTokenInput {
  clientId: string;
  userId: string;
  nonce: string | null;
  authTime: Date;
  amr: readonly string[];
  acr: string | null;
  /** The access token issued with it, for `at_hash`. */
  accessToken: string;
  /** Claims for the granted scopes (`email`, `name`, …). */
  claims: Record<string, unknown>;
}

/** The claims of a verified access token of ours. */
export interface AccessTokenClaims {
  sub: string;
  clientId: string;
  grantId: string;
  scopes: string[];
  iat: number;
  exp: number;
}

/**
 * `at_hash`: the left half of the hash of the access token's ASCII octets, base64url (OpenID Connect Core 1.0
 * §3.1.3.6). The hash is the one of the ID token's `alg`: SHA-256 for ES256, SHA-512 for EdDSA (Ed25519).
 */
export async function accessTokenHash(accessToken: string, alg: string): Promise<string> {
  const hash = alg === 'EdDSA' ? 'SHA-512' : 'SHA-256';
  const digest = new Uint8Array(await crypto.subtle.digest(hash, new TextEncoder().encode(accessToken)));
  return toBase64Url(digest.slice(0, digest.length / 2));
}

/** The signer of one provider. `issuer` is the auth's base URL + basePath. */
export function createSigner(
  jwt: JwtExtension,
  issuer: string,
  clock: AuthClock,
  ttl: { idToken: number; accessToken: number },
) {
  const nowSeconds = () => Math.floor(clock.now() / 1000);
  const keys = async () => createLocalJWKSet(await jwt.jwks());

  return {
    issuer,
    async idToken(input: IdTokenInput): Promise<string> {
      const { kid, alg, key } = await jwt.signingKey();
      const iat = nowSeconds();
      const payload: JWTPayload = {
        ...input.claims,
        auth_time: Math.floor(input.authTime.getTime() / 1000),
        at_hash: await accessTokenHash(input.accessToken, alg),
        ...(input.nonce !== null ? { nonce: input.nonce } : {}),
        ...(input.amr.length > 0 ? { amr: [...input.amr] } : {}),
        ...(input.acr !== null ? { acr: input.acr } : {}),
      };
      return new SignJWT(payload)
        .setProtectedHeader({ alg, kid, typ: 'JWT' })
        .setIssuer(issuer)
        .setSubject(input.userId)
        .setAudience(input.clientId)
        .setIssuedAt(iat)
        .setExpirationTime(iat + ttl.idToken)
        .sign(key);
    },
    async accessToken(input: { userId: string; clientId: string; grantId: string; scopes: readonly string[] }) {
      const { kid, alg, key } = await jwt.signingKey();
      const iat = nowSeconds();
      const token = await new SignJWT({
        client_id: input.clientId,
        scope: input.scopes.join(' '),
        [GRANT_CLAIM]: input.grantId,
      })
        .setProtectedHeader({ alg, kid, typ: ACCESS_TOKEN_TYPE })
        .setIssuer(issuer)
        .setSubject(input.userId)
        .setAudience(issuer)
        .setIssuedAt(iat)
        .setExpirationTime(iat + ttl.accessToken)
        .setJti(randomString(16))
        .sign(key);
      return { token, expiresIn: ttl.accessToken };
    },
    /** The claims of a valid, unexpired access token of ours; null for anything else. */
    async verifyAccessToken(token: string): Promise<AccessTokenClaims | null> {
      try {
        const { payload } = await jwtVerify(token, await keys(), {
          issuer,
          audience: issuer,
          typ: ACCESS_TOKEN_TYPE,
          currentDate: new Date(clock.now()),
          requiredClaims: ['sub', 'exp', 'iat', 'client_id', GRANT_CLAIM],
        });
        const { sub, client_id: clientId, scope, [GRANT_CLAIM]: grantId } = payload;
        if (typeof sub !== 'string' || typeof clientId !== 'string' || typeof grantId !== 'string') return null;
        const scopes = typeof scope === 'string' ? scope.split(' ').filter(Boolean) : [];
        return { sub, clientId, grantId, scopes, iat: payload.iat!, exp: payload.exp! };
      } catch (error) {
        if (error instanceof joseErrors.JOSEError) return null;
        throw error;
      }
    },
    /**
     * The claims of an ID token we issued, expired or not (OpenID Connect RP-Initiated Logout 1.0 §2 accepts an
     * expired hint): the signature and the issuer are checked, the lifetime is not. Null for anything else.
     */
    async readIdTokenHint(token: string): Promise<JWTPayload | null> {
      try {
        const { payload } = await compactVerify(token, await keys());
        const claims = JSON.parse(new TextDecoder().decode(payload)) as JWTPayload;
        return claims && typeof claims === 'object' && claims.iss === issuer ? claims : null;
      } catch (error) {
        if (error instanceof joseErrors.JOSEError || error instanceof SyntaxError) return null;
        throw error;
      }
    },
  };
}

/** The signer {@link createSigner} makes. */
export type Signer = ReturnType<typeof createSigner>;
