/**
 * Sealed values for short-lived cookies: a JWE (RFC 7516, `dir` +
 * A256GCM) under a key derived from the auth secret by HKDF-SHA-256
 * (RFC 5869) with a per-purpose `info`, so a value sealed for one purpose
 * (an OAuth flow, a passkey challenge) never opens for another. Confidential,
 * tamper-proof and expiring.
 * @internal
 * @module
 */
import type { AuthClock } from '../clock.js';
import * as nodeCrypto from 'node:crypto';
import { EncryptJWT, jwtDecrypt, type JWTPayload } from 'jose';

const keys = new Map<string, Promise<Uint8Array>>();

function sealKey(secret: string, purpose: string): Promise<Uint8Array> {
  const id = `${purpose}\u0000${secret}`;
  let key = keys.get(id);
  if (!key) {
    key = (async () => {
      const salt = 'framework.auth.sealed-cookie';
      const info = `framework.auth A256GCM ${purpose} v1`;
      if (typeof nodeCrypto.hkdfSync === 'function')
        return new Uint8Array(nodeCrypto.hkdfSync('sha256', secret, salt, info, 32));
      const enc = new TextEncoder();
      const ikm = await crypto.subtle.importKey('raw', enc.encode(secret), 'HKDF', false, ['deriveBits']);
      return new Uint8Array(
        await crypto.subtle.deriveBits(
          { name: 'HKDF', hash: 'SHA-256', salt: enc.encode(salt), info: enc.encode(info) },
          ikm,
          256,
        ),
      );
    })();
    keys.set(id, key);
  }
  return key;
}

/** Seals `payload` for `purpose`, valid for `maxAge` seconds from `clock.now()` (the auth's clock). */
export async function seal(
  payload: JWTPayload,
  secret: string,
  purpose: string,
  maxAge: number,
  clock: AuthClock,
): Promise<string> {
  const iat = Math.floor(clock.now() / 1000);
  return new EncryptJWT(payload)
    .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
    .setIssuedAt(iat)
    .setExpirationTime(iat + maxAge)
    .encrypt(await sealKey(secret, purpose));
}

/**
 * Opens a sealed value; null when missing, malformed, tampered, expired (on `clock`) or sealed for another purpose.
 */
export async function unseal(
  value: string | undefined,
  secret: string,
  purpose: string,
  clock: AuthClock,
): Promise<JWTPayload | null> {
  if (!value || value.length > 4096) return null;
  try {
    const { payload } = await jwtDecrypt(value, await sealKey(secret, purpose), {
      keyManagementAlgorithms: ['dir'],
      contentEncryptionAlgorithms: ['A256GCM'],
      currentDate: new Date(clock.now()),
    });
    return payload;
  } catch {
    return null;
  }
}
