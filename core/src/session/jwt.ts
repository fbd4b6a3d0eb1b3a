/**
 * The `jwt` strategy: a JWS (RFC 7515) signed with HS256 under a key derived
 * from `secret` by HKDF-SHA-256 (RFC 5869). The first secret signs; every
 * secret verifies (rotation). Only HS256 is accepted, so `alg: none` and
 * algorithm-confusion tokens fail. Verified claims are cached by token until
 * `exp`, bounded in size, so a session read costs a map lookup.
 * @internal
 * @module
 */
import * as nodeCrypto from 'node:crypto';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import type { ResolvedAuthConfig } from '../config.js';
import type { AuthCallbacks } from '../callbacks.js';
import type { JWT, User } from '../types.js';
import { randomString } from '../crypto.js';
import type { SessionRead, SessionStrategy } from './types.js';

const ALG = 'HS256';
const HKDF_SALT = 'framework.auth.session-jwt';
const HKDF_INFO = 'framework.auth HS256 session signing key v1';
/** Bound on cached verified tokens. */
const CACHE_LIMIT = 10_000;

async function deriveKey(secret: string): Promise<CryptoKey> {
  const enc = new TextEncoder();
  let bytes: Uint8Array<ArrayBuffer>;
  if (typeof nodeCrypto.hkdfSync === 'function') {
    bytes = new Uint8Array(nodeCrypto.hkdfSync('sha256', secret, HKDF_SALT, HKDF_INFO, 32));
  } else {
    const ikm = await crypto.subtle.importKey('raw', enc.encode(secret), 'HKDF', false, ['deriveBits']);
    bytes = new Uint8Array(
      await crypto.subtle.deriveBits({ name: 'HKDF', hash: 'SHA-256', salt: enc.encode(HKDF_SALT), info: enc.encode(HKDF_INFO) }, ikm, 256),
    );
  }
  return crypto.subtle.importKey('raw', bytes, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
}

/** The default claims for a user: `sub` plus the profile fields a session shows. */
export function claimsFromUser(user: User): JWT {
  const token: JWT = { sub: user.id };
  if (user.name != null) token.name = user.name;
  if (user.email != null) token.email = user.email;
  if (user.image != null) token.picture = user.image;
  if (user.role !== undefined) token.role = user.role;
  if (user.roles !== undefined) token.roles = user.roles;
  return token;
}

/** The session user described by a token. */
export function userFromClaims(token: JWT): User {
  const user: User = { id: String(token.sub) };
  if (typeof token.name === 'string') user.name = token.name;
  if (typeof token.email === 'string') user.email = token.email;
  if (typeof token.picture === 'string') user.image = token.picture;
  if (typeof token.role === 'string') user.role = token.role;
  if (Array.isArray(token.roles)) user.roles = token.roles.filter((r): r is string => typeof r === 'string');
  return user;
}

export function jwtStrategy(config: ResolvedAuthConfig, callbacks: AuthCallbacks): SessionStrategy {
  const keys = config.secret.map((s) => deriveKey(s));
  const cache = new Map<string, JWT>();
  const maxAge = config.session.maxAge;
  const updateAge = config.session.updateAge;

  async function sign(claims: JWT): Promise<{ value: string; expires: Date }> {
    const iat = Math.floor(Date.now() / 1000);
    const exp = iat + maxAge;
    const { iat: _i, exp: _e, jti: _j, ...rest } = claims;
    const value = await new SignJWT(rest)
      .setProtectedHeader({ alg: ALG, typ: 'JWT' })
      .setIssuedAt(iat)
      .setExpirationTime(exp)
      .setJti(randomString(16))
      .sign(await keys[0]!);
    return { value, expires: new Date(exp * 1000) };
  }

  async function verify(value: string): Promise<JWT | 'expired' | null> {
    const cached = cache.get(value);
    if (cached) return cached.exp! * 1000 <= Date.now() ? 'expired' : cached;
    if (value.length > 8192 || value.split('.').length !== 3) return null;
    for (const key of keys) {
      try {
        const { payload } = await jwtVerify(value, await key, { algorithms: [ALG], requiredClaims: ['sub', 'exp', 'iat'] });
        if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value!);
        cache.set(value, payload as JWT);
        return payload as JWT;
      } catch (e) {
        // jose checks the signature before the claims, so JWTExpired means a genuine but stale token.
        if (e instanceof joseErrors.JWTExpired) return 'expired';
      }
    }
    return null;
  }

  async function reissue(token: JWT, data?: unknown): Promise<SessionRead> {
    let next = token;
    if (callbacks.jwt) {
      next = await callbacks.jwt(data === undefined ? { token } : { token, trigger: 'update', session: data });
    }
    const issued = await sign(next);
    return { status: 'valid', user: userFromClaims(next), expires: issued.expires, token: next, refreshed: issued };
  }

  async function read(value: string): Promise<SessionRead> {
    const token = await verify(value);
    if (token === null) return { status: 'none' };
    if (token === 'expired') {
      cache.delete(value);
      return { status: 'expired' };
    }
    if (Date.now() / 1000 - token.iat! >= updateAge) return reissue(token);
    return { status: 'valid', user: userFromClaims(token), expires: new Date(token.exp! * 1000), token };
  }

  return {
    async issue({ user, account, profile, isNewUser }) {
      let token = claimsFromUser(user);
      if (callbacks.jwt) {
        token = await callbacks.jwt({
          token,
          user,
          account,
          ...(profile !== undefined ? { profile } : {}),
          trigger: isNewUser ? 'signUp' : 'signIn',
        });
      }
      if (!token || typeof token.sub !== 'string') token = { ...token, sub: user.id };
      return sign(token);
    },
    read,
    async update(value, data) {
      const token = await verify(value);
      if (token === null) return { status: 'none' };
      if (token === 'expired') return { status: 'expired' };
      return reissue(token, data ?? null);
    },
    async revoke(value) {
      cache.delete(value);
    },
  };
}
