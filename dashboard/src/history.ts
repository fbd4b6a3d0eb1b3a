/**
 * The dashboard's bounded, in-memory run history, fed by `runtime.onRun`:
 * the latest runs (a ring of `capacity`), per-minute counts of the last hour
 * for the chart, and live subscribers for the Server-Sent Events tail.
 * @module
 */
import type { RunRecord, TriggerRuntime } from '@framework/trigger';
import { RunRing } from './ring.js';

/** Per-minute totals: `minutes[i]` is the start of the minute (epoch seconds, uPlot's x scale). */
export interface Throughput {
  minutes: number[];
  runs: number[];
  errors: number[];
}

/** Options of {@link createRunHistory}. */
export interface RunHistoryOptions {
  /** Runs kept, newest first. Default 200 (a larger ring costs a busy app more garbage collection). */
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
  /** A run by its id (`RunRecord.id`). */
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
  const capacity = Math.max(1, options.capacity ?? 200);
  const maxLogs = options.maxLogsPerRun ?? 100;
  const now = options.now ?? Date.now;
  const ring = new RunRing(capacity, maxLogs);
  // One slot per minute of the window: [minute index (epoch ms / 60 000), runs, errors].
  const buckets: Array<[number, number, number]> = Array.from({ length: WINDOW_MINUTES }, () => [-1, 0, 0]);
  const listeners = new Set<(run: RunRecord) => void>();

  // The hot path: column writes and a counter bump per run.
  const unsubscribe = runtime.onRun((run) => {
    ring.push(run);
    const minute = Math.floor(now() / MINUTE_MS);
    const bucket = buckets[minute % WINDOW_MINUTES]!;
    if (bucket[0] !== minute) {
      bucket[0] = minute;
      bucket[1] = 0;
      bucket[2] = 0;
    }
    bucket[1] += 1;
    if (run.status !== 'ok' && run.status !== 'suspended') bucket[2] += 1;
    if (listeners.size === 0) return;
    for (const listener of listeners) {
      try {
        listener(run);
      } catch {
        // A closed stream must not affect the others.
      }
    }
  });

  return {
    recent: ({ limit = 50, trigger } = {}) => ring.recent(limit, trigger),
    get: (id) => ring.get(id),
    throughput() {
      const current = Math.floor(now() / MINUTE_MS);
      const result: Throughput = { minutes: [], runs: [], errors: [] };
      for (let minute = current - WINDOW_MINUTES + 1; minute <= current; minute++) {
        const [stamp, runs, errors] = buckets[minute % WINDOW_MINUTES]!;
        const fresh = stamp === minute;
        result.minutes.push((minute * MINUTE_MS) / 1000);
        result.runs.push(fresh ? runs : 0);
        result.errors.push(fresh ? errors : 0);
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
