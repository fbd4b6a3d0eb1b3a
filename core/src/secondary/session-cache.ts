/**
 * A storage adapter wrapped with an in-process session cache: reads of
 * `getSessionAndUser` are kept in a bounded LRU for a short TTL, and every
 * write that can revoke or change a session (sign-out, ban, role change,
 * session-version bump, password reset, user deletion) drops the affected
 * entries here and tells the other instances through `publish`.
 * @module
 */
import type { AdapterSession, AdapterUser, StorageAdapter } from '../storage/types.js';

/** One invalidation: a session id (`s`) or every session of a user id (`u`). */
export type Invalidation = { kind: 's' | 'u'; id: string };

/** What the cache needs from a pub/sub transport. */
export interface InvalidationBus {
  /** Whether invalidations from other instances are being received now; while false the cache is bypassed. */
  readonly live: () => boolean;
  /** Sends an invalidation to the other instances (best effort; never throws). */
  publish(message: Invalidation): Promise<void>;
}

/** Options of {@link cacheSessions}. */
export interface SessionCacheOptions {
  /** Longest time, in **milliseconds**, a cached session read is served. Default 2000. */
  ttlMs?: number;
  /** Most sessions kept at once (least recently used dropped first). Default 10 000. */
  maxEntries?: number;
}

type Found = { session: AdapterSession; user: AdapterUser };
type Entry = { value: Found | null; at: number };

/** The cache itself, exposed so the transport can apply remote invalidations. */
export interface SessionCache {
  readonly adapter: StorageAdapter;
  /** Applies an invalidation received from another instance. */
  invalidate(message: Invalidation): void;
  /** Drops every entry (after a reconnect, when messages may have been missed). */
  clear(): void;
}

/**
 * Wraps `inner`. Misses (a `null` answer included) are cached too, so a
 * burst of requests with an unknown cookie costs one database read per TTL.
 *
 * @example
 * ```ts
 * const { adapter } = cacheSessions(createPostgresAdapter({ pool }), bus, { ttlMs: 2000 });
 * ```
 */
export function cacheSessions(
  inner: StorageAdapter,
  bus: InvalidationBus,
  options: SessionCacheOptions = {},
): SessionCache {
  const ttlMs = options.ttlMs ?? 2000;
  const maxEntries = options.maxEntries ?? 10_000;
  const entries = new Map<string, Entry>();
  const byUser = new Map<string, Set<string>>();
  // Bumped by every invalidation, so a read that raced one is not cached.
  let epoch = 0;

  const dropSession = (id: string) => {
    const entry = entries.get(id);
    entries.delete(id);
    const userId = entry?.value?.user.id;
    if (userId) byUser.get(userId)?.delete(id);
  };
  const apply = (message: Invalidation) => {
    epoch++;
    if (message.kind === 's') return dropSession(message.id);
    for (const id of byUser.get(message.id) ?? []) entries.delete(id);
    byUser.delete(message.id);
  };
  const clear = () => {
    epoch++;
    entries.clear();
    byUser.clear();
  };
  const changed = async (message: Invalidation) => {
    apply(message);
    await bus.publish(message);
  };
  const remember = (id: string, value: Found | null) => {
    if (entries.size >= maxEntries) dropSession(entries.keys().next().value!);
    entries.set(id, { value, at: Date.now() });
    if (value) {
      let ids = byUser.get(value.user.id);
      if (!ids) byUser.set(value.user.id, (ids = new Set()));
      ids.add(id);
    }
  };

  const overrides: Partial<StorageAdapter> = {
    async getSessionAndUser(id) {
      if (!bus.live()) return inner.getSessionAndUser(id);
      const hit = entries.get(id);
      if (hit && Date.now() - hit.at < ttlMs) {
        entries.delete(id);
        entries.set(id, hit);
        return hit.value;
      }
      const started = epoch;
      const value = await inner.getSessionAndUser(id);
      if (started === epoch && bus.live()) remember(id, value);
      return value;
    },
    async createSession(session) {
      const created = await inner.createSession(session);
      await changed({ kind: 's', id: session.id });
      return created;
    },
    async updateSessionExpiry(id, expires, lastActiveAt) {
      const updated = await inner.updateSessionExpiry(id, expires, lastActiveAt);
      await changed({ kind: 's', id });
      return updated;
    },
    async deleteSession(id) {
      await inner.deleteSession(id);
      await changed({ kind: 's', id });
    },
    async deleteUserSessions(userId) {
      const count = await inner.deleteUserSessions(userId);
      await changed({ kind: 'u', id: userId });
      return count;
    },
    async updateUser(id, patch) {
      const user = await inner.updateUser(id, patch);
      await changed({ kind: 'u', id });
      return user;
    },
    async deleteUser(id) {
      await inner.deleteUser(id);
      await changed({ kind: 'u', id });
    },
    async bumpSessionVersion(userId) {
      const version = await inner.bumpSessionVersion(userId);
      await changed({ kind: 'u', id: userId });
      return version;
    },
  };
  // A proxy, not a spread: adapters may be class instances with prototype methods.
  const adapter = new Proxy(inner, {
    get: (target, key, receiver) =>
      Object.hasOwn(overrides, key) ? overrides[key as keyof StorageAdapter] : Reflect.get(target, key, receiver),
  });
  return { adapter, invalidate: apply, clear };
}
