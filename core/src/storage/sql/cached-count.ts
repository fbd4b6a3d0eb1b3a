/**
 * A number that is expensive to read (a `COUNT(*)` over millions of index
 * entries) kept for a while: the first call reads it, calls within `ttlMs`
 * get the kept value, and a call after that gets the kept value too while one
 * background read replaces it (stale-while-revalidate).
 * @module
 * @internal
 */

/** How long {@link StorageAdapter.countActiveSessions} without `now` reuses its count: one minute. */
export const ACTIVE_SESSIONS_TTL_MS = 60_000;

/**
 * @param read Reads the current value; at most one read runs at a time.
 * @param ttlMs How long a value is served without starting a new read.
 * @param now The clock, in milliseconds.
 * @returns A getter. It rejects only while no value has been read yet (a failed background read keeps the old
 *   value, and the next call after the TTL tries again).
 */
export function cachedCount(
  read: () => Promise<number>,
  ttlMs: number = ACTIVE_SESSIONS_TTL_MS,
  now: () => number = () => Date.now(),
): () => Promise<number> {
  let kept: { value: number; at: number } | undefined;
  let reading: Promise<number> | undefined;
  const refresh = (): Promise<number> => {
    reading ??= (async () => {
      const started = now();
      try {
        const value = await read();
        kept = { value, at: started };
        return value;
      } finally {
        reading = undefined;
      }
    })();
    return reading;
  };
  return async () => {
    if (!kept) return refresh();
    if (now() - kept.at >= ttlMs) refresh().catch(() => {});
    return kept.value;
  };
}
