/**
 * Small crypto helpers. `node:crypto` is used synchronously where it works
 * (SHA-256 there costs ~1.5 µs, against ~100 µs for a WebCrypto call); other
 * runtimes fall back to WebCrypto. "Works" is checked, not assumed: a
 * runtime may offer `node:crypto` only in part (workerd's `nodejs_compat`
 * has stubs that throw), so each fast path is tried once on a known answer
 * and used only if it gives it.
 * @internal
 * @module
 */
import * as nodeCrypto from 'node:crypto';

const encoder = new TextEncoder();

/** Runs `check` once; a throw or a wrong answer turns the fast path off. */
function probe(check: () => boolean): () => boolean {
  let usable: boolean | undefined;
  return () => {
    if (usable === undefined) {
      try {
        usable = check();
      } catch {
        usable = false;
      }
    }
    return usable;
  };
}

/** `crypto.hash` (Node ≥ 20.12, Bun, Deno): one call, about a third of `createHash(…).update(…).digest()`. */
const oneShotHash = (nodeCrypto as { hash?: (algorithm: string, data: string, encoding: 'hex') => string }).hash;

function sha256HexSync(input: string): string {
  return oneShotHash
    ? oneShotHash('sha256', input, 'hex')
    : nodeCrypto.createHash('sha256').update(input).digest('hex');
}

const fast = {
  // FIPS 180-2 test vector "abc", through the same function the fast path calls.
  sha256: probe(() => sha256HexSync('abc') === 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'),
  // RFC 4231 test case 2.
  hmac: probe(
    () =>
      nodeCrypto.createHmac('sha256', 'Jefe').update('what do ya want for nothing?').digest('hex') ===
      '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
  ),
  timingSafeEqual: probe(
    () =>
      nodeCrypto.timingSafeEqual(encoder.encode('ab'), encoder.encode('ab')) &&
      !nodeCrypto.timingSafeEqual(encoder.encode('ab'), encoder.encode('ac')),
  ),
};

/**
 * Which helpers take the `node:crypto` path in this runtime (the others use
 * WebCrypto or plain JS). For diagnostics and the runtime tests.
 */
export function nodeCryptoPaths(): { sha256: boolean; hmac: boolean; timingSafeEqual: boolean } {
  return { sha256: fast.sha256(), hmac: fast.hmac(), timingSafeEqual: fast.timingSafeEqual() };
}

/**
 * {@link sha256Hex} without a promise where `node:crypto` works (the session read's hot path); a promise elsewhere.
 */
export function sha256HexNow(input: string): string | Promise<string> {
  return fast.sha256() ? sha256HexSync(input) : sha256Hex(input);
}

/** Lower-case hex SHA-256 of a UTF-8 string. */
export async function sha256Hex(input: string): Promise<string> {
  if (fast.sha256()) return sha256HexSync(input);
  const digest = await crypto.subtle.digest('SHA-256', encoder.encode(input));
  return toHex(new Uint8Array(digest));
}

/** HMAC-SHA-256 of `input` under `key`, base64url. */
export async function hmacSha256(key: string, input: string): Promise<string> {
  if (fast.hmac()) return nodeCrypto.createHmac('sha256', key).update(input).digest('base64url');
  const k = await crypto.subtle.importKey('raw', encoder.encode(key), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ]);
  return toBase64Url(new Uint8Array(await crypto.subtle.sign('HMAC', k, encoder.encode(input))));
}

/** `n` cryptographically random bytes. */
export function randomBytes(n: number): Uint8Array {
  const out = new Uint8Array(n);
  crypto.getRandomValues(out);
  return out;
}

/** A random base64url string of `bytes` random bytes. */
export function randomString(bytes = 32): string {
  return toBase64Url(randomBytes(bytes));
}

/**
 * Compares two strings in time that depends only on their lengths (OWASP
 * ASVS V2.9 / V3.5). Unequal lengths return false after a dummy comparison.
 */
export function timingSafeEqual(a: string, b: string): boolean {
  // Node's Buffer encodes short strings from a pooled slab: about a quarter of TextEncoder's cost here.
  if (typeof Buffer === 'function' && fast.timingSafeEqual())
    return timingSafeEqualBytes(Buffer.from(a), Buffer.from(b));
  return timingSafeEqualBytes(encoder.encode(a), encoder.encode(b));
}

/** {@link timingSafeEqual} for bytes. */
export function timingSafeEqualBytes(ab: Uint8Array, bb: Uint8Array): boolean {
  if (fast.timingSafeEqual()) {
    if (ab.length !== bb.length) {
      nodeCrypto.timingSafeEqual(ab, ab);
      return false;
    }
    return nodeCrypto.timingSafeEqual(ab, bb);
  }
  let diff = ab.length ^ bb.length;
  for (let i = 0; i < ab.length; i++) diff |= ab[i]! ^ (bb[i % (bb.length || 1)] ?? 0);
  return diff === 0;
}

export function toHex(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) out += b.toString(16).padStart(2, '0');
  return out;
}

export function toBase64Url(bytes: Uint8Array): string {
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/**
 * HKDF-SHA-256 (RFC 5869): `length` bytes derived from `secret` (UTF-8) with
 * `salt` and `info`. `node:crypto` where it exists, WebCrypto elsewhere.
 */
export async function hkdfSha256(
  secret: string,
  salt: string,
  info: string,
  length = 32,
): Promise<Uint8Array<ArrayBuffer>> {
  if (typeof nodeCrypto.hkdfSync === 'function')
    return new Uint8Array(nodeCrypto.hkdfSync('sha256', secret, salt, info, length));
  const ikm = await crypto.subtle.importKey('raw', encoder.encode(secret), 'HKDF', false, ['deriveBits']);
  const bits = await crypto.subtle.deriveBits(
    { name: 'HKDF', hash: 'SHA-256', salt: encoder.encode(salt), info: encoder.encode(info) },
    ikm,
    length * 8,
  );
  return new Uint8Array(bits);
}

/** The bytes of a base64url string (padding optional). @throws on characters outside the alphabet. */
export function fromBase64Url(text: string): Uint8Array<ArrayBuffer> {
  const bin = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}
