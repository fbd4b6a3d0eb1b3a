/**
 * Purging expired rows in batches: statements sized by how long the last one
 * took (about 20 ms each, never more than `batchSize` rows), a yield to the
 * event loop between statements (the SQLite driver is synchronous: one long
 * `DELETE` would stop the whole app), and an optional time budget after which
 * the call returns and says more remain.
 * Free of Kysely, so the memory adapter can share the option checks.
 * @module
 * @internal
 */
import type { PurgeOptions, PurgeResult } from '../types.js';

/** Rows of the first statement when the caller does not say; later ones adapt (see {@link PURGE_BATCH_TARGET_MS}). */
export const DEFAULT_PURGE_BATCH = 500;
/**
 * Each statement aims at this many milliseconds: after a full batch that took longer, the next is scaled down in
 * proportion (`size × target / took`); after one that took under a quarter of it, the next doubles (up to the
 * caller's `batchSize`, or {@link MAX_ADAPTIVE_BATCH}). So on a synchronous driver (SQLite) no batch blocks the
 * event loop for long, whatever the machine and the table size.
 */
export const PURGE_BATCH_TARGET_MS = 20;
/** The largest batch the adaptive sizing grows to when the caller gives no `batchSize`. */
export const MAX_ADAPTIVE_BATCH = 5_000;
/** The smallest batch the adaptive sizing shrinks to (or the caller's `batchSize`, if smaller). */
const MIN_ADAPTIVE_BATCH = 16;
/** The largest accepted `batchSize`: beyond this one statement holds the database too long. */
export const MAX_PURGE_BATCH = 10_000;

/** {@link PurgeOptions} with defaults applied. */
export interface ResolvedPurgeOptions {
  /** The first statement's row limit: the caller's `batchSize` or {@link DEFAULT_PURGE_BATCH}, whichever is less. */
  batchSize: number;
  /** The most rows any statement deletes: the caller's `batchSize`, else {@link MAX_ADAPTIVE_BATCH}. */
  maxBatch: number;
  /** `Infinity` when unlimited. */
  budgetMs: number;
}

/**
 * Checks and completes purge options.
 * @throws TypeError when `batchSize` is not an integer in 1..10 000 or `budgetMs` is negative or not a number.
 */
export function resolvePurgeOptions(options: PurgeOptions = {}): ResolvedPurgeOptions {
  const { batchSize, budgetMs = Infinity } = options;
  if (batchSize !== undefined && (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > MAX_PURGE_BATCH))
    throw new TypeError(`purgeExpired: batchSize must be an integer from 1 to ${MAX_PURGE_BATCH}`);
  if (typeof budgetMs !== 'number' || Number.isNaN(budgetMs) || budgetMs < 0)
    throw new TypeError('purgeExpired: budgetMs must be a number of milliseconds, 0 or more');
  const maxBatch = batchSize ?? MAX_ADAPTIVE_BATCH;
  return { batchSize: Math.min(maxBatch, DEFAULT_PURGE_BATCH), maxBatch, budgetMs };
}

/** Deletes at most `limit` rows of `table` expired at or before `now`; returns how many it deleted. */
export type DeleteBatch = (table: string, now: Date, limit: number) => Promise<number>;

/** Lets timers, I/O callbacks and other requests run before the next batch. */
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Deletes expired rows of each table in turn, batch by batch, yielding between
 * batches. Stops starting batches once `budgetMs` has passed since the call
 * began, but only after some row was deleted: every call makes progress, and
 * empty tables cost one index probe each. `clock` (milliseconds) is for tests.
 * @returns the rows deleted per table and whether the budget ran out with rows left.
 */
export async function purgeInBatches(
  deleteBatch: DeleteBatch,
  tables: readonly string[],
  now: Date,
  options: ResolvedPurgeOptions,
  clock: () => number = () => performance.now(),
): Promise<{ deleted: number[]; more: boolean }> {
  const started = clock();
  const deleted = tables.map(() => 0);
  let total = 0;
  let size = options.batchSize;
  for (const [index, table] of tables.entries()) {
    for (;;) {
      if (total > 0) {
        if (clock() - started >= options.budgetMs) return { deleted, more: true };
        await yieldToEventLoop();
      }
      const before = clock();
      const n = await deleteBatch(table, now, size);
      total += n;
      deleted[index]! += n;
      if (n < size) break;
      size = nextBatchSize(size, clock() - before, options.maxBatch);
    }
  }
  return { deleted, more: false };
}

/**
 * The next batch size after a full batch of `size` rows took `ms`: scaled down in proportion when it took longer
 * than {@link PURGE_BATCH_TARGET_MS}, doubled when it took under a quarter of it, within
 * `[min(16, maxBatch), maxBatch]`.
 */
export function nextBatchSize(size: number, ms: number, maxBatch: number = MAX_ADAPTIVE_BATCH): number {
  const floor = Math.min(MIN_ADAPTIVE_BATCH, maxBatch);
  if (ms > PURGE_BATCH_TARGET_MS) return Math.max(floor, Math.floor((size * PURGE_BATCH_TARGET_MS) / ms));
  if (ms < PURGE_BATCH_TARGET_MS / 4) return Math.min(maxBatch, size * 2);
  return Math.min(maxBatch, size);
}

/** `purgeExpired` of a SQL store: sessions, then verification tokens. */
export async function purgeExpiredRows(
  deleteBatch: DeleteBatch,
  tables: { sessions: string; verificationTokens: string },
  now: Date,
  options: PurgeOptions | undefined,
): Promise<Required<PurgeResult>> {
  const resolved = resolvePurgeOptions(options);
  const { deleted, more } = await purgeInBatches(
    deleteBatch,
    [tables.sessions, tables.verificationTokens],
    now,
    resolved,
  );
  return { sessions: deleted[0]!, verificationTokens: deleted[1]!, more };
}
