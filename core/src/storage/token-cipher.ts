/**
 * Encryption of OAuth tokens at rest: AES-256-GCM (NIST SP 800-38D) under a
 * key derived from each auth `secret` with HKDF-SHA-256 (RFC 5869). The first
 * secret encrypts; every secret decrypts, so rotating `secret` keeps old rows
 * readable. A stored value is `enc:v1:` + base64url(12-byte IV ‖ ciphertext ‖
 * tag). The additional authenticated data names the value's place (field,
 * provider, account id), so a ciphertext copied into another row or field
 * does not open.
 * @internal
 * @module
 */
import { fromBase64Url, hkdfSha256, toBase64Url } from '../crypto.js';

/** Marks an encrypted value; values without it are plain text written before encryption existed. */
export const SEALED_PREFIX = 'enc:v1:';
const HKDF_SALT = 'framework.auth.account-tokens';
const HKDF_INFO = 'framework.auth A256GCM account tokens v1';
const IV_BYTES = 12;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export interface TokenCipher {
  /** Encrypts `plain` for the place named by `context`. */
  encrypt(plain: string, context: string): Promise<string>;
  /**
   * The plain text of a stored value: itself when it carries no
   * {@link SEALED_PREFIX} (a row written before encryption), null when no
   * secret opens it (tampered, moved, or its secret rotated out).
   */
  decrypt(stored: string, context: string): Promise<string | null>;
}

/** A cipher over `secrets` (at least one; the first encrypts). */
export function tokenCipher(secrets: readonly string[]): TokenCipher {
  if (secrets.length === 0) throw new TypeError('tokenCipher needs at least one secret');
  let keys: Promise<CryptoKey[]> | undefined;
  const allKeys = () =>
    (keys ??= Promise.all(
      secrets.map(async (secret) =>
        crypto.subtle.importKey('raw', await hkdfSha256(secret, HKDF_SALT, HKDF_INFO), 'AES-GCM', false, [
          'encrypt',
          'decrypt',
        ]),
      ),
    ));

  return {
    async encrypt(plain, context) {
      const [key] = await allKeys();
      const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
      const sealed = await crypto.subtle.encrypt(
        { name: 'AES-GCM', iv, additionalData: encoder.encode(context) },
        key!,
        encoder.encode(plain),
      );
      const out = new Uint8Array(IV_BYTES + sealed.byteLength);
      out.set(iv);
      out.set(new Uint8Array(sealed), IV_BYTES);
      return SEALED_PREFIX + toBase64Url(out);
    },
    async decrypt(stored, context) {
      if (!stored.startsWith(SEALED_PREFIX)) return stored;
      let bytes: Uint8Array<ArrayBuffer>;
      try {
        bytes = fromBase64Url(stored.slice(SEALED_PREFIX.length));
      } catch {
        return null;
      }
      if (bytes.length < IV_BYTES + 16) return null;
      const iv = bytes.subarray(0, IV_BYTES);
      const data = bytes.subarray(IV_BYTES);
      for (const key of await allKeys()) {
        try {
          return decoder.decode(
            await crypto.subtle.decrypt({ name: 'AES-GCM', iv, additionalData: encoder.encode(context) }, key, data),
          );
        } catch {
          // Not this key (or tampered): try the next.
        }
      }
      return null;
    },
  };
}
