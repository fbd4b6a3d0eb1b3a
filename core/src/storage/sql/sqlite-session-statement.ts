/**
 * The SQLite session read's statement, kept right across schema changes. The read runs in better-sqlite3's raw
 * mode (arrays) and names the values from the statement's columns. SQLite re-prepares a statement by itself
 * after a schema change (an `ALTER TABLE` here or in another process), and the session read selects `u.*`: after
 * `ADD COLUMN` the row has one more value, after a `DROP COLUMN` one fewer, and after a drop and an add (or a
 * table rebuilt in another column order) as many values in other places. Names taken once would drop the new
 * column, or put one column's value under another's name (a user-editable custom field read as an admin-set one).
 * The names are therefore taken again whenever the row's length differs or `PRAGMA schema_version` moved: read
 * after every statement run on this connection that returns no rows (DDL among them: counted by
 * {@link countingDatabase}), and from each `PRAGMA data_version` poll of the read cache (other connections).
 * @internal
 * @module
 */
import type BetterSqlite3 from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/**
 * `database` for Kysely, counting the statements it runs that return no rows (writes without `RETURNING`, DDL,
 * `BEGIN`/`COMMIT`): `statements()` is their number so far. A statement that fails is counted too.
 */
export function countingDatabase(database: BetterSqlite3.Database): {
  database: SqliteDatabase;
  statements(): number;
} {
  let statements = 0;
  return {
    statements: () => statements,
    database: {
      close: () => database.close(),
      prepare(sql: string): SqliteStatement {
        const statement = database.prepare(sql);
        if (statement.reader) return statement as unknown as SqliteStatement;
        return {
          reader: false,
          all: (parameters) => statement.all(...parameters),
          iterate: (parameters) => statement.iterate(...parameters),
          run(parameters) {
            try {
              return statement.run(...parameters);
            } finally {
              statements++;
            }
          },
        };
      },
    },
  };
}

/** A schema version no poll returns: names taken inside a transaction are taken again after it. */
const UNSETTLED = Symbol('unsettled');

/** `SELECT data_version, schema_version`, one read transaction for both. */
export const VERSIONS_SQL = 'SELECT data_version, schema_version FROM pragma_data_version, pragma_schema_version';

/**
 * The first row of `sql` for `params`, as an object named from the statement's current columns; `versions()`
 * polls `[data_version, schema_version]` for the read cache and notes the schema version it saw.
 */
export function namedRowReader(
  database: BetterSqlite3.Database,
  sql: string,
  statements: () => number,
): {
  read(params: readonly unknown[]): Record<string, unknown> | undefined;
  versions: { get(): unknown };
} {
  const versionsStatement = database.prepare(VERSIONS_SQL).raw(true);
  // Prepared on first use: the tables may not exist before migrate().
  let statement: BetterSqlite3.Statement<unknown[], unknown[]> | undefined;
  let names: string[] = [];
  /** The schema version last seen, and the one `names` were taken at. */
  let schema: unknown;
  let namesSchema: unknown;
  /** `statements()` when `schema` was last read. */
  let statementsSeen = Number.NaN;
  const versions = {
    get() {
      const row = versionsStatement.get() as unknown[];
      schema = row[1];
      return row;
    },
  };
  return {
    versions,
    read(params) {
      const run = statements();
      if (run !== statementsSeen) {
        statementsSeen = run;
        versions.get();
      }
      statement ??= database.prepare(sql).raw(true) as BetterSqlite3.Statement<unknown[], unknown[]>;
      const row = statement.get(...params);
      if (!row) return undefined;
      if (row.length !== names.length || schema !== namesSchema) {
        names = statement.columns().map((column) => column.name);
        // Inside a transaction the schema may still roll back to a version number that a later change reuses.
        namesSchema = database.inTransaction ? UNSETTLED : schema;
      }
      const named: Record<string, unknown> = {};
      for (let i = 0; i < names.length; i++) named[names[i]!] = row[i];
      return named;
    },
  };
}
