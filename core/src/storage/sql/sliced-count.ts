/**
 * SQLite's count of active sessions in slices: better-sqlite3 runs every statement in the calling thread, so one
 * `COUNT(*)` over millions of index entries stops the whole app for its duration (30 ms at a million users, and
 * growing with the table). Here each statement walks at most {@link COUNT_SLICE} entries of the expiry index and
 * the event loop runs between statements. The cursor is an index entry, `(expires, rowid)`: the next slice starts
 * with the rest of that entry's `expires` (`expires = ? AND rowid > ?`, a seek on both) and goes on with the later
 * ones (`expires > ?`). A single row-value test `(expires, rowid) > (?, ?)` seeks on `expires` alone, and walks
 * again through every entry sharing it (many sessions expire at the same millisecond after a bulk import).
 * @module
 * @internal
 */
import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';

/**
 * Index entries one statement walks at most: a few milliseconds of SQLite's time. At a million users (1.9 million
 * live sessions) slices of 100 000 blocked the event loop up to 37–78 ms on a loaded machine, slices of 25 000
 * 6–19 ms, for the same total time (72–92 ms a count).
 */
export const COUNT_SLICE = 25_000;

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
  const from = sql.table(table);
  /** The `slice`-th entry matching `where` in index order, if there are that many. */
  const lastOfSlice = async (where: RawBuilder<SqlBool>) =>
    (
      await sql<{ expires: number; r: number }>`select expires, rowid as r from ${from} where ${where}
        order by expires, rowid limit 1 offset ${slice - 1}`.execute(db)
    ).rows[0];
  const countWhere = async (where: RawBuilder<SqlBool>) =>
    Number((await sql<{ n: number }>`select count(*) as n from ${from} where ${where}`.execute(db)).rows[0]?.n ?? 0);

  let counted = 0;
  let expires = after;
  /** Set while the cursor sits inside the entries of `expires`: the rowid of the last one counted. */
  let rowid: number | undefined;
  for (;;) {
    if (rowid !== undefined) {
      const rest = sql<SqlBool>`expires = ${expires} and rowid > ${rowid}`;
      const last = await lastOfSlice(rest);
      if (last) {
        counted += slice;
        rowid = last.r;
        await yieldToEventLoop();
        continue;
      }
      counted += await countWhere(rest);
    }
    const later = sql<SqlBool>`expires > ${expires}`;
    const last = await lastOfSlice(later);
    if (!last) return counted + (await countWhere(later));
    counted += slice;
    ({ expires, r: rowid } = last);
    await yieldToEventLoop();
  }
}
