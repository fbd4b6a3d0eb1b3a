/**
 * Verifying the kit's `jwt` session cookie without the engine: the same key derivation and algorithm as
 * `createAuth({ session: { strategy: 'jwt' } })` (HS256 under HKDF-SHA-256 of the secret), through Web Crypto and
 * jose only, so it runs on the Edge runtime. A test signs with the real engine and verifies here, so the two cannot
 * drift apart.
 * @module
 */
// The JWT verifier alone: jose's index also reaches JWE's (de)compression, which the Edge runtime lacks.
import { jwtVerify } from 'jose/jwt/verify';
import type { JWTPayload } from 'jose';

/** The HKDF salt and info the engine derives its session signing key with (core/src/session/jwt.ts). */
const HKDF_SALT = 'framework.auth.session-jwt';
const HKDF_INFO = 'framework.auth HS256 session signing key v1';

const encoder = new TextEncoder();

async function signingKey(secret: string): Promise<CryptoKey> {
  const material = await crypto.subtle.importKey('raw', encoder.encode(secret), 'HKDF', false, ['deriveBits']);
  const bits = await crypto.subtle.deriveBits(
    { name: 'HKDF', hash: 'SHA-256', salt: encoder.encode(HKDF_SALT), info: encoder.encode(HKDF_INFO) },
    material,
    256,
  );
  return crypto.subtle.importKey('raw', bits, { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
}

/**
 * A verifier of session tokens under `secrets` (the engine's `secret`; an array rotates: every one verifies).
 * It resolves the token's claims when the signature is good under one of them and `exp` has not passed, else null.
 * Only HS256 is accepted (no `alg: none`, no algorithm confusion). Revocation is not seen: that needs storage.
 * @throws Error at creation when no secret of at least 32 characters is given.
 */
export function sessionTokenVerifier(
  secrets: string | readonly string[],
): (token: string) => Promise<JWTPayload | null> {
  const list = typeof secrets === 'string' ? [secrets] : [...secrets];
  if (list.length === 0 || list.some((secret) => typeof secret !== 'string' || secret.length < 32))
    throw new Error('authMiddleware: `secret` must be the engine’s secret (at least 32 characters)');
  const keys = list.map(signingKey);
  return async (token) => {
    for (const key of keys) {
      try {
        const { payload } = await jwtVerify(token, await key, { algorithms: ['HS256'] });
        if (typeof payload.sub === 'string' && payload.sub !== '') return payload;
      } catch {
        // a bad signature under this key, an expired or malformed token: try the next key
      }
    }
    return null;
  };
}
