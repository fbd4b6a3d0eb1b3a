/**
 * The dashboard's bounded, in-memory run history, fed by `runtime.onRun`:
 * the latest runs (a ring of `capacity`), per-minute counts of the last hour
 * for the chart, and live subscribers for the Server-Sent Events tail.
 * @module
 */
import type { RunRecord, TriggerRuntime } from '@framework/trigger';
import { RunRing } from './ring.js';
import type { RunStore } from './run-store.js';

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
  /**
   * Keeps every run beyond the ring too, across restarts and processes (e.g. {@link createSqlRunStore}). Runs
   * are written in batches (every `flushIntervalMs`, or at 200 waiting), never on the runtime's hot path;
   * their ids gain a per-process prefix so that they stay unique. Default none (memory only).
   */
  store?: RunStore;
  /** How often waiting runs are written to `store`, in **milliseconds**. Default 1000. */
  flushIntervalMs?: number;
  /** Runs older than this many days are deleted from `store` (checked hourly). Default 7. */
  retentionDays?: number;
}

/** A run history attached to a runtime. */
export interface RunHistory {
  /** Newest first; at most `limit`, optionally of one trigger. */
  recent(options?: { limit?: number; trigger?: string }): RunRecord[];
  /** A run by its id (`RunRecord.id`). */
  get(id: string): RunRecord | undefined;
  /** As {@link RunHistory.recent}, from `store` when there is one (every process, across restarts). */
  list(options?: { limit?: number; trigger?: string }): Promise<RunRecord[]>;
  /** As {@link RunHistory.get}, falling back to `store`. */
  find(id: string): Promise<RunRecord | undefined>;
  /** Runs and failed runs per minute over the last 60 minutes, oldest first. */
  throughput(): Throughput;
  /** Calls `listener` on each new run; returns the unsubscribe function. */
  subscribe(listener: (run: RunRecord) => void): () => void;
  /** Stops listening to the runtime and writes the runs still waiting for `store`. */
  close(): Promise<void>;
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
  const persisted = options.store ? persist(options.store, options, now, capacity) : undefined;

  // The hot path: column writes and a counter bump per run (and, with a store, one push to its batch).
  const unsubscribe = runtime.onRun((given) => {
    const run = persisted ? persisted.add(given) : given;
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
    async list({ limit = 50, trigger } = {}) {
      if (!persisted) return ring.recent(limit, trigger);
      await persisted.flush();
      return options.store!.recent({ limit, trigger });
    },
    async find(id) {
      const local = ring.get(id);
      if (local || !persisted) return local;
      await persisted.flush();
      return options.store!.get(id);
    },
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
    async close() {
      unsubscribe();
      listeners.clear();
      await persisted?.close();
    },
  };
}

/** The write-behind batch of a run store: ids made unique across processes, writes off the hot path. */
function persist(store: RunStore, options: RunHistoryOptions, now: () => number, capacity: number) {
  const prefix = crypto.randomUUID().slice(0, 8);
  let pending: RunRecord[] = [];
  let writing: Promise<void> = Promise.resolve();
  let lastPrune = 0;
  const retentionMs = (options.retentionDays ?? 7) * 86_400_000;
  const flush = (): Promise<void> => {
    writing = writing.then(async () => {
      const batch = pending;
      pending = [];
      try {
        await store.write(batch);
        if (now() - lastPrune > 3_600_000) {
          lastPrune = now();
          await store.prune(new Date(now() - retentionMs));
        }
      } catch (error) {
        // Kept for the next flush, within the ring's size: a database outage costs the oldest runs, not memory.
        pending = [...batch, ...pending].slice(-capacity);
        console.warn(`[dashboard] run history: writing ${batch.length} runs failed: ${(error as Error).message}`);
      }
    });
    return writing;
  };
  const timer = setInterval(() => void flush(), options.flushIntervalMs ?? 1000);
  (timer as { unref?: () => void }).unref?.();
  return {
    add(run: RunRecord): RunRecord {
      const record = { ...run, id: `${prefix}.${run.id}` };
      if (pending.push(record) >= 200) void flush();
      return record;
    },
    flush,
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
}
