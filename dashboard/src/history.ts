/**
 * The dashboard's bounded, in-memory run history, fed by `runtime.onRun`:
 * the latest runs (a ring of `capacity`), per-minute counts of the last hour
 * for the chart, and live subscribers for the Server-Sent Events tail.
 * @module
 */
import type { RunRecord, TriggerRuntime } from '@framework/trigger';

/** Per-minute totals: `minutes[i]` is the start of the minute (epoch seconds, uPlot's x scale). */
export interface Throughput {
  minutes: number[];
  runs: number[];
  errors: number[];
}

/** Options of {@link createRunHistory}. */
export interface RunHistoryOptions {
  /** Runs kept, newest first. Default 500. */
  capacity?: number;
  /** Log lines kept per run. Default 100. */
  maxLogsPerRun?: number;
  /** The clock (ms since epoch). Default `Date.now`. */
  now?: () => number;
}

/** A run history attached to a runtime. */
export interface RunHistory {
  /** Newest first; at most `limit`, optionally of one trigger. */
  recent(options?: { limit?: number; trigger?: string }): RunRecord[];
  /** A run by its id (`<traceId>:<attempt>`). */
  get(id: string): RunRecord | undefined;
  /** Runs and failed runs per minute over the last 60 minutes, oldest first. */
  throughput(): Throughput;
  /** Calls `listener` on each new run; returns the unsubscribe function. */
  subscribe(listener: (run: RunRecord) => void): () => void;
  /** Stops listening to the runtime. */
  close(): void;
}

const MINUTE_MS = 60_000;
const WINDOW_MINUTES = 60;

/**
 * Records the runtime's finished attempts. Costs nothing until created: the
 * runtime builds run records only while someone listens.
 * @example
 * ```ts
 * const history = createRunHistory(runtime, { capacity: 1000 });
 * history.recent({ limit: 20 });
 * ```
 */
export function createRunHistory(runtime: Pick<TriggerRuntime, 'onRun'>, options: RunHistoryOptions = {}): RunHistory {
  const capacity = Math.max(1, options.capacity ?? 500);
  const maxLogs = options.maxLogsPerRun ?? 100;
  const now = options.now ?? Date.now;
  const ring: RunRecord[] = [];
  let next = 0;
  const byId = new Map<string, RunRecord>();
  // minute index (epoch ms / 60 000) → [runs, errors]
  const buckets = new Map<number, [number, number]>();
  const listeners = new Set<(run: RunRecord) => void>();

  const unsubscribe = runtime.onRun((run) => {
    const kept: RunRecord = run.logs.length > maxLogs ? { ...run, logs: run.logs.slice(-maxLogs) } : run;
    const evicted = ring.length < capacity ? undefined : ring[next];
    if (evicted) byId.delete(evicted.id);
    if (ring.length < capacity) ring.push(kept);
    else ring[next] = kept;
    next = (next + 1) % capacity;
    byId.set(kept.id, kept);
    const minute = Math.floor(now() / MINUTE_MS);
    const bucket = buckets.get(minute) ?? [0, 0];
    bucket[0] += 1;
    if (kept.status !== 'ok' && kept.status !== 'suspended') bucket[1] += 1;
    buckets.set(minute, bucket);
    if (buckets.size > WINDOW_MINUTES + 1) for (const key of buckets.keys()) if (key <= minute - WINDOW_MINUTES) buckets.delete(key);
    for (const listener of listeners) {
      try {
        listener(kept);
      } catch {
        // A closed stream must not affect the others.
      }
    }
  });

  function ordered(): RunRecord[] {
    if (ring.length < capacity) return [...ring].reverse();
    return [...ring.slice(next), ...ring.slice(0, next)].reverse();
  }

  return {
    recent({ limit = 50, trigger } = {}) {
      const runs = ordered();
      return (trigger === undefined ? runs : runs.filter((r) => r.trigger === trigger)).slice(0, limit);
    },
    get: (id) => byId.get(id),
    throughput() {
      const current = Math.floor(now() / MINUTE_MS);
      const result: Throughput = { minutes: [], runs: [], errors: [] };
      for (let minute = current - WINDOW_MINUTES + 1; minute <= current; minute++) {
        const [runs, errors] = buckets.get(minute) ?? [0, 0];
        result.minutes.push((minute * MINUTE_MS) / 1000);
        result.runs.push(runs);
        result.errors.push(errors);
      }
      return result;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close() {
      unsubscribe();
      listeners.clear();
    },
  };
}
