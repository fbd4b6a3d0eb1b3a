/**
 * Signs webhook bodies the way each provider does, with WebCrypto only, so
 * the signing side is the same code in every runtime.
 * @module
 */
const encoder = new TextEncoder();

/** HMAC-SHA-256 of `parts` (concatenated) under `key`. */
export async function hmac(key: string | Uint8Array<ArrayBuffer>, ...parts: string[]): Promise<Uint8Array> {
  const raw = typeof key === 'string' ? encoder.encode(key) : key;
  const k = await crypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return new Uint8Array(await crypto.subtle.sign('HMAC', k, encoder.encode(parts.join(''))));
}

export const hex = (bytes: Uint8Array): string => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
export const base64 = (bytes: Uint8Array): string => btoa(String.fromCharCode(...bytes));

/** A POST with `body` and `headers`. */
export function post(url: string, body: string, headers: Record<string, string>): Request {
  return new Request(url, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
}
