/**
 * The only places where SQLite and PostgreSQL differ for the SQL adapter:
 * two column types, the null-safe inequality, how booleans are bound, and how
 * a unique violation is recognised.
 * @module
 * @internal
 */

import type { Kysely } from 'kysely';

/** The SQL dialects the adapter supports. */
export type SqlDialectName = 'sqlite' | 'postgres';

/** Per-dialect traits. */
export interface DialectTraits {
  /** Which dialect these are, for the few schema steps only one of them has. */
  readonly name: SqlDialectName;
  /** Column type for 64-bit integers (millisecond times, counters). */
  readonly int64: 'integer' | 'bigint';
  /** Column type for booleans. */
  readonly bool: 'integer' | 'boolean';
  /** The null-safe "differs from" operator. */
  readonly distinctFrom: 'is not' | 'is distinct from';
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

/** Traits by dialect name. */
export const dialects: Readonly<Record<SqlDialectName, DialectTraits>> = {
  sqlite: {
    name: 'sqlite',
    int64: 'integer',
    bool: 'integer',
    distinctFrom: 'is not',
    encodeBool: (value) => (value ? 1 : 0),
    // e.g. "UNIQUE constraint failed: auth_users.email_normalized"
    uniqueViolation: (error) =>
      SQLITE_UNIQUE_CODES.has(String(field(error, 'code'))) ? String(field(error, 'message')) : null,
  },
  postgres: {
    name: 'postgres',
    int64: 'bigint',
    bool: 'boolean',
    distinctFrom: 'is distinct from',
    encodeBool: (value) => value,
    // e.g. constraint "auth_users_email_normalized_key", detail "Key (email_normalized)=(…) already exists."
    uniqueViolation: (error) =>
      field(error, 'code') === PG_UNIQUE_VIOLATION
        ? `${String(field(error, 'constraint'))} ${String(field(error, 'detail'))}`
        : null,
  },
};

/**
 * The dialect of a Kysely instance, told from its adapter's capabilities.
 * @throws TypeError naming `who` when it cannot be told.
 */
export function detectDialect(db: Kysely<any>, who: string): SqlDialectName {
  const adapter = db.getExecutor().adapter;
  if (adapter.supportsReturning && adapter.supportsTransactionalDdl) return 'postgres';
  if (adapter.supportsReturning) return 'sqlite';
  throw new TypeError(`${who} could not tell the SQL dialect: pass { dialect: 'sqlite' | 'postgres' }`);
}
