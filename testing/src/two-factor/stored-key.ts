/**
 * Opens the TOTP key `twoFactor()` stores, with WebCrypto alone, from the format its storage documents: the
 * record's `secret` is `enc:v1:` + base64url(12-byte IV ‖ AES-256-GCM ciphertext ‖ 16-byte tag), under a key
 * derived from an auth `secret` with HKDF-SHA-256, the additional data naming the place (`two-factor:<userId>`);
 * the plain text is the raw key, base64url. Written apart from the kit's own cipher, so a test reading codes
 * this way also checks the stored format.
 * @module
 */
const PREFIX = 'enc:v1:';
const SALT = 'framework.auth.account-tokens';
const INFO = 'framework.auth A256GCM account tokens v1';
const encoder = new TextEncoder();

const fromBase64Url = (text: string): Uint8Array<ArrayBuffer> =>
  Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));

async function keyOf(secret: string): Promise<CryptoKey> {
  const material = await crypto.subtle.importKey('raw', encoder.encode(secret), 'HKDF', false, ['deriveKey']);
  return crypto.subtle.deriveKey(
    { name: 'HKDF', hash: 'SHA-256', salt: encoder.encode(SALT), info: encoder.encode(INFO) },
    material,
    { name: 'AES-GCM', length: 256 },
    false,
    ['decrypt'],
  );
}

/**
 * The raw TOTP key of a stored two-factor record, trying each auth secret (the first that opens it wins).
 *
 * @throws Error when the value is not sealed in the documented format, or no secret opens it.
 * @example
 * ```ts
 * const key = await openStoredTotpKey(record.secret, record.userId, auth.config.secret);
 * ```
 */
export async function openStoredTotpKey(
  stored: string,
  userId: string,
  secrets: readonly string[],
): Promise<Uint8Array> {
  if (!stored.startsWith(PREFIX)) throw new Error('totp: the stored key is not sealed as enc:v1');
  const sealed = fromBase64Url(stored.slice(PREFIX.length));
  const iv = sealed.subarray(0, 12);
  const data = sealed.subarray(12);
  for (const secret of secrets) {
    try {
      const plain = await crypto.subtle.decrypt(
        { name: 'AES-GCM', iv, additionalData: encoder.encode(`two-factor:${userId}`) },
        await keyOf(secret),
        data,
      );
      return fromBase64Url(new TextDecoder().decode(plain));
    } catch {
      // not this secret
    }
  }
  throw new Error(`totp: no auth secret opens the stored key of user ${userId}`);
}
