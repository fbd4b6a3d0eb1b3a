/**
 * D1 reports SQLite errors as plain `Error`s whose message carries the
 * SQLite text (`D1_ERROR: UNIQUE constraint failed: auth_users.email: SQLITE_CONSTRAINT`),
 * without better-sqlite3's `code`. This gives unique violations the code the
 * SQL store's SQLite traits recognise, so conflicts map to `StorageConflictError`.
 * @internal
 * @module
 */

const UNIQUE = /UNIQUE constraint failed: [^:]+/;

/** An error from D1, with `code: 'SQLITE_CONSTRAINT_UNIQUE'` when it is a unique or primary-key violation. */
export function normalizeD1Error(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  const match = UNIQUE.exec(error.message);
  if (!match) return error;
  const normalized = new Error(match[0], { cause: error }) as Error & { code: string };
  normalized.code = 'SQLITE_CONSTRAINT_UNIQUE';
  return normalized;
}
