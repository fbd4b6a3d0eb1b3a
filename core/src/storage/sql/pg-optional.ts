/**
 * Optional schema steps on PostgreSQL: a statement the role may be refused
 * (an extension it may not create, a storage parameter on a table it does not
 * own) runs in a `DO` block that catches the error, so the migration goes on
 * inside or outside a transaction, and `generateMigrationSql` prints it as one
 * statement a DBA can run as it is.
 * @module
 * @internal
 */
import { sql, type RawBuilder } from 'kysely';

/**
 * `do $$ begin <statement>; exception when others then null; end $$`: runs
 * `statement`, or nothing when the server refuses it.
 * @param statement Fixed SQL on one line, names already checked (table names come from `tableNames`).
 * @throws TypeError when `statement` holds `$$` or a line break.
 */
export function orSkip(statement: string): RawBuilder<unknown> {
  if (/\$\$|[\r\n]/.test(statement)) throw new TypeError('orSkip: one line of SQL without $$');
  return sql.raw(`do $$ begin ${statement}; exception when others then null; end $$`);
}
