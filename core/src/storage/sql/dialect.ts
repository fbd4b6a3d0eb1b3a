/**
 * The only places where SQLite, PostgreSQL and MySQL/MariaDB differ for the
 * SQL adapter: column types, the null-safe inequality, `RETURNING`, table
 * options, how booleans are bound, and how a unique violation is recognised.
 * @module
 * @internal
 */

import { MysqlAdapter, sql, type Kysely, type RawBuilder } from 'kysely';

/** The SQL dialects the adapter supports. */
export type SqlDialectName = 'sqlite' | 'postgres' | 'mysql';

/** Per-dialect traits. */
export interface DialectTraits {
  /** Which dialect these are, for the few schema steps only one of them has. */
  readonly name: SqlDialectName;
  /** Column type for 64-bit integers (millisecond times, counters). */
  readonly int64: 'integer' | 'bigint';
  /** Column type for booleans. */
  readonly bool: 'integer' | 'boolean';
  /**
   * Column type for text that is a key or indexed (ids, emails, token hashes):
   * `text` except on MySQL, which cannot index `TEXT` without a length.
   */
  readonly key: 'text' | 'varchar(255)';
  /** The null-safe "differs from" operator (SQLite, PostgreSQL); MySQL uses `not (a <=> b)`, see {@link differs}. */
  readonly distinctFrom: 'is not' | 'is distinct from' | null;
  /** Whether `INSERT/UPDATE/DELETE … RETURNING` is there (not on MySQL: read after the write instead). */
  readonly returning: boolean;
  /**
   * What follows `CREATE TABLE (…)`, or null: on MySQL InnoDB, utf8mb4 and a binary NO PAD collation
   * (`utf8mb4_nopad_bin` on MariaDB, `utf8mb4_0900_bin` on MySQL 8), so every text comparison is exact
   * (case, trailing spaces) as on the other dialects.
   */
  readonly tableOptions: string | null;
  /** A boolean as a query parameter (better-sqlite3 cannot bind booleans). */
  encodeBool(value: boolean): number | boolean;
  /**
   * When `error` is a unique or primary-key violation, text that names the
   * columns or constraint involved; otherwise null.
   */
  uniqueViolation(error: unknown): string | null;
}

const field = (error: unknown, key: string): unknown =>
  typeof error === 'object' && error !== null ? (error as Record<string, unknown>)[key] : undefined;

const SQLITE_UNIQUE_CODES = new Set(['SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_CONSTRAINT_PRIMARYKEY']);
/** PostgreSQL SQLSTATE `unique_violation`. */
const PG_UNIQUE_VIOLATION = '23505';

/** MySQL `ER_DUP_ENTRY`. */
const MYSQL_DUP_ENTRY = 1062;
/**
 * InnoDB, utf8mb4 and a binary NO PAD collation for every MySQL table: comparisons are byte for byte, case and
 * trailing spaces included (`utf8mb4_bin` is PAD SPACE: it would find token `'abc'` for `'abc '`). The name
 * differs by server, so it is picked by versioned comments: MariaDB (≥ 10.2.2) runs only the `/*M!…*\/` part,
 * MySQL (≥ 8.0) only the `/*!80000…*\/` one.
 */
const MYSQL_TABLE_OPTIONS =
  'engine = InnoDB default charset = utf8mb4 collate = /*M!100202 utf8mb4_nopad_bin */ /*!80000 utf8mb4_0900_bin */';

/** Traits by dialect name. */
export const dialects: Readonly<Record<SqlDialectName, DialectTraits>> = {
  sqlite: {
    name: 'sqlite',
    int64: 'integer',
    bool: 'integer',
    key: 'text',
    distinctFrom: 'is not',
    returning: true,
    tableOptions: null,
    encodeBool: (value) => (value ? 1 : 0),
    // e.g. "UNIQUE constraint failed: auth_users.email_normalized"
    uniqueViolation: (error) =>
      SQLITE_UNIQUE_CODES.has(String(field(error, 'code'))) ? String(field(error, 'message')) : null,
  },
  postgres: {
    name: 'postgres',
    int64: 'bigint',
    bool: 'boolean',
    key: 'text',
    distinctFrom: 'is distinct from',
    returning: true,
    tableOptions: null,
    encodeBool: (value) => value,
    // e.g. constraint "auth_users_email_normalized_key", detail "Key (email_normalized)=(…) already exists."
    uniqueViolation: (error) =>
      field(error, 'code') === PG_UNIQUE_VIOLATION
        ? `${String(field(error, 'constraint'))} ${String(field(error, 'detail'))}`
        : null,
  },
  mysql: {
    name: 'mysql',
    int64: 'bigint',
    bool: 'boolean',
    key: 'varchar(255)',
    distinctFrom: null,
    returning: false,
    tableOptions: MYSQL_TABLE_OPTIONS,
    encodeBool: (value) => (value ? 1 : 0),
    // e.g. "Duplicate entry 'a@example.com' for key 'auth_users_email_normalized_key'"
    uniqueViolation: (error) =>
      field(error, 'code') === 'ER_DUP_ENTRY' || field(error, 'errno') === MYSQL_DUP_ENTRY
        ? String(field(error, 'message'))
        : null,
  },
};

/** `a` differs from `b`, NULL counting as a value: `is not` / `is distinct from`, or `not (a <=> b)` on MySQL. */
export function differs(traits: DialectTraits, a: unknown, b: unknown): RawBuilder<boolean> {
  if (traits.distinctFrom === null) return sql<boolean>`not (${a} <=> ${b})`;
  return sql<boolean>`${a} ${sql.raw(traits.distinctFrom)} ${b}`;
}

/**
 * The dialect of a Kysely instance, told from its adapter's capabilities.
 * @throws TypeError naming `who` when it cannot be told.
 */
export function detectDialect(db: Kysely<any>, who: string): SqlDialectName {
  const adapter = db.getExecutor().adapter;
  if (adapter instanceof MysqlAdapter) return 'mysql';
  if (adapter.supportsReturning && adapter.supportsTransactionalDdl) return 'postgres';
  if (adapter.supportsReturning) return 'sqlite';
  throw new TypeError(`${who} could not tell the SQL dialect: pass { dialect: 'sqlite' | 'postgres' | 'mysql' }`);
}

/** `CREATE TABLE name`, with the dialect's table options (MySQL: InnoDB, utf8mb4, binary collation). */
export function createTable(db: Kysely<any>, name: string, traits: DialectTraits) {
  const builder = db.schema.createTable(name);
  return traits.tableOptions === null ? builder : builder.modifyEnd(sql.raw(traits.tableOptions));
}

/**
 * `INSERT row`, and when a row with the same `keys` is there: update it with `set`, or leave it when `set` is
 * null. `ON CONFLICT (keys) DO UPDATE/NOTHING`; MySQL `ON DUPLICATE KEY UPDATE` (any unique key of the table;
 * "nothing" rewrites the first key column with itself).
 */
export function upsert(
  db: Kysely<any>,
  traits: DialectTraits,
  table: string,
  row: Record<string, unknown>,
  keys: readonly [string, ...string[]],
  set: Record<string, unknown> | null,
) {
  const insert = db.insertInto(table).values(row);
  if (traits.name === 'mysql') return insert.onDuplicateKeyUpdate(set ?? { [keys[0]]: sql.ref(keys[0]) });
  return insert.onConflict((oc) => (set ? oc.columns([...keys]).doUpdateSet(set) : oc.columns([...keys]).doNothing()));
}
