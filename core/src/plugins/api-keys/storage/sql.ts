/**
 * `createSqlApiKeyStorage`: API keys in a SQL table, over a Kysely instance
 * you own (SQLite, PostgreSQL or MySQL/MariaDB).
 * @module
 */
import type { Kysely } from 'kysely';
import type { SqlDialectName } from '../../../storage/sql/dialect.js';
import { pluginSql } from '../../plugin-sql.js';
import { StorageConflictError } from '../../../storage/types.js';
import type { ApiKeyRecord, ApiKeyStorage } from '../types.js';
import { apiKeyMigrations, apiKeyTables } from './sql-schema.js';

/** Options of {@link createSqlApiKeyStorage}. */
export interface SqlApiKeyStorageOptions {
  /**
   * Name of the keys table, and prefix of the storage's other tables (letters, digits, `_`). Default `api_keys`.
   * Migration bookkeeping goes in `<tablePrefix>_migrations` and
   * `<tablePrefix>_migrations_lock`.
   */
  tablePrefix?: string;
  /** @deprecated Use `tablePrefix` (the same name); removed in the next version. Ignored when `tablePrefix` is set. */
  tableName?: string;
  /** Which SQL `db` speaks. Default: detected from the Kysely dialect. */
  dialect?: SqlDialectName;
}

interface KeyRow {
  id: string;
  prefix: string;
  secret_hash: string;
  user_id: string;
  name: string | null;
  /** JSON array text, or null. */
  permissions: string | null;
  /** JSON array text, or null (also in rows from before the column existed). */
  roles: string | null;
  /** Milliseconds since the epoch; PostgreSQL `bigint` arrives as a string. */
  created_at: number | string;
  expires_at: number | string | null;
  revoked_at: number | string | null;
}

const time = (v: number | string | null): Date | null => (v === null ? null : new Date(Number(v)));
const toRecord = (r: KeyRow): ApiKeyRecord => ({
  id: r.id,
  prefix: r.prefix,
  secretHash: r.secret_hash,
  userId: r.user_id,
  name: r.name,
  permissions: r.permissions === null ? null : (JSON.parse(r.permissions) as string[]),
  roles: r.roles === null || r.roles === undefined ? null : (JSON.parse(r.roles) as string[]),
  createdAt: new Date(Number(r.created_at)),
  expiresAt: time(r.expires_at),
  revokedAt: time(r.revoked_at),
});
const toRow = (k: ApiKeyRecord): KeyRow => ({
  id: k.id,
  prefix: k.prefix,
  secret_hash: k.secretHash,
  user_id: k.userId,
  name: k.name,
  permissions: k.permissions === null ? null : JSON.stringify(k.permissions),
  roles: k.roles === null ? null : JSON.stringify(k.roles),
  created_at: k.createdAt.getTime(),
  expires_at: k.expiresAt?.getTime() ?? null,
  revoked_at: k.revokedAt?.getTime() ?? null,
});

/**
 * Creates an API key storage over one SQL table (default `api_keys`), for
 * SQLite (≥ 3.35), MySQL/MariaDB or PostgreSQL through your Kysely instance. Call
 * `migrate()` once at start-up (or `auth.migrate()`, which runs it): it
 * creates the table by code and is idempotent. `prefix` is unique, `user_id`
 * indexed; times are integer milliseconds (`bigint` in PostgreSQL). Only the
 * SHA-256 of each secret is stored. Kysely plugins on `db` are bypassed; the
 * caller owns `db` and destroys it.
 *
 * @throws TypeError at creation for a malformed `tablePrefix`, an unknown
 *   `dialect`, or a dialect that cannot be detected.
 * @example
 * ```ts
 * import Database from 'better-sqlite3';
 * import { Kysely, SqliteDialect } from 'kysely';
 * import { apiKeys, createSqlApiKeyStorage } from '@framework/auth/plugins/api-keys';
 *
 * const db = new Kysely<any>({ dialect: new SqliteDialect({ database: new Database('.data/app.db') }) });
 * const storage = createSqlApiKeyStorage(db);
 * await storage.migrate();
 * createAuth({ ...config, plugins: [apiKeys({ storage })] });
 * ```
 */
export function createSqlApiKeyStorage(db: Kysely<any>, options: SqlApiKeyStorageOptions = {}): ApiKeyStorage {
  const { q, prefix, traits, migrate } = pluginSql(
    db,
    { tablePrefix: options.tablePrefix ?? options.tableName, dialect: options.dialect },
    'api_keys',
    'createSqlApiKeyStorage',
  );
  const t = apiKeyTables(prefix);

  return {
    migrate: () => migrate(apiKeyMigrations(t, traits)),
    async create(record) {
      try {
        await q.insertInto(t.keys).values(toRow(record)).execute();
      } catch (error) {
        const violation = traits.uniqueViolation(error);
        if (violation === null) throw error;
        throw Object.assign(
          new StorageConflictError(
            `API key unique constraint violated: ${violation}`,
            violation.includes('prefix') ? 'prefix' : 'id',
          ),
          { cause: error },
        );
      }
    },
    async findByPrefix(prefix) {
      const row = await q
        .selectFrom(t.keys)
        .selectAll()
        .where('prefix', '=', prefix)
        .$castTo<KeyRow>()
        .executeTakeFirst();
      return row ? toRecord(row) : null;
    },
    async listByUser(userId) {
      const rows = await q
        .selectFrom(t.keys)
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('created_at')
        .orderBy('id')
        .$castTo<KeyRow>()
        .execute();
      return rows.map(toRecord);
    },
    async revoke(id, userId, at) {
      const result = await q
        .updateTable(t.keys)
        .set({ revoked_at: at.getTime() })
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
  };
}
