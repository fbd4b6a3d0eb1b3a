/**
 * The OAuth flow cookie: state, PKCE verifier, nonce and callbackUrl kept in
 * the browser between the redirect and the callback (so a callback without
 * the browser's cookie fails, RFC 9700 §4.7 login CSRF). It is a JWE
 * (`dir` + A256GCM, RFC 7516) under a key derived from the auth secret by
 * HKDF, so it is both confidential and tamper-proof, and it expires after
 * 10 minutes.
 * @internal
 * @module
 */
import * as nodeCrypto from 'node:crypto';
import { EncryptJWT, jwtDecrypt } from 'jose';
import type { OutCookie } from '../../http/cookies.js';
import { expiredCookie } from '../../http/cookies.js';

/** Lifetime of a flow cookie, in seconds. */
export const FLOW_MAX_AGE = 600;

export interface FlowData {
  provider: string;
  state: string;
  codeVerifier: string;
  nonce?: string;
  callbackUrl: string;
}

const keys = new Map<string, Promise<Uint8Array>>();

function flowKey(secret: string): Promise<Uint8Array> {
  let key = keys.get(secret);
  if (!key) {
    key = (async () => {
      const salt = 'framework.auth.oauth-flow';
      const info = 'framework.auth A256GCM oauth flow cookie key v1';
      if (typeof nodeCrypto.hkdfSync === 'function') return new Uint8Array(nodeCrypto.hkdfSync('sha256', secret, salt, info, 32));
      const enc = new TextEncoder();
      const ikm = await crypto.subtle.importKey('raw', enc.encode(secret), 'HKDF', false, ['deriveBits']);
      return new Uint8Array(await crypto.subtle.deriveBits({ name: 'HKDF', hash: 'SHA-256', salt: enc.encode(salt), info: enc.encode(info) }, ikm, 256));
    })();
    keys.set(secret, key);
  }
  return key;
}

/** Cookie name of a provider's flow. */
export function flowCookieName(providerId: string, secure: boolean): string {
  return `${secure ? '__Secure-' : ''}framework.oauth.${providerId}`;
}

export interface FlowCookieOptions {
  secure: boolean;
  /** `none` for form_post providers (the callback is a cross-site POST), which needs `secure`. */
  sameSite: 'lax' | 'none';
  path: string;
}

export async function sealFlow(data: FlowData, secret: string, options: FlowCookieOptions): Promise<OutCookie> {
  const value = await new EncryptJWT({ ...data })
    .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
    .setIssuedAt()
    .setExpirationTime(`${FLOW_MAX_AGE}s`)
    .encrypt(await flowKey(secret));
  return {
    name: flowCookieName(data.provider, options.secure),
    value,
    options: { httpOnly: true, secure: options.secure, sameSite: options.sameSite, path: options.path, maxAge: FLOW_MAX_AGE },
  };
}

/** Opens a flow cookie; null when missing, tampered, expired or for another provider. */
export async function openFlow(value: string | undefined, providerId: string, secret: string): Promise<FlowData | null> {
  if (!value || value.length > 4096) return null;
  try {
    const { payload } = await jwtDecrypt(value, await flowKey(secret), { keyManagementAlgorithms: ['dir'], contentEncryptionAlgorithms: ['A256GCM'] });
    const p = payload as Partial<FlowData>;
    if (p.provider !== providerId || typeof p.state !== 'string' || typeof p.codeVerifier !== 'string' || typeof p.callbackUrl !== 'string') return null;
    return { provider: p.provider, state: p.state, codeVerifier: p.codeVerifier, callbackUrl: p.callbackUrl, ...(typeof p.nonce === 'string' ? { nonce: p.nonce } : {}) };
  } catch {
    return null;
  }
}

export function clearFlow(providerId: string, options: FlowCookieOptions): OutCookie {
  return expiredCookie(flowCookieName(providerId, options.secure), { httpOnly: true, secure: options.secure, sameSite: options.sameSite, path: options.path });
}
