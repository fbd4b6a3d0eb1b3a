/**
 * SQLite WAL checkpoints off the event loop. better-sqlite3 runs every statement in the calling thread, and SQLite
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
import { Worker } from 'node:worker_threads';

/** How often the worker checkpoints, in milliseconds. */
export const CHECKPOINT_INTERVAL_MS = 200;
/** SQLite's default `PRAGMA wal_autocheckpoint`, for a connection whose worker failed. */
export const SQLITE_AUTOCHECKPOINT_PAGES = 1_000;

/** What the worker is given. */
interface CheckpointerData {
  /** better-sqlite3's entry, resolved where the adapter loaded it from (or the bare name). */
  driver: string;
  file: string;
  /** `PRAGMA synchronous` of the adapter's connection (a checkpoint fsyncs unless it is `OFF`). */
  synchronous: string;
  intervalMs: number;
}

// CommonJS, evaluated in the worker: checkpoints on a timer, closes its connection when told to stop.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('synchronous = ' + workerData.synchronous);
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
const timer = setInterval(() => {
  try {
    const [row] = checkpoint.raw(true).all();
    parentPort.postMessage({ log: row[1], checkpointed: row[2] });
  } catch (error) {
    parentPort.postMessage({ error: String(error) });
  }
}, workerData.intervalMs);
parentPort.on('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

/** A running checkpointer. */
export interface Checkpointer {
  /** Stops the timer and closes the worker's connection; resolves once the worker has exited. */
  stop(): Promise<void>;
}

/** Options of {@link startCheckpointer}. */
export interface CheckpointerOptions {
  /** Absolute path of a database file in WAL mode. */
  file: string;
  /** `PRAGMA synchronous` of the adapter's connection, e.g. `'NORMAL'`. */
  synchronous: string;
  /**
   * Called once if the worker fails (it could not open the file or load the driver) or exits without `stop()`:
   * the caller checkpoints by itself again.
   */
  onFailure(error: unknown): void;
  /** Called after each checkpoint with the `-wal` file's pages and how many are in the database file (tests). */
  onCheckpoint?(result: { log: number; checkpointed: number } | { error: string }): void;
  /** Default {@link CHECKPOINT_INTERVAL_MS}. */
  intervalMs?: number;
}

function driverEntry(): string {
  try {
    return createRequire(import.meta.url).resolve('better-sqlite3');
  } catch {
    // Bundled: the worker resolves it from the working directory, as the app's own import does.
    return 'better-sqlite3';
  }
}

/** Starts checkpointing `options.file` in a worker thread, which does not keep the process alive. */
export function startCheckpointer(options: CheckpointerOptions): Checkpointer {
  const workerData: CheckpointerData = {
    driver: driverEntry(),
    file: options.file,
    synchronous: options.synchronous,
    intervalMs: options.intervalMs ?? CHECKPOINT_INTERVAL_MS,
  };
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData });
  worker.unref();
  let stopping = false;
  let failed = false;
  const fail = (error: unknown) => {
    if (failed || stopping) return;
    failed = true;
    options.onFailure(error);
  };
  const exited = new Promise<void>((resolve) =>
    worker.once('exit', (code) => {
      fail(new Error(`the checkpoint worker exited with code ${code}`));
      resolve();
    }),
  );
  worker.on('message', (result: { log: number; checkpointed: number } | { error: string }) =>
    options.onCheckpoint?.(result),
  );
  worker.on('error', fail);
  return {
    async stop() {
      stopping = true;
      // Held until it exits: unreferenced, the worker alone would not keep the awaiting process running.
      worker.ref();
      worker.postMessage('stop');
      await exited;
    },
  };
}
