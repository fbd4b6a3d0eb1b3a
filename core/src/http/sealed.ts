/**
 * Sealed values for short-lived cookies: a JWE (RFC 7516, `dir` +
 * A256GCM) under a key derived from the auth secret by HKDF-SHA-256
 * (RFC 5869) with a per-purpose `info`, so a value sealed for one purpose
 * (an OAuth flow, a passkey challenge) never opens for another. Confidential,
 * tamper-proof and expiring.
 *
 * jose's JWE half loads on the first seal or unseal, or earlier through {@link preloadSealing} (called by the
 * features that seal, when they are configured), not on a cold import of the core (issue 39).
 * @internal
 * @module
 */
import type { AuthClock } from '../clock.js';
import * as nodeCrypto from 'node:crypto';
import type { JWTPayload } from 'jose';

interface Jwe {
  EncryptJWT: typeof import('jose/jwt/encrypt').EncryptJWT;
  jwtDecrypt: typeof import('jose/jwt/decrypt').jwtDecrypt;
}

let jwe: Promise<Jwe> | undefined;

/** The jose modules {@link seal} and {@link unseal} use, loaded once per process. */
function loadJwe(): Promise<Jwe> {
  return (jwe ??= Promise.all([import('jose/jwt/encrypt'), import('jose/jwt/decrypt')]).then(([e, d]) => ({
    EncryptJWT: e.EncryptJWT,
    jwtDecrypt: d.jwtDecrypt,
  })));
}

/**
 * Starts loading the jose modules sealing uses, without waiting. A feature that seals calls it when it is
 * configured, so its first request does not wait for the load. A failed load is reported by the first seal or
 * unseal, not here.
 */
export function preloadSealing(): void {
  loadJwe().catch(() => {});
}

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
  const { EncryptJWT } = await loadJwe();
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
  const { jwtDecrypt } = await loadJwe();
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
