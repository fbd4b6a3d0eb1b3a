/**
 * This process's most recent rate-limit refusals, kept in a bounded ring in memory (no storage write per refusal,
 * so a flood of refused requests costs nothing more), for dashboards.
 * @module
 * @internal
 */

/** One refused request. */
export interface RateLimitRefusal {
  at: Date;
  /** The client's IP address as the adapter passed it, else `unknown`. */
  key: string;
  /** The route the limit guards, e.g. `/auth/callback/:provider`. */
  limit: string;
}

/** The ring. */
export interface RefusalLog {
  record(refusal: RateLimitRefusal): void;
  /** Newest first, at most `limit`. */
  recent(limit?: number): RateLimitRefusal[];
}

/** A ring of the last `size` refusals (default 200). */
export function createRefusalLog(size = 200): RefusalLog {
  const ring: RateLimitRefusal[] = [];
  let next = 0;
  return {
    record(refusal) {
      if (ring.length < size) ring.push(refusal);
      else ring[next] = refusal;
      next = (next + 1) % size;
    },
    recent(limit = 50) {
      const ordered = ring.length < size ? [...ring] : [...ring.slice(next), ...ring.slice(0, next)];
      return ordered
        .reverse()
        .slice(0, Math.max(0, limit))
        .map((r) => ({ ...r, at: new Date(r.at.getTime()) }));
    },
  };
}
