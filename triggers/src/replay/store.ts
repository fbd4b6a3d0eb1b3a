/**
 * Replay stores: remember webhook delivery ids for a while so a delivery seen
 * twice runs its handler once.
 * @module
 */

/** What {@link ReplayStore.claim} found. */
export type ClaimOutcome =
  /** The id was free: it is now held for the caller, who runs the handler. */
  | 'claimed'
  /** Another request holds the id and its handler has not finished (or its process died within the lease). */
  | 'in-progress'
  /** A handler for the id finished successfully within the window: a replay. */
  | 'done';

/**
 * Remembers delivery keys. `runtime.fetch` claims a key for the handler's
 * lease before running it, then marks it done for the replay window when
 * the handler succeeded, or releases it when the handler failed, so the
 * sender's retry of a failed delivery runs. A claim whose process died
 * expires with its lease, so the delivery is not lost.
 */
export interface ReplayStore {
  /** Holds `key` for `leaseSeconds` seconds unless it is held or done. */
  claim(key: string, leaseSeconds: number): Promise<ClaimOutcome>;
  /** Marks `key` done for `ttlSeconds` seconds (the handler succeeded). */
  complete(key: string, ttlSeconds: number): Promise<void>;
  /** Forgets `key` (the handler failed; a redelivery must run). */
  release(key: string): Promise<void>;
}

/** Options of {@link memoryReplayStore}. */
export interface MemoryReplayStoreOptions {
  /** Most keys kept at once; past it the oldest is forgotten first. Default 10 000. */
  maxEntries?: number;
  /** Clock in milliseconds since the epoch (tests). Default `Date.now`. */
  now?: () => number;
}

/**
 * An in-process replay store: a map of key → state and expiry, bounded to
 * `maxEntries` (the oldest key goes first when full) and purged of expired
 * keys as it is used. Each process has its own; use {@link redisReplayStore}
 * when several instances receive the same webhooks.
 *
 * @throws {RangeError} when `maxEntries` is not a positive integer
 * @example
 * ```ts
 * standardWebhooksVerifier({ secret, replay: memoryReplayStore({ maxEntries: 50_000 }) })
 * ```
 */
export function memoryReplayStore(options: MemoryReplayStoreOptions = {}): ReplayStore {
  const maxEntries = options.maxEntries ?? 10_000;
  if (!Number.isInteger(maxEntries) || maxEntries < 1)
    throw new RangeError('memoryReplayStore: maxEntries must be a positive integer');
  const now = options.now ?? Date.now;
  const entries = new Map<string, { done: boolean; expiresAt: number }>();

  const set = (key: string, done: boolean, seconds: number) => {
    entries.delete(key);
    while (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
    entries.set(key, { done, expiresAt: now() + seconds * 1000 });
  };

  return {
    async claim(key, leaseSeconds) {
      const time = now();
      for (const [old, entry] of entries) {
        if (entry.expiresAt > time) break;
        entries.delete(old);
      }
      const entry = entries.get(key);
      if (entry && entry.expiresAt > time) return entry.done ? 'done' : 'in-progress';
      set(key, false, leaseSeconds);
      return 'claimed';
    },
    async complete(key, ttlSeconds) {
      set(key, true, ttlSeconds);
    },
    async release(key) {
      entries.delete(key);
    },
  };
}
