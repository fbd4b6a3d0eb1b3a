/**
 * The `database` strategy: the cookie holds `id.secret`; storage keeps the id
 * and SHA-256(secret). Sessions slide forward at most once per `updateAge`;
 * `lastActiveAt` is written then, or once an hour of use in between.
 * @internal
 * @module
 */
import { randomString, sha256Hex, sha256HexNow, timingSafeEqual } from '../crypto.js';
import type { ResolvedAuthConfig } from '../config.js';
import type { StorageAdapter, AdapterSession, AdapterUser } from '../storage/types.js';
import { sessionReadNowOf } from '../storage/session-read-now.js';
import { revokeUserSessions } from './revoke.js';
import type { SessionRead, SessionStrategy } from './types.js';
import { systemClock, type AuthClock } from '../clock.js';
import { isThenable } from '../thenable.js';

const TOKEN = /^([A-Za-z0-9_-]{16,64})\.([A-Za-z0-9_-]{32,128})$/;
/** `lastActiveAt` is written at most this often per session (ms), or at each sliding refresh. */
const ACTIVITY_INTERVAL_MS = 60 * 60 * 1000;
/** Longest stored `User-Agent`, in characters. */
const MAX_USER_AGENT = 512;
/** Most cookie values kept as verified (see `verified` below). */
const MAX_VERIFIED = 5_000;

const none = (): SessionRead => ({ status: 'none' });

export function databaseStrategy(
  config: ResolvedAuthConfig,
  adapter: StorageAdapter,
  clock: AuthClock = systemClock,
): SessionStrategy {
  const maxAgeMs = config.session.maxAge * 1000;
  const updateAgeMs = config.session.updateAge * 1000;
  /**
   * Cookie values whose secret was verified, with the stored hash it matched: a later read of the same value
   * against the same stored hash needs no SHA-256 and comparison again (about 1.5 µs of a read). Looked up by the
   * whole value (a hash-table lookup: no early-exit comparison against a secret), only values that matched are
   * kept, and a session revoked, rotated or deleted fails on its row whatever this holds. Oldest dropped first.
   */
  const verified = new Map<string, string>();

  /** Whether `secret` hashes to the stored hash; synchronous where `node:crypto` works. */
  function secretMatches(found: { session: AdapterSession }, secret: string): boolean | Promise<boolean> {
    const hashed = sha256HexNow(secret);
    return typeof hashed === 'string'
      ? timingSafeEqual(hashed, found.session.tokenHash)
      : hashed.then((hash) => timingSafeEqual(hash, found.session.tokenHash));
  }

  async function lookup(value: string): Promise<{ session: AdapterSession; user: AdapterUser } | null> {
    const m = TOKEN.exec(value);
    if (!m) return null;
    const found = await adapter.getSessionAndUser(m[1]!);
    if (!found) return null;
    return (await secretMatches(found, m[2]!)) ? found : null;
  }

  /**
   * A session read: synchronous when storage answers synchronously (SQLite once open) and nothing needs
   * writing, else a promise. Never throws: a failure is a rejected promise.
   */
  function read(value: string, forceRefresh = false): SessionRead | Promise<SessionRead> {
    try {
      let id: string;
      let secret: string;
      const knownHash = verified.get(value);
      if (knownHash !== undefined) {
        // A value verified before had the token's form: split it without the pattern.
        const dot = value.indexOf('.');
        id = value.slice(0, dot);
        secret = value.slice(dot + 1);
      } else {
        const m = TOKEN.exec(value);
        if (!m) return { status: 'none' };
        id = m[1]!;
        secret = m[2]!;
      }
      // The adapter's synchronous twin of getSessionAndUser where it has one that still answers for it.
      const readNow = sessionReadNowOf(adapter);
      const found = readNow ? readNow(id) : adapter.getSessionAndUser(id);
      // Any thenable is waited for (adapters written in JavaScript may return their driver's own).
      return isThenable(found)
        ? Promise.resolve(found).then((f) => checked(f, secret, value, forceRefresh, knownHash))
        : checked(found, secret, value, forceRefresh, knownHash);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** `found` when the presented secret hashes to its stored hash, then {@link settle}d. */
  function checked(
    found: { session: AdapterSession; user: AdapterUser } | null,
    secret: string,
    value: string,
    forceRefresh: boolean,
    knownHash: string | undefined,
  ): SessionRead | Promise<SessionRead> {
    if (!found) return { status: 'none' };
    const tokenHash = found.session.tokenHash;
    // The stored hash this value was verified against before, looked up once by `read`.
    if (knownHash !== undefined && knownHash === tokenHash) return settle(found, value, forceRefresh);
    const matches = secretMatches(found, secret);
    if (typeof matches !== 'boolean')
      return matches.then((ok) => (ok ? (remember(value, tokenHash), settle(found, value, forceRefresh)) : none()));
    if (!matches) return none();
    remember(value, tokenHash);
    return settle(found, value, forceRefresh);
  }

  function remember(value: string, tokenHash: string): void {
    if (verified.size >= MAX_VERIFIED) verified.delete(verified.keys().next().value!);
    verified.set(value, tokenHash);
  }

  /** The read of a matched session: expired (deleted), slid forward, activity recorded, or as it is. */
  function settle(
    found: { session: AdapterSession; user: AdapterUser },
    value: string,
    forceRefresh: boolean,
  ): SessionRead | Promise<SessionRead> {
    const now = clock.now();
    const expiresAt = found.session.expires.getTime();
    if (expiresAt <= now)
      return Promise.resolve(adapter.deleteSession(found.session.id)).then(() => ({ status: 'expired' }) as const);
    const acting = found.session.impersonatedBy;
    const out: Extract<SessionRead, { status: 'valid' }> = {
      status: 'valid',
      user: found.user,
      expires: found.session.expires,
      sessionId: found.session.id,
      authTime: found.session.createdAt,
    };
    if (acting) out.impersonatedBy = acting;
    // Slide forward once the session is older than updateAge (Auth.js semantics); an impersonation never slides.
    if (!acting && (forceRefresh || expiresAt - maxAgeMs + updateAgeMs <= now)) {
      const expires = new Date(now + maxAgeMs);
      out.expires = expires;
      out.refreshed = { value, expires };
      return Promise.resolve(adapter.updateSessionExpiry(found.session.id, expires, new Date(now))).then(() => out);
    }
    // Between slides, activity is recorded at most once per interval, so most reads do not write.
    const lastActive = (found.session.lastActiveAt ?? found.session.createdAt).getTime();
    if (now - lastActive >= ACTIVITY_INTERVAL_MS)
      return Promise.resolve(adapter.updateSessionExpiry(found.session.id, found.session.expires, new Date(now))).then(
        () => out,
      );
    return out;
  }

  return {
    async issue({ user, previous, client, impersonatedBy, maxAge, authTime }) {
      if (previous) {
        const old = await lookup(previous);
        if (old) await adapter.deleteSession(old.session.id);
      }
      const id = randomString(16);
      const secret = randomString(32);
      const now = clock.now();
      const expires = new Date(now + Math.min(maxAgeMs, (maxAge ?? Number.POSITIVE_INFINITY) * 1000));
      const userAgent = client?.userAgent?.slice(0, MAX_USER_AGENT);
      await adapter.createSession({
        id,
        tokenHash: await sha256Hex(secret),
        userId: user.id,
        expires,
        createdAt: authTime ?? new Date(now),
        lastActiveAt: new Date(now),
        ...(userAgent ? { userAgent } : {}),
        ...(client?.ip ? { ip: client.ip } : {}),
        ...(impersonatedBy ? { impersonatedBy } : {}),
      });
      return { value: `${id}.${secret}`, expires };
    },
    read: (value) => read(value),
    revokeUser: (userId) => revokeUserSessions(adapter, userId),
    update: async (value) => read(value, true),
    async revoke(value, everywhere) {
      const found = await lookup(value);
      if (!found) return;
      if (everywhere) await revokeUserSessions(adapter, found.user.id);
      else await adapter.deleteSession(found.session.id);
    },
  };
}
