/**
 * Making and hashing one-time codes.
 * @module
 * @internal
 */
import { randomBytes, sha256Hex, toHex } from '../../plugin-kit.js';

/** `length` decimal digits, each uniform (bytes of 250 and above are drawn again, so no digit is likelier). */
export function generateOtp(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length + 8)) {
      if (byte < 250 && out.length < length) out += String(byte % 10);
    }
  }
  return out;
}

/** The storage key of a code: SHA-256 of `channel:purpose:address`. */
export function otpKey(channel: string, purpose: string, address: string): Promise<string> {
  return sha256Hex(`${channel}:${purpose}:${address}`);
}

const encoder = new TextEncoder();

/** HMAC-SHA-256 (hex) of `id` and `code` under `secret`: a stolen table holds no code, nor one for another key. */
export async function otpDigest(secret: string, id: string, code: string): Promise<string> {
  const key = await crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ]);
  return toHex(new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(`${id}\n${code}`))));
}
