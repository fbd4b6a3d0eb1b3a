/**
 * The `jwt` strategy: a JWS (RFC 7515) signed with HS256 under a key derived
 * from `secret` by HKDF-SHA-256 (RFC 5869). The first secret signs; every
 * secret verifies (rotation). Only HS256 is accepted, so `alg: none` and
 * algorithm-confusion tokens fail. Verified claims are cached by token until
 * `exp`, bounded in size, so a session read costs a map lookup.
 *
 * With a storage adapter, a token carries the user's session version (claim
 * `sv`) and is re-checked against storage at most once per
 * `session.revalidateAge`: a bumped version (sign-out everywhere, password
 * change, role change) or a deleted user ends it. A re-issued token takes its
 * profile claims (name, email, picture, role, roles) from the stored user.
 * @internal
 * @module
 */
import type { SignJWT } from 'jose/jwt/sign';
import type { jwtVerify } from 'jose/jwt/verify';
import type { JWTExpired } from 'jose/errors';
import type { ResolvedAuthConfig } from '../config.js';
import type { AuthCallbacks } from '../callbacks.js';
import type { StorageAdapter } from '../storage/types.js';
import type { JWT, User } from '../types.js';
import { hkdfSha256, randomString } from '../crypto.js';
import { revokeUserSessions } from './revoke.js';
import { userFieldsOf } from '../user-fields/bind.js';
import { USER_FIELDS_CLAIM, fieldClaims, fieldsFromClaims } from '../user-fields/claims.js';
import type { UserField } from '../user-fields/definitions.js';
import type { SessionRead, SessionStrategy } from './types.js';
import { systemClock, type AuthClock } from '../clock.js';

interface SessionJose {
  SignJWT: typeof SignJWT;
  jwtVerify: typeof jwtVerify;
  JWTExpired: typeof JWTExpired;
}

let jose: Promise<SessionJose> | undefined;

/**
 * The jose modules of this strategy, loaded once per process when a JWT strategy is created (not on a cold import
 * of the core: issue 39). Signing and verifying already wait for the derived key, so they wait for these too.
 */
function loadJose(): Promise<SessionJose> {
  return (jose ??= Promise.all([import('jose/jwt/sign'), import('jose/jwt/verify'), import('jose/errors')]).then(
    ([s, v, e]) => ({ SignJWT: s.SignJWT, jwtVerify: v.jwtVerify, JWTExpired: e.JWTExpired }),
  ));
}

const ALG = 'HS256';
const HKDF_SALT = 'framework.auth.session-jwt';
const HKDF_INFO = 'framework.auth HS256 session signing key v1';
/**
 * A compact HS256 JWS as this strategy signs it: three base64url segments, the signature exactly 32 bytes in its
 * one canonical spelling (43 characters, the last carrying 4 bits, so one of 16). jose's decoder also takes
 * padding, `+`/`/`, blanks and other final characters for the same bytes; checked first, such variants of a
 * genuine token are refused rather than cached as more tokens (RFC 7515 §2 and §7.1: base64url without padding).
 */
const CANONICAL_TOKEN = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{42}[AEIMQUYcgkosw048]$/;
/** Bound on cached verified tokens. */
const CACHE_LIMIT = 10_000;

/**
 * The verified-token cache's key for a compact JWS: its signature segment's first six characters (base64url, 6
 * bits each) mixed into 30 bits, a small integer, so a lookup hashes no string. A missing character counts as 0;
 * the caller compares the whole token anyway.
 */
function cacheKey(value: string): number {
  const at = value.lastIndexOf('.') + 1;
  let key = 0;
  for (let i = at; i < at + 6; i++) key = (Math.imul(key, 31) + (value.charCodeAt(i) | 0)) | 0;
  return key & 0x3fffffff;
}

/** The claims a re-issue refreshes from the stored user. */
const PROFILE_CLAIMS = ['name', 'email', 'picture', 'role', 'roles'] as const;

async function deriveKey(secret: string): Promise<CryptoKey> {
  const bytes = await hkdfSha256(secret, HKDF_SALT, HKDF_INFO);
  return crypto.subtle.importKey('raw', bytes, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
}

/** A verified token as cached: its claims and when storage last confirmed it (ms). */
interface Verified {
  /** The whole token this entry verified. */
  token: string;
  claims: JWT;
  checkedAt: number;
  /** Set once storage said the token is revoked: it stays revoked. */
  revoked?: true;
  /** The storage check in flight, shared by concurrent reads. */
  checking?: Promise<boolean> | undefined;
}

/**
 * Whether a token's session version matches the stored one. A user missing
 * from storage keeps only tokens issued without `sv` (users that were never
 * stored, e.g. from a credentials `authorize` backed elsewhere); tokens
 * without `sv` count as version 0 for stored users.
 */
function versionMatches(token: JWT, stored: number | null): boolean {
  if (stored === null) return token.sv === undefined;
  return (token.sv ?? 0) === stored;
}

/** `authTime` from the `auth_time` claim (seconds), when the token has one. */
function authTimeOf(token: JWT): { authTime?: Date; impersonatedBy?: string } {
  const actor = (token.act as { sub?: unknown } | undefined)?.sub;
  return {
    ...(typeof token.auth_time === 'number' ? { authTime: new Date(token.auth_time * 1000) } : {}),
    ...(typeof actor === 'string' ? { impersonatedBy: actor } : {}),
  };
}

/** The default claims for a user: `sub` plus the profile fields a session shows. */
export function claimsFromUser(user: User, fields: readonly UserField[] = []): JWT {
  const token: JWT = { sub: user.id };
  if (user.name != null) token.name = user.name;
  if (user.email != null) token.email = user.email;
  if (user.image != null) token.picture = user.image;
  if (user.role !== undefined) token.role = user.role;
  if (user.roles !== undefined) token.roles = user.roles;
  const custom = fieldClaims(user, fields);
  if (custom) token[USER_FIELDS_CLAIM] = custom;
  return token;
}

/** The session user described by a token. */
export function userFromClaims(token: JWT, fields: readonly UserField[] = []): User {
  const user: User = { id: String(token.sub) };
  if (typeof token.name === 'string') user.name = token.name;
  if (typeof token.email === 'string') user.email = token.email;
  if (typeof token.picture === 'string') user.image = token.picture;
  if (typeof token.role === 'string') user.role = token.role;
  if (Array.isArray(token.roles)) user.roles = token.roles.filter((r): r is string => typeof r === 'string');
  if (fields.length > 0) Object.assign(user, fieldsFromClaims(token[USER_FIELDS_CLAIM], fields));
  return user;
}

export function jwtStrategy(
  config: ResolvedAuthConfig,
  callbacks: AuthCallbacks,
  adapter?: StorageAdapter,
  clock: AuthClock = systemClock,
): SessionStrategy {
  const keys = config.secret.map((s) => deriveKey(s));
  const modules = loadJose();
  modules.catch(() => {}); // a failed load is reported by the first sign or verify
  const cache = new Map<number, Verified>();
  const maxAge = config.session.maxAge;
  const updateAge = config.session.updateAge;
  const revalidateMs = config.session.revalidateAge * 1000;
  /** Custom user fields, carried in the token (`user_fields`). */
  const fields = userFieldsOf(config);

  /** Signs `claims` for `session.maxAge`, or until `until` (seconds since the epoch) when that is sooner. */
  async function sign(claims: JWT, until = Number.POSITIVE_INFINITY): Promise<{ value: string; expires: Date }> {
    const iat = Math.floor(clock.now() / 1000);
    const exp = Math.min(iat + maxAge, until);
    const { iat: _i, exp: _e, jti: _j, ...rest } = claims;
    const { SignJWT } = await modules;
    const value = await new SignJWT(rest)
      .setProtectedHeader({ alg: ALG, typ: 'JWT' })
      .setIssuedAt(iat)
      .setExpirationTime(exp)
      .setJti(randomString(16))
      .sign(await keys[0]!);
    return { value, expires: new Date(exp * 1000) };
  }

  /** Verifications in flight, so concurrent first reads of one token share one. */
  const verifying = new Map<string, Promise<Verified | 'expired' | null>>();

  /**
   * The cache entry of a token verified before. Entries are keyed by {@link cacheKey} (an integer: a string key cost
   * a hash of a freshly sliced string, about 0.2 µs per request), and the presented token must equal the verified
   * one in full: a forged payload under a known signature, or another token sharing the key, is a miss and goes
   * through verification. Two live tokens sharing a key (about one pair in 20 among 10,000 cached tokens) take
   * turns in the slot, each verified again when it comes back.
   */
  function cachedEntry(value: string): Verified | undefined {
    const cached = cache.get(cacheKey(value));
    return cached !== undefined && cached.token === value ? cached : undefined;
  }

  function forget(value: string): void {
    if (cachedEntry(value)) cache.delete(cacheKey(value));
  }

  /** `now`: the read's time in ms (one `clock.now()` per read: `Date.now()` costs about 50 ns on some VMs). */
  function verify(value: string, now: number): Verified | 'expired' | null | Promise<Verified | 'expired' | null> {
    const cached = cachedEntry(value);
    if (cached) return cached.claims.exp! * 1000 <= now ? 'expired' : cached;
    if (value.length > 8192 || !CANONICAL_TOKEN.test(value)) return null;
    let pending = verifying.get(value);
    if (!pending) {
      pending = verifySignature(value).finally(() => verifying.delete(value));
      verifying.set(value, pending);
    }
    return pending;
  }

  async function verifySignature(value: string): Promise<Verified | 'expired' | null> {
    const { jwtVerify, JWTExpired } = await modules;
    for (const key of keys) {
      try {
        const { payload } = await jwtVerify(value, await key, {
          algorithms: [ALG],
          requiredClaims: ['sub', 'exp', 'iat'],
          // `exp`/`nbf` are checked against the auth's clock (not only Date.now()), so a moved clock expires tokens.
          currentDate: new Date(clock.now()),
        });
        const slot = cacheKey(value);
        // A full cache drops its oldest entry, unless this token only takes over its own slot.
        if (cache.size >= CACHE_LIMIT && !cache.has(slot)) cache.delete(cache.keys().next().value!);
        const verified: Verified = { token: value, claims: payload as JWT, checkedAt: Number.NEGATIVE_INFINITY };
        cache.set(slot, verified);
        return verified;
      } catch (e) {
        // jose checks the signature before the claims, so JWTExpired means a genuine but stale token.
        if (e instanceof JWTExpired) return 'expired';
      }
    }
    return null;
  }

  /** Asks storage whether the token still holds (one query per token at a time); records the answer. */
  function revalidate(store: StorageAdapter, verified: Verified): Promise<boolean> {
    verified.checking ??= store
      .getSessionVersion(String(verified.claims.sub))
      .then((version) => {
        const ok = versionMatches(verified.claims, version);
        if (ok) verified.checkedAt = clock.now();
        else verified.revoked = true;
        return ok;
      })
      .finally(() => {
        verified.checking = undefined;
      });
    return verified.checking;
  }

  /** The user's session version, set as `sv` (or removed when the user is not stored). */
  function withVersion(token: JWT, version: number | null): JWT {
    const { sv: _sv, ...rest } = token;
    return version === null ? rest : { ...rest, sv: version };
  }

  async function reissue(verified: Verified, data?: unknown): Promise<SessionRead> {
    let next = verified.claims;
    let version: number | null = null;
    if (adapter) {
      const sub = String(next.sub);
      const [user, stored] = await Promise.all([adapter.getUser(sub), adapter.getSessionVersion(sub)]);
      if (!versionMatches(next, stored)) {
        verified.revoked = true;
        return { status: 'none' };
      }
      version = stored;
      if (user) {
        const rest: JWT = { ...next };
        for (const claim of PROFILE_CLAIMS) delete rest[claim];
        next = { ...rest, ...claimsFromUser(user, fields) };
      }
    }
    if (callbacks.jwt) {
      next = await callbacks.jwt(
        data === undefined ? { token: next } : { token: next, trigger: 'update', session: data },
      );
    }
    if (adapter) next = withVersion(next, version);
    // An impersonation keeps its actor and never outlives its first expiry.
    const actor = verified.claims.act;
    if (actor !== undefined) next = { ...next, act: actor };
    const issued = await sign(next, actor === undefined ? undefined : verified.claims.exp);
    return {
      status: 'valid',
      user: userFromClaims(next, fields),
      expires: issued.expires,
      token: next,
      refreshed: issued,
      ...authTimeOf(next),
    };
  }

  /** This process's cached tokens of the user: checked against storage again at their next read. */
  function markStale(userId: string): void {
    for (const other of cache.values()) if (other.claims.sub === userId) other.checkedAt = Number.NEGATIVE_INFINITY;
  }

  function read(value: string, options?: { fresh?: boolean }): SessionRead | Promise<SessionRead> {
    const now = clock.now();
    const verified = verify(value, now);
    return verified instanceof Promise
      ? verified.then((v) => readVerified(value, v, options, clock.now()))
      : readVerified(value, verified, options, now);
  }

  function readVerified(
    value: string,
    verified: Verified | 'expired' | null,
    options: { fresh?: boolean } | undefined,
    now: number,
  ): SessionRead | Promise<SessionRead> {
    if (verified === null) return { status: 'none' };
    if (verified === 'expired') {
      forget(value);
      return { status: 'expired' };
    }
    if (verified.revoked) return { status: 'none' };
    if (now / 1000 - verified.claims.iat! >= updateAge) return reissue(verified);
    const due = options?.fresh === true || now - verified.checkedAt >= revalidateMs;
    if (adapter && due)
      return revalidate(adapter, verified).then((ok) => (ok ? validRead(verified) : { status: 'none' }));
    return validRead(verified);
  }

  /** The hot path of every JWT read: built field by field (no spread), a fresh user object per request. */
  function validRead(verified: Verified): SessionRead {
    const token = verified.claims;
    const out: Extract<SessionRead, { status: 'valid' }> = {
      status: 'valid',
      user: userFromClaims(token, fields),
      expires: new Date(token.exp! * 1000),
      token,
    };
    if (typeof token.auth_time === 'number') out.authTime = new Date(token.auth_time * 1000);
    const actor = (token.act as { sub?: unknown } | undefined)?.sub;
    if (typeof actor === 'string') out.impersonatedBy = actor;
    return out;
  }

  return {
    async issue({ user, account, profile, isNewUser, impersonatedBy, maxAge: lifetime }) {
      let token = claimsFromUser(user, fields);
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
      // When the person signed in (OIDC Core §2 `auth_time`, seconds): re-issues keep it, so freshness checks
      // can read it.
      token = { ...token, auth_time: Math.floor(clock.now() / 1000) };
      if (adapter) token = withVersion(token, await adapter.getSessionVersion(token.sub as string));
      if (impersonatedBy) token = { ...token, act: { sub: impersonatedBy } };
      return sign(token, lifetime === undefined ? undefined : Math.floor(clock.now() / 1000) + lifetime);
    },
    read,
    async revokeUser(userId) {
      if (!adapter) return 0;
      const deleted = await revokeUserSessions(adapter, userId);
      markStale(userId);
      return deleted;
    },
    async update(value, data) {
      const verified = await verify(value, clock.now());
      if (verified === null || (verified !== 'expired' && verified.revoked)) return { status: 'none' };
      if (verified === 'expired') return { status: 'expired' };
      return reissue(verified, data ?? null);
    },
    async revoke(value, everywhere) {
      const verified = await verify(value, clock.now());
      forget(value);
      if (!everywhere || !adapter || verified === null || verified === 'expired' || verified.revoked) return;
      const sub = verified.claims.sub;
      await revokeUserSessions(adapter, String(sub));
      markStale(String(sub));
    },
  };
}
