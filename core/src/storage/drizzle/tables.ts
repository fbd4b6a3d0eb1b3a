/**
 * The kit's tables as Drizzle table objects, built at run time from the spec (spec.ts) for the adapter's default
 * schema, and the check of a schema an app passes in.
 * @module
 * @internal
 */
import { getTableColumns, getTableName, is, sql, type Column, type SQL } from 'drizzle-orm';
import * as pg from 'drizzle-orm/pg-core';
import * as sqlite from 'drizzle-orm/sqlite-core';
import type { UserField } from '../../user-fields/definitions.js';
import {
  SCHEMA_KEYS,
  indexesOn,
  propertyOf,
  tableSpecs,
  type ColumnSpec,
  type DrizzleDialect,
  type IndexTerm,
  type SchemaKey,
} from './spec.js';

/**
 * A Drizzle schema of the kit's tables: what `generateDrizzleSchema` prints, or the app's own tables of the same
 * names and columns (property names are free; column names must be the kit's). Other keys are ignored, so an
 * app's whole schema module (`import * as schema from './db/schema'`) can be passed as it is.
 */
export type DrizzleAuthSchema = Record<SchemaKey, sqlite.SQLiteTable | pg.PgTable>;

/** Column builders of one dialect (loosely typed: the tables are built from data). */
interface Builders {
  table(name: string, columns: Record<string, any>, extra: (t: Record<string, any>) => unknown[]): unknown;
  column(spec: ColumnSpec): any;
  index(name: string, unique: boolean): any;
  primaryKey(config: { name: string; columns: any[] }): unknown;
  /** A term of an index: a column, `lower(column)`, with its operator class where the dialect has them. */
  term(column: any, term: IndexTerm): SQL | any;
}

const builders: Record<DrizzleDialect, Builders> = {
  sqlite: {
    table: (name, columns, extra) => sqlite.sqliteTable(name, columns, extra as never),
    column: ({ name, kind }) =>
      kind === 'text'
        ? sqlite.text(name)
        : kind === 'int64'
          ? sqlite.integer(name)
          : kind === 'float'
            ? sqlite.real(name)
            : sqlite.integer(name, { mode: 'boolean' }),
    index: (name, unique) => (unique ? sqlite.uniqueIndex(name) : sqlite.index(name)),
    primaryKey: (config) => sqlite.primaryKey(config as never),
    term: (column, term) => (term.lower ? sql`lower(${column})` : column),
  },
  postgres: {
    table: (name, columns, extra) => pg.pgTable(name, columns, extra as never),
    column: ({ name, kind }) =>
      kind === 'text'
        ? pg.text(name)
        : kind === 'int64'
          ? pg.bigint(name, { mode: 'number' })
          : kind === 'float'
            ? pg.doublePrecision(name)
            : pg.boolean(name),
    index: (name, unique) => (unique ? pg.uniqueIndex(name) : pg.index(name)),
    primaryKey: (config) => pg.primaryKey(config as never),
    term: (column, term) => {
      if (term.lower) return term.op ? sql`lower(${column}) ${sql.raw(term.op)}` : sql`lower(${column})`;
      return term.op ? column.op(term.op) : column;
    },
  },
};

/**
 * The kit's tables as Drizzle tables for `dialect` and `prefix` (default `auth_`), keyed as {@link SCHEMA_KEYS};
 * the users table with the columns of `fields` (custom user fields).
 */
export function kitSchema(
  dialect: DrizzleDialect,
  prefix?: string,
  fields: readonly UserField[] = [],
): DrizzleAuthSchema {
  const b = builders[dialect];
  const built: Record<string, unknown> = {};
  for (const spec of tableSpecs(prefix, fields)) {
    const columns: Record<string, any> = {};
    for (const column of spec.columns) {
      let c = b.column(column);
      if (column.notNull) c = c.notNull();
      if (column.primaryKey) c = c.primaryKey();
      if (column.default !== undefined) c = c.default(column.default);
      if (column.referencesUser) {
        const users = built.authUsers as Record<string, Column>;
        c = c.references(() => users.id, { onDelete: 'cascade' });
      }
      columns[propertyOf(column.name)] = c;
    }
    built[spec.key] = b.table(spec.name, columns, (t) => [
      ...(spec.primaryKey
        ? [b.primaryKey({ name: spec.primaryKey.name, columns: spec.primaryKey.columns.map((c) => t[propertyOf(c)]) })]
        : []),
      ...indexesOn(spec, dialect).map((index) => {
        const terms = index.terms.map((term) => b.term(t[propertyOf(term.column)], term));
        const start = b.index(index.name, index.unique === true);
        return index.using ? start.using(index.using, ...terms) : start.on(...terms);
      }),
    ]);
  }
  return built as DrizzleAuthSchema;
}

/** A table of the schema, its columns keyed by their database names. */
export interface ResolvedTable {
  table: sqlite.SQLiteTable | pg.PgTable;
  name: string;
  /** Database column name → the Drizzle column. */
  columns: Record<string, Column>;
  /** Database column name → property name in the table (for `insert().values()` and `update().set()`). */
  properties: Record<string, string>;
}

/** The five tables of a schema, checked, with the prefix their names share. */
export interface ResolvedSchema {
  prefix: string;
  users: ResolvedTable;
  accounts: ResolvedTable;
  sessions: ResolvedTable;
  verificationTokens: ResolvedTable;
  authenticators: ResolvedTable;
}

const TABLE_OF = {
  authUsers: 'users',
  authAccounts: 'accounts',
  authSessions: 'sessions',
  authVerificationTokens: 'verificationTokens',
  authAuthenticators: 'authenticators',
} as const satisfies Record<SchemaKey, keyof Omit<ResolvedSchema, 'prefix'>>;

/**
 * Checks `schema` against the kit's tables for `dialect`: every table of {@link SCHEMA_KEYS} there, of the
 * dialect, named `<prefix>users`, `<prefix>accounts`, … with one prefix, and holding every column of the kit.
 * @throws TypeError naming the first missing table or column, or a table of another dialect.
 */
export function resolveSchema(schema: DrizzleAuthSchema, dialect: DrizzleDialect): ResolvedSchema {
  const users = schema.authUsers;
  if (!users) throw new TypeError('createDrizzleAdapter: schema has no authUsers table (see generateDrizzleSchema)');
  const prefix = getTableName(users).replace(/users$/, '');
  const resolved: Record<string, unknown> = { prefix };
  for (const spec of tableSpecs(prefix)) {
    const table = schema[spec.key];
    const kind = dialect === 'sqlite' ? sqlite.SQLiteTable : pg.PgTable;
    if (!table || !is(table, kind))
      throw new TypeError(`createDrizzleAdapter: schema.${spec.key} is missing or not a ${dialect} table`);
    if (getTableName(table) !== spec.name)
      throw new TypeError(`createDrizzleAdapter: schema.${spec.key} must be named "${spec.name}" (prefix "${prefix}")`);
    const columns: Record<string, Column> = {};
    const properties: Record<string, string> = {};
    for (const [property, column] of Object.entries(getTableColumns(table) as Record<string, Column>)) {
      columns[column.name] = column;
      properties[column.name] = property;
    }
    const missing = spec.columns.find((column) => !columns[column.name]);
    if (missing) throw new TypeError(`createDrizzleAdapter: schema.${spec.key} has no column "${missing.name}"`);
    resolved[TABLE_OF[spec.key]] = { table, name: spec.name, columns, properties } satisfies ResolvedTable;
  }
  return resolved as unknown as ResolvedSchema;
}

export { SCHEMA_KEYS };
