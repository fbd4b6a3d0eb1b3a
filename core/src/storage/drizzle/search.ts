/**
 * The admin search of `listUsers({ search })` as a Drizzle condition, matched as the SQL adapters match it
 * (sql/user-search.ts): by prefix through the email's unique index and the `lower(name)` index on SQLite (a
 * range: SQLite's `LIKE` uses no index here); by `LIKE` on PostgreSQL, anywhere in the text when the `pg_trgm`
 * indexes are there and the search has three letters or digits in a row, by prefix otherwise. With `@`, the
 * email only. `%`, `_` and `\` match literally.
 * @module
 * @internal
 */
import { or, sql, type SQL } from 'drizzle-orm';
import type { Kysely } from 'kysely';
import { userSearch } from '../sql/user-search.js';
import { tableNames } from '../sql/tables.js';
import type { DrizzleDialect } from './spec.js';
import type { RowTable } from './table-rows.js';

/** Above every character: `q || MAX_CHAR` bounds the strings starting with `q`. */
const MAX_CHAR = '\u{10FFFF}';
const escapeLike = (text: string) => text.replace(/[\\%_]/g, '\\$&');

/**
 * The search of one adapter: `(search) => condition` for a search trimmed and lower-cased by
 * `resolveListUsersQuery`. On PostgreSQL the trigram indexes are probed once (through `kysely`, by the SQL
 * adapter's own probe).
 */
export function drizzleUserSearch(
  dialect: DrizzleDialect,
  kysely: Kysely<any>,
  prefix: string,
  users: RowTable,
): (search: string) => Promise<SQL> {
  const probe = userSearch(dialect, tableNames(prefix));
  const email = users.c('email_normalized');
  const name = sql`lower(${users.c('name')})`;
  return async (search) => {
    let one: (column: unknown) => SQL;
    if (dialect === 'sqlite') {
      one = (column) => sql`(${column} >= ${search} and ${column} < ${search + MAX_CHAR})`;
    } else {
      const anywhere = (await probe.mode(kysely, search)) === 'substring';
      const pattern = anywhere ? `%${escapeLike(search)}%` : `${escapeLike(search)}%`;
      one = (column) => sql`${column} like ${pattern}`;
    }
    return search.includes('@') ? one(email) : or(one(email), one(name))!;
  };
}
