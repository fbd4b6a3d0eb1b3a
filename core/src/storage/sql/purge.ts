/**
 * Purging expired rows in batches: at most `batchSize` rows per statement,
 * a yield to the event loop between statements (the SQLite driver is
 * synchronous: one long `DELETE` would stop the whole app), and an optional
 * time budget after which the call returns and says more remain.
 * Free of Kysely, so the memory adapter can share the option checks.
 * @module
 * @internal
 */
import type { PurgeOptions, PurgeResult } from '../types.js';

/** Rows per statement when the caller does not say. */
export const DEFAULT_PURGE_BATCH = 2_000;
/** The largest accepted `batchSize`: beyond this one statement holds the database too long. */
export const MAX_PURGE_BATCH = 10_000;

/** {@link PurgeOptions} with defaults applied. */
export interface ResolvedPurgeOptions {
  batchSize: number;
  /** `Infinity` when unlimited. */
  budgetMs: number;
}

/**
 * Checks and completes purge options.
 * @throws TypeError when `batchSize` is not an integer in 1..10 000 or `budgetMs` is negative or not a number.
 */
export function resolvePurgeOptions(options: PurgeOptions = {}): ResolvedPurgeOptions {
  const { batchSize = DEFAULT_PURGE_BATCH, budgetMs = Infinity } = options;
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > MAX_PURGE_BATCH)
    throw new TypeError(`purgeExpired: batchSize must be an integer from 1 to ${MAX_PURGE_BATCH}`);
  if (typeof budgetMs !== 'number' || Number.isNaN(budgetMs) || budgetMs < 0)
    throw new TypeError('purgeExpired: budgetMs must be a number of milliseconds, 0 or more');
  return { batchSize, budgetMs };
}

/** Deletes at most `limit` rows of `table` expired at or before `now`; returns how many it deleted. */
export type DeleteBatch = (table: string, now: Date, limit: number) => Promise<number>;

/** Lets timers, I/O callbacks and other requests run before the next batch. */
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Deletes expired rows of each table in turn, batch by batch, yielding between
 * batches. Stops starting batches once `budgetMs` has passed since the call
 * began, but only after some row was deleted: every call makes progress, and
 * empty tables cost one index probe each.
 * @returns the rows deleted per table and whether the budget ran out with rows left.
 */
export async function purgeInBatches(
  deleteBatch: DeleteBatch,
  tables: readonly string[],
  now: Date,
  options: ResolvedPurgeOptions,
): Promise<{ deleted: number[]; more: boolean }> {
  const started = performance.now();
  const deleted = tables.map(() => 0);
  let total = 0;
  for (const [index, table] of tables.entries()) {
    for (;;) {
      if (total > 0) {
        if (performance.now() - started >= options.budgetMs) return { deleted, more: true };
        await yieldToEventLoop();
      }
      const n = await deleteBatch(table, now, options.batchSize);
      total += n;
      deleted[index]! += n;
      if (n < options.batchSize) break;
    }
  }
  return { deleted, more: false };
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
