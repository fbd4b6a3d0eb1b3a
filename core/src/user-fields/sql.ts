/**
 * Custom user fields in the SQL adapters (SQLite, PostgreSQL, MySQL/MariaDB, D1): one column each, added to the
 * users table by `migrate()` when missing (the table's columns are read first, so it is idempotent), encoded as
 * the core's own columns are (dates as integer milliseconds, booleans as the dialect binds them, `string[]` as
 * JSON text).
 * @module
 * @internal
 */
import { sql, type Kysely } from 'kysely';
import type { DialectTraits } from '../storage/sql/dialect.js';
import { staticDefault, type UserField } from './definitions.js';

/** The column type of a field on a dialect. */
export function columnType(field: UserField, traits: DialectTraits): string {
  switch (field.type) {
    case 'string':
      // MySQL cannot index TEXT without a length.
      return field.unique ? traits.key : 'text';
    case 'number':
      return 'double precision';
    case 'boolean':
      return traits.bool;
    case 'date':
      return traits.int64;
    case 'string[]':
      return 'text';
  }
}

/** A field value as its column holds it. */
export function encodeFieldValue(field: UserField, value: unknown, traits: DialectTraits): unknown {
  if (value == null) return null;
  switch (field.type) {
    case 'date':
      return (value as Date).getTime();
    case 'boolean':
      return traits.encodeBool(value as boolean);
    case 'string[]':
      return JSON.stringify(value);
    default:
      return value;
  }
}

/** A column value as the field's value (`null` stays `null`). */
export function decodeFieldValue(field: UserField, raw: unknown): unknown {
  if (raw == null) return null;
  switch (field.type) {
    case 'date':
      return new Date(Number(raw));
    case 'boolean':
      return typeof raw === 'boolean' ? raw : Number(raw) !== 0;
    case 'number':
      return Number(raw);
    case 'string[]':
      return JSON.parse(String(raw)) as string[];
    default:
      return String(raw);
  }
}

/** The columns of `values` (field values by field name) for an insert or update. */
export function encodeFieldColumns(
  values: Record<string, unknown>,
  fields: readonly UserField[],
  traits: DialectTraits,
): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (const field of fields)
    if (Object.hasOwn(values, field.name)) row[field.column] = encodeFieldValue(field, values[field.name], traits);
  return row;
}

/** The field values of a users row, by field name. */
export function decodeFieldColumns(row: object, fields: readonly UserField[]): Record<string, unknown> {
  const columns = row as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const field of fields) out[field.name] = decodeFieldValue(field, columns[field.column]);
  return out;
}

/** Whether a unique violation's text names the field's index. */
export function uniqueFieldOf(violation: string, fields: readonly UserField[], usersTable: string): string | null {
  for (const field of fields)
    if (field.unique && violation.includes(uniqueIndexName(usersTable, field))) return field.name;
  // SQLite names the column rather than the index: "UNIQUE constraint failed: auth_users.plan_code".
  for (const field of fields)
    if (field.unique && violation.includes(`${usersTable}.${field.column}`)) return field.name;
  return null;
}

/** The name of a unique field's index. */
export function uniqueIndexName(usersTable: string, field: UserField): string {
  return `${usersTable}_${field.column}_key`;
}

/** The column default of a field on a dialect (booleans as 0/1 where they are integers), or undefined. */
function sqlDefault(field: UserField, traits: DialectTraits): unknown {
  const value = staticDefault(field);
  return typeof value === 'boolean' ? traits.encodeBool(value) : value;
}

/**
 * The statements that add `field`'s column (with its static default, so existing rows read it) and, for a
 * unique field, its unique index. Built on `db`, so a recording Kysely renders them as text.
 */
export function addFieldColumn(db: Kysely<any>, usersTable: string, field: UserField, traits: DialectTraits) {
  const fallback = sqlDefault(field, traits);
  const type = sql.raw(columnType(field, traits));
  const add = db.schema
    .alterTable(usersTable)
    .addColumn(field.column, type, (c) => (fallback === undefined ? c : c.defaultTo(fallback)));
  const index = field.unique
    ? db.schema.createIndex(uniqueIndexName(usersTable, field)).on(usersTable).column(field.column).unique()
    : undefined;
  return index ? [add, index] : [add];
}

/** The column names of `table` (lower case), read from the database's catalogue. */
export async function existingColumns(db: Kysely<any>, table: string, traits: DialectTraits): Promise<Set<string>> {
  let rows: { name: string }[];
  if (traits.name === 'sqlite') {
    rows = (await sql<{ name: string }>`select name from pragma_table_info(${table})`.execute(db)).rows;
  } else if (traits.name === 'postgres') {
    rows = (
      await sql<{ name: string }>`select column_name as name from information_schema.columns
        where table_schema = current_schema() and table_name = ${table}`.execute(db)
    ).rows;
  } else {
    rows = (
      await sql<{ name: string }>`select column_name as name from information_schema.columns
        where table_schema = database() and table_name = ${table}`.execute(db)
    ).rows;
  }
  return new Set(rows.map((r) => String(r.name).toLowerCase()));
}

/**
 * Adds the columns of `fields` missing from the users table (and their unique indexes). Idempotent; when
 * another instance adds a column meanwhile, its "duplicate column" error is absorbed after re-reading the
 * table. Columns of fields no longer configured are left in place.
 * @throws the database's error when a column cannot be added.
 */
export async function addMissingFieldColumns(
  db: Kysely<any>,
  usersTable: string,
  fields: readonly UserField[],
  traits: DialectTraits,
): Promise<void> {
  if (fields.length === 0) return;
  const present = await existingColumns(db, usersTable, traits);
  for (const field of fields) {
    if (present.has(field.column.toLowerCase())) continue;
    const [add, index] = addFieldColumn(db, usersTable, field, traits);
    try {
      await add!.execute();
    } catch (error) {
      if (!(await existingColumns(db, usersTable, traits)).has(field.column.toLowerCase())) throw error;
      continue;
    }
    await index?.execute();
  }
}
