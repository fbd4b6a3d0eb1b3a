/**
 * In-process counters: fixed or sliding windows, bounded in size. Same
 * arithmetic as the Redis scripts of `@upstash/ratelimit`, so a limiter
 * behaves alike in memory and in Redis.
 * @internal
 * @module
 */
import { systemClock, type AuthClock } from '../clock.js';
import type { RateLimitAlgorithm, RateLimitConsumeResult, RateLimitCounterConfig, RateLimitStorage } from './types.js';

/** Default bound of a memory storage: 100 000 counters. */
export const DEFAULT_MAX_ENTRIES = 100_000;

interface Entry {
  /** Index of the window the counts belong to: `floor(now / windowMs)`. */
  window: number;
  /** Requests counted in that window. */
  count: number;
  /** Requests counted in the window before (sliding only). */
  previous: number;
  /** When the entry stops mattering, in ms since the epoch. */
  expiresAt: number;
}

/** A memory storage, plus its current number of counters (for tests and metrics). */
export interface MemoryRateLimitStorage extends RateLimitStorage {
  readonly backend: 'memory';
  /** Counters held right now (≤ `maxEntries`). */
  size(): number;
}

function roll(entry: Entry | undefined, window: number): Entry {
  if (!entry || entry.window < window - 1) return { window, count: 0, previous: 0, expiresAt: 0 };
  if (entry.window === window - 1) return { window, count: 0, previous: entry.count, expiresAt: 0 };
  return entry;
}

function fixedStep(entry: Entry, limit: number): boolean {
  if (entry.count >= limit) return false;
  entry.count += 1;
  return true;
}

/** Counts in the previous window weigh by how much of it still overlaps the sliding window. */
function weightedPrevious(entry: Entry, now: number, windowMs: number): number {
  return Math.floor((1 - (now % windowMs) / windowMs) * entry.previous);
}

/**
 * Creates a memory storage.
 *
 * Eviction: before a new counter is added, expired counters at the least
 * recently used end are dropped; while the storage is full, the least
 * recently used counter is dropped even if live (that key starts afresh).
 */
export function memoryStorage(
  algorithm: RateLimitAlgorithm,
  maxEntries = DEFAULT_MAX_ENTRIES,
  clock: AuthClock = systemClock,
): MemoryRateLimitStorage {
  const entries = new Map<string, Entry>();

  function makeRoom(now: number): void {
    for (const [key, entry] of entries) {
      if (entry.expiresAt > now && entries.size < maxEntries) break;
      entries.delete(key);
    }
  }

  function consume(config: RateLimitCounterConfig, key: string, now: number): RateLimitConsumeResult {
    const { limit, windowMs } = config;
    const window = Math.floor(now / windowMs);
    const stored = entries.get(key);
    if (stored) entries.delete(key);
    else makeRoom(now);
    const entry = roll(stored, window);
    const resetAt = (window + 1) * windowMs;
    let success: boolean;
    let remaining: number;
    if (algorithm === 'fixed-window') {
      success = fixedStep(entry, limit);
      remaining = limit - entry.count;
      entry.expiresAt = resetAt;
    } else {
      const previous = weightedPrevious(entry, now, windowMs);
      success = fixedStep(entry, limit - previous);
      remaining = success ? limit - previous - entry.count : 0;
      entry.expiresAt = resetAt + windowMs;
    }
    entries.set(key, entry);
    return { success, limit, remaining: Math.max(0, remaining), resetAt };
  }

  return {
    algorithm,
    backend: 'memory',
    size: () => entries.size,
    counter(config) {
      const prefix = `${config.prefix}:`;
      return {
        consume: async (key, now = clock.now()) => consume(config, prefix + key, now),
        reset: async (key) => void entries.delete(prefix + key),
      };
    },
  };
}
