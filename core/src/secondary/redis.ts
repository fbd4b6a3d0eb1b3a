/**
 * Redis secondary storage for apps on several instances: session reads are
 * cached in process and revocations are published on a Redis channel.
 * @module
 */
import { createFixedWindowStorage } from '../rate-limit/redis-storage.js';
import type { NodeRedisClientLike, RateLimitStorage } from '../rate-limit/types.js';
import type { StorageAdapter } from '../storage/types.js';
import { withRedisVerificationTokens } from './redis-tokens.js';
import { cacheSessions, type Invalidation, type SessionCacheOptions } from './session-cache.js';

/**
 * The part of a node-redis v5 client this uses (no hard dependency on `redis`): PUBLISH and a duplicate for
 * SUBSCRIBE, and raw commands (`sendCommand`, `multi`) for verification tokens and rate-limit counters.
 */
export interface RedisPubSubClientLike extends NodeRedisClientLike {
  readonly isReady?: boolean;
  publish(channel: string, message: string): Promise<unknown>;
  duplicate(): RedisSubscriberLike;
}

/** A duplicated node-redis connection used for SUBSCRIBE. */
export interface RedisSubscriberLike {
  readonly isReady?: boolean;
  connect(): Promise<unknown>;
  subscribe(channel: string, listener: (message: string) => void): Promise<unknown>;
  on(event: 'ready' | 'error' | 'end', listener: (...args: unknown[]) => void): unknown;
  quit?(): Promise<unknown>;
  destroy?(): void;
}

/** Options of {@link redisSecondaryStorage}. */
export interface RedisSecondaryStorageOptions extends SessionCacheOptions {
  /** Channel name (prefix it per app/environment). Default `'framework:auth:invalidate'`. */
  channel?: string;
  /** Prefix of the Redis keys of verification tokens (prefix it per app/environment). Default `'framework:auth:'`. */
  keyPrefix?: string;
  /**
   * Keep verification tokens (magic links, email verification, password resets, passkey challenges) in Redis
   * instead of the database. Default true.
   */
  verificationTokens?: boolean;
  /**
   * Count the default rate limits (login, email verification, password reset) in Redis, shared by every
   * instance, instead of in each process's memory. Limiters you pass to `createAuth({ rateLimit })` keep their
   * own storage. Default true.
   */
  rateLimits?: boolean;
}

/** What `createAuth({ secondaryStorage })` accepts. */
export interface SecondaryStorage {
  /** Wraps the configured storage adapter; called once by `createAuth`. */
  wrapAdapter(adapter: StorageAdapter): StorageAdapter;
  /** The storage of the default rate limiters, when they should be shared (Redis); else they count in memory. */
  rateLimitStorage?(): RateLimitStorage;
  /** Resolves once the subscription is live (until then reads go to the database). */
  ready(): Promise<void>;
  /** Unsubscribes and closes the duplicated connection. */
  close(): Promise<void>;
}

/**
 * Builds Redis secondary storage on a connected node-redis v5 client.
 *
 * Behaviour:
 * - `getSessionAndUser` answers from an in-process LRU for at most `ttlMs`
 *   (default **2000 ms**); a hit costs no round trip, a miss one database read.
 * - Sign-out, ban, role change, session-version bump, password reset and
 *   user deletion drop the entries locally and `PUBLISH` the session or user
 *   id; every instance drops them on receipt, so its next request reads storage.
 * - **Outage (safe default):** while the subscriber connection is not ready,
 *   the cache is bypassed and every read goes to the database; on reconnect
 *   the cache is emptied (messages may have been missed). A publish that
 *   fails is ignored; the only window in which another instance can serve a
 *   revoked session is then bounded by `ttlMs`.
 *
 * - **Verification tokens** (magic links, email verification, password
 *   resets, passkey challenges) live in Redis (`verificationTokens`, default
 *   true): `SET … PX … NX` on creation, `GETDEL` on use (single-use across
 *   every instance), a key TTL of the token's lifetime plus one day, and
 *   `purgeExpired()` clears them through an index sorted by expiry. While
 *   Redis is down, those flows fail (500) rather than fall back.
 * - **Rate limits**: the default login, email-verification and
 *   password-reset limiters count in Redis (`rateLimits`, default true;
 *   `createFixedWindowStorage(client)`), so a budget is shared by every
 *   instance. Limiters passed to `createAuth({ rateLimit })` keep theirs.
 *
 * @example
 * ```ts
 * import { createClient } from 'redis';
 * import { createAuth, postgresAdapter } from '@framework/auth';
 * import { redisSecondaryStorage } from '@framework/auth/redis';
 * const client = await createClient({ url: process.env.REDIS_URL }).connect();
 * const secondaryStorage = redisSecondaryStorage(client, { ttlMs: 2000 });
 * const auth = createAuth({ adapter: postgresAdapter({ connectionString }), secondaryStorage });
 * await secondaryStorage.ready();
 * ```
 */
export function redisSecondaryStorage(
  client: RedisPubSubClientLike,
  options: RedisSecondaryStorageOptions = {},
): SecondaryStorage {
  const channel = options.channel ?? 'framework:auth:invalidate';
  const keyPrefix = options.keyPrefix ?? 'framework:auth:';
  const subscriber = client.duplicate();
  let live = false;
  const caches: Array<ReturnType<typeof cacheSessions>> = [];
  const onMessage = (raw: string) => {
    const kind = raw[0];
    if ((kind !== 's' && kind !== 'u') || raw[1] !== ':') return;
    for (const cache of caches) cache.invalidate({ kind, id: raw.slice(2) });
  };
  subscriber.on('error', () => {
    live = false;
  });
  subscriber.on('end', () => {
    live = false;
  });
  subscriber.on('ready', () => {
    // node-redis resubscribes after a reconnect; anything sent meanwhile was missed.
    for (const cache of caches) cache.clear();
    live = subscribed;
  });
  let subscribed = false;
  const started = (async () => {
    await subscriber.connect();
    await subscriber.subscribe(channel, onMessage);
    subscribed = true;
    live = subscriber.isReady !== false;
  })();
  started.catch(() => {});
  const bus = {
    live: () => live && subscriber.isReady !== false,
    async publish(message: Invalidation) {
      try {
        if (client.isReady === false) return;
        await client.publish(channel, `${message.kind}:${message.id}`);
      } catch {
        // best effort: see the outage note above
      }
    },
  };
  return {
    wrapAdapter(adapter) {
      const stored =
        options.verificationTokens === false ? adapter : withRedisVerificationTokens(adapter, client, keyPrefix);
      const cache = cacheSessions(stored, bus, options);
      caches.push(cache);
      return cache.adapter;
    },
    ...(options.rateLimits === false ? {} : { rateLimitStorage: () => createFixedWindowStorage(client) }),
    ready: () => started,
    async close() {
      live = false;
      await started.catch(() => {});
      if (subscriber.quit) await subscriber.quit().catch(() => subscriber.destroy?.());
      else subscriber.destroy?.();
    },
  };
}
