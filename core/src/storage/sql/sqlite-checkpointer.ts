/**
 * SQLite WAL checkpoints off the event loop, in one worker thread per process for every file. better-sqlite3 runs every statement in the calling thread, and SQLite
 * runs its automatic checkpoint inside the commit that takes the `-wal` file past 1 000 pages: that commit copies
 * the pages into the database file and fsyncs it while the event loop waits (49–65 ms measured at a million
 * users, against well under 10 ms for the write itself). Here a worker thread with its own connection to the
 * file runs `PRAGMA wal_checkpoint(PASSIVE)` every {@link CHECKPOINT_INTERVAL_MS} (a passive checkpoint never
 * waits for readers or writers; one with nothing to copy costs a few microseconds), and the adapter's connection
 * does not checkpoint by itself (`wal_autocheckpoint = 0`) while the worker runs: any size of automatic
 * checkpoint would block the event loop in proportion (a backstop at 20 000 pages, reached by a purge's burst of
 * deletes within a second, blocked it 327 ms). If the worker fails or exits unasked, `onFailure` is called so the
 * adapter returns to SQLite's own {@link SQLITE_AUTOCHECKPOINT_PAGES}.
 * @module
 * @internal
 */
import { createRequire } from 'node:module';
import type { Worker } from 'node:worker_threads';

/** How often the worker checkpoints, in milliseconds. */
export const CHECKPOINT_INTERVAL_MS = 200;
/** SQLite's default `PRAGMA wal_autocheckpoint`, for a connection whose worker failed. */
export const SQLITE_AUTOCHECKPOINT_PAGES = 1_000;

/**
 * The worker's code (CommonJS, evaluated in the thread): a connection and a timer per file it is given
 * (`{ add }`), closed when told (`{ remove }`, answered `{ id, removed }`). A file it cannot open is answered
 * `{ id, failed }`; checkpoints are reported only for files that asked (`report`).
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const files = new Map();
parentPort.on('message', (message) => {
  if (message.add) {
    const { id, file, synchronous, intervalMs, report } = message.add;
    let db;
    try {
      db = new Database(file, { fileMustExist: true });
      db.pragma('synchronous = ' + synchronous);
    } catch (error) {
      if (db) db.close();
      parentPort.postMessage({ id, failed: String(error) });
      return;
    }
    const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)').raw(true);
    const timer = setInterval(() => {
      try {
        const [row] = checkpoint.all();
        if (report) parentPort.postMessage({ id, log: row[1], checkpointed: row[2] });
      } catch (error) {
        if (report) parentPort.postMessage({ id, error: String(error) });
      }
    }, intervalMs);
    files.set(id, { db, timer });
  } else if (message.remove !== undefined) {
    const entry = files.get(message.remove);
    files.delete(message.remove);
    if (entry) {
      clearInterval(entry.timer);
      entry.db.close();
    }
    parentPort.postMessage({ id: message.remove, removed: true });
  }
});
`;

/** A file being checkpointed. */
export interface Checkpointer {
  /** Stops checkpointing the file and closes the worker's connection to it; resolves once that is done. */
  stop(): Promise<void>;
}

/** Options of {@link startCheckpointer}. */
export interface CheckpointerOptions {
  /** Absolute path of a database file in WAL mode. */
  file: string;
  /** `PRAGMA synchronous` of the adapter's connection, e.g. `'NORMAL'`. */
  synchronous: string;
  /**
   * Called once if the worker cannot checkpoint the file (it could not open it or load the driver) or exits
   * without `stop()`: the caller checkpoints by itself again.
   */
  onFailure(error: unknown): void;
  /** Called after each checkpoint with the `-wal` file's pages and how many are in the database file (tests). */
  onCheckpoint?(result: { log: number; checkpointed: number } | { error: string }): void;
  /** Default {@link CHECKPOINT_INTERVAL_MS}. */
  intervalMs?: number;
}

type WorkerMessage =
  | { id: number; failed: string }
  | { id: number; removed: true }
  | { id: number; log: number; checkpointed: number }
  | { id: number; error: string };

/** What the main thread keeps per file. */
interface Entry {
  fail(error: unknown): void;
  removed(): void;
  report?: ((result: { log: number; checkpointed: number } | { error: string }) => void) | undefined;
}

/** The process's worker, its files, and how many `stop()`s wait on it (it is referenced while any does). */
interface Shared {
  worker: Worker;
  entries: Map<number, Entry>;
  waiting: number;
}

let shared: Shared | undefined;
let nextId = 0;

function driverEntry(): string {
  try {
    return createRequire(import.meta.url).resolve('better-sqlite3');
  } catch {
    // Bundled: the worker resolves it from the working directory, as the app's own import does.
    return 'better-sqlite3';
  }
}

/** The process's checkpoint worker, started on first use; `WorkerCtor` is `node:worker_threads`' `Worker`. */
function sharedWorker(WorkerCtor: typeof Worker): Shared {
  if (shared) return shared;
  const worker = new WorkerCtor(WORKER_SOURCE, { eval: true, workerData: { driver: driverEntry() } });
  // Unreferenced: an app that is done exits even though files are still checkpointed.
  worker.unref();
  const state: Shared = { worker, entries: new Map(), waiting: 0 };
  const failAll = (error: unknown) => {
    const entries = [...state.entries.values()];
    state.entries.clear();
    for (const entry of entries) entry.fail(error);
  };
  worker.on('message', (message: WorkerMessage) => {
    const entry = state.entries.get(message.id);
    if (!entry) return;
    if ('failed' in message) {
      state.entries.delete(message.id);
      entry.fail(new Error(message.failed));
    } else if ('removed' in message) {
      state.entries.delete(message.id);
      entry.removed();
    } else entry.report?.(message);
  });
  worker.on('error', (error) => {
    if (shared === state) shared = undefined;
    failAll(error);
  });
  worker.once('exit', (code) => {
    if (shared === state) shared = undefined;
    failAll(new Error(`the checkpoint worker exited with code ${code}`));
  });
  shared = state;
  return state;
}

/**
 * Starts checkpointing `options.file` in the process's checkpoint worker thread (started on first use; it does
 * not keep the process alive). One thread serves every file, so an app or a test suite with many adapters pays
 * for one thread, not one each.
 */
export function startCheckpointer(options: CheckpointerOptions, WorkerCtor: typeof Worker): Checkpointer {
  const state = sharedWorker(WorkerCtor);
  const id = ++nextId;
  let finished = false;
  let stopped: (() => void) | undefined;
  const settle = () => {
    finished = true;
    stopped?.();
  };
  state.entries.set(id, {
    fail(error) {
      const asked = stopped !== undefined;
      settle();
      if (!asked) options.onFailure(error);
    },
    removed: settle,
    report: options.onCheckpoint,
  });
  state.worker.postMessage({
    add: {
      id,
      file: options.file,
      synchronous: options.synchronous,
      intervalMs: options.intervalMs ?? CHECKPOINT_INTERVAL_MS,
      report: options.onCheckpoint !== undefined,
    },
  });
  return {
    async stop() {
      if (finished) return;
      const done = new Promise<void>((resolve) => (stopped = resolve));
      // Referenced while a stop waits: unreferenced, the worker alone would not keep the awaiting process running.
      if (state.waiting++ === 0) state.worker.ref();
      try {
        state.worker.postMessage({ remove: id });
        await done;
      } finally {
        if (--state.waiting === 0) state.worker.unref();
      }
    },
  };
}
