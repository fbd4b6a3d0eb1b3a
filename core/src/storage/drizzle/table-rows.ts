/**
 * Rows of the kit's tables through Drizzle, keyed by database column names (`email_normalized`), whatever the
 * property names of the schema's tables: so the SQL adapter's row conversions (sql/rows.ts) serve here too.
 * @module
 * @internal
 */
import type { Column } from 'drizzle-orm';
import type { UserField } from '../../user-fields/definitions.js';
import { tableSpecs, type DrizzleDialect, type TableSpec } from './spec.js';
import { kitSchema, resolveSchema, type ResolvedSchema, type ResolvedTable } from './tables.js';

/** A table of the schema with its selection and value mapping. */
export interface RowTable extends ResolvedTable {
  /** `db.select(selection)`: the kit's columns, keyed by database name, so rows come back keyed that way. */
  selection: Record<string, Column>;
  /** A row keyed by database names → the object `insert().values()` / `update().set()` take (property names). */
  values(row: object): Record<string, unknown>;
  /** The column named `name` in the database. */
  c(name: string): Column;
}

function rowTable(resolved: ResolvedTable, spec: TableSpec): RowTable {
  const selection = Object.fromEntries(spec.columns.map(({ name }) => [name, resolved.columns[name]!]));
  return {
    ...resolved,
    selection,
    values: (row) => Object.fromEntries(Object.entries(row).map(([name, value]) => [resolved.properties[name], value])),
    c: (name) => {
      const column = resolved.columns[name];
      if (!column) throw new Error(`No column ${name} in ${resolved.name}`);
      return column;
    },
  };
}

/** The five tables, each with its row mapping. */
export interface RowTables {
  users: RowTable;
  accounts: RowTable;
  sessions: RowTable;
  verificationTokens: RowTable;
  authenticators: RowTable;
}

export function rowTables(schema: ResolvedSchema): RowTables {
  const [users, accounts, sessions, verificationTokens, authenticators] = tableSpecs(schema.prefix);
  return {
    users: rowTable(schema.users, users!),
    accounts: rowTable(schema.accounts, accounts!),
    sessions: rowTable(schema.sessions, sessions!),
    verificationTokens: rowTable(schema.verificationTokens, verificationTokens!),
    authenticators: rowTable(schema.authenticators, authenticators!),
  };
}

/**
 * The users table with a column for each custom user field: the kit's own users table (of `dialect`, named with
 * `prefix`) built with them, so its rows carry the fields' columns keyed by their database names.
 */
export function usersWithFields(dialect: DrizzleDialect, prefix: string, fields: readonly UserField[]): RowTable {
  const resolved = resolveSchema(kitSchema(dialect, prefix, fields), dialect);
  return rowTable(resolved.users, tableSpecs(prefix, fields)[0]!);
}
