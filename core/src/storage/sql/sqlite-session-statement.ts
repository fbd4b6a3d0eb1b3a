/**
 * The SQLite session read's statement, kept right across schema changes. The read runs in better-sqlite3's raw
 * mode (arrays) and names the values from the statement's columns. SQLite re-prepares a statement by itself
 * after a schema change (an `ALTER TABLE` here or in another process), and the session read selects `u.*`: after
 * `ADD COLUMN` the row has one more value, after a `DROP COLUMN` one fewer, and after a drop and an add (or a
 * table rebuilt in another column order) as many values in other places. Names taken once would drop the new
 * column, or put one column's value under another's name (a user-editable custom field read as an admin-set one).
 * The names are therefore taken again whenever the row's length differs or `PRAGMA schema_version` moved: read
 * after every `CREATE`, `ALTER` or `DROP` statement run on this connection (counted by {@link countingDatabase}),
 * and when a `PRAGMA data_version` poll sees another connection's commit (the read cache's poll, or with the
 * cache off the read's own, at most every 1 ms).
 * @internal
 * @module
 */
import type BetterSqlite3 from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/**
 * Whether `sql` may change the schema: SQLite changes it only through `CREATE`, `ALTER` and `DROP` statements
 * (`CREATE TEMP TABLE` included, which could shadow a table), seen past leading blanks and comments.
 */
const SCHEMA_CHANGE = /^(?:\s+|--[^\n]*(?:\n|$)|\/\*[\s\S]*?\*\/)*(?:create|alter|drop)\b/i;

/**
 * `database` for Kysely, counting the statements it runs that may change the schema (`CREATE`, `ALTER`, `DROP`):
 * `schemaStatements()` is their number so far (a failed one counted too). Other statements run as they are.
 */
export function countingDatabase(database: BetterSqlite3.Database): {
  database: SqliteDatabase;
  schemaStatements(): number;
} {
  let statements = 0;
  return {
    schemaStatements: () => statements,
    database: {
      close: () => database.close(),
      prepare(sql: string): SqliteStatement {
        const statement = database.prepare(sql);
        if (statement.reader || !SCHEMA_CHANGE.test(sql)) return statement as unknown as SqliteStatement;
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

/**
 * The first row of `sql` for `params`, as an object named from the statement's current columns. `versions` is the
 * read cache's `PRAGMA data_version` poll: when the version moved (another connection committed), it reads
 * `PRAGMA schema_version` too.
 */
export function namedRowReader(
  database: BetterSqlite3.Database,
  sql: string,
  schemaStatements: () => number,
): {
  read(params: readonly unknown[]): Record<string, unknown> | undefined;
  versions: { get(): unknown };
} {
  const dataVersion = database.prepare('PRAGMA data_version').raw(true);
  const schemaVersion = database.prepare('PRAGMA schema_version').raw(true);
  // Prepared on first use: the tables may not exist before migrate().
  let statement: BetterSqlite3.Statement<unknown[], unknown[]> | undefined;
  let names: string[] = [];
  /** The schema version last seen, and the one `names` were taken at. */
  let schema: unknown;
  let namesSchema: unknown;
  /** `schemaStatements()` when `schema` was last read, and the data version last polled. */
  let statementsSeen = Number.NaN;
  let data: unknown;
  const readSchema = () => (schema = (schemaVersion.get() as unknown[])[0]);
  const versions = {
    get() {
      const row = dataVersion.get() as unknown[];
      if (row[0] !== data) {
        data = row[0];
        readSchema();
      }
      return row;
    },
  };
  return {
    versions,
    read(params) {
      const run = schemaStatements();
      if (run !== statementsSeen) {
        statementsSeen = run;
        readSchema();
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
