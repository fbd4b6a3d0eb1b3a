/**
 * SQLite's count of active sessions in slices: better-sqlite3 runs every statement in the calling thread, so one
 * `COUNT(*)` over millions of index entries stops the whole app for its duration (30 ms at a million users, and
 * growing with the table). Here each statement walks at most {@link COUNT_SLICE} entries of the expiry index
 * (a keyset on `(expires, rowid)`, both held by the index) and the event loop runs between statements.
 * @module
 * @internal
 */
import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';

/** Index entries one statement walks at most: a few milliseconds of SQLite's time. */
export const COUNT_SLICE = 100_000;

/** Lets timers, I/O callbacks and other requests run before the next statement. */
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The number of rows of `table` whose `expires` is after `after` (ms), counted `slice` index entries per
 * statement. Exact on a table nobody writes to meanwhile; under concurrent writes each row is counted at most
 * once (rows inserted behind the cursor are missed, as a single statement would have missed them too).
 * @param db A SQLite (or D1) database whose `table` has an index on `expires` and a `rowid`.
 */
export async function countAfterInSlices(
  db: Kysely<any>,
  table: string,
  after: number,
  slice: number = COUNT_SLICE,
): Promise<number> {
  let where: RawBuilder<SqlBool> = sql`expires > ${after}`;
  let counted = 0;
  for (;;) {
    // The slice's last entry: if it exists, the slice is full and the next one starts after it.
    const { rows } = await sql<{ expires: number; r: number }>`select expires, rowid as r from ${sql.table(table)}
      where ${where} order by expires, rowid limit 1 offset ${slice - 1}`.execute(db);
    const last = rows[0];
    if (!last) break;
    counted += slice;
    where = sql`(expires, rowid) > (${last.expires}, ${last.r})`;
    await yieldToEventLoop();
  }
  const { rows } = await sql<{ n: number }>`select count(*) as n from ${sql.table(table)} where ${where}`.execute(db);
  return counted + Number(rows[0]?.n ?? 0);
}
