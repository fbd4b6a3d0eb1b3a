/**
 * Shared primitives of the verifiers: HMAC (node:crypto when the runtime has
 * it, WebCrypto otherwise), strict decoders and a constant-time comparison.
 */

/** Hash algorithms the verifiers support. */
export type HmacAlgorithm = 'sha1' | 'sha256' | 'sha512';

type NodeCrypto = typeof import('node:crypto');
const encoder = new TextEncoder();

/** node:crypto, loaded without a static import so other runtimes fall back to WebCrypto. */
const nodeCrypto: NodeCrypto | undefined = (() => {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  try {
    return proc?.getBuiltinModule?.('node:crypto') as NodeCrypto | undefined;
  } catch {
    return undefined;
  }
})();

const WEB_NAMES: Record<HmacAlgorithm, string> = { sha1: 'SHA-1', sha256: 'SHA-256', sha512: 'SHA-512' };

export function toBytes(value: string | Uint8Array): Uint8Array {
  return typeof value === 'string' ? encoder.encode(value) : value;
}

/** HMAC of the concatenated `parts` under `key`. */
export async function hmac(
  algorithm: HmacAlgorithm,
  key: string | Uint8Array,
  parts: ReadonlyArray<string | Uint8Array>,
): Promise<Uint8Array> {
  if (nodeCrypto) {
    const mac = nodeCrypto.createHmac(algorithm, toBytes(key));
    for (const part of parts) mac.update(toBytes(part));
    return new Uint8Array(mac.digest());
  }
  const cryptoKey = await crypto.subtle.importKey(
    'raw',
    toBytes(key) as BufferSource,
    { name: 'HMAC', hash: WEB_NAMES[algorithm] },
    false,
    ['sign'],
  );
  return new Uint8Array(await crypto.subtle.sign('HMAC', cryptoKey, concat(parts.map(toBytes)) as BufferSource));
}

/** Byte-wise comparison whose time depends only on the lengths, never on where the inputs differ. */
export function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.byteLength !== b.byteLength) return false;
  if (nodeCrypto) return nodeCrypto.timingSafeEqual(a, b);
  let diff = 0;
  for (let i = 0; i < a.byteLength; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

/** `true` if any candidate equals `expected`; every candidate is compared. */
export function matchesAny(expected: Uint8Array, candidates: ReadonlyArray<Uint8Array | undefined>): boolean {
  let found = false;
  for (const candidate of candidates) {
    if (candidate && constantTimeEqual(expected, candidate)) found = true;
  }
  return found;
}

/** Strict lowercase/uppercase hex; `undefined` when malformed. */
export function decodeHex(text: string): Uint8Array | undefined {
  if (text.length === 0 || text.length % 2 !== 0 || !/^[0-9a-fA-F]+$/.test(text)) return undefined;
  const out = new Uint8Array(text.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(text.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/** Strict padded base64 (standard alphabet); `undefined` when malformed. */
export function decodeBase64(text: string): Uint8Array | undefined {
  if (text.length === 0 || text.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(text)) return undefined;
  try {
    const binary = atob(text);
    const out = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
    return out;
  } catch {
    return undefined;
  }
}

/** Decodes a signature in `encoding`. */
export function decode(text: string, encoding: 'hex' | 'base64'): Uint8Array | undefined {
  return encoding === 'hex' ? decodeHex(text) : decodeBase64(text);
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.byteLength;
  }
  return out;
}
